import torch
import torch.nn as nn
from torch.distributions import Categorical

torch.manual_seed(0)

CONFIG = {"num_steps": 32, "ppo_epoch": 4, "num_mini_batch": 4, "clip_param": 0.2,
          "value_loss_coef": 0.5, "entropy_coef": 0.01, "lr": 3e-4, "gamma": 0.99}


class Policy(nn.Module):
    def __init__(self, obs_dim=4, n_actions=2, hidden=32):
        super().__init__()
        self.base = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh())
        self.actor = nn.Linear(hidden, n_actions)
        self.critic = nn.Linear(hidden, 1)

    def forward(self, obs):
        h = self.base(obs)
        return self.critic(h).squeeze(-1), Categorical(logits=self.actor(h))

    def act(self, obs):
        value, dist = self(obs)
        action = dist.sample()
        return value, action, dist.log_prob(action)

    def evaluate_actions(self, obs, actions):
        value, dist = self(obs)
        return value, dist.log_prob(actions), dist.entropy().mean()


class RolloutStorage:
    def __init__(self):
        self.obs, self.actions, self.action_log_probs, self.value_preds, self.rewards = [], [], [], [], []

    def insert(self, obs, action, action_log_prob, value, reward):
        self.obs.append(obs)
        self.actions.append(action)
        self.action_log_probs.append(action_log_prob)
        self.value_preds.append(value)
        self.rewards.append(reward)

    def compute_returns(self, gamma):
        returns, ret = [], torch.zeros(())
        for r in reversed(self.rewards):
            ret = r + gamma * ret
            returns.insert(0, ret)
        return torch.stack(returns)

    def feed_forward_generator(self, num_mini_batch, returns):
        n = len(self.obs)
        obs = torch.stack(self.obs)
        actions = torch.stack(self.actions)
        old_log_probs = torch.stack(self.action_log_probs)
        values = torch.stack(self.value_preds)
        adv = returns - values
        perm = torch.randperm(n)
        size = n // num_mini_batch
        for i in range(num_mini_batch):
            idx = perm[i * size:(i + 1) * size]
            yield obs[idx], actions[idx], returns[idx], old_log_probs[idx], adv[idx]


class PPO:
    def __init__(self, actor_critic, cfg):
        self.actor_critic = actor_critic
        self.cfg = cfg
        self.optimizer = torch.optim.Adam(actor_critic.parameters(), lr=cfg["lr"])

    def update(self, rollouts):
        returns = rollouts.compute_returns(self.cfg["gamma"])
        for _ in range(self.cfg["ppo_epoch"]):
            for obs_b, act_b, ret_b, old_logp_b, adv_b in rollouts.feed_forward_generator(
                    self.cfg["num_mini_batch"], returns):
                values, action_log_probs, entropy = self.actor_critic.evaluate_actions(obs_b, act_b)
                ratio = torch.exp(action_log_probs - old_logp_b)
                surr1 = ratio * adv_b
                surr2 = torch.clamp(ratio, 1.0 - self.cfg["clip_param"], 1.0 + self.cfg["clip_param"]) * adv_b
                action_loss = -torch.min(surr1, surr2).mean()
                value_loss = (ret_b - values).pow(2).mean()
                self.optimizer.zero_grad()
                (value_loss * self.cfg["value_loss_coef"] + action_loss
                 - entropy * self.cfg["entropy_coef"]).backward()
                self.optimizer.step()
        return value_loss.item(), action_loss.item()


def fake_env_step(obs, action):
    reward = (action.float() * 2 - 1) * obs[0]
    return torch.randn(4), reward


actor_critic = Policy()
agent = PPO(actor_critic, CONFIG)
for update in range(3):
    rollouts = RolloutStorage()
    obs = torch.randn(4)
    for step in range(CONFIG["num_steps"]):
        # rollout collection under torch.no_grad(): stored log-probs/values are constants
        with torch.no_grad():
            value, action, action_log_prob = actor_critic.act(obs)
        next_obs, reward = fake_env_step(obs, action)
        rollouts.insert(obs, action, action_log_prob, value, reward)
        obs = next_obs
    vl, al = agent.update(rollouts)
    print("update %d value_loss %.4f action_loss %.4f" % (update, vl, al))
