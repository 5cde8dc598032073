"""TimeGAN (PyTorch rebuild) on toy sine sequences: phase 1 trains the embedder/recovery
autoencoder, phase 2 trains the supervisor on the latent codes, phase 3 the joint GAN."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
SEQ_LEN, DIM, HID = 8, 2, 12


class RNNNet(nn.Module):
    def __init__(self, in_dim, out_dim, act=torch.sigmoid):
        super().__init__()
        self.rnn = nn.GRU(in_dim, HID, batch_first=True)
        self.fc = nn.Linear(HID, out_dim)
        self.act = act

    def forward(self, x):
        return self.act(self.fc(self.rnn(x)[0]))


def sine_data(n):
    t = torch.linspace(0, 1, SEQ_LEN)
    freq, phase = torch.rand(n, 1, DIM) * 3 + 1, torch.rand(n, 1, DIM)
    return (torch.sin(2 * torch.pi * freq * t[None, :, None] + phase) + 1) / 2


class TimeGAN:
    def __init__(self):
        self.embedder, self.recovery = RNNNet(DIM, HID), RNNNet(HID, DIM)
        self.supervisor = RNNNet(HID, HID)
        self.optim_embedder = torch.optim.Adam(
            list(self.embedder.parameters()) + list(self.recovery.parameters()), lr=1e-3)
        self.optim_supervisor = torch.optim.Adam(self.supervisor.parameters(), lr=1e-3)

    def train_embedder(self, X, iterations=3):
        for it in range(iterations):
            H = self.embedder(X)
            X_tilde = self.recovery(H)
            E_loss_T0 = F.mse_loss(X, X_tilde)
            E_loss0 = 10 * torch.sqrt(E_loss_T0)
            self.optim_embedder.zero_grad()
            E_loss0.backward()
            self.optim_embedder.step()

            # supervised loss on the same latent codes (next-step prediction in latent space)
            with torch.no_grad():
                H_sup = self.embedder(X)
            H_hat_supervise = self.supervisor(H_sup)
            G_loss_S = F.mse_loss(H_sup[:, 1:, :], H_hat_supervise[:, :-1, :])
            self.optim_supervisor.zero_grad()
            G_loss_S.backward()
            self.optim_supervisor.step()
            print(f"embedder it {it}: E_loss0 {E_loss0.item():.4f} G_loss_S {G_loss_S.item():.4f}")


if __name__ == "__main__":
    TimeGAN().train_embedder(sine_data(16))
