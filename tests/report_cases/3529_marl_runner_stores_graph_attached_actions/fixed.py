"""Cooperative multi-agent Q-learning (VDN with a shared recurrent agent, pymarl
style): an episode runner rolls out all agents with a Gumbel action selector,
stores the episode (obs, one-hot actions, rewards) in an episode replay buffer,
and a learner trains on sampled episodes against a target network."""
import random
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
random.seed(0)
N_AGENTS, N_ACTIONS, OBS_DIM, EP_LIMIT, HID = 3, 4, 6, 10, 32


class SignalGame:
    """Each agent sees a private signal; the team is rewarded for every agent
    that plays the action encoded by the sum of all signals."""
    def reset(self):
        self.t = 0
        return self._obs()

    def _obs(self):
        self.signals = torch.randint(0, 2, (N_AGENTS,))
        obs = torch.zeros(N_AGENTS, OBS_DIM)
        obs[torch.arange(N_AGENTS), self.signals] = 1.0
        obs[:, 2 + self.t % 4] = 1.0
        return obs

    def step(self, actions):
        target = int(self.signals.sum()) % N_ACTIONS
        reward = float((actions == target).sum()) / N_AGENTS
        self.t += 1
        return self._obs(), reward, self.t >= EP_LIMIT


class RNNAgent(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(OBS_DIM + N_AGENTS, HID)
        self.rnn = nn.GRUCell(HID, HID)
        self.fc2 = nn.Linear(HID, N_ACTIONS)

    def forward(self, obs, hidden):
        x = torch.cat([obs, torch.eye(N_AGENTS)], dim=-1)    # agent-id one-hot
        h = self.rnn(F.relu(self.fc1(x)), hidden)
        return self.fc2(h), h


class GumbelSelector:
    def __init__(self, tau=1.0):
        self.tau = tau

    def select(self, agent_outs):
        return F.gumbel_softmax(agent_outs, tau=self.tau, hard=True)   # one-hot actions


class EpisodeRunner:
    def __init__(self, env, agent, selector):
        self.env, self.agent, self.selector = env, agent, selector

    def run(self):
        obs, hidden = self.env.reset(), torch.zeros(N_AGENTS, HID)
        episode = {"obs": [], "actions_onehot": [], "reward": []}
        done, ep_return = False, 0.0
        while not done:
            agent_outs, hidden = self.agent(obs, hidden)
            actions_onehot = self.selector.select(agent_outs)
            next_obs, reward, done = self.env.step(actions_onehot.argmax(-1))
            episode["obs"].append(obs)
            episode["actions_onehot"].append(actions_onehot.detach())   # no acting graph in the buffer
            episode["reward"].append(reward)
            obs, ep_return = next_obs, ep_return + reward
        episode["obs"].append(obs)
        return {k: torch.stack([torch.as_tensor(v) for v in vals]) for k, vals in episode.items()}, ep_return


class EpisodeBuffer:
    def __init__(self, capacity=500):
        self.capacity, self.episodes = capacity, []

    def insert(self, batch):
        self.episodes.append(batch)
        self.episodes = self.episodes[-self.capacity:]

    def sample(self, n):
        return random.sample(self.episodes, n)


def unroll(agent, obs_seq):
    hidden, outs = torch.zeros(N_AGENTS, HID), []
    for obs in obs_seq:
        q, hidden = agent(obs, hidden)
        outs.append(q)
    return torch.stack(outs)                                 # [T+1, agents, actions]


def train_vdn(agent, target, opt, episodes, gamma=0.95):
    loss = 0.0
    for ep in episodes:
        qs, target_qs = unroll(agent, ep["obs"]), unroll(target, ep["obs"]).detach()
        actions = ep["actions_onehot"].argmax(-1, keepdim=True)
        chosen = qs[:-1].gather(-1, actions).squeeze(-1).sum(-1)          # VDN: sum over agents
        best_next = qs[1:].detach().argmax(-1, keepdim=True)                # double-Q action choice
        next_val = target_qs[1:].gather(-1, best_next).squeeze(-1).sum(-1)
        not_last = torch.ones(EP_LIMIT)
        not_last[-1] = 0.0
        y = ep["reward"].float() + gamma * not_last * next_val
        loss = loss + F.mse_loss(chosen, y)
    opt.zero_grad()
    (loss / len(episodes)).backward()
    opt.step()


def main(n_episodes=40, batch_size=8):
    agent, target = RNNAgent(), RNNAgent()
    target.load_state_dict(agent.state_dict())
    opt = torch.optim.RMSprop(agent.parameters(), lr=5e-4)
    runner, buffer = EpisodeRunner(SignalGame(), agent, GumbelSelector()), EpisodeBuffer()
    for ep_i in range(n_episodes):
        batch, ep_return = runner.run()
        buffer.insert(batch)
        if len(buffer.episodes) >= batch_size:
            train_vdn(agent, target, opt, buffer.sample(batch_size))
        if ep_i % 10 == 9:
            target.load_state_dict(agent.state_dict())
            print(f"episode {ep_i + 1}: return {ep_return:.2f}")


if __name__ == "__main__":
    main()
