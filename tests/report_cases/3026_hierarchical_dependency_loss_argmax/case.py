"""Deep hierarchical classification (superclass -> subclass, CIFAR-100 style): a shared CNN
with one head per level, trained with per-level cross entropy (lloss) plus a dependence loss
(dloss) that penalises subclass predictions inconsistent with the predicted superclass."""
import torch
import torch.nn as nn

HIERARCHY = {0: [0, 1, 2], 1: [3, 4, 5], 2: [6, 7, 8], 3: [9, 10, 11]}   # superclass -> subclasses


class HierarchicalLossNetwork:
    def __init__(self, numeric_hierarchy, device="cpu", total_level=2, alpha=1, beta=1, p_loss=3):
        self.total_level, self.alpha, self.beta, self.p_loss = total_level, alpha, beta, p_loss
        self.device, self.numeric_hierarchy = device, numeric_hierarchy

    def check_hierarchy(self, current_level, previous_level):
        # is the class predicted at level l a child of the class predicted at level l-1?
        bool_tensor = [current_level[i] in self.numeric_hierarchy[previous_level[i].item()]
                       for i in range(previous_level.size()[0])]
        return torch.FloatTensor(bool_tensor).to(self.device)

    def calculate_lloss(self, predictions, true_labels):
        lloss = 0
        for l in range(self.total_level):
            lloss += nn.CrossEntropyLoss()(predictions[l], true_labels[l])
        return self.alpha * lloss

    def calculate_dloss(self, predictions, true_labels):
        dloss = 0
        for l in range(1, self.total_level):
            current_lvl_pred = torch.argmax(nn.Softmax(dim=1)(predictions[l]), dim=1)
            prev_lvl_pred = torch.argmax(nn.Softmax(dim=1)(predictions[l - 1]), dim=1)
            D_l = self.check_hierarchy(current_lvl_pred, prev_lvl_pred)
            l_prev = torch.where(prev_lvl_pred == true_labels[l - 1], 1.0, 0.)
            l_curr = torch.where(current_lvl_pred == true_labels[l], 1.0, 0.)
            dloss += torch.sum(torch.pow(self.p_loss, D_l * l_prev) * torch.pow(self.p_loss, D_l * l_curr) - 1)
        return self.beta * dloss


class HierarchicalCNN(nn.Module):
    def __init__(self, n_super=4, n_sub=12):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                      nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.linear_lvl1 = nn.Linear(32, n_super)
        self.linear_lvl2 = nn.Linear(32 + n_super, n_sub)

    def forward(self, x):
        h = self.backbone(x)
        level_1 = self.linear_lvl1(h)
        level_2 = self.linear_lvl2(torch.cat([h, torch.softmax(level_1, 1)], dim=1))
        return level_1, level_2


def make_batches(n_batches=6, bs=16):
    g = torch.Generator().manual_seed(1)
    out = []
    for _ in range(n_batches):
        sub = torch.randint(0, 12, (bs,), generator=g)
        out.append((torch.randn(bs, 3, 16, 16, generator=g), sub // 3, sub))
    return out


def train(beta, epochs=2):
    torch.manual_seed(0)
    model = HierarchicalCNN()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    HLN = HierarchicalLossNetwork(HIERARCHY, beta=beta)
    for epoch in range(epochs):
        for images, superclass, subclass in make_batches():
            superclass_pred, subclass_pred = model(images)
            prediction = [superclass_pred, subclass_pred]
            dloss = HLN.calculate_dloss(prediction, [superclass, subclass])
            lloss = HLN.calculate_lloss(prediction, [superclass, subclass])
            total_loss = lloss + dloss
            optimizer.zero_grad()
            total_loss.backward()
            optimizer.step()
        print(f"beta={beta} epoch {epoch}: lloss {lloss.item():.4f} dloss {float(dloss):.4f} "
              f"(dloss.requires_grad={dloss.requires_grad})")
    return model


if __name__ == "__main__":
    with_dloss, without_dloss = train(beta=1.0), train(beta=0.0)
    diff = max((a - b).abs().max().item() for a, b in zip(with_dloss.parameters(), without_dloss.parameters()))
    print("max parameter difference between beta=1 and beta=0 runs:", diff)
