"""Blind image-quality assessment with a hyper network; the learning rate is decayed by editing
the existing optimizer's param groups, and the parameter filter is consumed exactly once."""
import torch
import models

torch.manual_seed(0)


class HyperIQASolver:
    def __init__(self, lr=2e-3, lr_ratio=10, epochs=3):
        self.epochs = epochs
        self.model_hyper = models.HyperNet()
        for p in self.model_hyper.res.parameters():  # pretrained backbone kept frozen
            p.requires_grad = False
        self.l1_loss = torch.nn.L1Loss()
        backbone_params = list(map(id, self.model_hyper.res.parameters()))
        hypernet_params = filter(lambda p: id(p) not in backbone_params, self.model_hyper.parameters())
        self.lr = lr
        self.lrratio = lr_ratio
        paras = [{"params": hypernet_params, "lr": self.lr * self.lrratio}]
        self.solver = torch.optim.Adam(paras, weight_decay=5e-4)
        self.train_data = [(torch.randn(8, 32), torch.rand(8) * 100) for _ in range(4)]

    def train(self):
        for t in range(self.epochs):
            epoch_loss = []
            for img, label in self.train_data:
                self.solver.zero_grad()
                paras = self.model_hyper(img)
                model_target = models.TargetNet(paras)
                pred = model_target(paras["target_in_vec"])
                loss = self.l1_loss(pred.squeeze(), label.float().detach() / 100)
                epoch_loss.append(loss.item())
                loss.backward()
                self.solver.step()
            print(f"epoch {t + 1} train loss {sum(epoch_loss) / len(epoch_loss):.4f}")
            lr = self.lr / pow(10, (t // 6))
            if t > 8:
                self.lrratio = 1
            for group in self.solver.param_groups:
                group["lr"] = lr * self.lrratio


if __name__ == "__main__":
    HyperIQASolver().train()
