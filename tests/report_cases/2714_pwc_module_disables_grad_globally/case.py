import torch
import torch.nn as nn

from pwc import estimate

torch.manual_seed(0)


class FlowRefiner(nn.Module):
    """Trainable model that refines PWC flow between generated and real frames."""

    def __init__(self):
        super().__init__()
        self.refine = nn.Sequential(nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 2, 3, padding=1))

    def forward(self, frame1, frame2, coarse_flow):
        return coarse_flow + self.refine(torch.cat([frame1, frame2, coarse_flow], 1))


refiner = FlowRefiner()
optimizer = torch.optim.Adam(refiner.parameters(), lr=1e-3)
mse = nn.MSELoss()

for step in range(4):
    fake_real_frame1, fake_real_frame2 = torch.rand(2, 3, 16, 16), torch.rand(2, 3, 16, 16)
    flow = torch.randn(2, 2, 16, 16)
    coarse = estimate(fake_real_frame1, fake_real_frame2)
    pred_flow = refiner(fake_real_frame1, fake_real_frame2, coarse)
    op_loss = mse(pred_flow, flow)
    optimizer.zero_grad()
    op_loss.backward()
    optimizer.step()
