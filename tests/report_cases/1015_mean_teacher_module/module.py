import copy

import torch
import torch.nn as nn

from losses import class_loss, softmax_mse_loss
from utils import add_gaussian_noise, no_grad_method, sigmoid_rampup


def create_model(dim=20, num_classes=4, ema=False):
    model = nn.Sequential(nn.Linear(dim, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Dropout(0.1), nn.Linear(32, num_classes))
    if ema:
        for param in model.parameters():
            param.detach_()
    return model


class MeanTeacherModule(nn.Module):
    """LightningModule-shaped: training_step / configure_optimizers / on_train_batch_end."""

    def __init__(self, lr=0.05, ema_decay=0.99, consistency=10.0, rampup=5):
        super().__init__()
        self.student = create_model()
        self.teacher = create_model(ema=True)
        self.teacher.load_state_dict(self.student.state_dict())
        self.hparams = dict(lr=lr, ema_decay=ema_decay, consistency=consistency, rampup=rampup)
        self.global_step = 0
        self.logged = {}

    def configure_optimizers(self):
        return torch.optim.SGD(self.student.parameters(), lr=self.hparams["lr"], momentum=0.9, nesterov=True)

    def log(self, name, value):
        self.logged[name] = value.detach().item() if torch.is_tensor(value) else float(value)

    def training_step(self, batch, batch_idx):
        x, target = batch
        minibatch_size = len(target)
        labeled = int(target.ne(-1).sum())

        student_logits = self.student(add_gaussian_noise(x))
        with torch.no_grad():
            teacher_logits = self.teacher(add_gaussian_noise(x))

        loss_class = class_loss(student_logits, target) / max(labeled, 1)
        weight = self.hparams["consistency"] * sigmoid_rampup(self.global_step, self.hparams["rampup"])
        loss_cons = weight * softmax_mse_loss(student_logits, teacher_logits) / minibatch_size
        loss = loss_class + loss_cons

        self.log("train/class", loss_class)
        self.log("train/cons", loss_cons)
        return loss

    @no_grad_method
    def on_train_batch_end(self):
        self.global_step += 1
        alpha = min(1 - 1 / (self.global_step + 1), self.hparams["ema_decay"])
        for ema_param, param in zip(self.teacher.parameters(), self.student.parameters()):
            ema_param.mul_(alpha).add_(param, alpha=1 - alpha)
        for ema_buf, buf in zip(self.teacher.buffers(), self.student.buffers()):
            ema_buf.copy_(buf)
