"""Conditional affine autoregressive flow (IAF/MAF style) built on a MADE
network with a skip connection (pyro ConditionalAutoRegressiveNN layout),
fitted by maximum likelihood to a 2-D conditional density."""
import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def create_mask(input_dim, context_dim, hidden_dims, permutation, output_dim_multiplier):
    var_index = torch.empty(permutation.shape, dtype=torch.get_default_dtype())
    var_index[permutation] = torch.arange(input_dim, dtype=torch.get_default_dtype())
    input_indices = torch.cat((torch.zeros(context_dim), 1 + var_index))
    hidden_indices = [torch.arange(h) % max(1, input_dim - 1) + 1 for h in hidden_dims]
    output_indices = (var_index + 1).repeat(output_dim_multiplier)
    masks = [(hidden_indices[0].unsqueeze(-1) >= input_indices.unsqueeze(0)).float()]
    for i in range(1, len(hidden_dims)):
        masks.append((hidden_indices[i].unsqueeze(-1) >= hidden_indices[i - 1].unsqueeze(0)).float())
    masks.append((output_indices.unsqueeze(-1) > hidden_indices[-1].unsqueeze(0)).float())
    mask_skip = (output_indices.unsqueeze(-1) > input_indices.unsqueeze(0)).float()
    return masks, mask_skip


class MaskedLinear(nn.Linear):
    def __init__(self, in_features, out_features, mask, bias=True):
        super().__init__(in_features, out_features, bias)
        self.register_buffer("mask", mask.data)

    def forward(self, _input):
        return F.linear(_input, self.mask * self.weight, self.bias)


class ConditionalAutoRegressiveNN(nn.Module):
    def __init__(self, input_dim, context_dim, hidden_dims, param_dims=(1, 1), skip_connections=True):
        super().__init__()
        self.input_dim, self.context_dim, self.param_dims = input_dim, context_dim, list(param_dims)
        self.count_params, self.output_multiplier = len(param_dims), sum(param_dims)
        self.permutation = torch.randperm(input_dim)
        self.masks, self.mask_skip = create_mask(input_dim, context_dim, hidden_dims, self.permutation,
                                                 self.output_multiplier)
        layers = [MaskedLinear(input_dim + context_dim, hidden_dims[0], self.masks[0])]
        for i in range(1, len(hidden_dims)):
            layers.append(MaskedLinear(hidden_dims[i - 1], hidden_dims[i], self.masks[i]))
        layers.append(MaskedLinear(hidden_dims[-1], input_dim * self.output_multiplier, self.masks[-1]))
        self.layers = nn.ModuleList(layers)
        self.skip_layer = (MaskedLinear(input_dim + context_dim, input_dim * self.output_multiplier,
                                        self.mask_skip, bias=False) if skip_connections else None)
        self.f = nn.ReLU()

    def forward(self, inputs, context):
        x = torch.cat([context, inputs], dim=-1)
        h = x
        for layer in self.layers[:-1]:
            h = self.f(layer(h))
        h = self.layers[-1](h)
        if self.skip_layer is not None:
            h = h + self.skip_layer(x)
        h = h.reshape(list(inputs.size()[:-1]) + [self.output_multiplier, self.input_dim])
        return tuple(h[..., i, :] for i in range(self.count_params))


class ConditionalAffineAutoregressive(nn.Module):
    def __init__(self, arn, log_scale_min_clip=-5.0, log_scale_max_clip=3.0):
        super().__init__()
        self.arn, self.min_clip, self.max_clip = arn, log_scale_min_clip, log_scale_max_clip

    def log_prob(self, y, context):
        # MAF direction: x = (y - mu(y)) * exp(-log_scale(y)), base N(0, I)
        mean, log_scale = self.arn(y, context)
        log_scale = log_scale.clamp(self.min_clip, self.max_clip)
        x = (y - mean) * torch.exp(-log_scale)
        base = -0.5 * (x.pow(2) + math.log(2 * math.pi)).sum(-1)
        return base - log_scale.sum(-1)


def sample_data(n):
    c = torch.rand(n, 1) * 2 - 1
    y1 = c + 0.3 * torch.randn(n, 1)
    y2 = torch.sin(3 * y1) + 0.1 * torch.randn(n, 1)
    return torch.cat([y1, y2], 1), c


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=60)
    parser.add_argument("--hidden", type=int, default=32)
    args = parser.parse_args()
    torch.manual_seed(0)
    arn = ConditionalAutoRegressiveNN(2, 1, [args.hidden, args.hidden])
    flow = ConditionalAffineAutoregressive(arn)
    optimizer = torch.optim.Adam(flow.parameters(), lr=5e-3)
    for step in range(args.steps):
        y, c = sample_data(256)
        loss = -flow.log_prob(y, c).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 20 == 0:
            print(f"step {step} nll {loss.item():.3f}")


if __name__ == "__main__":
    main()
