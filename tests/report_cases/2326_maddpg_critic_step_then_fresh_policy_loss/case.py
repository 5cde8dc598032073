"""MADDPG update for discrete-action agents (maddpg-pytorch layout):
each agent's centralised critic is updated first, then its policy is
updated through that critic.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

MSELoss = nn.MSELoss()


def onehot_from_logits(logits):
    return (logits == logits.max(1, keepdim=True)[0]).float()


def gumbel_softmax(logits, hard=True):
    return F.gumbel_softmax(logits, tau=1.0, hard=hard)


def mlp(cin, cout, hidden=64):
    return nn.Sequential(nn.Linear(cin, hidden), nn.LeakyReLU(), nn.Linear(hidden, hidden),
                         nn.LeakyReLU(), nn.Linear(hidden, cout))


class DDPGAgent:
    def __init__(self, obs_dim, act_dim, critic_in, lr=0.01):
        self.policy, self.target_policy = mlp(obs_dim, act_dim), mlp(obs_dim, act_dim)
        self.critic, self.target_critic = mlp(critic_in, 1), mlp(critic_in, 1)
        self.target_policy.load_state_dict(self.policy.state_dict())
        self.target_critic.load_state_dict(self.critic.state_dict())
        self.policy_optimizer = torch.optim.Adam(self.policy.parameters(), lr=lr)
        self.critic_optimizer = torch.optim.Adam(self.critic.parameters(), lr=lr)


class MADDPG:
    def __init__(self, nagents, obs_dim, act_dim, gamma=0.95, tau=0.01):
        critic_in = nagents * (obs_dim + act_dim)
        self.agents = [DDPGAgent(obs_dim, act_dim, critic_in) for _ in range(nagents)]
        self.nagents, self.gamma, self.tau = nagents, gamma, tau

    @property
    def policies(self):
        return [a.policy for a in self.agents]

    @property
    def target_policies(self):
        return [a.target_policy for a in self.agents]

    def update(self, sample, agent_i):
        obs, acs, rews, next_obs, dones = sample
        curr_agent = self.agents[agent_i]

        curr_agent.critic_optimizer.zero_grad()
        all_trgt_acs = [onehot_from_logits(pi(nobs)) for pi, nobs in zip(self.target_policies, next_obs)]
        trgt_vf_in = torch.cat((*next_obs, *all_trgt_acs), dim=1)
        target_value = (rews[agent_i].view(-1, 1) + self.gamma *
                        curr_agent.target_critic(trgt_vf_in) * (1 - dones[agent_i].view(-1, 1)))
        vf_in = torch.cat((*obs, *acs), dim=1)
        actual_value = curr_agent.critic(vf_in)
        vf_loss = MSELoss(actual_value, target_value.detach())
        vf_loss.backward()
        torch.nn.utils.clip_grad_norm_(curr_agent.critic.parameters(), 0.5)
        curr_agent.critic_optimizer.step()

        curr_agent.policy_optimizer.zero_grad()
        curr_pol_out = curr_agent.policy(obs[agent_i])
        curr_pol_vf_in = gumbel_softmax(curr_pol_out, hard=True)
        all_pol_acs = []
        for i, pi, ob in zip(range(self.nagents), self.policies, obs):
            if i == agent_i:
                all_pol_acs.append(curr_pol_vf_in)
            else:
                all_pol_acs.append(onehot_from_logits(pi(ob)))
        vf_in = torch.cat((*obs, *all_pol_acs), dim=1)
        pol_loss = -curr_agent.critic(vf_in).mean()
        pol_loss += (curr_pol_out ** 2).mean() * 1e-3
        pol_loss.backward()
        torch.nn.utils.clip_grad_norm_(curr_agent.policy.parameters(), 0.5)
        curr_agent.policy_optimizer.step()
        return vf_loss.item(), pol_loss.item()

    def update_all_targets(self):
        for a in self.agents:
            for net, tgt in ((a.critic, a.target_critic), (a.policy, a.target_policy)):
                for tp, p in zip(tgt.parameters(), net.parameters()):
                    tp.data.copy_(tp.data * (1.0 - self.tau) + p.data * self.tau)


def sample_buffer(n, nagents, obs_dim, act_dim):
    obs = [torch.randn(n, obs_dim) for _ in range(nagents)]
    acs = [F.one_hot(torch.randint(0, act_dim, (n,)), act_dim).float() for _ in range(nagents)]
    rews = [torch.randn(n) for _ in range(nagents)]
    next_obs = [torch.randn(n, obs_dim) for _ in range(nagents)]
    dones = [torch.zeros(n) for _ in range(nagents)]
    return obs, acs, rews, next_obs, dones


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--n_updates", type=int, default=4)
    parser.add_argument("--n_agents", type=int, default=3)
    parser.add_argument("--batch_size", type=int, default=64)
    args = parser.parse_args()
    torch.manual_seed(0)
    maddpg = MADDPG(args.n_agents, obs_dim=10, act_dim=5)
    for u in range(args.n_updates):
        sample = sample_buffer(args.batch_size, args.n_agents, 10, 5)
        losses = [maddpg.update(sample, a_i) for a_i in range(args.n_agents)]
        maddpg.update_all_targets()
        print(u, [(round(v, 3), round(p, 3)) for v, p in losses])


if __name__ == "__main__":
    main()
