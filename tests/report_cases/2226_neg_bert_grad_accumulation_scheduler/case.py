import math
import sys

import torch
import torch.nn as nn
from torch.nn import CrossEntropyLoss

torch.manual_seed(0)

TRAIN_BATCH_SIZE = 8
GRADIENT_ACCUMULATION_STEPS = 4
NUM_TRAIN_EPOCHS = 2
LEARNING_RATE = 2e-4
WARMUP_PROPORTION = 0.1
MAX_SEQ_LENGTH = 24
VOCAB = 200


class BertForSequenceClassification(nn.Module):
    """Small BERT-shaped encoder: token + segment + position embeddings, transformer, pooler, classifier."""

    def __init__(self, num_labels=2, hidden=64, layers=2, heads=4):
        super().__init__()
        self.word_embeddings = nn.Embedding(VOCAB, hidden)
        self.token_type_embeddings = nn.Embedding(2, hidden)
        self.position_embeddings = nn.Embedding(MAX_SEQ_LENGTH, hidden)
        self.LayerNorm = nn.LayerNorm(hidden)
        enc = nn.TransformerEncoderLayer(hidden, heads, 4 * hidden, dropout=0.1, batch_first=True, activation='gelu')
        self.encoder = nn.TransformerEncoder(enc, layers)
        self.pooler = nn.Linear(hidden, hidden)
        self.dropout = nn.Dropout(0.1)
        self.classifier = nn.Linear(hidden, num_labels)

    def forward(self, input_ids, token_type_ids=None, attention_mask=None, labels=None):
        pos = torch.arange(input_ids.size(1))
        h = self.word_embeddings(input_ids) + self.position_embeddings(pos)[None]
        if token_type_ids is not None:
            h = h + self.token_type_embeddings(token_type_ids)
        h = self.LayerNorm(h)
        pad = None if attention_mask is None else attention_mask == 0
        h = self.encoder(h, src_key_padding_mask=pad)
        pooled = torch.tanh(self.pooler(h[:, 0]))
        return self.classifier(self.dropout(pooled))


def make_features(n):
    input_ids = torch.randint(5, VOCAB, (n, MAX_SEQ_LENGTH))
    input_ids[:, 0] = 1  # [CLS]
    lengths = torch.randint(8, MAX_SEQ_LENGTH + 1, (n,))
    input_mask = (torch.arange(MAX_SEQ_LENGTH)[None] < lengths[:, None]).long()
    input_ids = input_ids * input_mask
    segment_ids = torch.zeros_like(input_ids)
    label_ids = ((input_ids < 60) & (input_mask == 1)).sum(1).gt(4).long()   # "positive review" rule
    return input_ids, input_mask, segment_ids, label_ids


def main():
    tensors = make_features(96)
    train_data = list(zip(*tensors))
    train_dataloader = [tuple(torch.stack(col) for col in zip(*train_data[i:i + TRAIN_BATCH_SIZE]))
                        for i in range(0, len(train_data), TRAIN_BATCH_SIZE)]
    num_labels = 2
    num_train_optimization_steps = int(len(train_dataloader) / GRADIENT_ACCUMULATION_STEPS) * NUM_TRAIN_EPOCHS

    model = BertForSequenceClassification(num_labels)
    param_optimizer = list(model.named_parameters())
    no_decay = ['bias', 'LayerNorm.bias', 'LayerNorm.weight']
    optimizer_grouped_parameters = [
        {'params': [p for n, p in param_optimizer if not any(nd in n for nd in no_decay)], 'weight_decay': 0.01},
        {'params': [p for n, p in param_optimizer if any(nd in n for nd in no_decay)], 'weight_decay': 0.0}]
    optimizer = torch.optim.AdamW(optimizer_grouped_parameters, lr=LEARNING_RATE)
    warmup_steps = max(1, int(WARMUP_PROPORTION * num_train_optimization_steps))
    scheduler = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda s: min((s + 1) / warmup_steps, max(0.0, (num_train_optimization_steps - s) /
                                                             max(1, num_train_optimization_steps - warmup_steps))))

    global_step = 0
    model.train()
    for epoch in range(NUM_TRAIN_EPOCHS):
        tr_loss = 0
        nb_tr_examples, nb_tr_steps = 0, 0
        for step, batch in enumerate(train_dataloader):
            input_ids, input_mask, segment_ids, label_ids = batch
            logits = model(input_ids, segment_ids, input_mask, labels=None)
            loss_fct = CrossEntropyLoss()
            loss = loss_fct(logits.view(-1, num_labels), label_ids.view(-1))
            if GRADIENT_ACCUMULATION_STEPS > 1:
                loss = loss / GRADIENT_ACCUMULATION_STEPS

            loss.backward()
            sys.stdout.write("\r%f" % loss)
            tr_loss += loss.item()
            nb_tr_examples += input_ids.size(0)
            nb_tr_steps += 1
            if (step + 1) % GRADIENT_ACCUMULATION_STEPS == 0:
                optimizer.step()
                scheduler.step()
                optimizer.zero_grad()
                global_step += 1
        print("\nepoch %d  loss %.4f  global_step %d  lr %.2e" %
              (epoch, tr_loss / nb_tr_steps, global_step, scheduler.get_last_lr()[0]))


if __name__ == '__main__':
    main()
