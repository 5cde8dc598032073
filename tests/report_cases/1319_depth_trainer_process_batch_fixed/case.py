"""Self-contained monocular-depth style trainer (photometric + smoothness losses)."""
import time
from types import SimpleNamespace

import torch
import torch.nn as nn
import torch.nn.functional as F


class DepthNet(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(3, ch, 3, padding=1), nn.ELU(),
                                 nn.Conv2d(ch, ch, 3, padding=1), nn.ELU())
        self.disp = nn.Sequential(nn.Conv2d(ch, 1, 3, padding=1), nn.Sigmoid())

    def forward(self, x):
        return {("disp", 0): self.disp(self.enc(x))}


def get_smooth_loss(disp, img):
    grad_disp_x = torch.abs(disp[:, :, :, :-1] - disp[:, :, :, 1:])
    grad_disp_y = torch.abs(disp[:, :, :-1, :] - disp[:, :, 1:, :])
    grad_img_x = torch.mean(torch.abs(img[:, :, :, :-1] - img[:, :, :, 1:]), 1, keepdim=True)
    grad_img_y = torch.mean(torch.abs(img[:, :, :-1, :] - img[:, :, 1:, :]), 1, keepdim=True)
    grad_disp_x *= torch.exp(-grad_img_x)
    grad_disp_y *= torch.exp(-grad_img_y)
    return grad_disp_x.mean() + grad_disp_y.mean()


class Trainer:
    def __init__(self, options):
        self.opt = options
        self.models = {"depth": DepthNet()}
        self.parameters_to_train = list(self.models["depth"].parameters())
        self.model_optimizer = torch.optim.Adam(self.parameters_to_train, self.opt.learning_rate)
        self.step = 0

    def set_train(self):
        for m in self.models.values():
            m.train()

    def set_eval(self):
        for m in self.models.values():
            m.eval()

    def batches(self, n):
        for _ in range(n):
            img = torch.rand(self.opt.batch_size, 3, self.opt.height, self.opt.width)
            target = img.mean(1, keepdim=True)
            yield {("color", 0): img, "depth_proxy": target}

    def process_batch(self, inputs):
        outputs = self.models["depth"](inputs[("color", 0)])
        losses = self.compute_losses(inputs, outputs)
        return outputs, losses

    def compute_losses(self, inputs, outputs):
        disp = outputs[("disp", 0)]
        color = inputs[("color", 0)]
        reprojection = F.l1_loss(disp, inputs["depth_proxy"])
        smooth = get_smooth_loss(disp / (disp.mean((2, 3), keepdim=True) + 1e-7), color)
        total = reprojection + self.opt.disparity_smoothness * smooth
        return {"loss": total, "reprojection": reprojection, "smooth": smooth}

    def run_epoch(self):
        self.set_train()
        for batch_idx, inputs in enumerate(self.batches(self.opt.batches_per_epoch)):
            before_op_time = time.time()
            outputs, losses = self.process_batch(inputs)
            self.model_optimizer.zero_grad()
            losses["loss"].backward()
            self.model_optimizer.step()
            duration = time.time() - before_op_time
            if batch_idx % self.opt.log_frequency == 0:
                print(f"batch {batch_idx} | loss {losses['loss'].item():.5f} | {duration:.3f}s")
            self.step += 1

    def val(self):
        self.set_eval()
        inputs = next(self.batches(1))
        with torch.no_grad():
            outputs, losses = self.process_batch(inputs)
        print("val loss", losses["loss"].item())
        self.set_train()

    def train(self):
        for self.epoch in range(self.opt.num_epochs):
            self.run_epoch()
            self.val()


if __name__ == "__main__":
    torch.manual_seed(0)
    opts = SimpleNamespace(learning_rate=1e-4, batch_size=2, height=16, width=16, num_epochs=1,
                           batches_per_epoch=3, disparity_smoothness=1e-3, log_frequency=1)
    Trainer(opts).train()
