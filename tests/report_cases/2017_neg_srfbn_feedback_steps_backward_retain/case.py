"""SRFBN-style super-resolution feedback network: the same block is unrolled num_steps times and
each step's SR output gets its own L1 loss (curriculum weights)."""
from collections import OrderedDict

import torch
import torch.nn as nn
import torch.nn.functional as F


class FeedbackBlock(nn.Module):
    def __init__(self, num_features):
        super().__init__()
        self.compress_in = nn.Sequential(nn.Conv2d(2 * num_features, num_features, 1), nn.PReLU())
        self.body = nn.Sequential(nn.Conv2d(num_features, num_features, 3, padding=1), nn.PReLU(),
                                  nn.Conv2d(num_features, num_features, 3, padding=1), nn.PReLU())
        self.should_reset = True
        self.last_hidden = None

    def reset_state(self):
        self.should_reset = True

    def forward(self, x):
        if self.should_reset:
            self.last_hidden = torch.zeros_like(x)
            self.last_hidden.copy_(x)
            self.should_reset = False
        x = torch.cat((x, self.last_hidden), dim=1)
        x = self.compress_in(x)
        output = self.body(x)
        self.last_hidden = output
        return output


class SRFBN(nn.Module):
    def __init__(self, in_channels=3, num_features=8, num_steps=3, upscale_factor=2):
        super().__init__()
        self.num_steps = num_steps
        self.upscale_factor = upscale_factor
        self.conv_in = nn.Sequential(nn.Conv2d(in_channels, num_features, 3, padding=1), nn.PReLU())
        self.block = FeedbackBlock(num_features)
        self.out = nn.Sequential(nn.Conv2d(num_features, in_channels * upscale_factor ** 2, 3, padding=1),
                                 nn.PixelShuffle(upscale_factor))

    def _reset_state(self):
        self.block.reset_state()

    def forward(self, x):
        self._reset_state()
        inter_res = F.interpolate(x, scale_factor=self.upscale_factor, mode='bilinear', align_corners=False)
        x = self.conv_in(x)
        outs = []
        for _ in range(self.num_steps):
            h = self.block(x)
            h = torch.add(inter_res, self.out(h))
            outs.append(h)
        return outs


class SRSolver:
    def __init__(self, opt):
        self.opt = opt
        self.model = SRFBN(num_steps=opt['num_steps'])
        self.criterion_pix = nn.L1Loss()
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=opt['lr'])
        self.split_batch = opt['split_batch']
        self.records = {'train_loss': []}

    def feed_data(self, batch):
        self.LR, self.HR = batch

    def train_step(self):
        self.model.train()
        self.optimizer.zero_grad()
        loss_batch = 0.0
        sub_batch_size = int(self.LR.size(0) / self.split_batch)
        for i in range(self.split_batch):
            loss_sbatch = 0.0
            split_LR = self.LR.narrow(0, i * sub_batch_size, sub_batch_size)
            split_HR = self.HR.narrow(0, i * sub_batch_size, sub_batch_size)
            outputs = self.model(split_LR)
            num_steps = len(outputs)
            for step, sr in enumerate(outputs):
                loss_step = self.opt['loss_weights'][step] * self.criterion_pix(sr, split_HR) / self.split_batch
                # every step's loss shares the unrolled graph; keep it until the last step
                loss_step.backward(retain_graph=(step < num_steps - 1))
                loss_sbatch += loss_step.item()
            loss_batch += loss_sbatch
        self.optimizer.step()
        self.records['train_loss'].append(loss_batch)
        return loss_batch

    def get_current_log(self):
        return OrderedDict(epoch_loss=sum(self.records['train_loss']) / len(self.records['train_loss']))


if __name__ == '__main__':
    torch.manual_seed(0)
    opt = {'num_steps': 3, 'lr': 1e-3, 'split_batch': 2, 'loss_weights': [0.5, 0.75, 1.0], 'num_epochs': 2}
    solver = SRSolver(opt)
    hr = torch.rand(8, 3, 16, 16)
    lr = F.avg_pool2d(hr, 2)
    for epoch in range(opt['num_epochs']):
        for i in range(0, 8, 4):
            solver.feed_data((lr[i:i + 4], hr[i:i + 4]))
            solver.train_step()
        print('epoch', epoch, solver.get_current_log())
