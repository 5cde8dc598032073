import torch
import torch.nn as nn
import torch.nn.functional as F

from hooks import attach_hooks

CFG = dict(num_classes=8, steps=4, batch_size=8, lr=0.05, hint_weight=0.5, kd_temperature=3.0, kd_weight=0.7)


def conv_bn(cin, cout, stride=1):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU())


class Net(nn.Module):
    def __init__(self, widths, num_classes):
        super().__init__()
        self.stage1 = conv_bn(3, widths[0], 2)
        self.stage2 = conv_bn(widths[0], widths[1], 2)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(widths[1], num_classes)

    def forward(self, x):
        return self.fc(self.pool(self.stage2(self.stage1(x))).flatten(1))


def main(cfg):
    torch.manual_seed(0)
    teacher = Net((32, 64), cfg["num_classes"]).eval()
    student = Net((8, 16), cfg["num_classes"])
    regressors = nn.ModuleDict({"stage1": nn.Conv2d(8, 32, 1), "stage2": nn.Conv2d(16, 64, 1)})

    t_hooks = attach_hooks(teacher, ["stage1", "stage2"])
    s_hooks = attach_hooks(student, ["stage1", "stage2"])

    params = list(student.parameters()) + list(regressors.parameters())
    optimizer = torch.optim.SGD(params, lr=cfg["lr"], momentum=0.9, weight_decay=5e-4)
    T = cfg["kd_temperature"]
    for step in range(cfg["steps"]):
        images = torch.randn(cfg["batch_size"], 3, 16, 16)
        labels = torch.randint(0, cfg["num_classes"], (cfg["batch_size"],))

        with torch.no_grad():
            t_logits = teacher(images)
        s_logits = student(images)

        hint_loss = sum(F.mse_loss(regressors[name](s_hooks[name].feat), t_hooks[name].feat)
                        for name in regressors)
        kd_loss = F.kl_div(F.log_softmax(s_logits / T, dim=1), F.softmax(t_logits / T, dim=1),
                           reduction="batchmean") * T * T
        ce_loss = F.cross_entropy(s_logits, labels)
        loss = (1 - cfg["kd_weight"]) * ce_loss + cfg["kd_weight"] * kd_loss + cfg["hint_weight"] * hint_loss

        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        for h in list(t_hooks.values()) + list(s_hooks.values()):
            h.clear()
        print(f"step {step}: ce {ce_loss.item():.3f} kd {kd_loss.item():.3f} hint {hint_loss.item():.3f}")

    for h in list(t_hooks.values()) + list(s_hooks.values()):
        h.remove()


if __name__ == "__main__":
    main(CFG)
