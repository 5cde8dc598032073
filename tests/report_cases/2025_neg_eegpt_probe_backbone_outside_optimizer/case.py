"""Linear probing of a pretrained EEG transformer: a channel-mixing conv in front of the frozen-by-
optimizer backbone and two linear probe layers after it are the only trained modules."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class EEGTransformer(nn.Module):
    def __init__(self, n_chans=8, patch=16, dim=16, depth=1):
        super().__init__()
        self.patch = patch
        self.patch_embed = nn.Linear(patch, dim)
        layer = nn.TransformerEncoderLayer(dim, nhead=2, dim_feedforward=32, batch_first=True, dropout=0.0)
        self.blocks = nn.TransformerEncoder(layer, num_layers=depth)

    def forward(self, x):
        B, C, T = x.shape
        x = x.reshape(B, C, T // self.patch, self.patch).reshape(B, C * (T // self.patch), self.patch)
        return self.blocks(self.patch_embed(x))


class LitEEGPTCausal(nn.Module):
    def __init__(self, load_path=None, in_chans=12, chans=8, num_classes=4):
        super().__init__()
        target_encoder = EEGTransformer(n_chans=chans)
        if load_path is not None:
            target_encoder.load_state_dict(torch.load(load_path))
        self.target_encoder = target_encoder
        self.chan_conv = nn.Conv1d(in_chans, chans, 1)
        self.linear_probe1 = nn.Linear(16, 4)
        self.linear_probe2 = nn.Linear(4 * chans * 4, num_classes)
        self.loss_fn = nn.CrossEntropyLoss()

    def forward(self, x):
        x = self.chan_conv(x)
        self.target_encoder.eval()
        z = self.target_encoder(x)
        h = self.linear_probe1(z)
        h = h.flatten(1)
        return self.linear_probe2(h)

    def training_step(self, batch):
        x, y = batch
        logit = self.forward(x)
        loss = self.loss_fn(logit, y)
        accuracy = ((torch.argmax(logit, dim=-1) == y) * 1.0).mean()
        return loss, {'train_loss': loss.item(), 'train_acc': accuracy.item()}

    def configure_optimizers(self):
        optimizer = torch.optim.AdamW(
            list(self.chan_conv.parameters()) +
            list(self.linear_probe1.parameters()) +
            list(self.linear_probe2.parameters()),
            weight_decay=0.01)
        return optimizer


if __name__ == '__main__':
    torch.manual_seed(7)
    model = LitEEGPTCausal()
    optimizer = model.configure_optimizers()
    log = []
    for epoch in range(2):
        for _ in range(3):
            batch = (torch.randn(4, 12, 64), torch.randint(0, 4, (4,)))
            optimizer.zero_grad()
            loss, metrics = model.training_step(batch)
            loss.backward()
            optimizer.step()
            log.append(metrics)
        print(epoch, log[-1])
