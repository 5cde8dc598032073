# "Why does my loss not require grad?": the loss is computed from argmax predictions,
# which are integers without a gradient.
import torch
import torch.nn as nn

torch.manual_seed(0)
clf = nn.Linear(5, 3)
opt = torch.optim.SGD(clf.parameters(), lr=0.1)
for _ in range(3):
    x = torch.randn(12, 5)
    labels = torch.randint(0, 3, (12,))
    pred = clf(x).argmax(dim=1)
    loss = (pred.float() - labels.float()).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
