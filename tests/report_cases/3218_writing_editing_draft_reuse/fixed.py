"""Writing-editing network for title-to-abstract generation: a first pass writes a draft, every further
pass re-reads the title together with the previous draft and edits it; each pass has its own loss."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class WritingEditingNet(nn.Module):
    def __init__(self, vocab=50, dim=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.title_encoder = nn.GRU(dim, dim, batch_first=True)
        self.draft_encoder = nn.GRU(dim, dim, batch_first=True)
        self.decoder = nn.GRU(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, vocab)

    def forward(self, title, abstract_in, draft_states=None):
        _, h_title = self.title_encoder(self.embed(title))
        h0 = h_title
        if draft_states is not None:  # editing pass: condition on the previous draft
            _, h_draft = self.draft_encoder(draft_states)
            h0 = h_title + h_draft
        states, _ = self.decoder(self.embed(abstract_in), h0)
        return self.out(states), states


def main(steps=2, num_exams=3):
    model = WritingEditingNet()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(steps):
        title = torch.randint(0, 50, (4, 6))
        abstract = torch.randint(0, 50, (4, 12))
        draft_states = None
        total = 0
        for exam in range(num_exams):
            logits, draft_states = model(title, abstract[:, :-1], draft_states)
            total = total + F.cross_entropy(logits.reshape(-1, 50), abstract[:, 1:].reshape(-1))
        optimizer.zero_grad()
        total.backward()  # the passes form one model: one backward, one step
        optimizer.step()
        print(f"step {step} summed loss {total.item():.4f}")


if __name__ == "__main__":
    main()
