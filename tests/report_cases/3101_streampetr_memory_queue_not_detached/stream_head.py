import torch
import torch.nn as nn


def topk_gather(feat, topk_indexes):
    """Gather rows of feat (B, N, C) with indexes (B, k, 1)."""
    return torch.gather(feat, 1, topk_indexes.expand(-1, -1, feat.shape[-1]))


class StreamPETRHead(nn.Module):
    """Query-based 3D detection head with a temporal memory queue (stream training)."""

    def __init__(self, embed_dims=16, num_query=12, memory_len=8, topk_proposals=4, num_classes=3):
        super().__init__()
        self.num_query = num_query
        self.memory_len = memory_len
        self.topk_proposals = topk_proposals
        self.query_embedding = nn.Embedding(num_query, embed_dims)
        self.reference_points = nn.Embedding(num_query, 3)
        self.query_pos = nn.Sequential(nn.Linear(3, embed_dims), nn.ReLU(), nn.Linear(embed_dims, embed_dims))
        self.decoder = nn.MultiheadAttention(embed_dims, 2, batch_first=True)
        self.temporal_attn = nn.MultiheadAttention(embed_dims, 2, batch_first=True)
        self.cls_branch = nn.Linear(embed_dims, num_classes)
        self.reg_branch = nn.Linear(embed_dims, 3)
        self.reset_memory()

    def reset_memory(self):
        self.memory_embedding = None
        self.memory_reference_point = None

    def pre_update_memory(self, batch_size, dims):
        if self.memory_embedding is None:
            self.memory_embedding = torch.zeros(batch_size, self.memory_len, dims)
            self.memory_reference_point = torch.zeros(batch_size, self.memory_len, 3)

    def post_update_memory(self, rec_score, rec_memory, rec_reference_points):
        _, topk_indexes = torch.topk(rec_score, self.topk_proposals, dim=1)
        rec_reference_points = topk_gather(rec_reference_points, topk_indexes)
        rec_memory = topk_gather(rec_memory, topk_indexes)
        self.memory_embedding = torch.cat([rec_memory, self.memory_embedding], dim=1)[:, :self.memory_len]
        self.memory_reference_point = torch.cat(
            [rec_reference_points, self.memory_reference_point], dim=1)[:, :self.memory_len]

    def forward(self, img_feats):
        B, _, C = img_feats.shape
        self.pre_update_memory(B, C)
        reference_points = self.reference_points.weight.sigmoid().unsqueeze(0).expand(B, -1, -1)
        query = self.query_embedding.weight.unsqueeze(0).expand(B, -1, -1) + self.query_pos(reference_points)
        memory = self.memory_embedding + self.query_pos(self.memory_reference_point)
        query = query + self.temporal_attn(query, memory, memory)[0]
        outs_dec = query + self.decoder(query, img_feats, img_feats)[0]
        cls_scores = self.cls_branch(outs_dec)
        bbox_preds = reference_points + self.reg_branch(outs_dec)
        rec_score = cls_scores.sigmoid().max(-1, keepdim=True).values
        self.post_update_memory(rec_score, outs_dec, bbox_preds)
        return cls_scores, bbox_preds
