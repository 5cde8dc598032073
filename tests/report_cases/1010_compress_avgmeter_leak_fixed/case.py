import torch

from losses import RateDistortionLoss
from model import FactorizedPrior
from utils import AverageMeter


def configure_optimizers(net, learning_rate=1e-4, aux_learning_rate=1e-3):
    """Separate parameters for the main optimizer and the auxiliary optimizer."""
    named = dict(net.named_parameters())
    parameters = {n for n, p in named.items() if not n.endswith(".quantiles") and p.requires_grad}
    aux_parameters = {n for n, p in named.items() if n.endswith(".quantiles") and p.requires_grad}
    optimizer = torch.optim.Adam((named[n] for n in sorted(parameters)), lr=learning_rate)
    aux_optimizer = torch.optim.Adam((named[n] for n in sorted(aux_parameters)), lr=aux_learning_rate)
    return optimizer, aux_optimizer


def train_one_epoch(model, criterion, train_dataloader, optimizer, aux_optimizer, epoch, clip_max_norm=1.0):
    model.train()
    loss = AverageMeter()
    bpp_loss = AverageMeter()
    mse_loss = AverageMeter()
    aux = AverageMeter()

    for i, d in enumerate(train_dataloader):
        optimizer.zero_grad()
        aux_optimizer.zero_grad()

        out_net = model(d)
        out_criterion = criterion(out_net, d)
        out_criterion["loss"].backward()
        if clip_max_norm > 0:
            torch.nn.utils.clip_grad_norm_(model.parameters(), clip_max_norm)
        optimizer.step()

        aux_loss = model.aux_loss()
        aux_loss.backward()
        aux_optimizer.step()

        loss.update(out_criterion["loss"].item())
        bpp_loss.update(out_criterion["bpp_loss"].item())
        mse_loss.update(out_criterion["mse_loss"].item())
        aux.update(aux_loss.item())

        if i % 2 == 0:
            print(
                f"Train epoch {epoch}: [{i}/{len(train_dataloader)}]"
                f"\tLoss: {loss.avg:.3f} |"
                f"\tMSE loss: {mse_loss.avg:.5f} |"
                f"\tBpp loss: {bpp_loss.avg:.3f} |"
                f"\tAux loss: {aux.avg:.2f}"
            )
    return loss.avg


if __name__ == "__main__":
    torch.manual_seed(0)
    net = FactorizedPrior()
    criterion = RateDistortionLoss(lmbda=1e-2)
    optimizer, aux_optimizer = configure_optimizers(net)
    loader = [torch.rand(2, 3, 16, 16) for _ in range(4)]
    for epoch in range(2):
        train_one_epoch(net, criterion, loader, optimizer, aux_optimizer, epoch)
