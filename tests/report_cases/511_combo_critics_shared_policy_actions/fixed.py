import torch
import torch.nn as nn

torch.manual_seed(0)
OBS, ACT, BATCH, NUM_REPEAT = 5, 2, 16, 4


def mlp(i, o):
    return nn.Sequential(nn.Linear(i, 32), nn.ReLU(), nn.Linear(32, o))


class COMBOPolicy:
    def __init__(self, gamma=0.99, cql_weight=1.0):
        self.actor = mlp(OBS, 2 * ACT)
        self.critic1, self.critic2 = mlp(OBS + ACT, 1), mlp(OBS + ACT, 1)
        self.actor_optim = torch.optim.Adam(self.actor.parameters(), lr=3e-4)
        self.critic1_optim = torch.optim.Adam(self.critic1.parameters(), lr=3e-4)
        self.critic2_optim = torch.optim.Adam(self.critic2.parameters(), lr=3e-4)
        self.gamma, self.cql_weight = gamma, cql_weight

    def actforward(self, obs):
        mu, log_std = self.actor(obs).chunk(2, dim=-1)
        dist = torch.distributions.Normal(mu, log_std.clamp(-5, 2).exp())
        raw = dist.rsample()
        return torch.tanh(raw), dist.log_prob(raw).sum(-1, keepdim=True)

    def q(self, critic, obs, act):
        return critic(torch.cat([obs, act], dim=-1))

    def learn(self, obs, act, rew, next_obs):
        # actor
        a, log_prob = self.actforward(obs)
        q_pi = torch.min(self.q(self.critic1, obs, a), self.q(self.critic2, obs, a))
        actor_loss = (0.2 * log_prob - q_pi).mean()
        self.actor_optim.zero_grad()
        actor_loss.backward()
        self.actor_optim.step()
        # critics
        with torch.no_grad():
            next_a, _ = self.actforward(next_obs)
            target_q = rew + self.gamma * torch.min(self.q(self.critic1, next_obs, next_a),
                                                    self.q(self.critic2, next_obs, next_a))
        tmp_obs = obs.repeat_interleave(NUM_REPEAT, dim=0)
        with torch.no_grad():  # sampled actions are inputs to the penalty, not actor outputs to train
            pi_act, _ = self.actforward(tmp_obs)
        rand_act = torch.empty_like(pi_act).uniform_(-1, 1)
        losses = []
        for critic in (self.critic1, self.critic2):
            q_data = self.q(critic, obs, act)
            cat_q = torch.cat([self.q(critic, tmp_obs, pi_act), self.q(critic, tmp_obs, rand_act)], 0)
            penalty = torch.logsumexp(cat_q.view(2 * NUM_REPEAT, BATCH), 0).mean() - q_data.mean()
            losses.append(((q_data - target_q) ** 2).mean() + self.cql_weight * penalty)
        self.critic1_optim.zero_grad()
        losses[0].backward()
        self.critic1_optim.step()
        self.critic2_optim.zero_grad()
        losses[1].backward()
        self.critic2_optim.step()
        return actor_loss.item(), losses[0].item(), losses[1].item()


if __name__ == "__main__":
    policy = COMBOPolicy()
    for step in range(3):
        batch = (torch.randn(BATCH, OBS), torch.rand(BATCH, ACT) * 2 - 1,
                 torch.randn(BATCH, 1), torch.randn(BATCH, OBS))
        print(step, policy.learn(*batch))
