"""Attention-LSTM sentence classifier (DeepMoji-like) used for transfer."""
import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.attention_vector = nn.Parameter(torch.randn(dim) * 0.05)

    def forward(self, inputs, lengths):
        logits = inputs.matmul(self.attention_vector)
        mask = torch.arange(inputs.size(1))[None, :] < lengths[:, None]
        logits = logits.masked_fill(~mask, float("-inf"))
        weights = torch.softmax(logits, dim=-1)
        return (inputs * weights.unsqueeze(-1)).sum(dim=1), weights


class TorchMojiLike(nn.Module):
    def __init__(self, nb_classes, nb_tokens, embed_dim=16, hidden=16, output_logits=True):
        super().__init__()
        self.embed = nn.Embedding(nb_tokens, embed_dim, padding_idx=0)
        self.embed_dropout = nn.Dropout(0.1)
        self.lstm_0 = nn.LSTM(embed_dim, hidden, batch_first=True, bidirectional=True)
        self.lstm_1 = nn.LSTM(2 * hidden, hidden, batch_first=True, bidirectional=True)
        self.attention_layer = Attention(4 * hidden + embed_dim)
        self.final_dropout = nn.Dropout(0.2)
        self.output_layer = nn.Linear(4 * hidden + embed_dim, nb_classes)
        self.output_logits = output_logits

    def forward(self, input_seqs):
        # Accept python lists of token ids as well as tensors
        return_tensor = False
        if not isinstance(input_seqs, torch.Tensor):
            input_seqs = torch.as_tensor(input_seqs, dtype=torch.long)
            return_tensor = True
        lengths = (input_seqs != 0).sum(dim=1).clamp_min(1)
        x = self.embed_dropout(torch.tanh(self.embed(input_seqs)))
        lstm_0_output, _ = self.lstm_0(x)
        lstm_1_output, _ = self.lstm_1(lstm_0_output)
        x = torch.cat((lstm_1_output, lstm_0_output, x), dim=2)
        x, att_weights = self.attention_layer(x, lengths)
        outputs = self.output_layer(self.final_dropout(x))
        if not self.output_logits:
            outputs = torch.softmax(outputs, dim=-1)
        if return_tensor:
            outputs = outputs.data
        return outputs

    def freeze_all_but(self, names):
        for n, p in self.named_parameters():
            p.requires_grad = any(n.startswith(k) for k in names)
