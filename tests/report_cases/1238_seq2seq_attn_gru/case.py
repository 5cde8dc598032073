"""GRU encoder / Bahdanau-attention decoder trained with teacher forcing on a copy-reverse task."""
import random
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

SOS_token, EOS_token = 0, 1
VOCAB, HIDDEN, MAX_LENGTH = 12, 32, 7


class EncoderRNN(nn.Module):
    def __init__(self, input_size, hidden_size, dropout_p=0.1):
        super().__init__()
        self.embedding = nn.Embedding(input_size, hidden_size)
        self.gru = nn.GRU(hidden_size, hidden_size, batch_first=True)
        self.dropout = nn.Dropout(dropout_p)

    def forward(self, input):
        embedded = self.dropout(self.embedding(input))
        return self.gru(embedded)


class BahdanauAttention(nn.Module):
    def __init__(self, hidden_size):
        super().__init__()
        self.Wa = nn.Linear(hidden_size, hidden_size)
        self.Ua = nn.Linear(hidden_size, hidden_size)
        self.Va = nn.Linear(hidden_size, 1)

    def forward(self, query, keys):
        scores = self.Va(torch.tanh(self.Wa(query) + self.Ua(keys))).squeeze(2).unsqueeze(1)
        weights = F.softmax(scores, dim=-1)
        return torch.bmm(weights, keys), weights


class AttnDecoderRNN(nn.Module):
    def __init__(self, hidden_size, output_size, dropout_p=0.1):
        super().__init__()
        self.embedding = nn.Embedding(output_size, hidden_size)
        self.attention = BahdanauAttention(hidden_size)
        self.gru = nn.GRU(2 * hidden_size, hidden_size, batch_first=True)
        self.out = nn.Linear(hidden_size, output_size)
        self.dropout = nn.Dropout(dropout_p)

    def forward_step(self, input, hidden, encoder_outputs):
        embedded = self.dropout(self.embedding(input))
        query = hidden.permute(1, 0, 2)
        context, attn_weights = self.attention(query, encoder_outputs)
        output, hidden = self.gru(torch.cat((embedded, context), dim=2), hidden)
        return self.out(output), hidden, attn_weights

    def forward(self, encoder_outputs, encoder_hidden, target_tensor=None, teacher_forcing_ratio=0.5):
        batch_size = encoder_outputs.size(0)
        decoder_input = torch.full((batch_size, 1), SOS_token, dtype=torch.long)
        decoder_hidden = encoder_hidden
        decoder_outputs = []
        for i in range(MAX_LENGTH):
            decoder_output, decoder_hidden, _ = self.forward_step(decoder_input, decoder_hidden, encoder_outputs)
            decoder_outputs.append(decoder_output)
            if target_tensor is not None and random.random() < teacher_forcing_ratio:
                decoder_input = target_tensor[:, i].unsqueeze(1)
            else:
                _, topi = decoder_output.topk(1)
                decoder_input = topi.squeeze(-1).detach()
        decoder_outputs = F.log_softmax(torch.cat(decoder_outputs, dim=1), dim=-1)
        return decoder_outputs, decoder_hidden


def random_pairs(n):
    pairs = []
    for _ in range(n):
        length = random.randint(2, MAX_LENGTH - 1)
        src = [random.randint(2, VOCAB - 1) for _ in range(length)]
        tgt = list(reversed(src))
        pad = lambda s: s + [EOS_token] * (MAX_LENGTH - len(s))
        pairs.append((pad(src), pad(tgt)))
    src = torch.tensor([p[0] for p in pairs])
    tgt = torch.tensor([p[1] for p in pairs])
    return src, tgt


def train_epoch(batches, encoder, decoder, encoder_optimizer, decoder_optimizer, criterion):
    total_loss = 0
    for input_tensor, target_tensor in batches:
        encoder_optimizer.zero_grad()
        decoder_optimizer.zero_grad()
        encoder_outputs, encoder_hidden = encoder(input_tensor)
        decoder_outputs, _ = decoder(encoder_outputs, encoder_hidden, target_tensor)
        loss = criterion(decoder_outputs.view(-1, decoder_outputs.size(-1)), target_tensor.view(-1))
        loss.backward()
        encoder_optimizer.step()
        decoder_optimizer.step()
        total_loss += loss.item()
    return total_loss / len(batches)


if __name__ == "__main__":
    random.seed(0)
    torch.manual_seed(0)
    encoder = EncoderRNN(VOCAB, HIDDEN)
    decoder = AttnDecoderRNN(HIDDEN, VOCAB)
    encoder_optimizer = torch.optim.Adam(encoder.parameters(), lr=1e-3)
    decoder_optimizer = torch.optim.Adam(decoder.parameters(), lr=1e-3)
    criterion = nn.NLLLoss()
    batches = [random_pairs(8) for _ in range(3)]
    start = time.time()
    for epoch in range(1, 3):
        loss = train_epoch(batches, encoder, decoder, encoder_optimizer, decoder_optimizer, criterion)
        print(f"{time.time() - start:.2f}s (epoch {epoch}) loss {loss:.4f}")
