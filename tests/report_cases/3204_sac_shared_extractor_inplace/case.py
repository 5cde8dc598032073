"""Soft actor-critic on a toy continuous-control task, actor and critic sharing one features extractor."""
import torch
import torch.nn.functional as F
from policies import SACPolicy

torch.manual_seed(0)


class ReplayBuffer:
    def __init__(self, obs_dim, act_dim, size=256):
        self.obs = torch.randn(size, obs_dim)
        self.actions = torch.rand(size, act_dim) * 2 - 1
        self.rewards = -self.obs.pow(2).sum(1, keepdim=True) * 0.1
        self.next_obs = self.obs + 0.1 * torch.randn(size, obs_dim)
        self.dones = torch.zeros(size, 1)

    def sample(self, batch):
        idx = torch.randint(0, self.obs.shape[0], (batch,))
        return self.obs[idx], self.actions[idx], self.rewards[idx], self.next_obs[idx], self.dones[idx]


class SAC:
    def __init__(self, obs_dim=6, act_dim=2, gamma=0.99, ent_coef=0.2, share=True):
        self.policy = SACPolicy(obs_dim, act_dim, share_features_extractor=share)
        self.actor, self.critic, self.critic_target = self.policy.actor, self.policy.critic, self.policy.critic_target
        self.buffer = ReplayBuffer(obs_dim, act_dim)
        self.gamma, self.ent_coef = gamma, ent_coef

    def train(self, gradient_steps, batch_size=32):
        for _ in range(gradient_steps):
            obs, actions, rewards, next_obs, dones = self.buffer.sample(batch_size)
            actions_pi, log_prob = self.actor.action_log_prob(obs)
            with torch.no_grad():
                next_actions, next_log_prob = self.actor.action_log_prob(next_obs)
                next_q = torch.min(*self.critic_target(next_obs, next_actions)) - self.ent_coef * next_log_prob
                target_q = rewards + (1 - dones) * self.gamma * next_q
            current_q = self.critic(obs, actions)
            critic_loss = 0.5 * sum(F.mse_loss(q, target_q) for q in current_q)
            self.critic.optimizer.zero_grad()
            critic_loss.backward()
            self.critic.optimizer.step()

            q_values_pi = torch.cat(self.critic(obs, actions_pi), dim=1)
            min_qf_pi, _ = torch.min(q_values_pi, dim=1, keepdim=True)
            actor_loss = (self.ent_coef * log_prob - min_qf_pi).mean()
            self.actor.optimizer.zero_grad()
            actor_loss.backward()
            self.actor.optimizer.step()
            print(f"critic {critic_loss.item():.4f} actor {actor_loss.item():.4f}")


if __name__ == "__main__":
    SAC().train(gradient_steps=4)
