"""Option-Critic on a toy corridor: shared conv-free feature body, option-value head,
termination head and intra-option policies. Actor and critic have their own optimizers."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_STATES, N_ACTIONS, N_OPTIONS = 8, 3, 2
GAMMA, TERM_REG, ENT_REG = 0.99, 0.01, 0.01


class OptionCriticFeatures(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(N_STATES, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.Q = nn.Linear(hidden, N_OPTIONS)
        self.terminations = nn.Linear(hidden, N_OPTIONS)
        self.options_W = nn.Parameter(torch.randn(N_OPTIONS, hidden, N_ACTIONS) * 0.1)
        self.options_b = nn.Parameter(torch.zeros(N_OPTIONS, N_ACTIONS))

    def get_state(self, obs):
        return self.features(obs)

    def get_Q(self, state):
        return self.Q(state)

    def get_terminations(self, state):
        return torch.sigmoid(self.terminations(state))

    def get_action(self, state, option):
        logits = state @ self.options_W[option] + self.options_b[option]
        dist = torch.distributions.Categorical(logits=logits)
        action = dist.sample()
        return action, dist.log_prob(action), dist.entropy()


def one_hot(s):
    return F.one_hot(torch.tensor(s), N_STATES).float()


def env_step(s, a):
    s2 = max(0, min(N_STATES - 1, s + (1 if a == 2 else -1 if a == 0 else 0)))
    return s2, float(s2 == N_STATES - 1), s2 == N_STATES - 1


def main():
    oc = OptionCriticFeatures()
    actor_params = [oc.options_W, oc.options_b] + list(oc.terminations.parameters())
    critic_params = list(oc.features.parameters()) + list(oc.Q.parameters())
    actor_opt = torch.optim.RMSprop(actor_params, lr=1e-3)
    critic_opt = torch.optim.RMSprop(critic_params, lr=1e-3)

    for episode in range(3):
        s, option = 0, 0
        for t in range(6):
            obs = one_hot(s)
            state = oc.get_state(obs)
            action, logp, entropy = oc.get_action(state, option)
            s2, reward, done = env_step(s, action.item())
            next_state = oc.get_state(one_hot(s2))
            q = oc.get_Q(state)
            with torch.no_grad():
                next_q = oc.get_Q(next_state)
                beta_next = oc.get_terminations(next_state)[option]
                gt = reward + (1 - done) * GAMMA * ((1 - beta_next) * next_q[option] + beta_next * next_q.max())
            beta = oc.get_terminations(next_state)[option]

            # critic update first, then the actor (as in the paper)
            critic_loss = 0.5 * (q[option] - gt) ** 2
            critic_opt.zero_grad()
            critic_loss.backward(retain_graph=True)
            critic_opt.step()

            advantage = (gt - q[option]).detach()
            termination_loss = beta * ((q[option] - q.max()).detach() + TERM_REG) * (1 - done)
            policy_loss = -logp * advantage - ENT_REG * entropy
            actor_loss = termination_loss + policy_loss
            actor_opt.zero_grad()
            actor_loss.backward()
            actor_opt.step()

            if torch.rand(()) < beta.item():
                option = torch.randint(0, N_OPTIONS, ()).item()
            s = s2
            if done:
                break
        print("episode", episode, "critic loss", round(critic_loss.item(), 4))


if __name__ == "__main__":
    main()
