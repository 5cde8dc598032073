import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
np.random.seed(0)

GAMMA, REWARD_STEPS, BATCH_SIZE = 0.99, 4, 16
LEARNING_RATE, ENTROPY_BETA, CLIP_GRAD = 1e-3, 0.01, 0.1


class AtariA2C(nn.Module):
    def __init__(self, obs_dim=6, n_actions=3):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, 32), nn.ReLU())
        self.policy = nn.Linear(32, n_actions)
        self.value = nn.Linear(32, 1)

    def forward(self, x):
        h = self.body(x)
        return self.policy(h), self.value(h)


def unpack_batch(batch, net):
    """Convert a batch of n-step transitions; bootstrap unfinished episodes with V(last_state)."""
    states, actions, rewards, not_done_idx, last_states = [], [], [], [], []
    for idx, exp in enumerate(batch):
        states.append(exp["state"])
        actions.append(exp["action"])
        rewards.append(exp["reward"])
        if exp["last_state"] is not None:
            not_done_idx.append(idx)
            last_states.append(exp["last_state"])
    states_v = torch.FloatTensor(np.array(states))
    actions_t = torch.LongTensor(actions)
    rewards_np = np.array(rewards, dtype=np.float32)
    if not_done_idx:
        last_states_v = torch.FloatTensor(np.array(last_states))
        last_vals_v = net(last_states_v)[1]
        last_vals_np = last_vals_v.data.cpu().numpy()[:, 0]
        rewards_np[not_done_idx] += GAMMA ** REWARD_STEPS * last_vals_np
    ref_vals_v = torch.FloatTensor(rewards_np)
    return states_v, actions_t, ref_vals_v


def make_batch():
    return [{"state": np.random.randn(6), "action": np.random.randint(3), "reward": np.random.randn(),
             "last_state": np.random.randn(6) if np.random.rand() > 0.2 else None} for _ in range(BATCH_SIZE)]


net = AtariA2C()
optimizer = torch.optim.Adam(net.parameters(), lr=LEARNING_RATE, eps=1e-3)
for step_idx in range(6):
    states_v, actions_t, vals_ref_v = unpack_batch(make_batch(), net)
    optimizer.zero_grad()
    logits_v, value_v = net(states_v)
    loss_value_v = F.mse_loss(value_v.squeeze(-1), vals_ref_v)
    log_prob_v = F.log_softmax(logits_v, dim=1)
    adv_v = vals_ref_v - value_v.squeeze(-1).detach()
    log_prob_actions_v = adv_v * log_prob_v[range(BATCH_SIZE), actions_t]
    loss_policy_v = -log_prob_actions_v.mean()
    prob_v = F.softmax(logits_v, dim=1)
    entropy_loss_v = ENTROPY_BETA * (prob_v * log_prob_v).sum(dim=1).mean()
    loss_v = entropy_loss_v + loss_value_v + loss_policy_v
    loss_v.backward()
    nn.utils.clip_grad_norm_(net.parameters(), CLIP_GRAD)
    optimizer.step()
    print(step_idx, round(loss_v.item(), 4))
