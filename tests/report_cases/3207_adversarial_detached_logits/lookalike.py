"""Semi-supervised text classification with adversarial domain alignment: labelled source batches train
the classifier, unlabelled target batches are pushed to look like source batches to a discriminator."""
import torch
import torch.nn.functional as F
from model_evalonly_detach import SequenceClassifier, DomainDiscriminator

torch.manual_seed(0)


def batches(n, batch=8, length=12):
    return [(torch.randint(0, 100, (batch, length)), torch.randint(0, 4, (batch,))) for _ in range(n)]


class AdversarialTrainer:
    def __init__(self):
        self.generator = SequenceClassifier()
        self.discriminator = DomainDiscriminator()
        self.optimizer = torch.optim.Adam(self.generator.parameters(), lr=1e-3)
        self.g_optimizer = torch.optim.Adam(self.generator.parameters(), lr=1e-4)
        self.d_optimizer = torch.optim.Adam(self.discriminator.parameters(), lr=1e-3)

    def train_step(self, source, target_ids):
        ids, labels = source
        out = self.generator(ids, labels)
        self.optimizer.zero_grad()
        out["loss"].backward()
        self.optimizer.step()

        # discriminator: source logits -> 1, target logits -> 0
        src_logits = out["logits"].detach()
        tgt_logits = self.generator(target_ids)["logits"]
        d_loss = F.binary_cross_entropy_with_logits(self.discriminator(src_logits), torch.ones(len(ids), 1)) + \
            F.binary_cross_entropy_with_logits(self.discriminator(tgt_logits.detach()), torch.zeros(len(ids), 1))
        self.d_optimizer.zero_grad()
        d_loss.backward()
        self.d_optimizer.step()

        # generator: make target logits look like source logits
        tgt_logits = self.generator(target_ids)["logits"]
        g_loss = F.binary_cross_entropy_with_logits(self.discriminator(tgt_logits), torch.ones(len(ids), 1))
        self.g_optimizer.zero_grad()
        g_loss.backward()
        self.g_optimizer.step()
        return out["loss"].item(), d_loss.item(), g_loss.item()


if __name__ == "__main__":
    trainer = AdversarialTrainer()
    for step, (src, (tgt_ids, _)) in enumerate(zip(batches(4), batches(4))):
        print(step, trainer.train_step(src, tgt_ids))
    trainer.generator.eval()
    preds = trainer.generator(batches(1)[0][0])["logits"].argmax(-1)
    print("target predictions", preds.tolist())
