from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

from learner import Learner


@dataclass
class MetaArgs:
    n_way: int = 3
    k_spt: int = 2
    k_qry: int = 4
    in_dim: int = 10
    task_num: int = 4
    update_lr: float = 0.4
    meta_lr: float = 1e-3
    update_step: int = 1


class Meta(nn.Module):
    """Meta learner: inner-loop adaptation per task, returns the query losses per step."""

    def __init__(self, args: MetaArgs):
        super().__init__()
        self.update_lr = args.update_lr
        self.update_step = args.update_step
        self.net = Learner([("linear", (32, args.in_dim)), ("linear", (args.n_way, 32))])

    def forward(self, x_spt, y_spt, x_qry, y_qry):
        task_num = x_spt.size(0)
        losses_q = [0 for _ in range(self.update_step + 1)]
        corrects = [0 for _ in range(self.update_step + 1)]

        for i in range(task_num):
            # 1. run the i-th task and compute loss for k=0
            logits = self.net(x_spt[i], vars=None)
            loss = F.cross_entropy(logits, y_spt[i])
            grad = torch.autograd.grad(loss, self.net.parameters())
            fast_weights = [p - self.update_lr * g for g, p in zip(grad, self.net.parameters())]

            # this is the loss and accuracy before first update
            with torch.no_grad():
                logits_q = self.net(x_qry[i], self.net.parameters())
                losses_q[0] += F.cross_entropy(logits_q, y_qry[i])
                corrects[0] += (logits_q.argmax(dim=1) == y_qry[i]).sum().item()

            # this is the loss and accuracy after the first update; with update_step=1
            # it is the meta-objective, so it keeps its graph
            logits_q = self.net(x_qry[i], fast_weights)
            losses_q[1] += F.cross_entropy(logits_q, y_qry[i])
            with torch.no_grad():
                corrects[1] += (logits_q.argmax(dim=1) == y_qry[i]).sum().item()

            for k in range(1, self.update_step):
                logits = self.net(x_spt[i], fast_weights)
                loss = F.cross_entropy(logits, y_spt[i])
                grad = torch.autograd.grad(loss, fast_weights)
                fast_weights = [p - self.update_lr * g for g, p in zip(grad, fast_weights)]
                logits_q = self.net(x_qry[i], fast_weights)
                losses_q[k + 1] += F.cross_entropy(logits_q, y_qry[i])
                with torch.no_grad():
                    corrects[k + 1] += (logits_q.argmax(dim=1) == y_qry[i]).sum().item()

        return losses_q, corrects
