"""Actor-critic agent in the cleanrl PPO layout."""
import torch
import torch.nn as nn
from torch.distributions.categorical import Categorical


def layer_init(layer, std=2 ** 0.5, bias_const=0.0):
    nn.init.orthogonal_(layer.weight, std)
    nn.init.constant_(layer.bias, bias_const)
    return layer


class Agent(nn.Module):
    def __init__(self, obs_dim, n_actions):
        super().__init__()
        self.critic = nn.Sequential(layer_init(nn.Linear(obs_dim, 32)), nn.Tanh(),
                                    layer_init(nn.Linear(32, 1), std=1.0))
        self.actor = nn.Sequential(layer_init(nn.Linear(obs_dim, 32)), nn.Tanh(),
                                   layer_init(nn.Linear(32, n_actions), std=0.01))

    def get_value(self, x):
        return self.critic(x)

    def get_action_and_value(self, x, action=None):
        probs = Categorical(logits=self.actor(x))
        if action is None:
            action = probs.sample()
        return action, probs.log_prob(action), probs.entropy(), self.critic(x)
