import torch
import torch.nn as nn

torch.manual_seed(0)
GAMMA = 0.99


class DQN(nn.Module):
    def __init__(self, n_obs=6, n_actions=3):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(n_obs, 64), nn.ReLU(), nn.Linear(64, n_actions))

    def forward(self, x):
        return self.fc(x)


def calc_loss(batch, net, tgt_net, double=True):
    states, actions, rewards, dones, next_states = batch
    state_action_values = net(states).gather(1, actions.unsqueeze(-1)).squeeze(-1)
    if double:
        next_state_actions = net(next_states).max(1)[1]
        next_state_values = tgt_net(next_states).gather(1, next_state_actions.unsqueeze(-1)).squeeze(-1)
    else:
        next_state_values = tgt_net(next_states).max(1)[0]
    next_state_values[dones] = 0.0
    expected_state_action_values = next_state_values.detach() * GAMMA + rewards
    return nn.MSELoss()(state_action_values, expected_state_action_values)


net, tgt_net = DQN(), DQN()
tgt_net.load_state_dict(net.state_dict())
optimizer = torch.optim.Adam(net.parameters(), lr=1e-4)
for frame_idx in range(1, 13):
    batch = (torch.randn(32, 6), torch.randint(0, 3, (32,)), torch.randn(32),
             torch.rand(32) < 0.1, torch.randn(32, 6))
    optimizer.zero_grad()
    loss_t = calc_loss(batch, net, tgt_net, double=True)
    loss_t.backward()
    optimizer.step()
    if frame_idx % 4 == 0:
        tgt_net.load_state_dict(net.state_dict())
