import torch
import torch.nn as nn


class DecoderState:
    def __init__(self, hidden, input_feed):
        self.hidden = hidden
        self.input_feed = input_feed

    def update_state(self, hidden, input_feed):
        self.hidden, self.input_feed = hidden, input_feed

    def detach(self):
        self.hidden = tuple(h.detach() for h in self.hidden)
        self.input_feed = self.input_feed.detach()


class NMTModel(nn.Module):
    def __init__(self, src_vocab=20, tgt_vocab=20, img_feat=12, dim=16):
        super().__init__()
        self.src_emb = nn.Embedding(src_vocab, dim)
        self.tgt_emb = nn.Embedding(tgt_vocab, dim)
        self.img_proj = nn.Linear(img_feat, dim)
        self.encoder = nn.LSTM(dim, dim)
        self.decoder = nn.LSTMCell(2 * dim, dim)
        self.generator = nn.Linear(dim, tgt_vocab)

    def init_decoder_state(self, src, img_feats):
        _, (h, c) = self.encoder(self.src_emb(src))
        h0 = h[-1] + self.img_proj(img_feats)
        return DecoderState((h0, c[-1]), torch.zeros_like(h0))

    def forward(self, src, tgt, img_feats, dec_state=None):
        if dec_state is None:
            dec_state = self.init_decoder_state(src, img_feats)
        hidden, feed = dec_state.hidden, dec_state.input_feed
        outputs = []
        for emb_t in self.tgt_emb(tgt):
            hidden = self.decoder(torch.cat([emb_t, feed], 1), hidden)
            feed = hidden[0]
            outputs.append(feed)
        dec_state.update_state(hidden, feed)
        return self.generator(torch.stack(outputs)), dec_state
