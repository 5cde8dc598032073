import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class CAM:
    """Class activation map extractor: a forward hook keeps the target layer output."""
    def __init__(self, model, target_layer, fc_layer):
        self.model, self.fc = model, fc_layer
        self.hook_a = None
        target_layer.register_forward_hook(self._hook_a)

    def _hook_a(self, module, inp, out):
        self.hook_a = out

    def __call__(self, class_idx):
        weights = self.fc.weight[class_idx].view(-1, self.hook_a.size(1), 1, 1)
        # weight the activation map and reduce over channels
        self.hook_a.mul_(weights)
        cams = self.hook_a.sum(dim=1)
        cams = F.relu(cams)
        cams = cams - cams.flatten(1).min(-1).values[:, None, None]
        return cams / (cams.flatten(1).max(-1).values[:, None, None] + 1e-7)


class Net(nn.Module):
    def __init__(self, n_classes=4):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(),
                                      nn.Conv2d(8, 16, 3, padding=1), nn.ReLU())
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(16, n_classes)

    def forward(self, x):
        return self.fc(self.pool(self.features(x)).flatten(1))


model = Net()
cam_extractor = CAM(model, model.features[3], model.fc)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
cam_log = []
for step in range(4):
    x, y = torch.rand(4, 3, 12, 12), torch.randint(0, 4, (4,))
    logits = model(x)
    loss = F.cross_entropy(logits, y)
    if step % 2 == 0:  # log attention maps of the predicted class during training
        cams = cam_extractor(logits.argmax(1))
        cam_log.append(cams.detach().mean().item())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(step, round(loss.item(), 4))
print("cam log", cam_log)
