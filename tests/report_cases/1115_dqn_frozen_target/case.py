"""DQN on a toy chain environment; the target network is a frozen, periodically synced copy."""
import torch
import torch.nn.functional as F

from agent import DQNAgent


class ChainEnv:
    def __init__(self, n=6):
        self.n, self.pos = n, 0

    def _obs(self):
        return F.one_hot(torch.tensor(self.pos), self.n).float()

    def reset(self):
        self.pos = 0
        return self._obs()

    def step(self, action):
        self.pos = min(self.n - 1, self.pos + 1) if action == 1 else max(0, self.pos - 1)
        done = self.pos == self.n - 1
        return self._obs(), float(done), done


def learn(agent, optimizer):
    if agent.memory.mem_cntr < agent.batch_size:
        return None
    optimizer.zero_grad()
    agent.replace_target_network()
    states, actions, rewards, states_, dones = agent.memory.sample_buffer(agent.batch_size)
    indices = torch.arange(agent.batch_size)
    q_pred = agent.q_eval(states)[indices, actions]
    q_target = agent.compute_targets(rewards, states_, dones)
    loss = F.mse_loss(q_pred, q_target)
    loss.backward()
    optimizer.step()
    agent.learn_step_counter += 1
    agent.decrement_epsilon()
    return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    env = ChainEnv()
    agent = DQNAgent(input_dims=env.n, n_actions=2)
    optimizer = torch.optim.RMSprop(agent.q_eval.parameters(), lr=1e-3)
    for episode in range(4):
        obs, done, score, steps = env.reset(), False, 0.0, 0
        while not done and steps < 20:
            action = agent.choose_action(obs)
            obs_, reward, done = env.step(action)
            agent.memory.store_transition(obs, action, reward, obs_, done)
            if (loss := learn(agent, optimizer)) is not None and steps % 5 == 0:
                print(f"episode {episode} step {steps} loss {loss:.4f} eps {agent.epsilon:.2f}")
            obs, score, steps = obs_, score + reward, steps + 1
