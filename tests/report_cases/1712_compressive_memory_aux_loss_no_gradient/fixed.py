import torch
import torch.nn.functional as F

from fixed_src.compressive import CompressiveTransformer

torch.manual_seed(0)

NUM_TOKENS = 64
SEQ_LEN = 16
SEGMENTS = 4
BATCH = 4
AUX_WEIGHT = 1.0


def sample_stream(batch, length):
    base = torch.randint(0, NUM_TOKENS, (batch, 1))
    steps = torch.randint(1, 4, (batch, 1))
    return (base + steps * torch.arange(length + 1)) % NUM_TOKENS


model = CompressiveTransformer(num_tokens=NUM_TOKENS, dim=32, seq_len=SEQ_LEN, depth=2,
                               mem_len=SEQ_LEN, cmem_len=SEQ_LEN // 4, cmem_ratio=4)
optim = torch.optim.Adam(model.main_parameters(), lr=1e-3)
compress_optim = torch.optim.Adam(model.compression_parameters(), lr=1e-3)

for it in range(6):
    stream = sample_stream(BATCH, SEQ_LEN * SEGMENTS)
    memories = None
    for seg in range(SEGMENTS):
        chunk = stream[:, seg * SEQ_LEN:(seg + 1) * SEQ_LEN + 1]
        inputs, targets = chunk[:, :-1], chunk[:, 1:]
        logits, memories, aux_loss = model(inputs, memories)
        lm_loss = F.cross_entropy(logits.reshape(-1, NUM_TOKENS), targets.reshape(-1))
        loss = lm_loss + AUX_WEIGHT * aux_loss

        optim.zero_grad()
        compress_optim.zero_grad()
        loss.backward()
        optim.step()
        compress_optim.step()
    print(f'iter {it}: lm loss {lm_loss.item():.3f} aux loss {aux_loss.item():.5f}')
