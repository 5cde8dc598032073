import torch
import torch.nn.functional as F


class Trainer:
    def __init__(self, model, lr=1e-3):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)

    def train_one_batch(self, batch):
        src, tgt = batch
        self.model.train()
        self.optimizer.zero_grad()
        draft_logits, enc = self.model.forward_draft(src, tgt[:, :-1])
        draft_loss = F.cross_entropy(draft_logits.reshape(-1, draft_logits.size(-1)), tgt[:, 1:].reshape(-1))
        draft_tokens = draft_logits.argmax(-1)
        refine_logits = self.model.generate_refinement_output(enc, draft_tokens)
        refine_loss = F.cross_entropy(refine_logits.reshape(-1, refine_logits.size(-1)), tgt[:, 1:].reshape(-1))
        loss = draft_loss + refine_loss
        loss.backward()
        self.optimizer.step()
        return draft_loss.item(), refine_loss.item()
