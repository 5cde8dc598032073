"""Mean Teacher semi-supervised classification on synthetic features."""
import copy
from types import SimpleNamespace

import torch
import torch.nn as nn
import torch.nn.functional as F

args = SimpleNamespace(ema_decay=0.99, consistency=10.0, consistency_rampup=5, lr=0.05,
                       labeled_bs=8, unlabeled_bs=16, n_features=12, n_classes=3, steps=4,
                       noise_std=0.15)


def create_model(ema=False):
    model = nn.Sequential(nn.Linear(args.n_features, 32), nn.ReLU(), nn.Dropout(0.2),
                          nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, args.n_classes))
    return model


def sigmoid_rampup(current, rampup_length):
    if rampup_length == 0:
        return 1.0
    current = max(0.0, min(current, rampup_length))
    phase = 1.0 - current / rampup_length
    return float(torch.exp(torch.tensor(-5.0 * phase * phase)))


def softmax_mse_loss(input_logits, target_logits):
    return F.mse_loss(F.softmax(input_logits, dim=1), F.softmax(target_logits, dim=1), reduction="sum") \
        / input_logits.size(0)


class MeanTeacher:
    def __init__(self):
        self.model = create_model()
        self.ema_model = copy.deepcopy(self.model)
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=args.lr, momentum=0.9, nesterov=True)
        self.global_step = 0
        self.meters = {"class": [], "cons": []}

    @torch.no_grad()
    def update_ema_variables(self, alpha, global_step):
        alpha = min(1 - 1 / (global_step + 1), alpha)
        for ema_param, param in zip(self.ema_model.parameters(), self.model.parameters()):
            ema_param.mul_(alpha).add_(param, alpha=1 - alpha)

    def noisy(self, x):
        return x + args.noise_std * torch.randn_like(x)

    def train_step(self, x_l, y_l, x_u):
        self.model.train()
        self.ema_model.train()
        inputs = torch.cat([x_l, x_u])
        student_out = self.model(self.noisy(inputs))
        teacher_out = self.ema_model(self.noisy(inputs))

        class_loss = F.cross_entropy(student_out[: x_l.size(0)], y_l)
        weight = args.consistency * sigmoid_rampup(self.global_step, args.consistency_rampup)
        consistency_loss = weight * softmax_mse_loss(student_out, teacher_out)
        loss = class_loss + consistency_loss

        self.global_step += 1
        self.update_ema_variables(args.ema_decay, self.global_step)

        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.meters["class"].append(class_loss.item())
        self.meters["cons"].append(consistency_loss.item())


def main():
    torch.manual_seed(0)
    trainer = MeanTeacher()
    w = torch.randn(args.n_features, args.n_classes)
    for step in range(args.steps):
        x_l = torch.randn(args.labeled_bs, args.n_features)
        y_l = (x_l @ w).argmax(1)
        x_u = torch.randn(args.unlabeled_bs, args.n_features)
        trainer.train_step(x_l, y_l, x_u)
        print(f"step {step}: class={trainer.meters['class'][-1]:.4f} cons={trainer.meters['cons'][-1]:.4f}")


if __name__ == "__main__":
    main()
