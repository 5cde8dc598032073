"""MAML (MAML-Pytorch meta.py layout) with a functional Learner whose weights
live in an nn.ParameterList; the inner loop builds fast_weights from
torch.autograd.grad(..., create_graph=True), the meta loss on the query set is
backpropagated through the inner updates into the original parameters."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class Learner(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.vars = nn.ParameterList()
        for name, (out_f, in_f) in config:
            w = nn.Parameter(torch.ones(out_f, in_f))
            nn.init.kaiming_normal_(w)
            self.vars.append(w)
            self.vars.append(nn.Parameter(torch.zeros(out_f)))

    def forward(self, x, vars=None):
        if vars is None:
            vars = self.vars
        idx = 0
        for i, (name, _) in enumerate(self.config):
            x = F.linear(x, vars[idx], vars[idx + 1])
            idx += 2
            if i < len(self.config) - 1:
                x = F.relu(x)
        return x

    def parameters(self):
        return self.vars


class Meta(nn.Module):
    def __init__(self, config, update_lr=0.4, meta_lr=1e-3, update_step=3):
        super().__init__()
        self.update_lr, self.update_step = update_lr, update_step
        self.net = Learner(config)
        self.meta_optim = torch.optim.Adam(self.net.parameters(), lr=meta_lr)

    def forward(self, x_spt, y_spt, x_qry, y_qry):
        task_num, querysz = x_spt.size(0), x_qry.size(1)
        losses_q = [0 for _ in range(self.update_step + 1)]
        corrects = [0 for _ in range(self.update_step + 1)]
        for i in range(task_num):
            logits = self.net(x_spt[i], vars=None)
            loss = F.cross_entropy(logits, y_spt[i])
            grad = torch.autograd.grad(loss, self.net.parameters(), create_graph=True)
            fast_weights = list(map(lambda p: p[1] - self.update_lr * p[0], zip(grad, self.net.parameters())))

            with torch.no_grad():
                pred_q = F.softmax(self.net(x_qry[i], self.net.parameters()), dim=1).argmax(dim=1)
                corrects[0] += torch.eq(pred_q, y_qry[i]).sum().item()

            for k in range(1, self.update_step + 1):
                logits_q = self.net(x_qry[i], fast_weights)
                losses_q[k] += F.cross_entropy(logits_q, y_qry[i])
                with torch.no_grad():
                    corrects[k] += torch.eq(logits_q.argmax(dim=1), y_qry[i]).sum().item()
                if k < self.update_step:
                    loss = F.cross_entropy(self.net(x_spt[i], fast_weights), y_spt[i])
                    grad = torch.autograd.grad(loss, fast_weights, create_graph=True)
                    fast_weights = list(map(lambda p: p[1] - self.update_lr * p[0], zip(grad, fast_weights)))

        loss_q = losses_q[-1] / task_num
        self.meta_optim.zero_grad()
        loss_q.backward()
        self.meta_optim.step()
        return np.array(corrects) / (querysz * task_num)


def sample_tasks(task_num=3, n_way=3, k_shot=2, k_query=4, dim=8):
    xs, ys, xq, yq = [], [], [], []
    for _ in range(task_num):
        centers = torch.randn(n_way, dim) * 2
        ys_ = torch.arange(n_way).repeat(k_shot)
        yq_ = torch.arange(n_way).repeat(k_query)
        xs.append(centers[ys_] + 0.3 * torch.randn(len(ys_), dim))
        xq.append(centers[yq_] + 0.3 * torch.randn(len(yq_), dim))
        ys.append(ys_)
        yq.append(yq_)
    return torch.stack(xs), torch.stack(ys), torch.stack(xq), torch.stack(yq)


if __name__ == "__main__":
    torch.manual_seed(0)
    config = [("linear", (32, 8)), ("linear", (32, 32)), ("linear", (3, 32))]
    maml = Meta(config)
    for step in range(4):
        accs = maml(*sample_tasks())
        print("step:", step, "\ttraining acc:", np.round(accs, 3))
