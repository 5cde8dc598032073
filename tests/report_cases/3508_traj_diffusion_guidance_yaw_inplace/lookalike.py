"""Trajectory diffusion (DDPM, epsilon prediction) with an auxiliary guidance
loss: the predicted clean trajectory is expressed in the agent frame and its
heading should stay aligned with its own displacement (no sideways drift)."""
import math
import torch
import torch.nn.functional as F
from diffusion_utils import Denoiser, make_schedule, sample_batch, N_DIFF

torch.manual_seed(0)


def to_agent_frame(pred, ref_yaw):
    """Rotate predicted positions into the agent frame and make yaw relative."""
    pos, yaw_pred = pred[..., :2], pred[..., 2]
    c, s = torch.cos(ref_yaw)[:, None], torch.sin(ref_yaw)[:, None]
    local_x = c * pos[..., 0] + s * pos[..., 1]
    local_y = -s * pos[..., 0] + c * pos[..., 1]
    rel_yaw = yaw_pred - ref_yaw[:, None]             # new tensor
    rel_yaw[rel_yaw > math.pi] -= 2 * math.pi         # wrap to (-pi, pi], in place
    rel_yaw[rel_yaw <= -math.pi] += 2 * math.pi
    heading = torch.stack([torch.cos(yaw_pred), torch.sin(yaw_pred)], -1)
    return torch.stack([local_x, local_y], -1), rel_yaw, heading


def drift_loss(pred, ref_yaw):
    local_xy, rel_yaw, heading = to_agent_frame(pred, ref_yaw)
    disp = pred[:, 1:, :2] - pred[:, :-1, :2]
    lateral = disp[..., 0] * heading[:, 1:, 1] - disp[..., 1] * heading[:, 1:, 0]
    return lateral.pow(2).mean() + 0.01 * rel_yaw.pow(2).mean()


def main():
    model = Denoiser()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    alphas_bar = make_schedule()
    for step in range(8):
        cond, x0 = sample_batch()
        t = torch.randint(0, N_DIFF, (x0.size(0),))
        ab = alphas_bar[t][:, None, None]
        noise = torch.randn_like(x0)
        x_t = ab.sqrt() * x0 + (1 - ab).sqrt() * noise
        eps_hat = model(x_t, cond, t.float() / N_DIFF)
        x0_hat = (x_t - (1 - ab).sqrt() * eps_hat) / ab.sqrt()
        loss = F.mse_loss(eps_hat, noise) + 0.1 * drift_loss(x0_hat, cond[:, 2])
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
