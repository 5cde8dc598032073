"""Pre-allocated rollout storage and a minibatch container."""
import torch


class Batch:
    """Plain container of tensors; ``detach`` returns a graph-free copy."""

    def __init__(self, **tensors):
        self.__dict__.update(tensors)

    def detach(self):
        return Batch(**{k: v.detach() for k, v in self.__dict__.items()})


class RolloutBuffer:
    def __init__(self, num_steps, obs_dim):
        self.obs = torch.zeros(num_steps, obs_dim)
        self.actions = torch.zeros(num_steps, dtype=torch.long)
        self.logprobs = torch.zeros(num_steps)
        self.rewards = torch.zeros(num_steps)
        self.values = torch.zeros(num_steps)

    def add(self, step, obs, action, logprob, reward, value):
        self.obs[step] = obs
        self.actions[step] = action
        self.logprobs[step] = logprob
        self.rewards[step] = reward
        self.values[step] = value

    def compute_returns(self, next_value, gamma=0.99, lam=0.95):
        advantages = torch.zeros_like(self.rewards)
        lastgaelam = 0.0
        for t in reversed(range(len(self.rewards))):
            nextvalue = next_value if t == len(self.rewards) - 1 else self.values[t + 1]
            delta = self.rewards[t] + gamma * nextvalue - self.values[t]
            advantages[t] = lastgaelam = delta + gamma * lam * lastgaelam
        return Batch(obs=self.obs, actions=self.actions, logprobs=self.logprobs,
                     advantages=advantages, returns=advantages + self.values)
