"""Run a few MAPPO updates on random episodes (3 agents, discrete actions)."""
import torch
import torch.nn as nn

from learner_fixed import PPOLearner

torch.manual_seed(0)

N_AGENTS, OBS_DIM, STATE_DIM, N_ACTIONS, T = 3, 10, 18, 5, 12

args = {
    "lr": 5e-4,
    "critic_lr": 5e-4,
    "gamma": 0.99,
    "eps_clip": 0.2,
    "entropy_coef": 0.01,
    "grad_norm_clip": 10.0,
    "mini_epochs": 4,
}

agent = nn.Sequential(nn.Linear(OBS_DIM, 64), nn.ReLU(), nn.Linear(64, N_ACTIONS))
critic = nn.Sequential(nn.Linear(STATE_DIM, 64), nn.ReLU(), nn.Linear(64, 1))
learner = PPOLearner(agent, critic, args)


def sample_episode():
    return {
        "obs": torch.randn(T, N_AGENTS, OBS_DIM),
        "state": torch.randn(T, STATE_DIM),
        "last_state": torch.randn(STATE_DIM),
        "actions": torch.randint(0, N_ACTIONS, (T, N_AGENTS, 1)),
        "reward": torch.randn(T),
        "terminated": torch.zeros(T),
    }


for episode in range(3):
    stats = learner.train(sample_episode())
    print("episode", episode, "pg/critic loss", stats[-1])
