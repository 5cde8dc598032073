import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Encoder(nn.Module):
    def __init__(self, out_ch):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, 16, 7, stride=2, padding=3), nn.ReLU(),
                                 nn.Conv2d(16, out_ch, 3, stride=2, padding=1))

    def forward(self, x):
        return self.net(x)


class ConvGRU(nn.Module):
    def __init__(self, hidden_dim=16, input_dim=16 + 1 + 2):
        super().__init__()
        self.convz = nn.Conv2d(hidden_dim + input_dim, hidden_dim, 3, padding=1)
        self.convr = nn.Conv2d(hidden_dim + input_dim, hidden_dim, 3, padding=1)
        self.convq = nn.Conv2d(hidden_dim + input_dim, hidden_dim, 3, padding=1)

    def forward(self, h, x):
        hx = torch.cat([h, x], dim=1)
        z = torch.sigmoid(self.convz(hx))
        r = torch.sigmoid(self.convr(hx))
        q = torch.tanh(self.convq(torch.cat([r * h, x], dim=1)))
        return (1 - z) * h + z * q


class SmallRAFT(nn.Module):
    def __init__(self, iters=4):
        super().__init__()
        self.iters = iters
        self.fnet = Encoder(16)
        self.cnet = Encoder(32)
        self.gru = ConvGRU()
        self.flow_head = nn.Conv2d(16, 2, 3, padding=1)

    def forward(self, image1, image2):
        fmap1, fmap2 = self.fnet(image1), self.fnet(image2)
        # context does not depend on the iteration: run the context network once
        cnet = self.cnet(image1)
        net, inp = torch.split(cnet, [16, 16], dim=1)
        net, inp = torch.tanh(net), torch.relu(inp)

        B, _, H, W = fmap1.shape
        flow = torch.zeros(B, 2, H, W)
        flow_predictions = []
        for itr in range(self.iters):
            flow = flow.detach()
            corr = (fmap1 * fmap2).mean(1, keepdim=True)
            net = self.gru(net, torch.cat([inp, corr, flow], dim=1))
            flow = flow + self.flow_head(net)
            flow_predictions.append(F.interpolate(flow, scale_factor=4, mode='bilinear', align_corners=False) * 4)
        return flow_predictions


def sequence_loss(flow_preds, flow_gt, gamma=0.8):
    n_predictions = len(flow_preds)
    flow_loss = 0.0
    for i in range(n_predictions):
        i_weight = gamma ** (n_predictions - i - 1)
        flow_loss = flow_loss + i_weight * (flow_preds[i] - flow_gt).abs().mean()
    return flow_loss


model = SmallRAFT()
optimizer = torch.optim.AdamW(model.parameters(), lr=2e-4)
for step in range(6):
    image1 = torch.rand(2, 3, 32, 32)
    image2 = torch.roll(image1, 1, dims=2)
    flow_gt = torch.zeros(2, 2, 32, 32)
    flow_gt[:, 1] = 1.0
    loss = sequence_loss(model(image1, image2), flow_gt)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print('step %d  loss %.4f' % (step, loss.item()))
