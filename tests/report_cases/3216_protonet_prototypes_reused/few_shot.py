import torch
import torch.nn as nn


class PrototypicalNetworks(nn.Module):
    """Few-shot classifier: the support set is processed ahead of forward(), which then only takes
    the query images."""

    def __init__(self, backbone):
        super().__init__()
        self.backbone = backbone
        self.prototypes = None

    def process_support_set(self, support_images, support_labels):
        support_features = self.backbone(support_images)
        n_way = int(support_labels.max()) + 1
        self.prototypes = torch.stack(
            [support_features[support_labels == label].mean(0) for label in range(n_way)])

    def forward(self, query_images):
        z_query = self.backbone(query_images)
        return -torch.cdist(z_query, self.prototypes)
