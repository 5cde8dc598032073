"""PPO training script (train.py style) for the agent in ppo.py on a toy
discrete task: collect update_timestep transitions with policy_old, then run
ppo_agent.update()."""
import numpy as np
import torch

from ppo import PPO


class ToyEnv:
    def __init__(self, state_dim=4, seed=0):
        self.rng, self.state_dim, self.t = np.random.default_rng(seed), state_dim, 0

    def reset(self):
        self.t = 0
        self.state = self.rng.normal(size=self.state_dim).astype(np.float32)
        return self.state

    def step(self, action):
        reward = 1.0 if action == int(self.state[0] > 0) else -0.1
        self.t += 1
        self.state = self.rng.normal(size=self.state_dim).astype(np.float32)
        return self.state, reward, self.t >= 8


def train(max_training_timesteps=96, update_timestep=32):
    torch.manual_seed(0)
    env = ToyEnv()
    ppo_agent = PPO(state_dim=4, action_dim=2)
    time_step, i_episode, log_running_reward = 0, 0, 0.0
    while time_step <= max_training_timesteps:
        state, current_ep_reward, done = env.reset(), 0.0, False
        while not done:
            action = ppo_agent.select_action(state)
            state, reward, done = env.step(action)
            ppo_agent.buffer.rewards.append(reward)
            ppo_agent.buffer.is_terminals.append(done)
            time_step += 1
            current_ep_reward += reward
            if time_step % update_timestep == 0:
                ppo_agent.update()
                print(f"timestep {time_step}: avg reward {log_running_reward / max(i_episode, 1):.3f}")
        log_running_reward += current_ep_reward
        i_episode += 1


if __name__ == "__main__":
    train()
