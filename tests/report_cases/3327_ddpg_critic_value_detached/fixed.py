"""Training loop for graph-based DDPG on a toy highway-merging task with connected vehicles."""
import random
import torch

from agent_fixed import DDPGAgent

random.seed(0)
torch.manual_seed(0)

CFG = {"n_vehicles": 6, "feat_dim": 4, "hidden": 32, "act_dim": 1, "actor_lr": 1e-3, "critic_lr": 1e-3,
       "gamma": 0.95, "tau": 0.01, "buffer_size": 500, "batch_size": 16, "episodes": 3, "horizon": 20,
       "warmup": 16}


class MergeEnv:
    def __init__(self, n, f):
        self.n, self.f = n, f

    def reset(self):
        self.state = torch.randn(self.n, self.f)
        return self.state, self._adj()

    def _adj(self):
        pos = self.state[:, :1]
        return ((pos - pos.T).abs() < 1.0).float()

    def step(self, action):
        self.state = self.state + 0.1 * torch.cat([action, torch.zeros(self.n, self.f - 1)], -1) + 0.05 * torch.randn_like(self.state)
        speed = self.state[:, 1]
        reward = -(speed - 1.0).abs() - 0.1 * action.squeeze(-1).pow(2)
        return self.state, self._adj(), reward, torch.zeros(self.n)


def main(cfg):
    env = MergeEnv(cfg["n_vehicles"], cfg["feat_dim"])
    agent = DDPGAgent(cfg)
    steps = 0
    c_loss = a_loss = float("nan")
    for ep in range(cfg["episodes"]):
        x, adj = env.reset()
        for t in range(cfg["horizon"]):
            a = agent.choose_action(x, adj)
            x2, adj2, r, done = env.step(a)
            agent.buffer.add(x, adj, a, r, x2, done)
            x, adj = x2, adj2
            steps += 1
            if steps > cfg["warmup"]:
                c_loss, a_loss = agent.learn_one_step()
        print(f"episode {ep}: critic_loss={c_loss:.4f} actor_loss={a_loss:.4f}")


if __name__ == "__main__":
    main(CFG)
