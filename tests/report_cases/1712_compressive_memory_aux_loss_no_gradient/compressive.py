from collections import namedtuple

import torch
import torch.nn.functional as F
from torch import nn

Memory = namedtuple('Memory', ['mem', 'compressed_mem'])
LayerOutput = namedtuple('LayerOutput', ['out', 'mem', 'cmem', 'aux_loss'])


def split_at_index(dim, index, t):
    pre_slices = (slice(None),) * dim
    l = (*pre_slices, slice(None, index))
    r = (*pre_slices, slice(index, None))
    return t[l], t[r]


def full_attn(q, k, v):
    dots = torch.einsum('bhid,bhjd->bhij', q, k) * q.shape[-1] ** -0.5
    attn = dots.softmax(dim=-1)
    return torch.einsum('bhij,bhjd->bhid', attn, v)


class ConvCompress(nn.Module):
    def __init__(self, dim, ratio=4):
        super().__init__()
        self.conv = nn.Conv1d(dim, dim, ratio, stride=ratio)

    def forward(self, mem):
        mem = mem.transpose(1, 2)
        compressed_mem = self.conv(mem)
        return compressed_mem.transpose(1, 2)


class SelfAttention(nn.Module):
    def __init__(self, dim, seq_len, mem_len, cmem_len, cmem_ratio=4, heads=4):
        super().__init__()
        self.heads = heads
        self.seq_len = seq_len
        self.mem_len = mem_len
        self.cmem_len = cmem_len
        self.cmem_ratio = cmem_ratio
        self.compress_mem_fn = ConvCompress(dim, cmem_ratio)
        self.to_q = nn.Linear(dim, dim, bias=False)
        self.to_kv = nn.Linear(dim, dim * 2, bias=False)
        self.to_out = nn.Linear(dim, dim)

    def split_heads(self, t):
        b, n, d = t.shape
        return t.reshape(b, n, self.heads, d // self.heads).transpose(1, 2)

    def forward(self, x, mem, cmem):
        b, t, e = x.shape
        q = self.to_q(x)
        kv_input = torch.cat((cmem, mem, x), dim=1)
        k, v = self.to_kv(kv_input).chunk(2, dim=-1)
        q, k, v = map(self.split_heads, (q, k, v))

        dots = torch.einsum('bhid,bhjd->bhij', q, k) * q.shape[-1] ** -0.5
        kv_len = kv_input.shape[1]
        mask = torch.ones(t, kv_len).triu_(diagonal=1 + kv_len - t).bool()
        dots = dots.masked_fill(mask, float('-inf'))
        out = torch.einsum('bhij,bhjd->bhid', dots.softmax(dim=-1), v)
        out = out.transpose(1, 2).reshape(b, t, e)

        aux_loss = torch.zeros(1)
        old_mem, new_mem = split_at_index(1, -self.mem_len, torch.cat((mem, x), dim=1))
        new_cmem = cmem
        if old_mem.shape[1] != 0:
            compressed_mem = self.compress_mem_fn(old_mem.detach())
            old_cmem, new_cmem = split_at_index(1, -self.cmem_len, torch.cat((cmem, compressed_mem), dim=1))
            new_cmem = new_cmem.detach()

            # attention-reconstruction loss: trains only the compression network
            n_compressed = compressed_mem.shape[1]
            k_w, v_w = self.to_kv.weight.detach().chunk(2, dim=0)
            q_ = q.detach()
            old_k = self.split_heads(F.linear(old_mem.detach(), k_w))
            old_v = self.split_heads(F.linear(old_mem.detach(), v_w))
            cmem_k = self.split_heads(F.linear(new_cmem[:, -n_compressed:], k_w))
            cmem_v = self.split_heads(F.linear(new_cmem[:, -n_compressed:], v_w))
            aux_loss = F.mse_loss(full_attn(q_, old_k, old_v), full_attn(q_, cmem_k, cmem_v))

        return LayerOutput(self.to_out(out), new_mem.detach(), new_cmem, aux_loss)


class CompressiveTransformer(nn.Module):
    def __init__(self, num_tokens, dim, seq_len, depth, mem_len, cmem_len, cmem_ratio=4, heads=4):
        super().__init__()
        self.depth = depth
        self.token_emb = nn.Embedding(num_tokens, dim)
        self.attn_layers = nn.ModuleList(
            [SelfAttention(dim, seq_len, mem_len, cmem_len, cmem_ratio, heads) for _ in range(depth)])
        self.ff_layers = nn.ModuleList(
            [nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, dim * 2), nn.GELU(), nn.Linear(dim * 2, dim))
             for _ in range(depth)])
        self.norms = nn.ModuleList([nn.LayerNorm(dim) for _ in range(depth)])
        self.to_logits = nn.Linear(dim, num_tokens)

    def compression_parameters(self):
        return [p for layer in self.attn_layers for p in layer.compress_mem_fn.parameters()]

    def main_parameters(self):
        compress_ids = {id(p) for p in self.compression_parameters()}
        return [p for p in self.parameters() if id(p) not in compress_ids]

    def forward(self, x, memories=None):
        x = self.token_emb(x)
        b, t, d = x.shape
        if memories is None:
            empty = torch.zeros(self.depth, b, 0, d)
            memories = Memory(empty, empty)

        next_mem, next_cmem, aux_losses = [], [], []
        for attn, ff, norm, m, c in zip(self.attn_layers, self.ff_layers, self.norms, *memories):
            out, mem_out, cmem_out, aux = attn(norm(x), m, c)
            x = x + out
            x = x + ff(x)
            next_mem.append(mem_out)
            next_cmem.append(cmem_out)
            aux_losses.append(aux)

        aux_loss = torch.stack([a.sum() for a in aux_losses]).mean()
        return self.to_logits(x), Memory(torch.stack(next_mem), torch.stack(next_cmem)), aux_loss
