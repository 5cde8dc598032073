"""Sliding-window training of a temporal 3D detector: each clip is a short window of frames whose
memory queue starts empty, and one loss over the whole window is backpropagated once."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from stream_head import StreamPETRHead

torch.manual_seed(0)


class Detector(nn.Module):
    def __init__(self, dims=16):
        super().__init__()
        self.img_backbone = nn.Sequential(nn.Linear(10, dims), nn.ReLU(), nn.Linear(dims, dims))
        self.pts_bbox_head = StreamPETRHead(embed_dims=dims)

    def forward(self, img_tokens):
        return self.pts_bbox_head(self.img_backbone(img_tokens))


def make_clip(num_frames=3, batch=2):
    return [(torch.randn(batch, 20, 10), torch.randint(0, 3, (batch, 12)), torch.rand(batch, 12, 3))
            for _ in range(num_frames)]


def train(num_clips=4):
    model = Detector()
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-4, weight_decay=0.01)
    for clip_idx in range(num_clips):
        model.pts_bbox_head.reset_memory()
        loss = 0.0
        for img_tokens, gt_labels, gt_boxes in make_clip():
            cls_scores, bbox_preds = model(img_tokens)
            loss = loss + F.cross_entropy(cls_scores.flatten(0, 1), gt_labels.flatten())
            loss = loss + 0.25 * F.l1_loss(bbox_preds, gt_boxes)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        model.pts_bbox_head.reset_memory()
        print(f"clip {clip_idx} loss {loss.item():.4f}")


if __name__ == "__main__":
    train()
