"""Evolving self-organising network (ESOWN-style trainer): a task network is trained on regression
while a small policy network learns, by REINFORCE, which structural mutation to apply to it."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class EvolvingMLP(nn.Module):
    def __init__(self, d_in=6, hidden=16):
        super().__init__()
        self.fc1 = nn.Linear(d_in, hidden)
        self.fc2 = nn.Linear(hidden, 1)
        self.register_buffer("mask", torch.ones(hidden))
        self.policy = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 3))   # prune / grow / keep

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)) * self.mask)

    def evolve_with_policy(self, loss_value, epsilon):
        state = torch.tensor([loss_value, self.mask.mean().item(), epsilon])
        dist = torch.distributions.Categorical(logits=self.policy(state))
        action = dist.sample()
        if action.item() == 0:
            self.mask[torch.randint(0, len(self.mask), (1,))] = 0.0
        elif action.item() == 1:
            self.mask[torch.randint(0, len(self.mask), (1,))] = 1.0
        reward = -loss_value - 0.1 * self.mask.mean().item()
        return {"total_reward": reward, "log_prob": dist.log_prob(action).item()}


class Trainer:
    def __init__(self, model, policy_freq=2):
        self.model = model
        self.optimizer = torch.optim.Adam([p for n, p in model.named_parameters() if not n.startswith("policy")], lr=1e-2)
        self.policy_optimizer = torch.optim.Adam(model.policy.parameters(), lr=1e-2)
        self.policy_freq = policy_freq

    def train(self, steps=6, epsilon=0.1):
        for global_step in range(1, steps + 1):
            x = torch.randn(32, 6)
            y = x[:, :1] * 2 - x[:, 1:2]
            loss = F.mse_loss(self.model(x), y)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            if global_step % self.policy_freq == 0:
                with torch.no_grad():
                    evo_stats = self.model.evolve_with_policy(loss.item(), epsilon)
                # Update policy
                reward = torch.tensor(evo_stats["total_reward"])
                log_prob = torch.tensor(evo_stats["log_prob"])
                policy_loss = -(log_prob * reward)
                self.policy_optimizer.zero_grad()
                policy_loss.backward()
                self.policy_optimizer.step()
            print(f"step {global_step} loss {loss.item():.4f} active {self.model.mask.mean().item():.2f}")


if __name__ == "__main__":
    Trainer(EvolvingMLP()).train()
