"""Soft-Masked BERT-style spelling corrector: a GRU detector predicts error probabilities,
the embeddings are soft-masked with them, and a corrector predicts the right tokens.
The detection and correction losses are mixed into one loss; backward is called with
retain_graph=True every step.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
VOCAB, EMB, HID = 40, 16, 16


class SoftMaskedBert(nn.Module):
    def __init__(self, mask_id=1):
        super().__init__()
        self.embedding = nn.Embedding(VOCAB, EMB)
        self.detector = nn.GRU(EMB, HID, batch_first=True, bidirectional=True)
        self.det_head = nn.Linear(2 * HID, 1)
        self.corrector = nn.TransformerEncoder(
            nn.TransformerEncoderLayer(EMB, nhead=2, dim_feedforward=32, batch_first=True), num_layers=1)
        self.cor_head = nn.Linear(EMB, VOCAB)
        self.mask_id = mask_id

    def forward(self, input_ids):
        emb = self.embedding(input_ids)
        det_out, _ = self.detector(emb)
        prob = torch.sigmoid(self.det_head(det_out))
        mask_emb = self.embedding(torch.full_like(input_ids, self.mask_id))
        soft_emb = prob * mask_emb + (1 - prob) * emb
        cor_out = self.corrector(soft_emb) + emb  # residual connection
        return prob.squeeze(-1), self.cor_head(cor_out)


class Trainer:
    def __init__(self, model, gamma=0.8, lr=1e-3):
        self.model = model
        self.gamma = gamma
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.log = []

    def train_step(self, input_ids, output_ids, det_labels):
        self.model.train()
        prob, logits = self.model(input_ids)
        det_loss = F.binary_cross_entropy(prob, det_labels)
        cor_loss = F.cross_entropy(logits.reshape(-1, VOCAB), output_ids.reshape(-1))
        loss = self.gamma * cor_loss + (1 - self.gamma) * det_loss
        self.optimizer.zero_grad()
        loss.backward(retain_graph=True)
        self.optimizer.step()
        self.log.append({"loss": loss.item(), "det": det_loss.item(), "cor": cor_loss.item()})
        return self.log[-1]


trainer = Trainer(SoftMaskedBert())
for step in range(4):
    output_ids = torch.randint(2, VOCAB, (4, 10))
    det_labels = (torch.rand(4, 10) < 0.15).float()
    input_ids = torch.where(det_labels.bool(), torch.randint(2, VOCAB, (4, 10)), output_ids)
    print(step, trainer.train_step(input_ids, output_ids, det_labels))
