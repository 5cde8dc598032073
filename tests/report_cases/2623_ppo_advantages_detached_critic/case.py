import torch
import torch.nn as nn
from torch.distributions import Categorical

torch.manual_seed(0)


class Memory:
    def __init__(self):
        self.actions, self.states, self.logprobs, self.rewards, self.is_terminals = [], [], [], [], []

    def clear_memory(self):
        self.__init__()


class ActorCritic(nn.Module):
    def __init__(self, state_dim, action_dim, n_latent_var):
        super().__init__()
        self.action_layer = nn.Sequential(nn.Linear(state_dim, n_latent_var), nn.Tanh(),
                                          nn.Linear(n_latent_var, action_dim), nn.Softmax(dim=-1))
        self.value_layer = nn.Sequential(nn.Linear(state_dim, n_latent_var), nn.Tanh(),
                                         nn.Linear(n_latent_var, 1))

    def act(self, state, memory):
        action_probs = self.action_layer(state)
        dist = Categorical(action_probs)
        action = dist.sample()
        memory.states.append(state)
        memory.actions.append(action)
        memory.logprobs.append(dist.log_prob(action))
        return action.item()

    def evaluate(self, state, action):
        dist = Categorical(self.action_layer(state))
        return dist.log_prob(action), torch.squeeze(self.value_layer(state)), dist.entropy()


class PPO:
    def __init__(self, state_dim, action_dim, n_latent_var=32, lr=2e-3, gamma=0.99, K_epochs=4, eps_clip=0.2):
        self.gamma, self.eps_clip, self.K_epochs = gamma, eps_clip, K_epochs
        self.policy = ActorCritic(state_dim, action_dim, n_latent_var)
        self.optimizer = torch.optim.Adam(self.policy.parameters(), lr=lr)
        self.policy_old = ActorCritic(state_dim, action_dim, n_latent_var)
        self.policy_old.load_state_dict(self.policy.state_dict())
        self.MseLoss = nn.MSELoss()

    def update(self, memory):
        rewards, discounted_reward = [], 0
        for reward, is_terminal in zip(reversed(memory.rewards), reversed(memory.is_terminals)):
            if is_terminal:
                discounted_reward = 0
            discounted_reward = reward + self.gamma * discounted_reward
            rewards.insert(0, discounted_reward)
        rewards = torch.tensor(rewards, dtype=torch.float32)
        rewards = (rewards - rewards.mean()) / (rewards.std() + 1e-5)
        old_states = torch.stack(memory.states).detach()
        old_actions = torch.stack(memory.actions).detach()
        old_logprobs = torch.stack(memory.logprobs).detach()
        for _ in range(self.K_epochs):
            logprobs, state_values, dist_entropy = self.policy.evaluate(old_states, old_actions)
            ratios = torch.exp(logprobs - old_logprobs.detach())
            advantages = rewards - state_values.detach()
            surr1 = ratios * advantages
            surr2 = torch.clamp(ratios, 1 - self.eps_clip, 1 + self.eps_clip) * advantages
            loss = -torch.min(surr1, surr2) + 0.5 * self.MseLoss(state_values, rewards) - 0.01 * dist_entropy
            self.optimizer.zero_grad()
            loss.mean().backward()
            self.optimizer.step()
        self.policy_old.load_state_dict(self.policy.state_dict())


ppo = PPO(state_dim=4, action_dim=2)
memory = Memory()
for episode in range(3):
    state = torch.randn(4)
    for t in range(20):
        action = ppo.policy_old.act(state, memory)
        memory.rewards.append(float(action == int(state[0] > 0)))
        memory.is_terminals.append(t == 19)
        state = torch.randn(4)
    ppo.update(memory)
    memory.clear_memory()
    print("episode", episode, "critic bias", round(ppo.policy.value_layer[2].bias.item(), 4))
