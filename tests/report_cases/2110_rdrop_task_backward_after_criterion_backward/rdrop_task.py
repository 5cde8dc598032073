"""R-Drop for seq2seq (fairseq-style task + criterion), reduced to a toy
summarization model.  The criterion runs the model twice (two dropout masks),
adds a symmetric KL term and backpropagates inside forward_reg()."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class RegLabelSmoothedCrossEntropyCriterion(nn.Module):
    def __init__(self, eps=0.1, padding_idx=0):
        super().__init__()
        self.eps, self.padding_idx = eps, padding_idx

    def compute_kl_loss(self, p_logits, q_logits):
        p, q = F.log_softmax(p_logits, -1), F.log_softmax(q_logits, -1)
        return 0.5 * (F.kl_div(p, q, log_target=True, reduction="batchmean")
                      + F.kl_div(q, p, log_target=True, reduction="batchmean"))

    def forward_reg(self, model, sample, optimizer, reg_alpha, ignore_grad):
        src, tgt = sample["net_input"], sample["target"]
        doubled = torch.cat([src, src.clone()], dim=0)
        logits = model(doubled)
        vocab = logits.size(-1)
        nll = F.cross_entropy(logits.view(-1, vocab), torch.cat([tgt, tgt]).view(-1),
                              label_smoothing=self.eps, ignore_index=self.padding_idx)
        p_logits, q_logits = logits.chunk(2, dim=0)
        loss = nll + reg_alpha * self.compute_kl_loss(p_logits, q_logits)
        if ignore_grad:
            loss *= 0
        optimizer.backward(loss)
        sample_size = tgt.numel()
        logging_output = {"loss": loss.item(), "nll_loss": nll.item(), "sample_size": sample_size}
        return loss, sample_size, logging_output


class RDropTranslationTask:
    def __init__(self, reg_alpha=5.0):
        self.reg_alpha = reg_alpha

    def train_step(self, sample, model, criterion, optimizer, update_num, ignore_grad=False):
        model.train()
        loss, sample_size, logging_output = criterion.forward_reg(
            model, sample, optimizer, self.reg_alpha, ignore_grad)
        if ignore_grad:
            loss *= 0
        optimizer.backward(loss)
        return loss, sample_size, logging_output
