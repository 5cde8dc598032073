"""BYOL pieces in the style of pl_bolts (byol_module.py / callbacks): an online
SiameseArm, a deep-copied target network evaluated under torch.no_grad(), and a
moving-average weight update applied after each optimizer step."""
import copy
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class MLP(nn.Module):
    def __init__(self, input_dim=32, hidden_size=64, output_dim=16):
        super().__init__()
        self.model = nn.Sequential(nn.Linear(input_dim, hidden_size), nn.BatchNorm1d(hidden_size),
                                   nn.ReLU(inplace=True), nn.Linear(hidden_size, output_dim))

    def forward(self, x):
        return self.model(x)


class SiameseArm(nn.Module):
    def __init__(self, in_dim=24, encoder_out_dim=32):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(in_dim, 48), nn.ReLU(), nn.Linear(48, encoder_out_dim))
        self.projector = MLP(encoder_out_dim, 64, 16)
        self.predictor = MLP(16, 64, 16)

    def forward(self, x):
        y = self.encoder(x)
        z = self.projector(y)
        h = self.predictor(z)
        return y, z, h


class BYOLMAWeightUpdate:
    def __init__(self, initial_tau=0.996):
        self.initial_tau = initial_tau
        self.current_tau = initial_tau

    def on_train_batch_end(self, model, global_step, max_steps):
        self.update_weights(model.online_network, model.target_network)
        self.current_tau = 1 - (1 - self.initial_tau) * (math.cos(math.pi * global_step / max_steps) + 1) / 2

    def update_weights(self, online_net, target_net):
        for (name, online_p), (_, target_p) in zip(online_net.named_parameters(), target_net.named_parameters()):
            target_p.data = self.current_tau * target_p.data + (1 - self.current_tau) * online_p.data


class BYOL(nn.Module):
    def __init__(self, learning_rate=0.2):
        super().__init__()
        self.online_network = SiameseArm()
        self.target_network = copy.deepcopy(self.online_network)
        self.learning_rate = learning_rate

    def shared_step(self, batch):
        img_1, img_2 = batch

        # Image 1 to image 2 loss
        y1, z1, h1 = self.online_network(img_1)
        with torch.no_grad():
            y2, z2, h2 = self.target_network(img_2)
        loss_a = -2 * F.cosine_similarity(h1, z2).mean()

        # Image 2 to image 1 loss
        y1, z1, h1 = self.online_network(img_2)
        with torch.no_grad():
            y2, z2, h2 = self.target_network(img_1)
        loss_b = -2 * F.cosine_similarity(h1, z2).mean()

        return loss_a, loss_b, loss_a + loss_b

    def training_step(self, batch):
        loss_a, loss_b, total_loss = self.shared_step(batch)
        logs = {"1_2_loss": loss_a.item(), "2_1_loss": loss_b.item(), "train_loss": total_loss.item()}
        return total_loss, logs

    def configure_optimizers(self):
        return torch.optim.SGD(self.online_network.parameters(), lr=self.learning_rate, momentum=0.9)
