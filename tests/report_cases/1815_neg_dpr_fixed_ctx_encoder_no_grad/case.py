import random

import torch

from biencoder import BiEncoder, BiEncoderBatch, BiEncoderNllLoss, HFEncoderStub

random.seed(0)
torch.manual_seed(0)

cfg = {"batch_size": 8, "hard_negatives": 1, "q_len": 12, "ctx_len": 20, "vocab": 100,
       "learning_rate": 2e-4, "adam_eps": 1e-8, "weight_decay": 0.0, "num_train_epochs": 2,
       "fix_ctx_encoder": True, "max_grad_norm": 2.0}


def create_biencoder_input(n_questions):
    q_ids = torch.randint(2, cfg["vocab"], (n_questions, cfg["q_len"]))
    n_ctx = n_questions * (1 + cfg["hard_negatives"])
    ctx_ids = torch.randint(2, cfg["vocab"], (n_ctx, cfg["ctx_len"]))
    ctx_ids[::2, :4] = q_ids[:, :4]
    positives = list(range(0, n_ctx, 1 + cfg["hard_negatives"]))
    return BiEncoderBatch(q_ids, torch.zeros_like(q_ids), ctx_ids, torch.zeros_like(ctx_ids), positives)


def get_optimizer(model, learning_rate, adam_eps, weight_decay):
    no_decay = ["bias", "LayerNorm.weight"]
    groups = [
        {"params": [p for n, p in model.named_parameters() if not any(nd in n for nd in no_decay)],
         "weight_decay": weight_decay},
        {"params": [p for n, p in model.named_parameters() if any(nd in n for nd in no_decay)],
         "weight_decay": 0.0},
    ]
    return torch.optim.AdamW(groups, lr=learning_rate, eps=adam_eps)


def train_epoch(biencoder, optimizer, loss_function, batches, epoch):
    biencoder.train()
    epoch_loss, epoch_correct = 0.0, 0
    for i, batch in enumerate(batches):
        q_attn_mask = batch.question_ids != 0
        ctx_attn_mask = batch.context_ids != 0
        local_q_vector, local_ctx_vectors = biencoder(
            batch.question_ids, batch.question_segments, q_attn_mask,
            batch.context_ids, batch.ctx_segments, ctx_attn_mask)
        loss, is_correct = loss_function.calc(local_q_vector, local_ctx_vectors, batch.is_positive)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(biencoder.parameters(), cfg["max_grad_norm"])
        optimizer.step()
        biencoder.zero_grad()
        epoch_loss += loss.item()
        epoch_correct += is_correct.item()
    print(f"epoch {epoch}: loss {epoch_loss / len(batches):.4f} correct {epoch_correct}")


def main():
    question_encoder = HFEncoderStub(cfg["vocab"])
    ctx_encoder = HFEncoderStub(cfg["vocab"])
    biencoder = BiEncoder(question_encoder, ctx_encoder, fix_ctx_encoder=cfg["fix_ctx_encoder"])
    optimizer = get_optimizer(biencoder, cfg["learning_rate"], cfg["adam_eps"], cfg["weight_decay"])
    loss_function = BiEncoderNllLoss()
    batches = [create_biencoder_input(cfg["batch_size"]) for _ in range(4)]
    for epoch in range(cfg["num_train_epochs"]):
        train_epoch(biencoder, optimizer, loss_function, batches, epoch)


if __name__ == "__main__":
    main()
