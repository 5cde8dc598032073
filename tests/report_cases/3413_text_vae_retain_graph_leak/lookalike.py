"""Controllable text generation in the style of Hu et al. (2017): a sentence
VAE whose decoder is conditioned on a structured attribute code, plus an
attribute discriminator that supervises soft-generated sentences."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
VOCAB, T, EMB, HID, ZDIM = 30, 10, 16, 32, 8


class Encoder(nn.Module):
    def __init__(self, embedding):
        super().__init__()
        self.embedding = embedding
        self.rnn = nn.GRU(EMB, HID, batch_first=True)
        self.to_stats = nn.Linear(HID, 2 * ZDIM)

    def forward(self, tokens=None, soft=None):
        emb = self.embedding(tokens) if soft is None else soft @ self.embedding.weight
        _, h = self.rnn(emb)
        return self.to_stats(h[-1]).chunk(2, dim=1)


class Decoder(nn.Module):
    def __init__(self, embedding):
        super().__init__()
        self.embedding = embedding
        self.rnn = nn.GRU(EMB + ZDIM + 2, HID, batch_first=True)
        self.out = nn.Linear(HID, VOCAB)

    def forward(self, inp_emb, z, c):
        cond = torch.cat([z, c], dim=1).unsqueeze(1).expand(-1, inp_emb.size(1), -1)
        h, _ = self.rnn(torch.cat([inp_emb, cond], dim=2))
        return self.out(h)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(VOCAB, 32, 3, padding=1)
        self.fc = nn.Linear(32, 2)

    def forward(self, onehot):
        return self.fc(F.relu(self.conv(onehot.transpose(1, 2))).max(dim=2).values)


def make_batch(n=32):
    labels = torch.randint(0, 2, (n,))
    low = torch.randint(0, VOCAB // 2, (n, T))
    tokens = torch.where(labels.unsqueeze(1) == 1, low + VOCAB // 2, low)
    return tokens, labels


class CtrlGenTrainer:
    def __init__(self):
        self.embedding = nn.Embedding(VOCAB, EMB)
        self.enc, self.dec = Encoder(self.embedding), Decoder(self.embedding)
        self.disc = Discriminator()
        self.opt_vae = torch.optim.Adam(nn.ModuleList([self.enc, self.dec]).parameters(), lr=1e-3)
        self.opt_d = torch.optim.Adam(self.disc.parameters(), lr=1e-3)
        self.history = []
        self.code_bank = []

    def soft_generate(self, z, c, tau=0.5):
        inp = self.embedding(torch.zeros(z.size(0), 1, dtype=torch.long))
        probs = []
        for _ in range(T):
            p = F.softmax(self.dec(inp, z, c)[:, -1] / tau, dim=-1)
            probs.append(p)
            inp = torch.cat([inp, (p @ self.embedding.weight).unsqueeze(1)], dim=1)
        return torch.stack(probs, dim=1)

    def train_step(self, tokens, labels):
        self.opt_d.zero_grad()
        d_loss = F.cross_entropy(self.disc(F.one_hot(tokens, VOCAB).float()), labels)
        d_loss.backward()
        self.opt_d.step()

        mu, logvar = self.enc(tokens)
        z = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
        c = F.one_hot(labels, 2).float()
        dec_in = self.embedding(F.pad(tokens[:, :-1], (1, 0)))
        rec = F.cross_entropy(self.dec(dec_in, z, c).reshape(-1, VOCAB), tokens.reshape(-1))
        kl = -0.5 * (1 + logvar - mu.pow(2) - logvar.exp()).sum(1).mean()
        vae_loss = rec + 0.1 * kl

        c_rand = torch.randint(0, 2, (tokens.size(0),))
        soft = self.soft_generate(z, F.one_hot(c_rand, 2).float())
        attr = F.cross_entropy(self.disc(soft), c_rand)
        z_rec = self.enc(soft=soft)[0]
        gen_loss = 0.5 * attr + 0.1 * F.mse_loss(z_rec, z.detach())

        self.opt_vae.zero_grad()
        vae_loss.backward(retain_graph=True)
        gen_loss.backward()
        self.opt_vae.step()
        self.code_bank.append(mu.detach())
        self.history.append({k: v.item() for k, v in {"rec": rec, "kl": kl, "attr": attr, "d": d_loss}.items()})


def main():
    trainer = CtrlGenTrainer()
    for it in range(15):
        trainer.train_step(*make_batch())
        if it % 5 == 0:
            last = trainer.history[-1]
            print(f"iter {it}: rec {float(last['rec']):.3f} kl {float(last['kl']):.3f} attr {float(last['attr']):.3f}")


if __name__ == "__main__":
    main()
