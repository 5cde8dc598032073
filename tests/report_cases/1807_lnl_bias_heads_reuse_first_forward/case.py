from types import SimpleNamespace

import torch
from torch import nn, optim
from torch.utils.data import DataLoader, TensorDataset

import models

torch.manual_seed(0)


class GradReverse(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output.neg() * 0.1


def grad_reverse(x):
    return GradReverse.apply(x)


class Trainer(object):
    def __init__(self, option):
        self.option = option
        self.n_color_cls = 8
        self.net = models.convnet(num_classes=option.n_class)
        self.pred_net_r = models.Predictor(input_ch=32, num_classes=self.n_color_cls)
        self.pred_net_g = models.Predictor(input_ch=32, num_classes=self.n_color_cls)
        self.pred_net_b = models.Predictor(input_ch=32, num_classes=self.n_color_cls)
        self.loss = nn.CrossEntropyLoss(ignore_index=255)
        self.color_loss = nn.CrossEntropyLoss(ignore_index=255)
        sgd = lambda params: optim.SGD(params, lr=option.lr, momentum=option.momentum,
                                       weight_decay=option.weight_decay)
        self.optim = sgd(filter(lambda p: p.requires_grad, self.net.parameters()))
        self.optim_r = sgd(self.pred_net_r.parameters())
        self.optim_g = sgd(self.pred_net_g.parameters())
        self.optim_b = sgd(self.pred_net_b.parameters())

    def _zero_all(self):
        for opt in (self.optim, self.optim_r, self.optim_g, self.optim_b):
            opt.zero_grad()

    def _train_step(self, data_loader, step):
        _lambda = 0.01
        for i, (images, color_labels, labels) in enumerate(data_loader):
            self._zero_all()
            feat_label, pred_label = self.net(images)

            _, pseudo_pred_r = self.pred_net_r(feat_label)
            _, pseudo_pred_g = self.pred_net_g(feat_label)
            _, pseudo_pred_b = self.pred_net_b(feat_label)

            loss_pred = self.loss(pred_label, labels)
            loss_pseudo_pred_r = torch.mean(torch.sum(pseudo_pred_r * torch.log(pseudo_pred_r), 1))
            loss_pseudo_pred_g = torch.mean(torch.sum(pseudo_pred_g * torch.log(pseudo_pred_g), 1))
            loss_pseudo_pred_b = torch.mean(torch.sum(pseudo_pred_b * torch.log(pseudo_pred_b), 1))
            loss_pred_ps_color = (loss_pseudo_pred_r + loss_pseudo_pred_g + loss_pseudo_pred_b) / 3.

            loss = loss_pred + loss_pred_ps_color * _lambda
            loss.backward()
            self.optim.step()

            self._zero_all()

            feat_color = grad_reverse(feat_label)
            pred_r, _ = self.pred_net_r(feat_color)
            pred_g, _ = self.pred_net_g(feat_color)
            pred_b, _ = self.pred_net_b(feat_color)

            loss_pred_r = self.color_loss(pred_r, color_labels[:, 0])
            loss_pred_g = self.color_loss(pred_g, color_labels[:, 1])
            loss_pred_b = self.color_loss(pred_b, color_labels[:, 2])
            loss_pred_color = loss_pred_r + loss_pred_g + loss_pred_b

            loss_pred_color.backward()
            self.optim.step()
            self.optim_r.step()
            self.optim_g.step()
            self.optim_b.step()

            if i % self.option.log_step == 0:
                print("[TRAIN] cls loss : %.6f, rgb : %.6f, MI : %.6f  (epoch %d.%02d)"
                      % (loss_pred, loss_pred_color / 3., loss_pred_ps_color, step,
                         int(100 * i / len(data_loader))))

    def train(self, train_loader):
        for m in (self.net, self.pred_net_r, self.pred_net_g, self.pred_net_b):
            m.train()
        for step in range(self.option.max_step):
            self._train_step(train_loader, step)


def colored_digits(n=48, n_class=10):
    labels = torch.randint(0, n_class, (n,))
    color_labels = torch.randint(0, 8, (n, 3))
    images = torch.rand(n, 3, 16, 16) * 0.2
    images += (color_labels.float() / 7.0).view(n, 3, 1, 1) * (torch.rand(n, 1, 16, 16) > 0.5)
    return TensorDataset(images, color_labels, labels)


if __name__ == "__main__":
    option = SimpleNamespace(n_class=10, lr=0.01, momentum=0.9, weight_decay=5e-4, max_step=2, log_step=2)
    loader = DataLoader(colored_digits(), batch_size=16, shuffle=True)
    Trainer(option).train(loader)
