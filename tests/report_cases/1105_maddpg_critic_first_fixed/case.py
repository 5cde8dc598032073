"""MADDPG training: each agent has an actor and a centralised critic."""
from types import SimpleNamespace

import torch

from buffer import Buffer
from networks import Actor, Critic
from utils import make_target, soft_update

args = SimpleNamespace(n_agents=2, obs_dims=[6, 6], act_dims=[2, 2], gamma=0.95, tau=0.01,
                       lr_actor=1e-3, lr_critic=1e-3, batch_size=16, buffer_size=128,
                       warmup=32, steps=40)


class Agent:
    def __init__(self, agent_id, args):
        self.agent_id = agent_id
        self.args = args
        self.actor = Actor(args.obs_dims[agent_id], args.act_dims[agent_id])
        self.critic = Critic(args.obs_dims, args.act_dims)
        self.actor_target = make_target(self.actor)
        self.critic_target = make_target(self.critic)
        self.actor_optim = torch.optim.Adam(self.actor.parameters(), lr=args.lr_actor)
        self.critic_optim = torch.optim.Adam(self.critic.parameters(), lr=args.lr_critic)

    def select_action(self, o, noise_rate=0.1):
        with torch.no_grad():
            u = self.actor(o.unsqueeze(0)).squeeze(0)
        return (u + noise_rate * torch.randn_like(u)).clamp(-1.0, 1.0)

    def train(self, transitions, other_agents):
        o, u, r, o_next = transitions["o"], transitions["u"], transitions["r"], transitions["o_next"]
        r = r[self.agent_id]

        with torch.no_grad():
            u_next = []
            index = 0
            for agent_id in range(self.args.n_agents):
                if agent_id == self.agent_id:
                    u_next.append(self.actor_target(o_next[agent_id]))
                else:
                    u_next.append(other_agents[index].actor_target(o_next[agent_id]))
                    index += 1
            q_next = self.critic_target(o_next, u_next)
            target_q = r + self.args.gamma * q_next

        q_value = self.critic(o, u)
        critic_loss = (target_q - q_value).pow(2).mean()

        # critic first, then actor (order of the paper)
        self.critic_optim.zero_grad()
        critic_loss.backward()
        self.critic_optim.step()

        # the actor loss is built after the critic update, through the updated critic
        u = list(u)
        u[self.agent_id] = self.actor(o[self.agent_id])
        actor_loss = -self.critic(o, u).mean()

        self.actor_optim.zero_grad()
        actor_loss.backward()
        self.actor_optim.step()

        soft_update(self.actor_target, self.actor, self.args.tau)
        soft_update(self.critic_target, self.critic, self.args.tau)
        return critic_loss.item(), actor_loss.item()


def env_step(obs, actions):
    next_obs = [o.roll(1) * 0.9 + 0.1 * torch.randn_like(o) for o in obs]
    rewards = [-(a.pow(2).sum()) + o[0] for o, a in zip(obs, actions)]
    return next_obs, rewards


if __name__ == "__main__":
    torch.manual_seed(0)
    agents = [Agent(i, args) for i in range(args.n_agents)]
    buffer = Buffer(args.buffer_size, args.obs_dims, args.act_dims)
    obs = [torch.randn(d) for d in args.obs_dims]
    for step in range(args.steps):
        actions = [agent.select_action(o) for agent, o in zip(agents, obs)]
        next_obs, rewards = env_step(obs, actions)
        buffer.store_episode(obs, actions, rewards, next_obs)
        obs = next_obs
        if len(buffer) >= args.warmup:
            transitions = buffer.sample(args.batch_size)
            for agent in agents:
                others = [a for a in agents if a is not agent]
                c_loss, a_loss = agent.train(transitions, others)
            if step % 4 == 0:
                print(f"step {step} critic {c_loss:.3f} actor {a_loss:.3f}")
