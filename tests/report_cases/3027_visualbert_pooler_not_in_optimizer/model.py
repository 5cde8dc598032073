"""MMF-style VisualBERT for classification: BERT-like encoder over text tokens and visual
region features, a pooler on the [CLS] state and a classifier; get_optimizer_parameters gives
the classifier the base lr and the pretrained body lr * finetune_lr_multiplier."""
import torch
import torch.nn as nn


class VisualBERTBase(nn.Module):
    def __init__(self, vocab=40, hidden=32, visual_dim=12):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab, hidden)
        self.visual_projection = nn.Linear(visual_dim, hidden)
        self.token_type_embeddings = nn.Embedding(2, hidden)
        self.encoder = nn.TransformerEncoder(
            nn.TransformerEncoderLayer(hidden, 4, 64, dropout=0.0, batch_first=True), num_layers=2)

    def forward(self, input_ids, visual_embeddings):
        t = self.word_embeddings(input_ids) + self.token_type_embeddings(torch.zeros_like(input_ids))
        v = self.visual_projection(visual_embeddings)
        v = v + self.token_type_embeddings(torch.ones(v.shape[:2], dtype=torch.long))
        return self.encoder(torch.cat([t, v], dim=1))


class BertPooler(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.dense = nn.Linear(hidden, hidden)
        self.activation = nn.Tanh()

    def forward(self, hidden_states):
        return self.activation(self.dense(hidden_states[:, 0]))


class VisualBERTForClassification(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.bert = VisualBERTBase()
        self.pooler = BertPooler()
        self.dropout = nn.Dropout(0.1)
        self.classifier = nn.Sequential(nn.Linear(32, 64), nn.GELU(), nn.LayerNorm(64),
                                        nn.Linear(64, config["num_labels"]))

    def forward(self, sample_list):
        sequence_output = self.bert(sample_list["input_ids"], sample_list["image_feature"])
        pooled_output = self.dropout(self.pooler(sequence_output))
        return {"scores": self.classifier(pooled_output)}

    def get_optimizer_parameters(self, config):
        lr = config["optimizer"]["lr"]
        finetune_lr_multiplier = config["finetune_lr_multiplier"]
        # Pretrained model params get lr * finetune_lr_multiplier, task head params get lr
        return [
            {"params": self.classifier.parameters(), "lr": lr},
            {"params": self.bert.parameters(), "lr": lr * finetune_lr_multiplier},
        ]
