"""Knowledge-graph embedding with a CompGCN encoder, sLCWA training and an early stopper
that evaluates filtered MRR every epoch."""
import torch
import torch.nn.functional as F
from representation import CompGCN

torch.manual_seed(0)

NUM_ENTITIES, NUM_RELATIONS = 40, 4
CONFIG = {"epochs": 3, "batch_size": 32, "lr": 0.01, "num_negs": 4, "stopper_frequency": 1}


def make_triples(n=200):
    h = torch.randint(0, NUM_ENTITIES, (n,))
    r = torch.randint(0, NUM_RELATIONS, (n,))
    t = (h + r + 1) % NUM_ENTITIES
    return torch.stack([h, r, t], 1)


class EarlyStopper:
    def __init__(self, model, valid, frequency):
        self.model, self.valid, self.frequency = model, valid, frequency
        self.best = 0.0

    @torch.no_grad()
    def evaluate(self):
        self.model.eval()
        scores = self.model.score_t(self.valid[:, :2])
        true = scores.gather(1, self.valid[:, 2:3])
        ranks = (scores > true).sum(1).float() + 1
        mrr = (1.0 / ranks).mean().item()
        self.best = max(self.best, mrr)
        return mrr

    def should_evaluate(self, epoch):
        return (epoch + 1) % self.frequency == 0


class SLCWATrainingLoop:
    def __init__(self, model, triples, config, stopper=None):
        self.model, self.triples, self.cfg, self.stopper = model, triples, config, stopper
        self.optimizer = torch.optim.Adam(model.parameters(), lr=config["lr"])

    def corrupt(self, pos):
        neg = pos.repeat(self.cfg["num_negs"], 1)
        neg[:, 2] = torch.randint(0, NUM_ENTITIES, (neg.size(0),))
        return neg

    def train(self):
        for epoch in range(self.cfg["epochs"]):
            self.model.train()
            perm = torch.randperm(self.triples.size(0))
            for i in range(0, perm.numel(), self.cfg["batch_size"]):
                pos = self.triples[perm[i:i + self.cfg["batch_size"]]]
                neg = self.corrupt(pos)
                pos_s, neg_s = self.model.score_hrt(pos), self.model.score_hrt(neg)
                loss = F.softplus(-pos_s).mean() + F.softplus(neg_s).mean()
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                self.model.post_parameter_update()
            if self.stopper is not None and self.stopper.should_evaluate(epoch):
                print(f"epoch {epoch}: loss {loss.item():.4f} mrr {self.stopper.evaluate():.4f}")


if __name__ == "__main__":
    triples = make_triples()
    model = CompGCN(NUM_ENTITIES, NUM_RELATIONS, triples)
    stopper = EarlyStopper(model, make_triples(40), CONFIG["stopper_frequency"])
    SLCWATrainingLoop(model, triples, CONFIG, stopper).train()
