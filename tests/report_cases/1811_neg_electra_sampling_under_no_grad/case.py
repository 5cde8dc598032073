import torch
import torch.nn as nn
import torch.nn.functional as F

from modeling import Discriminator, Generator

torch.manual_seed(0)

VOCAB, PAD, MASK = 50, 0, 1
config = {"mask_prob": 0.15, "disc_weight": 50.0, "gen_weight": 1.0, "lr": 5e-4, "steps": 6}


class ELECTRAModel(nn.Module):
    def __init__(self, generator, discriminator):
        super().__init__()
        self.generator, self.discriminator = generator, discriminator
        self.gumbel_dist = torch.distributions.gumbel.Gumbel(0.0, 1.0)

    def forward(self, masked_inputs, is_mlm_applied, labels):
        attention_mask = masked_inputs != PAD
        gen_logits = self.generator(masked_inputs, attention_mask)
        mlm_gen_logits = gen_logits[is_mlm_applied, :]

        with torch.no_grad():
            pred_toks = self.sample(mlm_gen_logits)
            generated = masked_inputs.clone()
            generated[is_mlm_applied] = pred_toks
            is_replaced = is_mlm_applied.clone()
            is_replaced[is_mlm_applied] = (pred_toks != labels[is_mlm_applied])

        disc_logits = self.discriminator(generated, attention_mask)
        return mlm_gen_logits, generated, disc_logits, is_replaced, attention_mask

    def sample(self, logits):
        return (logits.float() + self.gumbel_dist.sample(logits.shape)).argmax(dim=-1)


class ELECTRALoss:
    def __init__(self, gen_weight, disc_weight):
        self.gen_weight, self.disc_weight = gen_weight, disc_weight

    def __call__(self, outputs, targets):
        mlm_gen_logits, generated, disc_logits, is_replaced, non_pad = outputs
        gen_loss = F.cross_entropy(mlm_gen_logits.float(), targets[targets != -100])
        disc_logits = disc_logits.masked_select(non_pad)
        is_replaced = is_replaced.masked_select(non_pad)
        disc_loss = F.binary_cross_entropy_with_logits(disc_logits.float(), is_replaced.float())
        return gen_loss * self.gen_weight + disc_loss * self.disc_weight


def mask_tokens(inputs, mask_prob):
    labels = inputs.clone()
    probability = torch.full(labels.shape, mask_prob)
    probability.masked_fill_(inputs == PAD, 0.0)
    mlm_mask = torch.bernoulli(probability).bool()
    mlm_mask[:, 1] = True
    labels[~mlm_mask] = -100
    masked = inputs.clone()
    masked[mlm_mask] = MASK
    return masked, mlm_mask, labels


model = ELECTRAModel(Generator(VOCAB), Discriminator(VOCAB))
loss_func = ELECTRALoss(config["gen_weight"], config["disc_weight"])
optimizer = torch.optim.AdamW(model.parameters(), lr=config["lr"], eps=1e-6, weight_decay=0.01)

for step in range(config["steps"]):
    batch = torch.randint(2, VOCAB, (8, 24))
    batch[:, -3:] = PAD
    masked_inputs, is_mlm_applied, labels = mask_tokens(batch, config["mask_prob"])
    outputs = model(masked_inputs, is_mlm_applied, labels)
    loss = loss_func(outputs, labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step}: loss {loss.item():.4f}")
