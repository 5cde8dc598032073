import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
np.random.seed(0)

ARGS = {
    "n_agents": 3,
    "obs_shape": [10, 10, 10],
    "action_shape": [2, 2, 2],
    "high_action": 1.0,
    "lr_actor": 1e-3,
    "lr_critic": 1e-3,
    "gamma": 0.95,
    "tau": 0.01,
    "batch_size": 32,
    "buffer_size": 512,
    "train_steps": 6,
}


class Actor(nn.Module):
    def __init__(self, args, agent_id):
        super().__init__()
        self.max_action = args["high_action"]
        self.fc1 = nn.Linear(args["obs_shape"][agent_id], 64)
        self.fc2 = nn.Linear(64, 64)
        self.action_out = nn.Linear(64, args["action_shape"][agent_id])

    def forward(self, x):
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.max_action * torch.tanh(self.action_out(x))


class Critic(nn.Module):
    def __init__(self, args):
        super().__init__()
        self.max_action = args["high_action"]
        self.fc1 = nn.Linear(sum(args["obs_shape"]) + sum(args["action_shape"]), 64)
        self.fc2 = nn.Linear(64, 64)
        self.q_out = nn.Linear(64, 1)

    def forward(self, state, action):
        state = torch.cat(state, dim=1)
        action = torch.cat([a / self.max_action for a in action], dim=1)
        x = torch.cat([state, action], dim=1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.q_out(x)


class MADDPG:
    def __init__(self, args, agent_id):
        self.args = args
        self.agent_id = agent_id
        self.actor_network = Actor(args, agent_id)
        self.critic_network = Critic(args)
        self.actor_target_network = Actor(args, agent_id)
        self.critic_target_network = Critic(args)
        self.actor_target_network.load_state_dict(self.actor_network.state_dict())
        self.critic_target_network.load_state_dict(self.critic_network.state_dict())
        self.actor_optim = torch.optim.Adam(self.actor_network.parameters(), lr=args["lr_actor"])
        self.critic_optim = torch.optim.Adam(self.critic_network.parameters(), lr=args["lr_critic"])

    def _soft_update_target_network(self):
        tau = self.args["tau"]
        for target_param, param in zip(self.actor_target_network.parameters(), self.actor_network.parameters()):
            target_param.data.copy_((1 - tau) * target_param.data + tau * param.data)
        for target_param, param in zip(self.critic_target_network.parameters(), self.critic_network.parameters()):
            target_param.data.copy_((1 - tau) * target_param.data + tau * param.data)

    def train(self, transitions, other_agents):
        r = transitions["r_%d" % self.agent_id]
        o, u, o_next = [], [], []
        for agent_id in range(self.args["n_agents"]):
            o.append(transitions["o_%d" % agent_id])
            u.append(transitions["u_%d" % agent_id])
            o_next.append(transitions["o_next_%d" % agent_id])

        u_next = []
        with torch.no_grad():
            index = 0
            for agent_id in range(self.args["n_agents"]):
                if agent_id == self.agent_id:
                    u_next.append(self.actor_target_network(o_next[agent_id]))
                else:
                    u_next.append(other_agents[index].policy.actor_target_network(o_next[agent_id]))
                    index += 1
            q_next = self.critic_target_network(o_next, u_next).detach()
            target_q = (r.unsqueeze(1) + self.args["gamma"] * q_next).detach()

        q_value = self.critic_network(o, u)
        critic_loss = (target_q - q_value).pow(2).mean()

        u[self.agent_id] = self.actor_network(o[self.agent_id])
        actor_loss = -self.critic_network(o, u).mean()

        self.critic_optim.zero_grad()
        critic_loss.backward()
        self.critic_optim.step()

        self.actor_optim.zero_grad()
        actor_loss.backward()
        self.actor_optim.step()

        self._soft_update_target_network()
        return actor_loss.item(), critic_loss.item()


class Agent:
    def __init__(self, agent_id, args):
        self.agent_id = agent_id
        self.policy = MADDPG(args, agent_id)

    def learn(self, transitions, other_agents):
        return self.policy.train(transitions, other_agents)


class Buffer:
    def __init__(self, args):
        size = args["buffer_size"]
        self.storage = {}
        for i in range(args["n_agents"]):
            self.storage["o_%d" % i] = np.random.randn(size, args["obs_shape"][i]).astype(np.float32)
            self.storage["u_%d" % i] = np.random.uniform(-1, 1, (size, args["action_shape"][i])).astype(np.float32)
            self.storage["r_%d" % i] = np.random.randn(size).astype(np.float32)
            self.storage["o_next_%d" % i] = np.random.randn(size, args["obs_shape"][i]).astype(np.float32)
        self.size = size

    def sample(self, batch_size):
        idx = np.random.randint(0, self.size, batch_size)
        return {key: torch.tensor(value[idx]) for key, value in self.storage.items()}


def run(args):
    agents = [Agent(i, args) for i in range(args["n_agents"])]
    buffer = Buffer(args)
    for step in range(args["train_steps"]):
        transitions = buffer.sample(args["batch_size"])
        for agent in agents:
            other_agents = [a for a in agents if a is not agent]
            a_loss, c_loss = agent.learn(transitions, other_agents)
        print(f"step {step}: actor {a_loss:.3f} critic {c_loss:.3f}")


if __name__ == "__main__":
    run(ARGS)
