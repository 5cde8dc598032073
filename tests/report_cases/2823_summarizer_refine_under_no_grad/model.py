import torch
import torch.nn as nn

VOCAB, DIM, MASK_ID = 40, 32, 1


class Summarizer(nn.Module):
    """Two-stage summarizer: a draft decoder, then a refine decoder that
    re-predicts every (masked) draft token given the source."""
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, DIM)
        self.encoder = nn.GRU(DIM, DIM, batch_first=True)
        self.draft_decoder = nn.GRU(DIM, DIM, batch_first=True)
        self.draft_out = nn.Linear(DIM, VOCAB)
        self.refine_decoder = nn.GRU(2 * DIM, DIM, batch_first=True)
        self.refine_out = nn.Linear(DIM, VOCAB)

    def encode(self, src):
        enc, h = self.encoder(self.embed(src))
        return enc, h

    def forward_draft(self, src, tgt_in):
        enc, h = self.encode(src)
        dec, _ = self.draft_decoder(self.embed(tgt_in), h)
        return self.draft_out(dec), enc

    def generate_refinement_output(self, enc, draft_tokens):
        context = enc.mean(1, keepdim=True).expand(-1, draft_tokens.size(1), -1)
        outputs = []
        with torch.no_grad():
            for i in range(draft_tokens.size(1)):
                masked = draft_tokens.clone()
                masked[:, i] = MASK_ID
                dec, _ = self.refine_decoder(torch.cat([self.embed(masked), context], dim=-1))
                outputs.append(self.refine_out(dec[:, i]))
        return torch.stack(outputs, dim=1)
