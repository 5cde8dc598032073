"""Training routine (lib/core/function.py style), fixed: the root-net loss of
each iteration is backpropagated together with the pose loss of the same
iteration, so no graph outlives an optimizer step."""
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
    root_weight = 1.0 / config["accumulation_steps"]

    model.train()
    for i, (input_heatmap, targets_3d, root_target) in enumerate(loader):
        pred, loss_2d, loss_3d, loss_cord = model(input_heatmap, targets_3d, root_target)

        losses_3d.update(loss_3d.item())
        losses_cord.update(loss_cord.item())

        loss = loss_2d + loss_cord + root_weight * loss_3d
        optimizer.zero_grad(set_to_none=False)
        loss.backward()
        optimizer.step()

    print(f"epoch {epoch}: loss_3d {losses_3d.avg:.4f} loss_cord {losses_cord.avg:.4f}")
