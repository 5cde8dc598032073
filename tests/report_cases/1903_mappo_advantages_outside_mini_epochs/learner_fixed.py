"""PPO learner for multi-agent PPO (MAPPO) with a centralised critic."""
import torch
import torch.nn.functional as F


class PPOLearner:
    def __init__(self, agent, critic, args):
        self.agent = agent
        self.critic = critic
        self.args = args
        self.agent_optimiser = torch.optim.Adam(agent.parameters(), lr=args["lr"])
        self.critic_optimiser = torch.optim.Adam(critic.parameters(), lr=args["critic_lr"])

    def _returns(self, rewards, terminated, last_value):
        returns = torch.zeros_like(rewards)
        running = last_value
        for t in reversed(range(rewards.size(0))):
            running = rewards[t] + self.args["gamma"] * running * (1 - terminated[t])
            returns[t] = running
        return returns

    def train(self, batch):
        obs, state, actions = batch["obs"], batch["state"], batch["actions"]
        rewards, terminated = batch["reward"], batch["terminated"]

        with torch.no_grad():
            old_logits = self.agent(obs)
            old_log_pi = F.log_softmax(old_logits, dim=-1).gather(-1, actions).squeeze(-1)
            last_value = self.critic(batch["last_state"]).squeeze(-1)

        values = self.critic(state).squeeze(-1)
        returns = self._returns(rewards, terminated, last_value)
        advantages = (returns - values).detach().unsqueeze(-1).expand_as(old_log_pi)

        stats = []
        for _ in range(self.args["mini_epochs"]):
            logits = self.agent(obs)
            log_pi = F.log_softmax(logits, dim=-1).gather(-1, actions).squeeze(-1)
            ratios = torch.exp(log_pi - old_log_pi)
            surr1 = ratios * advantages
            surr2 = torch.clamp(ratios, 1 - self.args["eps_clip"], 1 + self.args["eps_clip"]) * advantages
            entropy = -(F.softmax(logits, -1) * F.log_softmax(logits, -1)).sum(-1)
            pg_loss = -(torch.min(surr1, surr2) + self.args["entropy_coef"] * entropy).mean()

            self.agent_optimiser.zero_grad()
            pg_loss.backward()
            torch.nn.utils.clip_grad_norm_(self.agent.parameters(), self.args["grad_norm_clip"])
            self.agent_optimiser.step()

            new_values = self.critic(state).squeeze(-1)
            critic_loss = F.mse_loss(new_values, returns)
            self.critic_optimiser.zero_grad()
            critic_loss.backward()
            self.critic_optimiser.step()
            stats.append((pg_loss.item(), critic_loss.item()))
        return stats
