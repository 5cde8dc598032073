"""SHOT source-free domain adaptation on toy features: the source classifier netC is frozen,
netF/netB adapt to the target domain with the information-maximisation loss, pseudo-label
cross-entropy and a prototype-alignment term toward the class centroids."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from shot_utils import obtain_label, im_loss

torch.manual_seed(0)
N_CLASSES = 3

netF = nn.Sequential(nn.Linear(10, 32), nn.ReLU())
netB = nn.Sequential(nn.Linear(32, 16), nn.BatchNorm1d(16))
netC = nn.Linear(16, N_CLASSES)
for p in netC.parameters():
    p.requires_grad = False
optimizer = torch.optim.SGD(list(netF.parameters()) + list(netB.parameters()), lr=0.01, momentum=0.9)

target_data = torch.randn(48, 10) + 0.5
loader = [target_data[i:i + 12] for i in range(0, 48, 12)]
interval, max_iter = 4, 8

for iter_num in range(max_iter):
    if iter_num % interval == 0:
        netF.eval()
        netB.eval()
        with torch.no_grad():  # pseudo-labels and centroids are fixed targets for the interval
            mem_label, centroids = obtain_label(loader, netF, netB, netC)
        netF.train()
        netB.train()
    idx = iter_num % len(loader)
    inputs = loader[idx]
    features = netB(netF(inputs))
    outputs = netC(features)
    pred = mem_label[idx * 12:(idx + 1) * 12]
    feat_n = F.normalize(torch.cat([features, torch.ones(features.size(0), 1)], 1), dim=1)
    proto_loss = (1 - (feat_n * F.normalize(centroids[pred], dim=1)).sum(1)).mean()
    loss = 0.3 * F.cross_entropy(outputs, pred) + im_loss(outputs) + 0.1 * proto_loss
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print("iter", iter_num, "loss", round(loss.item(), 4))
