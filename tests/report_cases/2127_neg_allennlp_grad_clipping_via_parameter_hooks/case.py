"""AllenNLP-style Trainer for an LSTM sequence tagger: gradient clipping is
done in the backward pass by hooks registered on every parameter
(parameter.register_hook(clip_function)), plus grad-norm rescaling and loss
logging with .item()."""
from typing import Dict, List

import torch
import torch.nn as nn
import torch.nn.functional as F


class SimpleTagger(nn.Module):
    def __init__(self, vocab=30, emb=16, hidden=16, num_tags=5):
        super().__init__()
        self.embedder = nn.Embedding(vocab, emb, padding_idx=0)
        self.encoder = nn.LSTM(emb, hidden, batch_first=True, bidirectional=True)
        self.tag_projection_layer = nn.Linear(2 * hidden, num_tags)

    def forward(self, tokens, tags=None) -> Dict[str, torch.Tensor]:
        mask = tokens != 0
        encoded, _ = self.encoder(self.embedder(tokens))
        logits = self.tag_projection_layer(encoded)
        output = {"logits": logits, "mask": mask}
        if tags is not None:
            loss = F.cross_entropy(logits[mask], tags[mask])
            output["loss"] = loss
        return output


class Trainer:
    def __init__(self, model, optimizer, grad_clipping=None, grad_norm=None):
        self.model, self.optimizer = model, optimizer
        self._grad_clipping, self._grad_norm = grad_clipping, grad_norm
        self._hooks: List = []
        self._enable_gradient_clipping()

    def _enable_gradient_clipping(self):
        if self._grad_clipping is not None:
            clip_function = lambda grad: grad.clamp(-self._grad_clipping, self._grad_clipping)
            for parameter in self.model.parameters():
                if parameter.requires_grad:
                    self._hooks.append(parameter.register_hook(clip_function))

    def rescale_gradients(self):
        if self._grad_norm:
            params = [p for p in self.model.parameters() if p.grad is not None]
            return torch.nn.utils.clip_grad_norm_(params, self._grad_norm).item()
        return None

    def batch_loss(self, batch, for_training):
        output_dict = self.model(**batch)
        loss = output_dict.get("loss")
        if loss is None and for_training:
            raise RuntimeError("The model you are trying to optimize does not contain a 'loss' key")
        return loss

    def train_epoch(self, batches) -> Dict[str, float]:
        self.model.train()
        train_loss, batches_this_epoch = 0.0, 0
        for batch in batches:
            batches_this_epoch += 1
            self.optimizer.zero_grad()
            loss = self.batch_loss(batch, for_training=True)
            loss.backward()
            train_loss += loss.item()
            batch_grad_norm = self.rescale_gradients()
            self.optimizer.step()
        return {"loss": train_loss / batches_this_epoch, "grad_norm": batch_grad_norm}


def make_batches(n=4):
    out = []
    for _ in range(n):
        tokens = torch.randint(1, 30, (3, 6))
        tokens[:, 4:] = 0
        out.append({"tokens": tokens, "tags": tokens % 5})
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    model = SimpleTagger()
    trainer = Trainer(model, torch.optim.Adam(model.parameters(), lr=1e-3), grad_clipping=0.1, grad_norm=5.0)
    batches = make_batches()
    for epoch in range(2):
        print(epoch, trainer.train_epoch(batches))
