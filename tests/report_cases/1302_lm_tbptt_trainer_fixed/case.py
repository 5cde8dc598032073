"""Word-level language model on a synthetic corpus (truncated BPTT)."""
import argparse
import logging
import math
import time

import torch
import torch.nn as nn

from model import RNNModel
from utils import repackage_hidden

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
log = logging.getLogger("lm")


def get_args():
    p = argparse.ArgumentParser(description="PyTorch LSTM language model")
    p.add_argument("--emsize", type=int, default=16)
    p.add_argument("--nhid", type=int, default=16)
    p.add_argument("--nlayers", type=int, default=2)
    p.add_argument("--lr", type=float, default=5.0)
    p.add_argument("--clip", type=float, default=0.25)
    p.add_argument("--epochs", type=int, default=1)
    p.add_argument("--batch_size", type=int, default=4)
    p.add_argument("--bptt", type=int, default=6)
    p.add_argument("--dropout", type=float, default=0.1)
    p.add_argument("--vocab", type=int, default=50)
    p.add_argument("--seed", type=int, default=1111)
    return p.parse_args()


def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    data = data.narrow(0, 0, nbatch * bsz)
    return data.view(bsz, -1).t().contiguous()


def get_batch(source, i, bptt):
    seq_len = min(bptt, len(source) - 1 - i)
    data = source[i:i + seq_len]
    target = source[i + 1:i + 1 + seq_len].reshape(-1)
    return data, target


class LMTrainer:
    def __init__(self, args):
        self.args = args
        self.model = RNNModel(args.vocab, args.emsize, args.nhid, args.nlayers, args.dropout)
        self.criterion = nn.NLLLoss()
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=args.lr)
        self.hidden = None
        self.history = {"loss": [], "ppl": []}

    def train_epoch(self, epoch, train_data):
        self.model.train()
        if self.hidden is None:
            self.hidden = self.model.init_hidden(self.args.batch_size)
        total_loss = 0.0
        start = time.time()
        n_batches = 0
        for batch, i in enumerate(range(0, train_data.size(0) - 1, self.args.bptt)):
            data, targets = get_batch(train_data, i, self.args.bptt)
            self.hidden = repackage_hidden(self.hidden)
            self.optimizer.zero_grad()
            output, self.hidden = self.model(data, self.hidden)
            loss = self.criterion(output, targets)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.args.clip)
            self.optimizer.step()
            total_loss += loss.item()
            n_batches += 1
        cur_loss = total_loss / max(n_batches, 1)
        self.history["loss"].append(cur_loss)
        self.history["ppl"].append(math.exp(cur_loss))
        log.info("| epoch %d | %.2fs | loss %.3f | ppl %.2f", epoch, time.time() - start,
                 cur_loss, math.exp(cur_loss))


def main():
    args = get_args()
    torch.manual_seed(args.seed)
    corpus = torch.randint(0, args.vocab, (200,))
    train_data = batchify(corpus, args.batch_size)
    trainer = LMTrainer(args)
    for epoch in range(1, args.epochs + 1):
        trainer.train_epoch(epoch, train_data)


if __name__ == "__main__":
    main()
