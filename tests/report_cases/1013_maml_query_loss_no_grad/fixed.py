from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import autograd


@dataclass
class MetaArgs:
    n_way: int = 3
    k_spt: int = 2
    k_qry: int = 4
    task_num: int = 2
    update_lr: float = 0.4
    meta_lr: float = 1e-3
    update_step: int = 1
    update_step_test: int = 3
    in_dim: int = 10


class Learner(nn.Module):
    """Functional MLP whose forward can run on an explicit list of weights."""

    def __init__(self, config):
        super().__init__()
        self.config = config
        self.vars = nn.ParameterList()
        for name, (out_f, in_f) in config:
            w = nn.Parameter(torch.empty(out_f, in_f))
            nn.init.kaiming_normal_(w)
            self.vars.append(w)
            self.vars.append(nn.Parameter(torch.zeros(out_f)))

    def forward(self, x, vars=None):
        vars = self.vars if vars is None else vars
        idx = 0
        for i, (name, _) in enumerate(self.config):
            x = F.linear(x, vars[idx], vars[idx + 1])
            idx += 2
            if i < len(self.config) - 1:
                x = F.relu(x)
        return x

    def parameters(self, recurse=True):
        return self.vars


class Meta(nn.Module):
    def __init__(self, args, config):
        super().__init__()
        self.update_lr = args.update_lr
        self.meta_lr = args.meta_lr
        self.task_num = args.task_num
        self.update_step = args.update_step
        self.net = Learner(config)
        self.meta_optim = torch.optim.Adam(self.net.parameters(), lr=self.meta_lr)

    def forward(self, x_spt, y_spt, x_qry, y_qry):
        task_num = x_spt.size(0)
        losses_q = [0 for _ in range(self.update_step + 1)]
        corrects = [0 for _ in range(self.update_step + 1)]

        for i in range(task_num):
            # 1. run the i-th task and compute loss for k=0
            logits = self.net(x_spt[i], vars=None)
            loss = F.cross_entropy(logits, y_spt[i])
            grad = autograd.grad(loss, self.net.parameters())
            fast_weights = list(map(lambda p: p[1] - self.update_lr * p[0], zip(grad, self.net.parameters())))

            # this is the loss and accuracy before first update
            with torch.no_grad():
                logits_q = self.net(x_qry[i], self.net.parameters())
                loss_q = F.cross_entropy(logits_q, y_qry[i])
                losses_q[0] += loss_q
                corrects[0] += (logits_q.argmax(dim=1) == y_qry[i]).sum().item()

            # this is the loss and accuracy after the first update; it must keep its graph,
            # since with update_step == 1 it is the meta-objective
            logits_q = self.net(x_qry[i], fast_weights)
            loss_q = F.cross_entropy(logits_q, y_qry[i])
            losses_q[1] += loss_q
            corrects[1] += (logits_q.argmax(dim=1) == y_qry[i]).sum().item()

            for k in range(1, self.update_step):
                logits = self.net(x_spt[i], fast_weights)
                loss = F.cross_entropy(logits, y_spt[i])
                grad = autograd.grad(loss, fast_weights)
                fast_weights = [w - self.update_lr * g for g, w in zip(grad, fast_weights)]
                logits_q = self.net(x_qry[i], fast_weights)
                loss_q = F.cross_entropy(logits_q, y_qry[i])
                losses_q[k + 1] += loss_q
                corrects[k + 1] += (logits_q.argmax(dim=1) == y_qry[i]).sum().item()

        # end of all tasks: sum over all losses on query set across all tasks
        loss_q = losses_q[-1] / task_num
        self.meta_optim.zero_grad()
        loss_q.backward()
        self.meta_optim.step()

        querysz = x_qry.size(1)
        return [c / (querysz * task_num) for c in corrects]


def sample_tasks(args):
    n_spt, n_qry = args.n_way * args.k_spt, args.n_way * args.k_qry
    protos = torch.randn(args.task_num, args.n_way, args.in_dim)
    y_spt = torch.arange(args.n_way).repeat(args.k_spt).expand(args.task_num, n_spt)
    y_qry = torch.arange(args.n_way).repeat(args.k_qry).expand(args.task_num, n_qry)
    x_spt = torch.stack([protos[t][y_spt[t]] for t in range(args.task_num)]) + 0.3 * torch.randn(args.task_num, n_spt, args.in_dim)
    x_qry = torch.stack([protos[t][y_qry[t]] for t in range(args.task_num)]) + 0.3 * torch.randn(args.task_num, n_qry, args.in_dim)
    return x_spt, y_spt, x_qry, y_qry


if __name__ == "__main__":
    torch.manual_seed(0)
    args = MetaArgs()
    config = [("linear", (16, args.in_dim)), ("linear", (args.n_way, 16))]
    maml = Meta(args, config)
    for step in range(4):
        accs = maml(*sample_tasks(args))
        print("step", step, "training acc", accs)
