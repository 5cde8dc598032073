import torch

from losses import debiased_loss, discriminator_loss, genb_loss
from model import BaseModel, Discriminator, GenB


def train(epochs=3):
    torch.manual_seed(0)
    model, genb, disc = BaseModel(), GenB(), Discriminator()
    optim = torch.optim.Adamax(model.parameters(), lr=2e-3)
    optim_G = torch.optim.Adamax(genb.parameters(), lr=2e-3)
    optim_D = torch.optim.Adamax(disc.parameters(), lr=2e-3)
    v, q = torch.randn(8, 12), torch.randn(8, 8)
    a = (torch.rand(8, 6) > 0.7).float()
    for epoch in range(epochs):
        optim.zero_grad()
        pred = model(v, q)

        # train genb
        optim_G.zero_grad()
        pred_g = genb(v, q)
        g_loss = genb_loss(pred_g, a, disc)
        g_loss.backward(retain_graph=True)
        optim_G.step()

        # train the discriminator on base-model vs genb predictions
        optim_D.zero_grad()
        d_loss = discriminator_loss(disc, pred.detach(), pred_g)
        d_loss.backward()
        optim_D.step()

        # train the base model against the bias model
        loss = debiased_loss(pred, pred_g.detach(), a)
        loss.backward()
        optim.step()
        print(epoch, g_loss.item(), d_loss.item(), loss.item())


if __name__ == "__main__":
    train()
