import torch
import torch.nn as nn
import torch.nn.functional as F


class FewShotClassifier(nn.Module):
    def __init__(self, backbone, use_softmax=False):
        super().__init__()
        self.backbone = backbone
        self.use_softmax = use_softmax
        self.prototypes = torch.tensor(())
        self.support_features = torch.tensor(())
        self.support_labels = torch.tensor(())

    def compute_features(self, images):
        return self.backbone(images)

    def process_support_set(self, support_images, support_labels):
        self.support_labels = support_labels
        self.support_features = self.compute_features(support_images)
        n_way = len(torch.unique(support_labels))
        self.prototypes = torch.cat([self.support_features[support_labels == c].mean(0, keepdim=True)
                                     for c in range(n_way)])

    def l2_distance_to_prototypes(self, samples):
        return -torch.cdist(samples, self.prototypes)

    def cosine_distance_to_prototypes(self, samples):
        return F.normalize(samples, dim=1) @ F.normalize(self.prototypes, dim=1).T

    def softmax_if_specified(self, output, temperature=1.0):
        return (temperature * output).softmax(-1) if self.use_softmax else output


class PrototypicalNetworks(FewShotClassifier):
    def forward(self, query_images):
        return self.softmax_if_specified(self.l2_distance_to_prototypes(self.compute_features(query_images)))


class Finetune(FewShotClassifier):
    """Fine-tunes the prototypes on the support set at inference; the backbone stays frozen."""

    def __init__(self, *args, fine_tuning_steps=5, fine_tuning_lr=1e-3, temperature=1.0, **kwargs):
        super().__init__(*args, **kwargs)
        self.backbone.requires_grad_(False)
        self.fine_tuning_steps = fine_tuning_steps
        self.fine_tuning_lr = fine_tuning_lr
        self.temperature = temperature

    def forward(self, query_images):
        query_features = self.compute_features(query_images)
        with torch.enable_grad():
            self.prototypes.requires_grad_()
            optimizer = torch.optim.Adam([self.prototypes], lr=self.fine_tuning_lr)
            for _ in range(self.fine_tuning_steps):
                support_logits = self.temperature * self.cosine_distance_to_prototypes(self.support_features)
                loss = F.cross_entropy(support_logits, self.support_labels)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
        return self.softmax_if_specified(
            self.cosine_distance_to_prototypes(query_features), temperature=self.temperature).detach()
