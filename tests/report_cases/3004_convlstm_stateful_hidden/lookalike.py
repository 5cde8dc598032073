"""Next-frame prediction with a ConvLSTM: training on independent clips (fresh state per
clip), then a streaming rollout that carries the ConvLSTM state from clip to clip."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from convlstm import ConvLSTM

torch.manual_seed(0)


class FramePredictor(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.ReLU())
        self.convlstm = ConvLSTM(4, 8, (3, 3), num_layers=2, batch_first=True, return_all_layers=True)
        self.head = nn.Conv2d(8, 1, 1)
        self.hidden = None

    def forward(self, clip, stateful=False):
        b, t, c, h, w = clip.shape
        feats = self.encoder(clip.reshape(b * t, c, h, w)).reshape(b, t, 4, h, w)
        out, state = self.convlstm(feats, self.hidden if stateful else None)
        if stateful:
            self.hidden = state
        return self.head(out[-1][:, -1])


video = torch.rand(2, 40, 1, 8, 8)
clip_len = 4
model = FramePredictor()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(2):
    for start in range(0, video.shape[1] - clip_len - 1, clip_len):
        clip = video[:, start:start + clip_len]
        target = video[:, start + clip_len]
        pred = model(clip)
        loss = F.mse_loss(pred, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: loss {loss.item():.4f}")

model.eval()
model.hidden = None
errors = []
with torch.no_grad():
    for start in range(0, video.shape[1] - clip_len - 1, clip_len):
        pred = model(video[:, start:start + clip_len], stateful=True)
        errors.append(F.mse_loss(pred, video[:, start + clip_len]).item())
print("streaming mse", sum(errors) / len(errors))
