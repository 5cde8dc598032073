import torch
import torch.nn as nn
import torch.nn.functional as F


class QNetwork(nn.Module):
    def __init__(self, obs_dim, num_actions, hidden=32):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.advantage = nn.Linear(hidden, num_actions)
        self.value = nn.Linear(hidden, 1)

    def forward(self, obs):
        h = self.body(obs)
        adv = self.advantage(h)
        return self.value(h) + adv - adv.mean(dim=1, keepdim=True)


def huber_loss(x, delta=1.0):
    return torch.where(torch.abs(x) < delta, torch.pow(x, 2.0) * 0.5, delta * (torch.abs(x) - 0.5 * delta))


class QLoss:
    def __init__(self, q_t_selected, q_tp1_best, importance_weights, rewards, done_mask, gamma=0.99):
        q_tp1_best_masked = (1.0 - done_mask) * q_tp1_best
        q_t_selected_target = rewards + gamma * q_tp1_best_masked
        self.td_error = q_t_selected - q_t_selected_target.detach()
        self.loss = torch.mean(importance_weights.float() * huber_loss(self.td_error))
        self.stats = {
            "mean_q": torch.mean(q_t_selected).item(),
            "mean_td_error": torch.mean(self.td_error).item(),
        }


def build_q_losses(model, target_model, train_batch, num_actions, double_q=True):
    q_t = model(train_batch["obs"])
    one_hot_selection = F.one_hot(train_batch["actions"].long(), num_actions)
    q_t_selected = torch.sum(q_t * one_hot_selection, 1)

    with torch.no_grad():
        q_tp1 = target_model(train_batch["new_obs"])
        if double_q:
            q_tp1_using_online_net = model(train_batch["new_obs"])
            q_tp1_best_using_online_net = torch.argmax(q_tp1_using_online_net, 1)
            q_tp1_best_one_hot_selection = F.one_hot(q_tp1_best_using_online_net, num_actions)
        else:
            q_tp1_best_one_hot_selection = F.one_hot(torch.argmax(q_tp1, 1), num_actions)
        q_tp1_best = torch.sum(q_tp1 * q_tp1_best_one_hot_selection, 1)

    q_loss = QLoss(q_t_selected, q_tp1_best, train_batch["weights"], train_batch["rewards"],
                   train_batch["dones"].float())
    return q_loss.loss, q_loss
