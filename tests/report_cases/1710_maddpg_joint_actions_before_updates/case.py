import numpy as np
import torch as T
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

T.manual_seed(0)
np.random.seed(0)


class CriticNetwork(nn.Module):
    def __init__(self, beta, input_dims, fc1_dims, fc2_dims, n_agents, n_actions):
        super(CriticNetwork, self).__init__()
        self.fc1 = nn.Linear(input_dims + n_agents * n_actions, fc1_dims)
        self.fc2 = nn.Linear(fc1_dims, fc2_dims)
        self.q = nn.Linear(fc2_dims, 1)
        self.optimizer = optim.Adam(self.parameters(), lr=beta)

    def forward(self, state, action):
        x = F.relu(self.fc1(T.cat([state, action], dim=1)))
        x = F.relu(self.fc2(x))
        return self.q(x)


class ActorNetwork(nn.Module):
    def __init__(self, alpha, input_dims, fc1_dims, fc2_dims, n_actions):
        super(ActorNetwork, self).__init__()
        self.fc1 = nn.Linear(input_dims, fc1_dims)
        self.fc2 = nn.Linear(fc1_dims, fc2_dims)
        self.pi = nn.Linear(fc2_dims, n_actions)
        self.optimizer = optim.Adam(self.parameters(), lr=alpha)

    def forward(self, state):
        x = F.relu(self.fc1(state))
        x = F.relu(self.fc2(x))
        return T.softmax(self.pi(x), dim=1)


class Agent:
    def __init__(self, actor_dims, critic_dims, n_actions, n_agents, agent_idx,
                 alpha=0.01, beta=0.01, fc1=64, fc2=64, gamma=0.95, tau=0.01):
        self.gamma = gamma
        self.tau = tau
        self.n_actions = n_actions
        self.agent_name = 'agent_%s' % agent_idx
        self.actor = ActorNetwork(alpha, actor_dims, fc1, fc2, n_actions)
        self.critic = CriticNetwork(beta, critic_dims, fc1, fc2, n_agents, n_actions)
        self.target_actor = ActorNetwork(alpha, actor_dims, fc1, fc2, n_actions)
        self.target_critic = CriticNetwork(beta, critic_dims, fc1, fc2, n_agents, n_actions)
        self.update_network_parameters(tau=1)

    def choose_action(self, observation):
        state = T.tensor(np.array([observation]), dtype=T.float)
        actions = self.actor.forward(state)
        noise = T.rand(self.n_actions)
        action = actions + noise
        return action.detach().numpy()[0]

    def update_network_parameters(self, tau=None):
        if tau is None:
            tau = self.tau
        for target, source in ((self.target_actor, self.actor), (self.target_critic, self.critic)):
            target_state = target.state_dict()
            source_state = source.state_dict()
            for name in source_state:
                source_state[name] = tau * source_state[name].clone() + (1 - tau) * target_state[name].clone()
            target.load_state_dict(source_state)


class MultiAgentReplayBuffer:
    def __init__(self, max_size, critic_dims, actor_dims, n_actions, n_agents, batch_size):
        self.mem_size = max_size
        self.mem_cntr = 0
        self.n_agents = n_agents
        self.actor_dims = actor_dims
        self.batch_size = batch_size
        self.state_memory = np.zeros((max_size, critic_dims))
        self.new_state_memory = np.zeros((max_size, critic_dims))
        self.reward_memory = np.zeros((max_size, n_agents))
        self.terminal_memory = np.zeros((max_size, n_agents), dtype=bool)
        self.actor_state_memory = [np.zeros((max_size, actor_dims[i])) for i in range(n_agents)]
        self.actor_new_state_memory = [np.zeros((max_size, actor_dims[i])) for i in range(n_agents)]
        self.actor_action_memory = [np.zeros((max_size, n_actions)) for _ in range(n_agents)]

    def store_transition(self, raw_obs, state, action, reward, raw_obs_, state_, done):
        index = self.mem_cntr % self.mem_size
        for agent_idx in range(self.n_agents):
            self.actor_state_memory[agent_idx][index] = raw_obs[agent_idx]
            self.actor_new_state_memory[agent_idx][index] = raw_obs_[agent_idx]
            self.actor_action_memory[agent_idx][index] = action[agent_idx]
        self.state_memory[index] = state
        self.new_state_memory[index] = state_
        self.reward_memory[index] = reward
        self.terminal_memory[index] = done
        self.mem_cntr += 1

    def sample_buffer(self):
        max_mem = min(self.mem_cntr, self.mem_size)
        batch = np.random.choice(max_mem, self.batch_size, replace=False)
        actor_states = [self.actor_state_memory[i][batch] for i in range(self.n_agents)]
        actor_new_states = [self.actor_new_state_memory[i][batch] for i in range(self.n_agents)]
        actions = [self.actor_action_memory[i][batch] for i in range(self.n_agents)]
        return (actor_states, self.state_memory[batch], actions, self.reward_memory[batch],
                actor_new_states, self.new_state_memory[batch], self.terminal_memory[batch])

    def ready(self):
        return self.mem_cntr >= self.batch_size


class MADDPG:
    def __init__(self, actor_dims, critic_dims, n_agents, n_actions, alpha=0.01, beta=0.01):
        self.agents = [Agent(actor_dims[i], critic_dims, n_actions, n_agents, i, alpha=alpha, beta=beta)
                       for i in range(n_agents)]
        self.n_agents = n_agents

    def choose_action(self, raw_obs):
        return [agent.choose_action(raw_obs[i]) for i, agent in enumerate(self.agents)]

    def learn(self, memory):
        if not memory.ready():
            return

        actor_states, states, actions, rewards, actor_new_states, states_, dones = memory.sample_buffer()

        states = T.tensor(states, dtype=T.float)
        actions = T.tensor(np.array(actions), dtype=T.float)
        rewards = T.tensor(rewards, dtype=T.float)
        states_ = T.tensor(states_, dtype=T.float)
        dones = T.tensor(dones)

        all_agents_new_actions = []
        all_agents_new_mu_actions = []
        old_agents_actions = []

        for agent_idx, agent in enumerate(self.agents):
            new_states = T.tensor(actor_new_states[agent_idx], dtype=T.float)
            new_pi = agent.target_actor.forward(new_states)
            all_agents_new_actions.append(new_pi)
            mu_states = T.tensor(actor_states[agent_idx], dtype=T.float)
            pi = agent.actor.forward(mu_states)
            all_agents_new_mu_actions.append(pi)
            old_agents_actions.append(actions[agent_idx])

        new_actions = T.cat([acts for acts in all_agents_new_actions], dim=1)
        mu = T.cat([acts for acts in all_agents_new_mu_actions], dim=1)
        old_actions = T.cat([acts for acts in old_agents_actions], dim=1)

        for agent_idx, agent in enumerate(self.agents):
            critic_value_ = agent.target_critic.forward(states_, new_actions).flatten()
            critic_value_ = critic_value_.masked_fill(dones[:, 0], 0.0)
            critic_value = agent.critic.forward(states, old_actions).flatten()

            target = rewards[:, agent_idx] + agent.gamma * critic_value_
            critic_loss = F.mse_loss(target, critic_value)
            agent.critic.optimizer.zero_grad()
            critic_loss.backward(retain_graph=True)
            agent.critic.optimizer.step()

            actor_loss = agent.critic.forward(states, mu).flatten()
            actor_loss = -T.mean(actor_loss)
            agent.actor.optimizer.zero_grad()
            actor_loss.backward(retain_graph=True)
            agent.actor.optimizer.step()

            agent.update_network_parameters()


class SimpleSpread:
    """Toy cooperative task: every agent should move towards a shared landmark."""

    def __init__(self, n_agents=3):
        self.n = n_agents

    def reset(self):
        self.landmark = np.random.uniform(-1, 1, 2)
        self.pos = np.random.uniform(-1, 1, (self.n, 2))
        self.t = 0
        return self._obs()

    def _obs(self):
        return [np.concatenate([self.pos[i], self.landmark - self.pos[i], [self.t / 25.0]]) for i in range(self.n)]

    def step(self, actions):
        moves = np.array([[a[1] - a[2], a[3] - a[4]] for a in actions])
        self.pos = np.clip(self.pos + 0.1 * moves, -1.5, 1.5)
        self.t += 1
        dist = np.linalg.norm(self.pos - self.landmark, axis=1)
        reward = [-dist.sum()] * self.n
        done = [self.t >= 25] * self.n
        return self._obs(), reward, done


def obs_list_to_state_vector(observation):
    return np.concatenate(observation)


if __name__ == '__main__':
    env = SimpleSpread(3)
    n_agents, n_actions = 3, 5
    actor_dims = [5] * n_agents
    critic_dims = sum(actor_dims)
    maddpg_agents = MADDPG(actor_dims, critic_dims, n_agents, n_actions)
    memory = MultiAgentReplayBuffer(10000, critic_dims, actor_dims, n_actions, n_agents, batch_size=64)

    total_steps = 0
    for episode in range(6):
        obs = env.reset()
        score, done = 0, [False] * n_agents
        while not any(done):
            actions = maddpg_agents.choose_action(obs)
            obs_, reward, done = env.step(actions)
            memory.store_transition(obs, obs_list_to_state_vector(obs), actions, reward,
                                    obs_, obs_list_to_state_vector(obs_), done)
            if total_steps % 10 == 0:
                maddpg_agents.learn(memory)
            obs = obs_
            score += sum(reward)
            total_steps += 1
        print('episode', episode, 'score %.1f' % score)
