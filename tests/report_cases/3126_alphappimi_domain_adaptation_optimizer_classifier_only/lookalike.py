"""Second stage of PPI-modulator activity prediction: the feature extractor adapted in stage one is
frozen and only the classifier head is re-fitted on the labelled source set (linear probe), with the
domain discriminator monitored on the frozen features."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class GradReverse(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, alpha):
        ctx.alpha = alpha
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        return -ctx.alpha * grad, None


class CrossAttentionPPIMI(nn.Module):
    def __init__(self, fp_dim=32, ppi_dim=24, dim=16):
        super().__init__()
        self.fingerprint_proj = nn.Linear(fp_dim, dim)
        self.ppi_proj = nn.Linear(ppi_dim, dim)
        self.mod_ppi_cross_attention = nn.MultiheadAttention(dim, 2, batch_first=True)
        self.feature_fusion = nn.Sequential(nn.Linear(2 * dim, dim), nn.ReLU())
        self.classifier = nn.Linear(dim, 2)

    def features(self, fingerprint, ppi):
        fp = self.fingerprint_proj(fingerprint).unsqueeze(1)
        pp = self.ppi_proj(ppi).unsqueeze(1)
        attended, _ = self.mod_ppi_cross_attention(fp, pp, pp)
        return self.feature_fusion(torch.cat([fp, attended], -1).squeeze(1))

    def forward(self, fingerprint, ppi):
        feats = self.features(fingerprint, ppi)
        return self.classifier(feats), feats


def train_with_domain_adaptation(epochs=3, alpha=0.5):
    PPIMI_model = CrossAttentionPPIMI()
    domain_discriminator = nn.Sequential(nn.Linear(16, 16), nn.ReLU(), nn.Linear(16, 1))
    for name, p in PPIMI_model.named_parameters():
        p.requires_grad_(name.startswith("classifier"))
    optimizer_feature = torch.optim.AdamW(list(PPIMI_model.classifier.parameters()), lr=1e-3)
    optimizer_domain = torch.optim.AdamW(domain_discriminator.parameters(), lr=1e-3)
    src_fp, src_ppi, src_y = torch.randn(32, 32), torch.randn(32, 24), torch.randint(0, 2, (32,))
    tgt_fp, tgt_ppi = torch.randn(32, 32) + 0.5, torch.randn(32, 24)
    w0 = PPIMI_model.fingerprint_proj.weight.detach().clone()
    for epoch in range(epochs):
        for i in range(0, 32, 8):
            logits, src_feats = PPIMI_model(src_fp[i:i + 8], src_ppi[i:i + 8])
            _, tgt_feats = PPIMI_model(tgt_fp[i:i + 8], tgt_ppi[i:i + 8])
            cls_loss = F.cross_entropy(logits, src_y[i:i + 8])
            feats = torch.cat([src_feats, tgt_feats])
            domain_labels = torch.cat([torch.zeros(8, 1), torch.ones(8, 1)])
            domain_loss = F.binary_cross_entropy_with_logits(domain_discriminator(feats), domain_labels)
            optimizer_feature.zero_grad()
            optimizer_domain.zero_grad()
            (cls_loss + domain_loss).backward()
            optimizer_feature.step()
            optimizer_domain.step()
        print(f"epoch {epoch} cls {cls_loss.item():.3f} domain {domain_loss.item():.3f}")
    print("fingerprint projection change (frozen on purpose):", (PPIMI_model.fingerprint_proj.weight - w0).abs().max().item())


if __name__ == "__main__":
    train_with_domain_adaptation()
