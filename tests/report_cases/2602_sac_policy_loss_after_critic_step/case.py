import torch
import torch.nn.functional as F

from networks import ActorNetwork, CriticNetwork, ValueNetwork, update_network_parameters

torch.manual_seed(0)


class Agent:
    def __init__(self, input_dims=3, n_actions=1, gamma=0.99, tau=0.005, reward_scale=2.0):
        self.gamma, self.tau, self.scale = gamma, tau, reward_scale
        self.actor = ActorNetwork(input_dims, n_actions)
        self.critic_1 = CriticNetwork(input_dims, n_actions)
        self.critic_2 = CriticNetwork(input_dims, n_actions)
        self.value = ValueNetwork(input_dims)
        self.target_value = ValueNetwork(input_dims)
        update_network_parameters(self.target_value, self.value, tau=1.0)

    def learn(self, state, action, reward, state_, done):
        value = self.value(state).view(-1)
        with torch.no_grad():
            value_ = self.target_value(state_).view(-1) * (1.0 - done)

        # one policy sample shared by the value, critic and actor updates
        actions, log_probs = self.actor.sample_normal(state, reparameterize=True)
        log_probs = log_probs.view(-1)
        q1_new_policy = self.critic_1(state, actions)
        q2_new_policy = self.critic_2(state, actions)
        critic_value = torch.min(q1_new_policy, q2_new_policy).view(-1)

        self.value.optimizer.zero_grad()
        value_target = (critic_value - log_probs).detach()
        value_loss = 0.5 * F.mse_loss(value, value_target)
        value_loss.backward()
        self.value.optimizer.step()

        self.critic_1.optimizer.zero_grad()
        self.critic_2.optimizer.zero_grad()
        q_hat = self.scale * reward + self.gamma * value_
        q1_old_policy = self.critic_1(state, action).view(-1)
        q2_old_policy = self.critic_2(state, action).view(-1)
        critic_loss = 0.5 * F.mse_loss(q1_old_policy, q_hat) + 0.5 * F.mse_loss(q2_old_policy, q_hat)
        critic_loss.backward()
        self.critic_1.optimizer.step()
        self.critic_2.optimizer.step()

        # actor update reuses critic_value computed before the critic step
        actor_loss = (log_probs - critic_value).mean()
        self.actor.optimizer.zero_grad()
        actor_loss.backward()
        self.actor.optimizer.step()

        update_network_parameters(self.target_value, self.value, self.tau)
        return value_loss.item(), critic_loss.item(), actor_loss.item()


agent = Agent()
batch = 64
for it in range(10):
    state = torch.randn(batch, 3)
    action = torch.rand(batch, 1) * 2 - 1
    reward = -(state ** 2).sum(1)
    state_ = state + 0.1 * torch.randn(batch, 3)
    done = (torch.rand(batch) < 0.05).float()
    print(it, agent.learn(state, action, reward, state_, done))
