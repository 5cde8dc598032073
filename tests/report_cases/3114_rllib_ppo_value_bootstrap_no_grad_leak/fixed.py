"""RLlib-style PPO (torch policy) on a toy continuous-state task: trajectories are post-processed with
GAE, bootstrapping from the value of the last observation, and the sample batches are kept in a
replay of recent batches for diagnostics."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
np.random.seed(0)


def graph_nodes(tensors):
    seen, stack = set(), [t.grad_fn for t in tensors if torch.is_tensor(t) and t.grad_fn is not None]
    while stack:
        fn = stack.pop()
        if fn is not None and fn not in seen:
            seen.add(fn)
            stack.extend(n for n, _ in fn.next_functions)
    return len(seen)


class PPOTorchPolicy:
    def __init__(self, obs_dim=4, n_actions=2, gamma=0.99, lam=0.95):
        self.model = nn.Sequential(nn.Linear(obs_dim, 32), nn.Tanh(), nn.Linear(32, n_actions + 1))
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=3e-4)
        self.gamma, self.lam = gamma, lam

    def compute_actions(self, obs):
        with torch.no_grad():
            out = self.model(torch.as_tensor(obs, dtype=torch.float32))
            dist = torch.distributions.Categorical(logits=out[:-1])
            action = dist.sample()
        return action.item(), dist.log_prob(action).item(), out[-1].item()

    def value(self, obs):
        with torch.no_grad():
            return self.model(torch.as_tensor(obs, dtype=torch.float32))[-1]

    def postprocess_trajectory(self, batch, done):
        last_r = 0.0 if done else self.value(batch["new_obs"][-1])
        vpreds = torch.tensor(batch["vf_preds"] + [0.0])
        vpreds[-1] = last_r
        rewards = torch.tensor(batch["rewards"])
        deltas = rewards + self.gamma * vpreds[1:] - vpreds[:-1]
        adv, running = torch.zeros_like(deltas), 0.0
        for t in reversed(range(len(deltas))):
            running = deltas[t] + self.gamma * self.lam * running
            adv[t] = running
        batch["advantages"], batch["value_targets"] = adv, adv + vpreds[:-1]
        return batch

    def learn_on_batch(self, batch):
        obs = torch.tensor(np.array(batch["obs"]), dtype=torch.float32)
        out = self.model(obs)
        logp = torch.distributions.Categorical(logits=out[:, :-1]).log_prob(torch.tensor(batch["actions"]))
        ratio = torch.exp(logp - torch.tensor(batch["action_logp"]))
        adv = batch["advantages"].detach()
        surrogate = torch.min(ratio * adv, torch.clamp(ratio, 0.8, 1.2) * adv)
        loss = -surrogate.mean() + 0.5 * F.mse_loss(out[:, -1], batch["value_targets"].detach())
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()


def rollout(policy, horizon=16):
    batch = {k: [] for k in ["obs", "new_obs", "actions", "action_logp", "vf_preds", "rewards"]}
    obs = np.random.randn(4)
    for _ in range(horizon):
        action, logp, vf = policy.compute_actions(obs)
        new_obs = obs + 0.1 * np.random.randn(4) + (0.1 if action else -0.1)
        for key, value in zip(batch, [obs, new_obs, action, logp, vf, float(-abs(new_obs[0]))]):
            batch[key].append(value)
        obs = new_obs
    return policy.postprocess_trajectory(batch, done=False)


if __name__ == "__main__":
    policy = PPOTorchPolicy()
    recent_batches = []
    for it in range(6):
        batch = rollout(policy)
        loss = policy.learn_on_batch(batch)
        recent_batches.append(batch)
        held = graph_nodes([b["advantages"] for b in recent_batches] + [b["value_targets"] for b in recent_batches])
        print(f"iter {it} loss {loss:.4f} graph nodes held by stored batches: {held}")
