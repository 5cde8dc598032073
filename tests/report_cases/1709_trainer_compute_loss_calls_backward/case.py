import torch
import torch.nn.functional as F
from torch.utils.data import Dataset

from mini_trainer import Trainer, TrainingArguments
from modeling import TinyLMHeadModel

torch.manual_seed(0)
VOCAB = 50


class SentenceDataset(Dataset):
    def __init__(self, n_sentences, length=12):
        starts = torch.randint(0, VOCAB, (n_sentences, 1))
        self.ids = (starts + torch.arange(length) * 3) % VOCAB

    def __len__(self):
        return len(self.ids)

    def __getitem__(self, i):
        return self.ids[i]


def collate(batch):
    ids = torch.stack(batch)
    return {"input_ids": ids, "labels": ids.clone()}


class NgramRegularizedTrainer(Trainer):
    def __init__(self, *args, ngram_weight=0.1, **kwargs):
        super().__init__(*args, **kwargs)
        self.ngram_weight = ngram_weight
        self.unigram = torch.full((VOCAB,), 1.0 / VOCAB)

    def ngram_penalty(self, logits):
        log_probs = F.log_softmax(logits, dim=-1).mean(dim=(0, 1))
        return F.kl_div(log_probs, self.unigram, reduction="sum")

    def compute_loss(self, model, inputs):
        outputs = model(**inputs)
        lm_loss = outputs["loss"]
        loss = lm_loss + self.ngram_weight * self.ngram_penalty(outputs["logits"])
        loss.backward()
        return loss


if __name__ == "__main__":
    model = TinyLMHeadModel(vocab_size=VOCAB)
    training_args = TrainingArguments(num_train_epochs=2, per_device_train_batch_size=8)
    trainer = NgramRegularizedTrainer(model=model, args=training_args,
                                      train_dataset=SentenceDataset(64), data_collator=collate)
    print("final loss", trainer.train())
