import torch
import torch.nn.functional as F

import utils
from nets import Actor, CIC, Critic, Encoder

torch.manual_seed(0)


class CICAgent:
    def __init__(self, obs_shape, action_dim, skill_dim=8, feature_dim=32, hidden_dim=64,
                 lr=1e-4, critic_target_tau=0.01, stddev=0.2, temperature=0.5):
        self.skill_dim = skill_dim
        self.critic_target_tau = critic_target_tau
        self.stddev = stddev
        self.temperature = temperature

        self.encoder = Encoder(obs_shape)
        obs_dim = self.encoder.repr_dim + skill_dim
        self.actor = Actor(obs_dim, action_dim, feature_dim, hidden_dim)
        self.critic = Critic(obs_dim, action_dim, feature_dim, hidden_dim)
        self.critic_target = Critic(obs_dim, action_dim, feature_dim, hidden_dim)
        self.critic_target.load_state_dict(self.critic.state_dict())
        self.cic = CIC(self.encoder.repr_dim, skill_dim, hidden_dim)
        self.aug = utils.RandomShiftsAug(pad=2)

        self.encoder_opt = torch.optim.Adam(self.encoder.parameters(), lr=lr)
        self.actor_opt = torch.optim.Adam(self.actor.parameters(), lr=lr)
        self.critic_opt = torch.optim.Adam(self.critic.parameters(), lr=lr)
        self.cic_optimizer = torch.optim.Adam(self.cic.parameters(), lr=lr)

    def aug_and_encode(self, obs):
        return self.encoder(self.aug(obs))

    def compute_cpc_loss(self, obs, next_obs, skill):
        query, key = self.cic(obs, next_obs, skill)
        query, key = F.normalize(query, dim=1), F.normalize(key, dim=1)
        logits = query @ key.T / self.temperature
        labels = torch.arange(logits.shape[0])
        return F.cross_entropy(logits, labels)

    def update_cic(self, obs, skill, next_obs):
        loss = self.compute_cpc_loss(obs, next_obs, skill)
        self.cic_optimizer.zero_grad()
        loss.backward()
        self.cic_optimizer.step()
        return {"cic_loss": loss.item()}

    def update_critic(self, obs, action, reward, discount, next_obs):
        with torch.no_grad():
            mu, std = self.actor(next_obs, self.stddev)
            next_action = (mu + std * torch.randn_like(mu)).clamp(-1, 1)
            target_q1, target_q2 = self.critic_target(next_obs, next_action)
            target_q = reward + discount * torch.min(target_q1, target_q2)
        q1, q2 = self.critic(obs, action)
        critic_loss = F.mse_loss(q1, target_q) + F.mse_loss(q2, target_q)

        self.encoder_opt.zero_grad(set_to_none=True)
        self.critic_opt.zero_grad(set_to_none=True)
        critic_loss.backward()
        self.critic_opt.step()
        self.encoder_opt.step()
        return {"critic_loss": critic_loss.item()}

    def update_actor(self, obs):
        mu, std = self.actor(obs, self.stddev)
        action = (mu + std * torch.randn_like(mu)).clamp(-1, 1)
        q1, q2 = self.critic(obs, action)
        actor_loss = -torch.min(q1, q2).mean()
        self.actor_opt.zero_grad(set_to_none=True)
        actor_loss.backward()
        self.actor_opt.step()
        return {"actor_loss": actor_loss.item()}

    def update(self, batch, step):
        metrics = {}
        obs, action, reward, discount, next_obs, skill = batch

        with torch.no_grad():
            obs = self.aug_and_encode(obs)
            next_obs = self.aug_and_encode(next_obs)

        metrics.update(self.update_cic(obs, skill, next_obs))

        obs = torch.cat([obs, skill], dim=1)
        next_obs = torch.cat([next_obs, skill], dim=1)
        metrics.update(self.update_critic(obs, action, reward, discount, next_obs))
        metrics.update(self.update_actor(obs.detach()))
        utils.soft_update_params(self.critic, self.critic_target, self.critic_target_tau)
        return metrics


if __name__ == "__main__":
    obs_shape, action_dim, skill_dim = (3, 24, 24), 4, 8
    agent = CICAgent(obs_shape, action_dim, skill_dim)
    replay = utils.ReplayBuffer(obs_shape, action_dim, skill_dim)
    for step in range(8):
        m = agent.update(replay.sample(16), step)
    print({k: round(v, 4) for k, v in m.items()})
