"""Knowledge-grounded generation: node states of a small knowledge graph, produced by a GAT,
are attended by every decoder layer of a seq2seq transformer."""
import torch
import torch.nn.functional as F
from gnn import GAT
from decoder import Seq2SeqWithGraph

torch.manual_seed(0)
VOCAB, N_NODES = 20, 7


class KnowledgeGroundedGenerator:
    def __init__(self):
        self.node_features = torch.randn(N_NODES, 12)
        adj = (torch.rand(N_NODES, N_NODES) > 0.5).float()
        self.adj = ((adj + adj.t() + torch.eye(N_NODES)) > 0).float()
        self.gat = GAT(12, 16, 16)
        self.seq2seq = Seq2SeqWithGraph(VOCAB, 16)
        self.optimizer = torch.optim.AdamW(self.seq2seq.parameters(), lr=1e-3)
        # the GAT is a frozen pretrained encoder here: encode the graph once, without a graph
        with torch.no_grad():
            self.graph_states = self.gat(self.node_features, self.adj)

    def train_step(self, src, tgt):
        logits = self.seq2seq(src, tgt[:, :-1], self.graph_states)
        loss = F.cross_entropy(logits.reshape(-1, VOCAB), tgt[:, 1:].reshape(-1))
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()


def main():
    trainer = KnowledgeGroundedGenerator()
    for step in range(3):
        src = torch.randint(1, VOCAB, (4, 6))
        tgt = torch.randint(1, VOCAB, (4, 5))
        print("step", step, "loss", round(trainer.train_step(src, tgt), 4))


if __name__ == "__main__":
    main()
