import torch
import torch.nn.functional as F


class MaskedLmLoss:
    """Masked LM criterion: returns (loss, sample_size, logging_output)."""
    def __init__(self, padding_idx=0):
        self.padding_idx = padding_idx

    def __call__(self, model, sample):
        masked_tokens = sample["target"].ne(self.padding_idx)
        sample_size = int(masked_tokens.sum())
        logits = model(sample["net_input"]["src_tokens"])[masked_tokens]
        targets = sample["target"][masked_tokens]
        loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1), reduction="sum")
        logging_output = {
            "loss": loss.detach(),
            "ntokens": sample["ntokens"],
            "nsentences": sample["nsentences"],
            "sample_size": sample_size,
        }
        return loss, sample_size, logging_output
