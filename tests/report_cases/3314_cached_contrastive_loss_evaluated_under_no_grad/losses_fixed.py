"""GradCache-style in-batch-negatives contrastive loss: embeddings are computed in mini-batches
without a graph, the loss gradient w.r.t. the embeddings is cached, and the encoder is
backpropagated mini-batch by mini-batch from a hook on the returned loss."""
from functools import partial
import torch
import torch.nn as nn
import torch.nn.functional as F


def _backward_hook(grad_output, loss_obj, inputs):
    with torch.enable_grad():
        for batch, cached in zip(inputs, loss_obj.cache):
            for start, grad in zip(range(0, batch.size(0), loss_obj.mini_batch_size), cached):
                reps = loss_obj.model(batch[start:start + loss_obj.mini_batch_size])
                (reps * grad * grad_output).sum().backward()
    return grad_output


class CachedMultipleNegativesRankingLoss(nn.Module):
    def __init__(self, model, scale=20.0, mini_batch_size=8):
        super().__init__()
        self.model, self.scale, self.mini_batch_size = model, scale, mini_batch_size
        self.cache = None

    def embed_minibatches(self, batch):
        with torch.no_grad():
            return [self.model(batch[i:i + self.mini_batch_size]) for i in range(0, batch.size(0), self.mini_batch_size)]

    def calculate_loss(self, reps_a, reps_p):
        a = F.normalize(torch.cat(reps_a), dim=-1)
        p = F.normalize(torch.cat(reps_p), dim=-1)
        scores = a @ p.t() * self.scale
        return F.cross_entropy(scores, torch.arange(scores.size(0)))

    def calculate_loss_and_cache_gradients(self, reps_a, reps_p):
        reps_a = [r.detach().requires_grad_() for r in reps_a]
        reps_p = [r.detach().requires_grad_() for r in reps_p]
        loss = self.calculate_loss(reps_a, reps_p)
        loss.backward()
        self.cache = [[r.grad for r in reps_a], [r.grad for r in reps_p]]
        return loss.detach().requires_grad_()

    def forward(self, anchors, positives):
        reps_a, reps_p = self.embed_minibatches(anchors), self.embed_minibatches(positives)
        if not torch.is_grad_enabled():
            # evaluation: no gradients are needed, so skip the cached-gradient machinery
            return self.calculate_loss(reps_a, reps_p)
        loss = self.calculate_loss_and_cache_gradients(reps_a, reps_p)
        loss.register_hook(partial(_backward_hook, loss_obj=self, inputs=(anchors, positives)))
        return loss
