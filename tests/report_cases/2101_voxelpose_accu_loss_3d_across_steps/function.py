"""Training routine (lib/core/function.py style)."""
import torch


class AverageMeter:
    def __init__(self):
        self.sum, self.count = 0.0, 0

    def update(self, val, n=1):
        self.sum += val * n
        self.count += n

    @property
    def avg(self):
        return self.sum / max(self.count, 1)


def train_3d(config, model, optimizer, loader, epoch):
    losses_3d, losses_cord = AverageMeter(), AverageMeter()
    accumulation_steps = config["accumulation_steps"]
    accu_loss_3d = 0

    model.train()
    for i, (input_heatmap, targets_3d, root_target) in enumerate(loader):
        pred, loss_2d, loss_3d, loss_cord = model(input_heatmap, targets_3d, root_target)

        losses_3d.update(loss_3d.item())
        losses_cord.update(loss_cord.item())

        if loss_cord > 0:
            optimizer.zero_grad(set_to_none=False)
            (loss_2d + loss_cord).backward()
            optimizer.step()

        if accu_loss_3d > 0 and (i + 1) % accumulation_steps == 0:
            optimizer.zero_grad(set_to_none=False)
            accu_loss_3d.backward()
            optimizer.step()
            accu_loss_3d = 0.0
        else:
            accu_loss_3d += loss_3d / accumulation_steps

    print(f"epoch {epoch}: loss_3d {losses_3d.avg:.4f} loss_cord {losses_cord.avg:.4f}")
