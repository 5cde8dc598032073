import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

NUM_PROPOSAL = 32
NUM_CLASS = 5


class PointNetBackbone(nn.Module):
    def __init__(self, feat_dim=64):
        super().__init__()
        self.mlp = nn.Sequential(nn.Conv1d(3, 32, 1), nn.BatchNorm1d(32), nn.ReLU(),
                                 nn.Conv1d(32, feat_dim, 1), nn.BatchNorm1d(feat_dim), nn.ReLU())

    def forward(self, xyz):                      # B x N x 3 -> B x C x N
        return self.mlp(xyz.transpose(1, 2))


class ProposalModule(nn.Module):
    def __init__(self, feat_dim=64, num_proposal=NUM_PROPOSAL):
        super().__init__()
        self.num_proposal = num_proposal
        self.conv = nn.Sequential(nn.Conv1d(feat_dim, 64, 1), nn.BatchNorm1d(64), nn.ReLU())
        self.objectness = nn.Conv1d(64, 2, 1)

    def forward(self, features, end_points):
        # "vote clustering": sample num_proposal seeds by striding
        stride = features.size(2) // self.num_proposal
        agg = features[:, :, ::stride][:, :, :self.num_proposal]
        net = self.conv(agg)
        end_points['aggregated_features'] = net
        end_points['objectness_scores'] = self.objectness(net).transpose(2, 1)   # B x K x 2
        return end_points


class RelationModule(nn.Module):
    """Attention among the proposals predicted as objects (ARM3D-style relation reasoning)."""

    def __init__(self, dim=64, num_class=NUM_CLASS):
        super().__init__()
        self.q = nn.Linear(dim, dim)
        self.k = nn.Linear(dim, dim)
        self.v = nn.Linear(dim, dim)
        self.sem_cls = nn.Linear(2 * dim, num_class)

    def forward(self, end_points):
        feats = end_points['aggregated_features'].transpose(1, 2)      # B x K x C
        idx_obj = torch.argmax(end_points['objectness_scores'], 2)     # B x K, 1 = object
        obj_mask = idx_obj.bool()
        attn = self.q(feats) @ self.k(feats).transpose(1, 2) / feats.size(-1) ** 0.5
        attn = attn.masked_fill(~obj_mask[:, None, :], float('-inf'))
        # proposals with no predicted object in the scene attend to nothing
        attn = torch.where(obj_mask.any(1)[:, None, None], attn, torch.zeros_like(attn))
        context = F.softmax(attn, dim=-1) @ self.v(feats)
        end_points['sem_cls_scores'] = self.sem_cls(torch.cat([feats, context], -1))
        return end_points


class ARMVoteNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = PointNetBackbone()
        self.pnet = ProposalModule()
        self.relation = RelationModule()

    def forward(self, inputs):
        end_points = {}
        features = self.backbone(inputs['point_clouds'])
        end_points = self.pnet(features, end_points)
        return self.relation(end_points)


def get_loss(end_points, labels):
    objectness_loss = F.cross_entropy(end_points['objectness_scores'].reshape(-1, 2),
                                      labels['objectness_label'].reshape(-1))
    obj = labels['objectness_label'].reshape(-1).bool()
    sem_cls_loss = F.cross_entropy(end_points['sem_cls_scores'].reshape(-1, NUM_CLASS)[obj],
                                   labels['sem_cls_label'].reshape(-1)[obj])
    loss = objectness_loss + 0.1 * sem_cls_loss
    end_points['objectness_loss'] = objectness_loss
    end_points['sem_cls_loss'] = sem_cls_loss
    return loss, end_points


def scannet_like_batches(n_batches, batch_size=4, n_points=256):
    for _ in range(n_batches):
        pc = torch.randn(batch_size, n_points, 3)
        objectness = (pc[:, ::n_points // NUM_PROPOSAL, 2] > 0).long()[:, :NUM_PROPOSAL]
        sem = (pc[:, ::n_points // NUM_PROPOSAL, 0].abs() * 2).long().clamp(max=NUM_CLASS - 1)[:, :NUM_PROPOSAL]
        yield {'point_clouds': pc}, {'objectness_label': objectness, 'sem_cls_label': sem}


def train_one_epoch(net, optimizer, epoch):
    net.train()
    stat = {'loss': 0.0, 'objectness_loss': 0.0, 'sem_cls_loss': 0.0}
    n = 0
    for inputs, labels in scannet_like_batches(5):
        optimizer.zero_grad()
        end_points = net(inputs)
        loss, end_points = get_loss(end_points, labels)
        loss.backward()
        optimizer.step()
        stat['loss'] += loss.item()
        stat['objectness_loss'] += end_points['objectness_loss'].item()
        stat['sem_cls_loss'] += end_points['sem_cls_loss'].item()
        n += 1
    print(epoch, {k: round(v / n, 4) for k, v in stat.items()})


if __name__ == '__main__':
    net = ARMVoteNet()
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
    for epoch in range(3):
        train_one_epoch(net, optimizer, epoch)
