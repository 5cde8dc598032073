"""2-D density estimation on the unit square with monotonic piecewise-linear spline couplings
(nflows-style PiecewiseCoupling); the bin parameters come from a user-supplied transform net
and are scaled by 1/sqrt(hidden_features) as in PiecewiseRationalQuadraticCoupling."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class MLPTransformNet(nn.Module):
    def __init__(self, in_features, out_features, hidden_features=32):
        super().__init__()
        self.hidden_features = hidden_features
        self.net = nn.Sequential(nn.Linear(in_features, hidden_features), nn.ReLU(),
                                 nn.Linear(hidden_features, out_features))

    def forward(self, inputs):
        return self.net(inputs)


def piecewise_linear_spline(inputs, unnormalized_widths, unnormalized_heights, min_bin=1e-3):
    num_bins = unnormalized_widths.shape[-1]
    widths = min_bin + (1 - min_bin * num_bins) * F.softmax(unnormalized_widths, dim=-1)
    heights = min_bin + (1 - min_bin * num_bins) * F.softmax(unnormalized_heights, dim=-1)
    cumwidths = F.pad(torch.cumsum(widths, dim=-1), (1, 0))
    cumheights = F.pad(torch.cumsum(heights, dim=-1), (1, 0))
    bin_idx = torch.searchsorted(cumwidths[..., 1:-1].contiguous(), inputs.unsqueeze(-1))
    input_left = cumwidths.gather(-1, bin_idx)
    output_left = cumheights.gather(-1, bin_idx)
    slope = heights.gather(-1, bin_idx) / widths.gather(-1, bin_idx)
    outputs = output_left + (inputs.unsqueeze(-1) - input_left) * slope
    return outputs.squeeze(-1), torch.log(slope).squeeze(-1)


class PiecewiseSplineCoupling(nn.Module):
    def __init__(self, mask, num_bins=8, hidden_features=32):
        super().__init__()
        self.register_buffer("mask", mask)
        self.num_bins = num_bins
        n_identity, n_transform = int((mask == 0).sum()), int((mask == 1).sum())
        self.transform_net = MLPTransformNet(n_identity, n_transform * 2 * num_bins, hidden_features)

    def forward(self, inputs):
        identity_split = inputs[:, self.mask == 0]
        transform_split = inputs[:, self.mask == 1]
        transform_params = self.transform_net(identity_split)
        transform_params = transform_params.view(inputs.shape[0], -1, 2 * self.num_bins)
        unnormalized_widths = transform_params[..., :self.num_bins]
        unnormalized_heights = transform_params[..., self.num_bins:]
        if hasattr(self.transform_net, "hidden_features"):
            unnormalized_widths /= np.sqrt(self.transform_net.hidden_features)
            unnormalized_heights /= np.sqrt(self.transform_net.hidden_features)
        transformed, logabsdet = piecewise_linear_spline(transform_split, unnormalized_widths, unnormalized_heights)
        outputs = inputs.clone()
        outputs[:, self.mask == 1] = transformed
        return outputs, logabsdet.sum(dim=1)


class Flow(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([PiecewiseSplineCoupling(torch.tensor([0, 1])),
                                     PiecewiseSplineCoupling(torch.tensor([1, 0]))])

    def log_prob(self, x):
        total_logabsdet = torch.zeros(x.shape[0])
        for layer in self.layers:
            x, logabsdet = layer(x)
            total_logabsdet = total_logabsdet + logabsdet
        return total_logabsdet  # uniform base density on [0, 1]^2


data = torch.rand(256, 2) ** torch.tensor([2.0, 0.5])
flow = Flow()
optimizer = torch.optim.Adam(flow.parameters(), lr=3e-3)
for it in range(10):
    batch = data[torch.randint(0, 256, (64,))]
    loss = -flow.log_prob(batch).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"iter {it}: nll {loss.item():.4f}")
