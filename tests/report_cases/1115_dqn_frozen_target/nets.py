import torch.nn as nn


class DeepQNetwork(nn.Module):
    def __init__(self, input_dims, n_actions, fc_dims=(64, 64)):
        super().__init__()
        layers, last = [], input_dims
        for width in fc_dims:
            layers += [nn.Linear(last, width), nn.ReLU()]
            last = width
        layers.append(nn.Linear(last, n_actions))
        self.net = nn.Sequential(*layers)

    def forward(self, state):
        return self.net(state)
