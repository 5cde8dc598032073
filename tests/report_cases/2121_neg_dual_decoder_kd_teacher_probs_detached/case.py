"""Dual-decoder translation model (pytorch/translate style): one shared
encoder, a large teacher decoder and a small student decoder trained jointly.
The student gets an extra distillation term towards teacher_probs.detach(),
so the KD term does not pull the teacher towards the student."""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class Cfg:
    vocab: int = 24
    emb: int = 16
    teacher_hidden: int = 32
    student_hidden: int = 8
    kd_weight: float = 0.5
    temperature: float = 2.0
    steps: int = 4


class Decoder(nn.Module):
    def __init__(self, cfg, hidden):
        super().__init__()
        self.embed = nn.Embedding(cfg.vocab, cfg.emb)
        self.init = nn.Linear(cfg.emb, hidden)
        self.rnn = nn.GRU(cfg.emb, hidden, batch_first=True)
        self.out = nn.Linear(hidden, cfg.vocab)

    def forward(self, prev_tokens, enc_summary):
        h0 = torch.tanh(self.init(enc_summary)).unsqueeze(0)
        out, _ = self.rnn(self.embed(prev_tokens), h0)
        return self.out(out)


class DualDecoderModel(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.src_embed = nn.Embedding(cfg.vocab, cfg.emb)
        self.encoder = nn.GRU(cfg.emb, cfg.emb, batch_first=True)
        self.teacher = Decoder(cfg, cfg.teacher_hidden)
        self.student = Decoder(cfg, cfg.student_hidden)

    def forward(self, src, prev_tokens):
        enc, _ = self.encoder(self.src_embed(src))
        summary = enc.mean(dim=1)
        return self.teacher(prev_tokens, summary), self.student(prev_tokens, summary)


def dual_decoder_loss(teacher_logits, student_logits, target, cfg):
    v = teacher_logits.size(-1)
    teacher_nll = F.cross_entropy(teacher_logits.reshape(-1, v), target.reshape(-1))
    student_nll = F.cross_entropy(student_logits.reshape(-1, v), target.reshape(-1))
    teacher_probs = F.softmax(teacher_logits / cfg.temperature, dim=-1).detach()
    student_lprobs = F.log_softmax(student_logits / cfg.temperature, dim=-1)
    kd = F.kl_div(student_lprobs.reshape(-1, v), teacher_probs.reshape(-1, v), reduction="batchmean")
    total = teacher_nll + (1 - cfg.kd_weight) * student_nll + cfg.kd_weight * cfg.temperature ** 2 * kd
    return total, {"teacher_nll": teacher_nll.item(), "student_nll": student_nll.item(), "kd": kd.item()}


def main(cfg=Cfg()):
    torch.manual_seed(0)
    model = DualDecoderModel(cfg)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(cfg.steps):
        src = torch.randint(1, cfg.vocab, (4, 7))
        target = src.flip(1)
        prev_tokens = torch.cat([torch.zeros(4, 1, dtype=torch.long), target[:, :-1]], dim=1)
        teacher_logits, student_logits = model(src, prev_tokens)
        loss, logs = dual_decoder_loss(teacher_logits, student_logits, target, cfg)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(step, {k: round(v, 4) for k, v in logs.items()})


if __name__ == "__main__":
    main()
