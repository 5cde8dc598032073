import copy

import numpy as np
import torch
from torch import nn
from torch.distributions import Normal
from torch.nn import functional as F

DEVICE = torch.device("cpu")
LOG_STD_MIN_MAX = (-20, 2)


class Mlp(nn.Module):
    def __init__(self, input_size, hidden_sizes, output_size):
        super().__init__()
        self.fcs = []
        in_size = input_size
        for i, next_size in enumerate(hidden_sizes):
            fc = nn.Linear(in_size, next_size)
            self.add_module(f"fc{i}", fc)
            self.fcs.append(fc)
            in_size = next_size
        self.last_fc = nn.Linear(in_size, output_size)

    def forward(self, input):
        h = input
        for fc in self.fcs:
            h = F.relu(fc(h))
        return self.last_fc(h)


class Critic(nn.Module):
    def __init__(self, state_dim, action_dim, n_quantiles, n_nets):
        super().__init__()
        self.nets = []
        self.n_quantiles = n_quantiles
        self.n_nets = n_nets
        for i in range(n_nets):
            net = Mlp(state_dim + action_dim, [64, 64], n_quantiles)
            self.add_module(f"qf{i}", net)
            self.nets.append(net)

    def forward(self, state, action):
        sa = torch.cat((state, action), dim=1)
        quantiles = torch.stack(tuple(net(sa) for net in self.nets), dim=1)
        return quantiles


class Actor(nn.Module):
    def __init__(self, state_dim, action_dim):
        super().__init__()
        self.action_dim = action_dim
        self.net = Mlp(state_dim, [64, 64], 2 * action_dim)

    def forward(self, obs):
        mean, log_std = self.net(obs).split([self.action_dim, self.action_dim], dim=1)
        log_std = log_std.clamp(*LOG_STD_MIN_MAX)
        std = torch.exp(log_std)
        normal = Normal(mean, std)
        pre_tanh = normal.rsample()
        action = torch.tanh(pre_tanh)
        log_prob = normal.log_prob(pre_tanh) - torch.log(1 - action.pow(2) + 1e-6)
        return action, log_prob.sum(dim=1, keepdim=True)


def quantile_huber_loss_f(quantiles, samples):
    pairwise_delta = samples[:, None, None, :] - quantiles[:, :, :, None]
    abs_pairwise_delta = torch.abs(pairwise_delta)
    huber_loss = torch.where(abs_pairwise_delta > 1,
                             abs_pairwise_delta - 0.5,
                             pairwise_delta ** 2 * 0.5)
    n_quantiles = quantiles.shape[2]
    tau = torch.arange(n_quantiles, device=DEVICE).float() / n_quantiles + 1 / 2 / n_quantiles
    loss = (torch.abs(tau[None, None, :, None] - (pairwise_delta < 0).float()) * huber_loss).mean()
    return loss


class ReplayBuffer:
    def __init__(self, state_dim, action_dim, max_size=1000):
        self.ptr, self.size, self.max_size = 0, 0, max_size
        self.state = np.zeros((max_size, state_dim), dtype=np.float32)
        self.action = np.zeros((max_size, action_dim), dtype=np.float32)
        self.next_state = np.zeros((max_size, state_dim), dtype=np.float32)
        self.reward = np.zeros((max_size, 1), dtype=np.float32)
        self.not_done = np.zeros((max_size, 1), dtype=np.float32)

    def add(self, state, action, next_state, reward, done):
        self.state[self.ptr] = state
        self.action[self.ptr] = action
        self.next_state[self.ptr] = next_state
        self.reward[self.ptr] = reward
        self.not_done[self.ptr] = 1. - done
        self.ptr = (self.ptr + 1) % self.max_size
        self.size = min(self.size + 1, self.max_size)

    def sample(self, batch_size):
        ind = np.random.randint(0, self.size, size=batch_size)
        names = ("state", "action", "next_state", "reward", "not_done")
        return tuple(torch.as_tensor(getattr(self, n)[ind], device=DEVICE) for n in names)


class Trainer(object):
    def __init__(self, *, actor, critic, critic_target, discount, tau,
                 top_quantiles_to_drop, target_entropy):
        self.actor = actor
        self.critic = critic
        self.critic_target = critic_target
        self.log_alpha = torch.zeros((1,), requires_grad=True, device=DEVICE)

        self.actor_optimizer = torch.optim.Adam(self.actor.parameters(), lr=3e-4)
        self.critic_optimizer = torch.optim.Adam(self.critic.parameters(), lr=3e-4)
        self.alpha_optimizer = torch.optim.Adam([self.log_alpha], lr=3e-4)

        self.discount = discount
        self.tau = tau
        self.top_quantiles_to_drop = top_quantiles_to_drop
        self.target_entropy = target_entropy
        self.quantiles_total = critic.n_quantiles * critic.n_nets
        self.total_it = 0

    def train(self, replay_buffer, batch_size=32):
        state, action, next_state, reward, not_done = replay_buffer.sample(batch_size)
        alpha = torch.exp(self.log_alpha)

        # --- Q loss ---
        with torch.no_grad():
            new_next_action, next_log_pi = self.actor(next_state)
            next_z = self.critic_target(next_state, new_next_action)
            sorted_z, _ = torch.sort(next_z.reshape(batch_size, -1))
            sorted_z_part = sorted_z[:, :self.quantiles_total - self.top_quantiles_to_drop]
            target = reward + not_done * self.discount * (sorted_z_part - alpha * next_log_pi)

        cur_z = self.critic(state, action)
        critic_loss = quantile_huber_loss_f(cur_z, target)

        # --- Policy and alpha loss ---
        new_action, log_pi = self.actor(state)
        alpha_loss = -self.log_alpha * (log_pi + self.target_entropy).detach().mean()
        actor_loss = (alpha * log_pi - self.critic(state, new_action).mean(2).mean(1, keepdim=True)).mean()

        # --- Update ---
        self.critic_optimizer.zero_grad()
        critic_loss.backward()
        self.critic_optimizer.step()

        for param, target_param in zip(self.critic.parameters(), self.critic_target.parameters()):
            target_param.data.copy_(self.tau * param.data + (1 - self.tau) * target_param.data)

        self.actor_optimizer.zero_grad()
        actor_loss.backward()
        self.actor_optimizer.step()

        self.alpha_optimizer.zero_grad()
        alpha_loss.backward()
        self.alpha_optimizer.step()

        self.total_it += 1
        return critic_loss.item(), actor_loss.item()


def main():
    torch.manual_seed(0)
    np.random.seed(0)
    state_dim, action_dim = 6, 2
    actor = Actor(state_dim, action_dim).to(DEVICE)
    critic = Critic(state_dim, action_dim, n_quantiles=10, n_nets=3).to(DEVICE)
    critic_target = copy.deepcopy(critic)
    trainer = Trainer(actor=actor, critic=critic, critic_target=critic_target,
                      discount=0.99, tau=0.005, top_quantiles_to_drop=2 * 3,
                      target_entropy=-float(action_dim))
    buffer = ReplayBuffer(state_dim, action_dim)

    state = np.random.randn(state_dim).astype(np.float32)
    for t in range(200):
        with torch.no_grad():
            action, _ = actor(torch.as_tensor(state)[None])
        action = action[0].numpy()
        next_state = (0.9 * state + 0.1 * np.random.randn(state_dim)).astype(np.float32)
        reward = -float(np.square(next_state).sum()) - 0.1 * float(np.square(action).sum())
        done = float((t + 1) % 50 == 0)
        buffer.add(state, action, next_state, reward, done)
        state = np.random.randn(state_dim).astype(np.float32) if done else next_state
        if t >= 64 and t % 10 == 0:
            c_loss, a_loss = trainer.train(buffer, batch_size=32)
            print(f"t={t} critic_loss={c_loss:.4f} actor_loss={a_loss:.4f}")


if __name__ == "__main__":
    main()
