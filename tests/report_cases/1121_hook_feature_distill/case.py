"""Feature distillation with forward hooks registered in a loop over named layers."""
import torch
import torch.nn as nn
import torch.nn.functional as F

LAYERS = ("features.1", "features.3")


class ConvNet(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, width, 3, padding=1), nn.ReLU(),
            nn.Conv2d(width, width, 3, padding=1), nn.ReLU(),
        )
        self.fc = nn.Linear(width, 5)

    def forward(self, x):
        return self.fc(self.features(x).mean(dim=(2, 3)))


class FeatureExtractorHandle:
    def __init__(self, store, name, detach):
        self.store, self.name, self.detach = store, name, detach

    def __call__(self, module, module_in, module_out):
        self.store[self.name] = module_out.detach().clone() if self.detach else module_out


def register_hooks(model, layers, store, detach):
    modules = dict(model.named_modules())
    return [modules[name].register_forward_hook(FeatureExtractorHandle(store, name, detach))
            for name in layers]


teacher = ConvNet(width=16).eval()
teacher.requires_grad_(False)
student = ConvNet(width=8)
adapters = nn.ModuleDict({name.replace(".", "_"): nn.Conv2d(8, 16, 1) for name in LAYERS})

teacher_feats, student_feats = {}, {}
handles = register_hooks(teacher, LAYERS, teacher_feats, detach=True)
handles += register_hooks(student, LAYERS, student_feats, detach=False)

optimizer = torch.optim.Adam([*student.parameters(), *adapters.parameters()], lr=1e-3)
for step in range(5):
    x = torch.randn(4, 3, 8, 8)
    y = torch.randint(0, 5, (4,))
    with torch.no_grad():
        teacher(x)
    logits = student(x)
    distill = sum(F.mse_loss(adapters[name.replace(".", "_")](student_feats[name]), teacher_feats[name])
                  for name in LAYERS)
    loss = F.cross_entropy(logits, y) + 0.5 * distill
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} loss {loss.item():.4f} distill {distill.item():.4f}")

for h in handles:
    h.remove()
