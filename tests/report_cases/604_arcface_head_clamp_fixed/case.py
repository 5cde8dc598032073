import torch
import torch.nn as nn

from backbone import FaceEmbedder
from heads import ArcFace

torch.manual_seed(0)
N_CLASSES = 10
backbone = FaceEmbedder()
head = ArcFace(emb_dim=16, n_classes=N_CLASSES)
optimizer = torch.optim.SGD(
    [{"params": backbone.parameters()}, {"params": head.parameters()}],
    lr=0.1, momentum=0.9,
)
criterion = nn.CrossEntropyLoss()

faces = torch.randn(20, 48)
labels = torch.randint(0, N_CLASSES, (20,))

for it in range(4):
    emb = backbone(faces)
    logits = head(emb, labels)
    lossx = criterion(logits, labels)
    optimizer.zero_grad()
    lossx.backward()
    optimizer.step()
    print(it, lossx.item())
