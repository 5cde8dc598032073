"""DQN with prioritized experience replay on a small chain MDP: transitions
are sampled in proportion to their last TD error and importance-weighted."""
import random
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
random.seed(0)
N_STATES, N_ACTIONS, GAMMA = 8, 2, 0.9


def one_hot(s):
    return F.one_hot(torch.as_tensor(s), N_STATES).float()


def env_step(s, a):
    s2 = min(s + 1, N_STATES - 1) if a == 1 else max(s - 1, 0)
    r = 1.0 if s2 == N_STATES - 1 else -0.01
    return s2, r, s2 == N_STATES - 1


class PrioritizedReplay:
    def __init__(self, capacity=500, alpha=0.6, eps=1e-3):
        self.capacity, self.alpha, self.eps = capacity, alpha, eps
        self.data, self.priorities = [], []
        self.pos = 0

    def push(self, transition):
        max_p = max(self.priorities) if self.priorities else 1.0
        if len(self.data) < self.capacity:
            self.data.append(transition)
            self.priorities.append(max_p)
        else:
            self.data[self.pos], self.priorities[self.pos] = transition, max_p
        self.pos = (self.pos + 1) % self.capacity

    def sample(self, batch, beta=0.4):
        p = torch.tensor([float(x) for x in self.priorities]) ** self.alpha
        probs = p / p.sum()
        idxs = torch.multinomial(probs, batch, replacement=True)
        weights = (len(self.data) * probs[idxs]) ** (-beta)
        s, a, r, s2, d = zip(*[self.data[i] for i in idxs.tolist()])
        return idxs.tolist(), torch.stack(s), torch.tensor(a), torch.tensor(r), torch.stack(s2), \
            torch.tensor(d, dtype=torch.float), weights / weights.max()

    def update_priorities(self, idxs, priorities):
        for i, p in zip(idxs, priorities):
            self.priorities[i] = p + self.eps


def train(episodes=12, batch=32):
    q_net = nn.Sequential(nn.Linear(N_STATES, 32), nn.ReLU(), nn.Linear(32, N_ACTIONS))
    target_net = nn.Sequential(nn.Linear(N_STATES, 32), nn.ReLU(), nn.Linear(32, N_ACTIONS))
    target_net.load_state_dict(q_net.state_dict())
    optimizer = torch.optim.Adam(q_net.parameters(), lr=1e-3)
    memory = PrioritizedReplay()
    for ep in range(episodes):
        s, done, steps = 0, False, 0
        while not done and steps < 30:
            with torch.no_grad():
                a = random.randrange(N_ACTIONS) if random.random() < 0.3 else q_net(one_hot(s)).argmax().item()
            s2, r, done = env_step(s, a)
            memory.push((one_hot(s), a, r, one_hot(s2), done))
            s, steps = s2, steps + 1
            if len(memory.data) >= batch:
                idxs, bs, ba, br, bs2, bd, w = memory.sample(batch)
                q = q_net(bs).gather(1, ba.unsqueeze(1)).squeeze(1)
                with torch.no_grad():
                    target = br + GAMMA * (1 - bd) * target_net(bs2).max(1).values
                td_error = target - q
                loss = (w * td_error.pow(2)).mean()
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
                memory.update_priorities(idxs, td_error.abs())
        target_net.load_state_dict(q_net.state_dict())
        print(f"episode {ep}: steps {steps}")


if __name__ == "__main__":
    train()
