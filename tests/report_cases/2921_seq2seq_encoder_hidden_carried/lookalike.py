"""Batched GRU seq2seq translation (practical-pytorch style) with attention over encoder
outputs and teacher forcing, on a toy reversed-sequence 'language pair'."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
SRC_V, TGT_V, HID, SOS = 15, 15, 16, 1


class EncoderRNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.embedding = nn.Embedding(SRC_V, HID)
        self.gru = nn.GRU(HID, HID)

    def forward(self, input_seqs, hidden):
        return self.gru(self.embedding(input_seqs), hidden)

    def init_hidden(self, batch_size):
        return torch.zeros(1, batch_size, HID)


class AttnDecoderRNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.embedding = nn.Embedding(TGT_V, HID)
        self.gru = nn.GRU(2 * HID, HID)
        self.out = nn.Linear(2 * HID, TGT_V)

    def forward(self, word_input, last_hidden, encoder_outputs):
        emb = self.embedding(word_input).unsqueeze(0)                       # (1, B, H)
        energies = (encoder_outputs * last_hidden).sum(-1)                  # (S, B)
        attn = F.softmax(energies, dim=0).unsqueeze(-1)
        context = (attn * encoder_outputs).sum(0, keepdim=True)             # (1, B, H)
        output, hidden = self.gru(torch.cat([emb, context], -1), last_hidden)
        return self.out(torch.cat([output, context], -1)).squeeze(0), hidden


def train(input_batches, target_batches, encoder, decoder, encoder_hidden, enc_opt, dec_opt):
    enc_opt.zero_grad()
    dec_opt.zero_grad()
    encoder_outputs, encoder_hidden = encoder(input_batches, encoder_hidden)
    decoder_input = torch.full((input_batches.shape[1],), SOS)
    decoder_hidden = encoder_hidden
    loss = 0
    for t in range(target_batches.shape[0]):
        logits, decoder_hidden = decoder(decoder_input, decoder_hidden, encoder_outputs)
        loss = loss + F.cross_entropy(logits, target_batches[t])
        decoder_input = target_batches[t]  # teacher forcing
    loss.backward()
    enc_opt.step()
    dec_opt.step()
    return loss.item() / target_batches.shape[0], encoder_hidden


encoder, decoder = EncoderRNN(), AttnDecoderRNN()
enc_opt = torch.optim.Adam(encoder.parameters(), lr=1e-3)
dec_opt = torch.optim.Adam(decoder.parameters(), lr=5e-3)
batch_size = 4
encoder_hidden = encoder.init_hidden(batch_size)
for epoch in range(4):
    src = torch.randint(2, SRC_V, (6, batch_size))
    tgt = src.flip(0)
    loss, last_hidden = train(src, tgt, encoder, decoder, encoder_hidden, enc_opt, dec_opt)
    print("final encoder state norm", round(last_hidden.norm().item(), 3))
    print("epoch", epoch, "loss", round(loss, 4))
