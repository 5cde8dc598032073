import torch
import torch.nn as nn

torch.manual_seed(0)
OBS, ACT, HID, T, B = 5, 2, 24, 6, 8


class Agent(nn.Module):
    """Shared sequence model feeding an actor head and a critic head."""

    def __init__(self):
        super().__init__()
        self.traj_encoder = nn.GRU(OBS, HID, batch_first=True)
        self.actor = nn.Sequential(nn.Linear(HID, 32), nn.ReLU(), nn.Linear(32, ACT), nn.Tanh())
        self.critic = nn.Sequential(nn.Linear(HID + ACT, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, obs_seq, actions):
        s_rep, _ = self.traj_encoder(obs_seq)
        a_pi = self.actor(s_rep)
        q_pi = self.critic(torch.cat([s_rep, a_pi], -1))
        q_data = self.critic(torch.cat([s_rep, actions], -1))
        return q_pi, q_data


def learn_step(agent, optimizer, batch, gamma=0.99):
    obs_seq, actions, rewards = batch
    q_pi, q_data = agent(obs_seq, actions)
    with torch.no_grad():
        target = rewards[:, :-1] + gamma * q_data[:, 1:]
    critic_loss = (q_data[:, :-1] - target).pow(2).mean()
    actor_loss = -q_pi.mean()

    optimizer.zero_grad()
    # the actor term must not push the critic to inflate Q: backprop it first,
    # keep the shared encoder graph for the critic term, and wipe the critic grads
    actor_loss.backward(retain_graph=True)
    for p in agent.critic.parameters():
        p.grad = None
    critic_loss.backward()
    optimizer.step()
    return actor_loss.item(), critic_loss.item()


def main():
    agent = Agent()
    optimizer = torch.optim.AdamW(agent.parameters(), lr=1e-3)
    for step in range(4):
        batch = (torch.randn(B, T, OBS), torch.rand(B, T, ACT) * 2 - 1, torch.randn(B, T, 1))
        print(step, learn_step(agent, optimizer, batch))


if __name__ == "__main__":
    main()
