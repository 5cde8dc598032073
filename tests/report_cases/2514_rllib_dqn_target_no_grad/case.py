import random

import torch

from dqn_torch_policy import QNetwork, build_q_losses

torch.manual_seed(0)
random.seed(0)

OBS_DIM, NUM_ACTIONS = 4, 3


class ReplayBuffer:
    def __init__(self, capacity=500):
        self.storage, self.capacity = [], capacity

    def add(self, obs, action, reward, new_obs, done):
        if len(self.storage) >= self.capacity:
            self.storage.pop(0)
        self.storage.append((obs, action, reward, new_obs, done))

    def sample(self, n):
        items = random.sample(self.storage, n)
        obs, actions, rewards, new_obs, dones = zip(*items)
        return {
            "obs": torch.stack(obs), "actions": torch.tensor(actions),
            "rewards": torch.tensor(rewards), "new_obs": torch.stack(new_obs),
            "dones": torch.tensor(dones), "weights": torch.ones(n),
        }


def env_step(obs, action):
    new_obs = obs + 0.1 * (action - 1) + 0.05 * torch.randn(OBS_DIM)
    reward = -float(new_obs.pow(2).sum())
    return new_obs, reward, bool(reward < -6.0)


model = QNetwork(OBS_DIM, NUM_ACTIONS)
target_model = QNetwork(OBS_DIM, NUM_ACTIONS)
target_model.load_state_dict(model.state_dict())
optimizer = torch.optim.Adam(model.parameters(), lr=5e-4)
buffer = ReplayBuffer()

obs = torch.randn(OBS_DIM)
for t in range(120):
    with torch.no_grad():
        q = model(obs.unsqueeze(0))
    action = random.randrange(NUM_ACTIONS) if random.random() < 0.2 else int(q.argmax())
    new_obs, reward, done = env_step(obs, action)
    buffer.add(obs, action, reward, new_obs, done)
    obs = torch.randn(OBS_DIM) if done else new_obs

    if t >= 32 and t % 4 == 0:
        loss, stats = build_q_losses(model, target_model, buffer.sample(32), NUM_ACTIONS)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    if t % 40 == 0 and t > 0:
        target_model.load_state_dict(model.state_dict())
        print('t=%d  stats %s' % (t, stats))
