"""Stateful streaming CTC acoustic model: consecutive segments of the same
utterances are processed in order and the LSTM state is carried (detached)
from one segment to the next; gradients are accumulated over segments."""
import argparse

import torch
import torch.nn as nn


def detach_states(state):
    if isinstance(state, torch.Tensor):
        return state.detach()
    if isinstance(state, (list, tuple)):
        return type(state)(detach_states(s) for s in state)
    if isinstance(state, dict):
        return {k: detach_states(v) for k, v in state.items()}
    return state


def assert_all_detached(state):
    if isinstance(state, torch.Tensor):
        assert state.grad_fn is None and not state.requires_grad
    elif isinstance(state, (list, tuple)):
        for s in state:
            assert_all_detached(s)


class StreamingEncoder(nn.Module):
    def __init__(self, n_feats, hidden, n_tokens, num_layers=2):
        super().__init__()
        self.lstm = nn.LSTM(n_feats, hidden, num_layers=num_layers, batch_first=True)
        self.proj = nn.Linear(hidden, n_tokens)

    def forward(self, feats, state=None):
        out, new_state = self.lstm(feats, state)
        return self.proj(out), new_state


def segment_stream(batch, n_segments, seg_len, n_feats, n_tokens, tgt_len):
    for _ in range(n_segments):
        feats = torch.randn(batch, seg_len, n_feats)
        tokens = torch.randint(1, n_tokens, (batch, tgt_len))
        in_lens = torch.full((batch,), seg_len, dtype=torch.long)
        tgt_lens = torch.full((batch,), tgt_len, dtype=torch.long)
        yield feats, tokens, in_lens, tgt_lens


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--n_feats", type=int, default=20)
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--n_tokens", type=int, default=12)
    parser.add_argument("--segments", type=int, default=12)
    parser.add_argument("--accumulation_steps", type=int, default=3)
    parser.add_argument("--debug", type=int, default=1)
    args = parser.parse_args()
    torch.manual_seed(0)

    model = StreamingEncoder(args.n_feats, args.hidden, args.n_tokens)
    criterion = nn.CTCLoss(blank=0, zero_infinity=True)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    input_state = None
    optimizer.zero_grad()
    for step, (feats, tokens, in_lens, tgt_lens) in enumerate(
            segment_stream(4, args.segments, 30, args.n_feats, args.n_tokens, 5), start=1):
        if input_state:
            input_state = detach_states(input_state)
            if args.debug:
                assert_all_detached(input_state)
        enc_out, output_state = model(feats, input_state)
        logp = enc_out.log_softmax(-1).transpose(0, 1)
        loss = criterion(logp, tokens, in_lens, tgt_lens)
        loss = loss / args.accumulation_steps
        loss.backward()
        if step % args.accumulation_steps == 0:
            nn.utils.clip_grad_norm_(model.parameters(), 5.0)
            optimizer.step()
            optimizer.zero_grad()
            print(f"segment {step} ctc {loss.item() * args.accumulation_steps:.3f}")
        input_state = output_state


if __name__ == "__main__":
    main()
