"""Hybrid agent: a DQN head picks a discrete mode and a DDPG actor/critic sets a continuous level,
both reading the state abstracted by a shared CNN+LSTM encoder (fresh LSTM state for every window)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
GAMMA_DQN, GAMMA_DDPG = 0.9, 0.9


class CNNLSTM(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(2, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool1d(4))
        self.lstm = nn.LSTM(32, hidden, batch_first=True)

    def forward(self, frames):                       # frames: (B, T, 2, L)
        B, T = frames.shape[:2]
        feats = self.conv(frames.flatten(0, 1)).view(B, T, -1)
        out, hidden = self.lstm(feats, self.init_hidden(B))
        return out[:, -1]

    def init_hidden(self, batch_size):
        zeros = torch.zeros(1, batch_size, self.lstm.hidden_size)
        return (zeros, zeros.clone())


class Model(nn.Module):
    def __init__(self, n_env=4, hidden=16, n_modes=3):
        super().__init__()
        self.cnnlstm = CNNLSTM(hidden)
        self.dqn = nn.Sequential(nn.Linear(hidden + n_env, 32), nn.ReLU(), nn.Linear(32, n_modes))
        self.actor = nn.Sequential(nn.Linear(hidden + n_env, 32), nn.ReLU(), nn.Linear(32, 1), nn.Tanh())
        self.critic = nn.Sequential(nn.Linear(hidden + n_env + 1, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward_cnnlstm(self, frames):
        return self.cnnlstm(frames)


class Agent:
    def __init__(self):
        self.model = Model()
        self.optimizer_cnnlstm = torch.optim.Adam(self.model.cnnlstm.parameters(), lr=1e-3)
        self.optimizer_dqn = torch.optim.Adam(self.model.dqn.parameters(), lr=1e-3)
        self.optimizer_actor = torch.optim.Adam(self.model.actor.parameters(), lr=1e-3)
        self.optimizer_critic = torch.optim.Adam(self.model.critic.parameters(), lr=1e-3)

    def learn(self, batch):
        s_cnnlstm, s_env, a_dqn, a_ddpg, r, s_env_next = batch
        # dqn
        s_cnnlstm_out = self.model.forward_cnnlstm(s_cnnlstm)
        q_eval = self.model.dqn(torch.cat([s_cnnlstm_out, s_env], 1)).gather(1, a_dqn)
        q_next = self.model.dqn(torch.cat([s_cnnlstm_out, s_env_next], 1)).detach()
        q_target = r + GAMMA_DQN * q_next.max(1, keepdim=True)[0]
        loss_dqn = F.mse_loss(q_eval, q_target)
        self.optimizer_cnnlstm.zero_grad()
        self.optimizer_dqn.zero_grad()
        loss_dqn.backward()
        self.optimizer_cnnlstm.step()
        self.optimizer_dqn.step()
        # ddpg critic
        s_cnnlstm_out = self.model.forward_cnnlstm(s_cnnlstm)
        state = torch.cat([s_cnnlstm_out, s_env], 1)
        q = self.model.critic(torch.cat([state, a_ddpg], 1))
        loss_critic = F.mse_loss(q, r + GAMMA_DDPG * q.detach().mean())
        self.optimizer_critic.zero_grad()
        self.optimizer_cnnlstm.zero_grad()
        loss_critic.backward()
        self.optimizer_critic.step()
        self.optimizer_cnnlstm.step()
        # ddpg actor
        state = torch.cat([self.model.forward_cnnlstm(s_cnnlstm), s_env], 1)
        loss_actor = -self.model.critic(torch.cat([state, self.model.actor(state)], 1)).mean()
        self.optimizer_actor.zero_grad()
        loss_actor.backward()
        self.optimizer_actor.step()
        return loss_dqn.item(), loss_critic.item(), loss_actor.item()


def sample_batch(b=8):
    return (torch.randn(b, 5, 2, 12), torch.randn(b, 4), torch.randint(0, 3, (b, 1)),
            torch.rand(b, 1) * 2 - 1, torch.randn(b, 1), torch.randn(b, 4))


if __name__ == "__main__":
    agent = Agent()
    for it in range(4):
        print(it, agent.learn(sample_batch()))
