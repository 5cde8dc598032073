import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

torch.manual_seed(0)


class Approximation:
    """autonomous-learning-library style wrapper: a module plus its own optimizer."""

    def __init__(self, model, lr=1e-3):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)

    def __call__(self, *inputs):
        return self.model(*inputs)

    def reinforce(self, loss):
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()


class FeatureNetwork(Approximation):
    """Heads backpropagate into a detached copy of the features; reinforce() then runs the
    single backward through the shared feature graph with the accumulated gradient."""

    def __call__(self, states):
        if not torch.is_grad_enabled():
            return self.model(states)
        self._cache = self.model(states)
        self._out = self._cache.detach().requires_grad_()
        return self._out

    def reinforce(self):
        self.optimizer.zero_grad()
        self._cache.backward(self._out.grad)
        self.optimizer.step()
        self._cache = self._out = None


class A2C:
    def __init__(self, features, v, policy, discount=0.99, entropy_loss_scaling=0.01):
        self.features, self.v, self.policy = features, v, policy
        self.discount, self.entropy_loss_scaling = discount, entropy_loss_scaling

    def train(self, states, actions, rewards, next_states, dones):
        features = self.features(states)
        values = self.v(features).squeeze(-1)
        distribution = Categorical(logits=self.policy(features))
        with torch.no_grad():
            next_values = self.v(self.features(next_states)).squeeze(-1)
        returns = rewards + self.discount * next_values * (1 - dones)
        advantages = returns - values.detach()
        policy_loss = -(distribution.log_prob(actions) * advantages).mean() \
            - self.entropy_loss_scaling * distribution.entropy().mean()
        self.v.reinforce(F.mse_loss(values, returns))
        self.policy.reinforce(policy_loss)
        self.features.reinforce()
        return policy_loss.item()


features = FeatureNetwork(nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU()))
v = Approximation(nn.Linear(32, 1))
policy = Approximation(nn.Linear(32, 2))
agent = A2C(features, v, policy)
for it in range(5):
    s, s2 = torch.randn(16, 4), torch.randn(16, 4)
    a = torch.randint(0, 2, (16,))
    r, d = torch.randn(16), (torch.rand(16) < 0.1).float()
    print(it, agent.train(s, a, r, s2, d))
