import logging
from dataclasses import dataclass

import torch
import torch.nn as nn

from ppo import ActorCritic, ToyVecEnv, collect_rollout

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
log = logging.getLogger("ppo")


@dataclass
class PPOConfig:
    num_envs: int = 4
    obs_dim: int = 6
    n_actions: int = 3
    num_steps: int = 16
    updates: int = 3
    ppo_epochs: int = 3
    num_minibatches: int = 4
    clip_eps: float = 0.2
    value_coef: float = 0.5
    entropy_coef: float = 0.01
    lr: float = 3e-4
    max_grad_norm: float = 0.5
    seed: int = 1


def ppo_update(policy, optimizer, cfg, obs, actions, old_log_probs, advantages, returns):
    n = obs.size(0)
    mb_size = n // cfg.num_minibatches
    stats = {"pg": 0.0, "vf": 0.0, "ent": 0.0}
    for _ in range(cfg.ppo_epochs):
        perm = torch.randperm(n)
        for start in range(0, n, mb_size):
            idx = perm[start:start + mb_size]
            new_log_probs, entropy, values = policy.evaluate_actions(obs[idx], actions[idx])
            ratio = torch.exp(new_log_probs - old_log_probs[idx])
            adv = advantages[idx]
            adv = (adv - adv.mean()) / (adv.std() + 1e-8)
            surr1 = ratio * adv
            surr2 = torch.clamp(ratio, 1.0 - cfg.clip_eps, 1.0 + cfg.clip_eps) * adv
            pg_loss = -torch.min(surr1, surr2).mean()
            vf_loss = (returns[idx] - values).pow(2).mean()
            ent = entropy.mean()
            loss = pg_loss + cfg.value_coef * vf_loss - cfg.entropy_coef * ent

            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(policy.parameters(), cfg.max_grad_norm)
            optimizer.step()
            stats["pg"] += pg_loss.item()
            stats["vf"] += vf_loss.item()
            stats["ent"] += ent.item()
    return stats


def main():
    cfg = PPOConfig()
    torch.manual_seed(cfg.seed)
    env = ToyVecEnv(cfg.num_envs, cfg.obs_dim, cfg.n_actions, seed=cfg.seed)
    policy = ActorCritic(cfg.obs_dim, cfg.n_actions)
    optimizer = torch.optim.Adam(policy.parameters(), lr=cfg.lr, eps=1e-5)

    obs = env.reset()
    for update in range(cfg.updates):
        storage, last_value, obs = collect_rollout(env, policy, cfg.num_steps, obs)
        advantages, returns = storage.compute_gae(last_value)
        b_obs, b_actions, b_log_probs = storage.flatten()
        stats = ppo_update(policy, optimizer, cfg, b_obs, b_actions, b_log_probs,
                           advantages.flatten(), returns.flatten())
        mean_reward = torch.stack(storage.rewards).mean().item()
        log.info("update %d reward %.3f pg %.4f vf %.4f", update, mean_reward, stats["pg"], stats["vf"])


if __name__ == "__main__":
    main()
