from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


@dataclass
class QuestionAnsweringModelOutput:
    loss: torch.Tensor
    start_logits: torch.Tensor
    end_logits: torch.Tensor


class TinyBertForQuestionAnswering(nn.Module):
    def __init__(self, vocab=50, hidden=16):
        super().__init__()
        self.embeddings = nn.Embedding(vocab, hidden)
        self.token_type = nn.Embedding(2, hidden)
        self.encoder = nn.TransformerEncoder(
            nn.TransformerEncoderLayer(hidden, nhead=2, dim_feedforward=32, batch_first=True), num_layers=1)
        self.qa_outputs = nn.Linear(hidden, 2)

    def forward(self, input_ids, token_type_ids, attention_mask, start_positions=None, end_positions=None):
        h = self.embeddings(input_ids) + self.token_type(token_type_ids)
        h = self.encoder(h, src_key_padding_mask=attention_mask == 0)
        start_logits, end_logits = self.qa_outputs(h).unbind(-1)
        loss = None
        if start_positions is not None:
            loss = (F.cross_entropy(start_logits, start_positions) + F.cross_entropy(end_logits, end_positions)) / 2
        return QuestionAnsweringModelOutput(loss, start_logits, end_logits)


class Accelerator:
    def backward(self, loss):
        loss.backward()


def make_batch(bs=4, seq=12):
    ids = torch.randint(1, 50, (bs, seq))
    tt = (torch.arange(seq) > 4).long().expand(bs, seq)
    mask = torch.ones(bs, seq, dtype=torch.long)
    s = torch.randint(5, seq, (bs,))
    return ids, tt, mask, s, torch.clamp(s + 1, max=seq - 1)


model = TinyBertForQuestionAnswering()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
accelerator = Accelerator()
train_loader = [make_batch() for _ in range(12)]
num_epoch, logging_step = 1, 6

model.train()
for epoch in range(num_epoch):
    step = 1
    train_loss = train_acc = 0
    for data in train_loader:
        output = model(input_ids=data[0], token_type_ids=data[1], attention_mask=data[2],
                       start_positions=data[3], end_positions=data[4])
        start_index = torch.argmax(output.start_logits, dim=1)
        end_index = torch.argmax(output.end_logits, dim=1)
        train_acc += ((start_index == data[3]) & (end_index == data[4])).float().mean()
        train_loss += output.loss
        accelerator.backward(output.loss)
        step += 1
        optimizer.step()
        optimizer.zero_grad()
        if step % logging_step == 0:
            print(f"Epoch {epoch + 1} | Step {step} | loss = {train_loss.item() / logging_step:.3f}, "
                  f"acc = {train_acc / logging_step:.3f}")
            train_loss = train_acc = 0
