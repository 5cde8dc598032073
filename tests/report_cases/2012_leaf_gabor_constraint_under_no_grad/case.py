import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

from leaf import Leaf


class AudioClassifier(nn.Module):
    def __init__(self, n_filters, n_classes):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv1d(n_filters, 16, 3, padding=1), nn.ReLU(),
                                     nn.AdaptiveAvgPool1d(1))
        self.fc = nn.Linear(16, n_classes)

    def forward(self, feats):
        return self.fc(self.encoder(feats).squeeze(-1))


def synth_batch(batch_size, n_samples, sample_rate):
    t = torch.arange(n_samples) / sample_rate
    labels = torch.randint(0, 2, (batch_size,))
    freqs = torch.where(labels == 0, torch.tensor(60.0), torch.tensor(220.0))
    wav = torch.sin(2 * torch.pi * freqs[:, None] * t[None]) + 0.1 * torch.randn(batch_size, n_samples)
    return wav, labels


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--n_filters', type=int, default=8)
    parser.add_argument('--frontend_lr', type=float, default=1e-3)
    parser.add_argument('--lr', type=float, default=1e-3)
    parser.add_argument('--steps', type=int, default=4)
    args = parser.parse_args()

    torch.manual_seed(0)
    frontend = Leaf(n_filters=args.n_filters)
    classifier = AudioClassifier(args.n_filters, 2)
    frontend_opt = torch.optim.Adam(frontend.parameters(), lr=args.frontend_lr, amsgrad=True)
    classifier_opt = torch.optim.Adam(classifier.parameters(), lr=args.lr)

    print('initial kernel:', frontend.complex_conv._kernel.data[:2])
    for step in range(args.steps):
        wav, labels = synth_batch(4, 400, 800)
        logits = classifier(frontend(wav))
        loss = F.cross_entropy(logits, labels)
        frontend_opt.zero_grad()
        classifier_opt.zero_grad()
        loss.backward()
        frontend_opt.step()
        classifier_opt.step()
        print(f'step {step}: loss {loss.item():.4f}')
    print('final kernel:  ', frontend.complex_conv._kernel.data[:2])


if __name__ == '__main__':
    main()
