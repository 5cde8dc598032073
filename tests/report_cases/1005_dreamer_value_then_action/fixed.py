import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils import clip_grad_norm_

STATE, ACTION, OBS, HID = 8, 2, 12, 32


class TransitionModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.prior = nn.Sequential(nn.Linear(STATE + ACTION, HID), nn.ELU(), nn.Linear(HID, STATE))
        self.posterior = nn.Sequential(nn.Linear(STATE + OBS, HID), nn.ELU(), nn.Linear(HID, STATE))

    def imagine(self, state, action):
        return torch.tanh(self.prior(torch.cat([state, action], dim=-1)))

    def observe(self, state, obs):
        return torch.tanh(self.posterior(torch.cat([state, obs], dim=-1)))


class RewardModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(STATE, HID), nn.ELU(), nn.Linear(HID, 1))

    def forward(self, state):
        return self.fc(state)


class ValueModel(RewardModel):
    pass


class ActionModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(STATE, HID), nn.ELU(), nn.Linear(HID, ACTION))

    def forward(self, state):
        return torch.tanh(self.fc(state))


def lambda_target(rewards, values, gamma=0.99, lambda_=0.95):
    """TD(lambda) returns over an imagined trajectory (time first)."""
    horizon = rewards.shape[0]
    targets = torch.zeros_like(values)
    last = values[-1]
    for t in reversed(range(horizon)):
        last = rewards[t] + gamma * ((1 - lambda_) * values[t] + lambda_ * last)
        targets[t] = last
    return targets


def main(iterations=4, batch=16, seq=6, horizon=5, clip=100.0):
    transition, reward_model = TransitionModel(), RewardModel()
    value_model, action_model = ValueModel(), ActionModel()
    model_params = list(transition.parameters()) + list(reward_model.parameters())
    model_optimizer = torch.optim.Adam(model_params, lr=6e-4)
    value_optimizer = torch.optim.Adam(value_model.parameters(), lr=8e-5)
    action_optimizer = torch.optim.Adam(action_model.parameters(), lr=8e-5)

    for it in range(iterations):
        observations = torch.randn(seq, batch, OBS)
        actions = torch.rand(seq, batch, ACTION) * 2 - 1
        rewards = observations[..., :1]

        # world model learning on the replayed sequence
        state = torch.zeros(batch, STATE)
        posteriors, model_loss = [], 0.0
        for t in range(seq):
            prior = transition.imagine(state, actions[t])
            state = transition.observe(state, observations[t])
            posteriors.append(state)
            model_loss = model_loss + F.mse_loss(prior, state.detach()) + F.mse_loss(reward_model(state), rewards[t])
        model_optimizer.zero_grad()
        model_loss.backward()
        clip_grad_norm_(model_params, clip)
        model_optimizer.step()

        # imagination from the posterior states
        flatten_states = torch.cat(posteriors).detach()
        imaginated_states = [flatten_states]
        for h in range(1, horizon + 1):
            actions_im = action_model(imaginated_states[-1])
            imaginated_states.append(transition.imagine(imaginated_states[-1], actions_im))
        imaginated_states = torch.stack(imaginated_states[1:])

        imaginated_rewards = reward_model(imaginated_states)
        imaginated_values = value_model(imaginated_states)
        lambda_target_values = lambda_target(imaginated_rewards, imaginated_values)

        # update action model (multiply -1 for gradient ascent)
        action_loss = -1 * (lambda_target_values.mean())
        action_optimizer.zero_grad()
        action_loss.backward()
        clip_grad_norm_(action_model.parameters(), clip)
        action_optimizer.step()

        # update value model
        value_loss = 0.5 * F.mse_loss(value_model(imaginated_states.detach()), lambda_target_values.detach())
        value_optimizer.zero_grad()
        value_loss.backward()
        clip_grad_norm_(value_model.parameters(), clip)
        value_optimizer.step()

        print(f"it {it}: model {model_loss.item():.3f} value {value_loss.item():.3f} action {action_loss.item():.3f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    main()
