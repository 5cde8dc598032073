from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F


class ConvNet(nn.Module):
    def __init__(self, width, num_classes=5):
        super().__init__()
        self.layer1 = nn.Sequential(nn.Conv2d(3, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU(inplace=True))
        self.layer2 = nn.Sequential(nn.Conv2d(width, width, 3, stride=2, padding=1), nn.BatchNorm2d(width), nn.ReLU(inplace=True))
        self.layer3 = nn.Sequential(nn.Conv2d(width, 16, 3, stride=2, padding=1), nn.BatchNorm2d(16), nn.ReLU(inplace=True))
        self.fc = nn.Linear(16, num_classes)

    def forward(self, x):
        x = self.layer3(self.layer2(self.layer1(x)))
        return self.fc(F.adaptive_avg_pool2d(x, 1).flatten(1))


class FeatureTap:
    """Registers forward hooks on named sub-modules and keeps the latest outputs."""

    def __init__(self, model, names, keep_graph):
        self.features = {}
        self.stats = defaultdict(list)
        self.handles = []
        for name in names:
            module = getattr(model, name)
            self.handles.append(module.register_forward_hook(self._make_hook(name, keep_graph)))

    def _make_hook(self, name, keep_graph):
        def hook(module, inputs, output):
            self.features[name] = output if keep_graph else output.detach()
            self.stats[name].append(output.detach().abs().mean().item())
        return hook

    def remove(self):
        for h in self.handles:
            h.remove()


def at(x):
    """Attention map of a feature tensor (Zagoruyko & Komodakis)."""
    return F.normalize(x.pow(2).mean(1).flatten(1))


def distill_loss(s_feats, t_feats, names):
    return sum((at(s_feats[n]) - at(t_feats[n])).pow(2).mean() for n in names)


if __name__ == "__main__":
    torch.manual_seed(0)
    names = ["layer2", "layer3"]
    teacher, student = ConvNet(width=16), ConvNet(width=8)
    teacher.eval()
    for p in teacher.parameters():
        p.requires_grad_(False)

    t_tap = FeatureTap(teacher, names, keep_graph=False)
    s_tap = FeatureTap(student, names, keep_graph=True)
    optimizer = torch.optim.SGD(student.parameters(), lr=0.05, momentum=0.9)
    beta = 100.0

    for step in range(6):
        images, labels = torch.randn(8, 3, 16, 16), torch.randint(0, 5, (8,))
        with torch.no_grad():
            t_logits = teacher(images)
        s_logits = student(images)
        losses = {
            "ce": F.cross_entropy(s_logits, labels),
            "kd": F.kl_div(F.log_softmax(s_logits / 4, 1), F.softmax(t_logits / 4, 1), reduction="batchmean") * 16,
            "at": beta / 2 * distill_loss(s_tap.features, t_tap.features, names),
        }
        loss = sum(losses.values())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(step, {k: round(v.item(), 4) for k, v in losses.items()})

    s_tap.remove()
    t_tap.remove()
    print({k: round(sum(v) / len(v), 3) for k, v in s_tap.stats.items()})
