"""SE-SSD style self-ensembling: a student single-stage detector trained on
ground-truth targets plus consistency with an EMA teacher's soft predictions."""
import argparse

import torch
import torch.nn.functional as F

from detector import BEVDetector
from ema import create_ema_model, update_ema_variables


def augment(pillars):
    # global flip + scaling of the xyz columns
    out = pillars.clone()
    out[..., :3] = out[..., :3] * (0.95 + 0.1 * torch.rand(pillars.size(0), 1, 1))
    out[..., 1] = -out[..., 1]
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--iters", type=int, default=20)
    parser.add_argument("--batch", type=int, default=4)
    parser.add_argument("--ema_decay", type=float, default=0.999)
    parser.add_argument("--consistency_weight", type=float, default=1.0)
    args = parser.parse_args()
    torch.manual_seed(0)

    model = BEVDetector()
    ema_model = create_ema_model(model)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.01)
    global_step = 0
    for it in range(args.iters):
        pillars = torch.randn(args.batch, 256, 9)
        gt_cls = torch.randint(0, 3, (args.batch, 16, 16))
        gt_box = torch.randn(args.batch, 7, 16, 16)

        with torch.no_grad():
            ema_model.train()
            t_cls, t_box = ema_model(pillars)
        s_cls, s_box = model(augment(pillars))

        det_loss = F.cross_entropy(s_cls, gt_cls) + F.smooth_l1_loss(s_box, gt_box)
        consistency = (F.kl_div(F.log_softmax(s_cls, 1), F.softmax(t_cls, 1), reduction="batchmean")
                       + F.smooth_l1_loss(s_box, t_box))
        loss = det_loss + args.consistency_weight * consistency

        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        global_step += 1
        update_ema_variables(model, ema_model, global_step, args.ema_decay)
        if it % 5 == 0:
            print(f"iter {it} det {det_loss.item():.3f} consistency {consistency.item():.3f}")


if __name__ == "__main__":
    main()
