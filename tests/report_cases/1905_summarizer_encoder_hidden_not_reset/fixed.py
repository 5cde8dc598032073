"""GRU encoder-decoder text summarizer trained with teacher forcing on random token batches."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

VOCAB, EMB, HID, BATCH = 50, 16, 32, 4


class EncoderRNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.embedding = nn.Embedding(VOCAB, EMB)
        self.gru = nn.GRU(EMB, HID, batch_first=True)

    def init_hidden(self, batch_size):
        return torch.zeros(1, batch_size, HID)

    def forward(self, src, hidden):
        output, hidden = self.gru(self.embedding(src), hidden)
        return output, hidden


class AttnDecoderRNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.embedding = nn.Embedding(VOCAB, EMB)
        self.gru = nn.GRU(EMB + HID, HID, batch_first=True)
        self.out = nn.Linear(HID, VOCAB)

    def forward(self, token, hidden, encoder_outputs):
        scores = torch.bmm(encoder_outputs, hidden.transpose(0, 1).transpose(1, 2)).squeeze(-1)
        attn = F.softmax(scores, dim=1)
        context = torch.bmm(attn.unsqueeze(1), encoder_outputs)
        rnn_in = torch.cat([self.embedding(token).unsqueeze(1), context], dim=-1)
        output, hidden = self.gru(rnn_in, hidden)
        return F.log_softmax(self.out(output.squeeze(1)), dim=-1), hidden


class Summarizer:
    def __init__(self, lr=1e-3):
        self.encoder = EncoderRNN()
        self.decoder = AttnDecoderRNN()
        params = list(self.encoder.parameters()) + list(self.decoder.parameters())
        self.optimizer = torch.optim.Adam(params, lr=lr)

    def train_batch(self, src, tgt):
        self.optimizer.zero_grad()
        encoder_hidden = self.encoder.init_hidden(src.size(0))  # fresh state for every batch
        encoder_outputs, encoder_hidden = self.encoder(src, encoder_hidden)
        decoder_hidden = encoder_hidden
        token = torch.zeros(src.size(0), dtype=torch.long)  # <sos>
        loss = 0.0
        for t in range(tgt.size(1)):
            log_probs, decoder_hidden = self.decoder(token, decoder_hidden, encoder_outputs)
            loss = loss + F.nll_loss(log_probs, tgt[:, t])
            token = tgt[:, t]  # teacher forcing
        loss = loss / tgt.size(1)
        loss.backward()
        self.optimizer.step()
        return loss.item()


model = Summarizer()
for epoch in range(2):
    for step in range(3):
        src = torch.randint(1, VOCAB, (BATCH, 12))
        tgt = torch.randint(1, VOCAB, (BATCH, 5))
        print(epoch, step, round(model.train_batch(src, tgt), 4))
