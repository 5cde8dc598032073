"""Refinement head of a 3D object detector: proposal features are fused with
surface / line cue features and re-scored."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

NUM_CLASS, NUM_HEADING_BIN, NUM_PROPOSAL = 4, 6, 32


class ProposalRefineModule(nn.Module):
    def __init__(self, feat_dim=32):
        super().__init__()
        self.conv_surface = nn.Conv1d(feat_dim, 16, 1)
        self.bn_surface = nn.BatchNorm1d(16)
        self.conv_line = nn.Conv1d(feat_dim, 16, 1)
        self.bn_line = nn.BatchNorm1d(16)
        self.conv_refine1 = nn.Conv1d(16 * 18, 128, 1)
        self.bn_refine1 = nn.BatchNorm1d(128)
        self.conv_refine2 = nn.Conv1d(128, 128, 1)
        self.bn_refine2 = nn.BatchNorm1d(128)
        self.conv_refine3 = nn.Conv1d(128, 2 + 3 + NUM_HEADING_BIN * 2 + NUM_CLASS, 1)

    def forward(self, original_feature, surface_features, line_features):
        b = original_feature.size(0)
        surface_features = F.relu(self.bn_surface(self.conv_surface(surface_features)))
        line_features = F.relu(self.bn_line(self.conv_line(line_features)))
        surface_pool = surface_features.view(b, -1, 6, NUM_PROPOSAL).reshape(b, -1, NUM_PROPOSAL)
        line_pool = line_features.view(b, -1, 12, NUM_PROPOSAL).reshape(b, -1, NUM_PROPOSAL)
        combine_feature = torch.cat((surface_pool, line_pool), dim=1)

        net = F.relu(self.bn_refine1(self.conv_refine1(combine_feature)))
        net = net + original_feature
        net = F.relu(self.bn_refine2(self.conv_refine2(net)))
        return self.conv_refine3(net)


def decode_scores(net):
    net = net.transpose(2, 1)
    return {
        "objectness": net[:, :, 0:2],
        "center": net[:, :, 2:5],
        "heading_scores": net[:, :, 5:5 + NUM_HEADING_BIN],
        "sem_cls_scores": net[:, :, 5 + 2 * NUM_HEADING_BIN:],
    }


def detection_loss(end_points, targets):
    obj = F.cross_entropy(end_points["objectness"].reshape(-1, 2), targets["objectness"].reshape(-1))
    center = F.smooth_l1_loss(end_points["center"], targets["center"])
    heading = F.cross_entropy(end_points["heading_scores"].reshape(-1, NUM_HEADING_BIN),
                              targets["heading"].reshape(-1))
    sem = F.cross_entropy(end_points["sem_cls_scores"].reshape(-1, NUM_CLASS), targets["sem"].reshape(-1))
    return obj + center + 0.5 * heading + 0.1 * sem


def random_scene(b=2, feat_dim=32):
    proposal_feat = torch.randn(b, 128, NUM_PROPOSAL)
    surface = torch.randn(b, feat_dim, 6 * NUM_PROPOSAL)
    line = torch.randn(b, feat_dim, 12 * NUM_PROPOSAL)
    targets = {
        "objectness": torch.randint(0, 2, (b, NUM_PROPOSAL)),
        "center": torch.randn(b, NUM_PROPOSAL, 3),
        "heading": torch.randint(0, NUM_HEADING_BIN, (b, NUM_PROPOSAL)),
        "sem": torch.randint(0, NUM_CLASS, (b, NUM_PROPOSAL)),
    }
    return proposal_feat, surface, line, targets


def main():
    backbone_proj = nn.Conv1d(128, 128, 1)  # stands in for the vote/proposal backbone
    head = ProposalRefineModule()
    optimizer = torch.optim.Adam(list(backbone_proj.parameters()) + list(head.parameters()), lr=1e-3)
    for it in range(5):
        proposal_feat, surface, line, targets = random_scene()
        original_feature = backbone_proj(proposal_feat)
        end_points = decode_scores(head(original_feature, surface, line))
        loss = detection_loss(end_points, targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(it, round(loss.item(), 4))


if __name__ == "__main__":
    main()
