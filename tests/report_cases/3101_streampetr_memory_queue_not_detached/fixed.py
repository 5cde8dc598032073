"""Stream training of a temporal 3D detector on consecutive frames of driving sequences."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from stream_head_fixed import StreamPETRHead

torch.manual_seed(0)


class Detector(nn.Module):
    def __init__(self, dims=16):
        super().__init__()
        self.img_backbone = nn.Sequential(nn.Linear(10, dims), nn.ReLU(), nn.Linear(dims, dims))
        self.pts_bbox_head = StreamPETRHead(embed_dims=dims)

    def forward(self, img_tokens):
        return self.pts_bbox_head(self.img_backbone(img_tokens))


def make_sequence(num_frames=4, batch=2):
    frames = []
    for _ in range(num_frames):
        img_tokens = torch.randn(batch, 20, 10)
        gt_labels = torch.randint(0, 3, (batch, 12))
        gt_boxes = torch.rand(batch, 12, 3)
        frames.append((img_tokens, gt_labels, gt_boxes))
    return frames


def train(num_sequences=2):
    model = Detector()
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-4, weight_decay=0.01)
    for seq_idx in range(num_sequences):
        model.pts_bbox_head.reset_memory()
        for frame_idx, (img_tokens, gt_labels, gt_boxes) in enumerate(make_sequence()):
            cls_scores, bbox_preds = model(img_tokens)
            loss_cls = F.cross_entropy(cls_scores.flatten(0, 1), gt_labels.flatten())
            loss_bbox = F.l1_loss(bbox_preds, gt_boxes)
            loss = loss_cls + 0.25 * loss_bbox
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            print(f"seq {seq_idx} frame {frame_idx} loss {loss.item():.4f}")


if __name__ == "__main__":
    train()
