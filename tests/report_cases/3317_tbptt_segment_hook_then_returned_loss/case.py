"""Behaviour-cloning trainer for the segmented recurrent policy (TBPTT via a backward hook)."""
import torch
from policy import SegmentedPolicy

torch.manual_seed(0)

CFG = dict(batch=8, episode_len=32, obs_dim=12, act_dim=4, n_modes=3, steps=4, lr=1e-3, tbptt=True)


class Accelerator:
    """Stand-in for the distributed wrapper: owns backward (loss scaling / sync would live here)."""

    def backward(self, loss):
        loss.backward()


def make_batch(cfg):
    return {"obs": torch.randn(cfg["batch"], cfg["episode_len"], cfg["obs_dim"]),
            "actions": torch.randn(cfg["batch"], cfg["episode_len"], cfg["act_dim"]),
            "modes": torch.randint(0, cfg["n_modes"], (cfg["batch"], cfg["episode_len"]))}


def train(cfg):
    policy = SegmentedPolicy(cfg["obs_dim"], cfg["act_dim"], cfg["n_modes"])
    accelerator = Accelerator()
    if cfg["tbptt"]:
        policy.tbptt_backward_fn = accelerator.backward
    optimizer = torch.optim.AdamW(policy.parameters(), lr=cfg["lr"])
    for step in range(cfg["steps"]):
        optimizer.zero_grad()
        loss_dict = policy.forward_sequence(make_batch(cfg))
        loss = sum(loss_dict.values())
        accelerator.backward(loss)
        optimizer.step()
        print(f"step {step}: " + ", ".join(f"{k}={v.item():.4f}" for k, v in loss_dict.items()))


if __name__ == "__main__":
    train(CFG)
