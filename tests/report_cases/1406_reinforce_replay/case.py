import torch

from agent import Agent


class ToyBalanceEnv:
    """Tiny stand-in for CartPole: keep a noisy scalar near zero."""

    def __init__(self, horizon=6, seed=0):
        self.horizon = horizon
        self.gen = torch.Generator().manual_seed(seed)

    def reset(self):
        self.t = 0
        self.state = torch.randn(4, generator=self.gen) * 0.1
        return self.state

    def step(self, action):
        push = 0.1 if action == 1 else -0.1
        self.state = self.state + push + 0.05 * torch.randn(4, generator=self.gen)
        self.t += 1
        reward = float(1.0 - self.state.abs().mean())
        done = self.t >= self.horizon
        return self.state, reward, done


def finish_episode(agent):
    batch = agent.sample()
    returns = torch.stack([t.ret for t in batch])
    agent.optimizer.zero_grad()
    loss = (-agent.log_probs(batch) * returns).sum()
    loss.backward()
    agent.optimizer.step()
    return loss.item()


def main(num_episodes=4):
    torch.manual_seed(0)
    env = ToyBalanceEnv()
    agent = Agent()
    running_reward = 0.0
    for i_episode in range(num_episodes):
        state, ep_reward, done = env.reset(), 0.0, False
        while not done:
            action = agent.select_action(state)
            state, reward, done = env.step(action)
            agent.rewards.append(reward)
            ep_reward += reward
        agent.end_episode()
        running_reward = 0.05 * ep_reward + 0.95 * running_reward
        loss = finish_episode(agent)
        print(f"episode {i_episode} reward {ep_reward:.2f} running {running_reward:.2f} loss {loss:.3f}")


if __name__ == "__main__":
    main()
