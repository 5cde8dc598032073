import torch
import torch.nn as nn

from neurons import Leaky, reset


class PopulationEncoder(nn.Module):
    def __init__(self, obs_dim, pop):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, pop), Leaky())

    def forward(self, obs):
        return self.net(obs)


class SpikingMLP(nn.Module):
    def __init__(self, pop, hidden, n_actions):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(pop, hidden), Leaky(),
                                 nn.Linear(hidden, hidden), Leaky())
        self.decoder = nn.Linear(hidden, n_actions)

    def forward(self, spikes):
        return self.decoder(self.net(spikes))


class SpikingActor(nn.Module):
    def __init__(self, obs_dim, n_actions, pop=32, hidden=32, num_steps=4):
        super().__init__()
        self.encoder = PopulationEncoder(obs_dim, pop)
        self.mlp = SpikingMLP(pop, hidden, n_actions)
        self.num_steps = num_steps

    def forward(self, obs):
        logits = 0.0
        for _ in range(self.num_steps):
            logits = logits + self.mlp(self.encoder(obs))
        return torch.distributions.Categorical(logits=logits / self.num_steps)

    def reset_states(self):
        reset(self.encoder)
        reset(self.mlp)
