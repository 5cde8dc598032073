"""Two-agent dialogue model (JOUST-like, toy sizes): compute an EWC Fisher
matrix on the source domain turn by turn, then fine-tune on a new domain with
the EWC penalty."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class DialogueModel(nn.Module):
    def __init__(self, vocab, dim, n_acts, lr):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.utt_enc = nn.GRU(dim, dim, batch_first=True)
        self.dial_rnn = nn.GRUCell(dim, dim)
        self.act_usr, self.act_sys = nn.Linear(dim, n_acts), nn.Linear(dim, n_acts)
        self.word_sys = nn.Linear(dim, vocab)
        self.optimizer = torch.optim.Adam(filter(lambda p: p.requires_grad, self.parameters()), lr=lr)

    def forward(self, batch, turn_idx, mode="teacher_force"):
        _, h = self.utt_enc(self.emb(batch["usr_utt"]))
        dial_state = self.dial_rnn(h[0], batch["init_dial_rnn"])     # carries the whole dialogue so far
        self.logits = {"act_usr": self.act_usr(dial_state), "act_sys": self.act_sys(dial_state),
                       "word_sys": self.word_sys(dial_state)}
        return {"init_dial_rnn": dial_state}

    def get_loss(self, batch):
        loss_act_usr = F.cross_entropy(self.logits["act_usr"], batch["act_usr"])
        loss_act_sys = F.cross_entropy(self.logits["act_sys"], batch["act_sys"])
        loss_word_sys = F.cross_entropy(self.logits["word_sys"], batch["first_word_sys"])
        update_loss = loss_act_usr + loss_act_sys + loss_word_sys
        return {"act_usr": loss_act_usr.item(), "act_sys": loss_act_sys.item()}, update_loss


def make_dialogue(n_turns, B, vocab, n_acts, shift=0):
    return [{"usr_utt": torch.randint(0, vocab, (B, 6)),
             "act_usr": (torch.arange(B) + t + shift) % n_acts,
             "act_sys": (torch.arange(B) + 2 * t + shift) % n_acts,
             "first_word_sys": torch.randint(0, vocab, (B,)),
             "init_dial_rnn": None} for t in range(n_turns)]


def compute_fisher_matrix(model, dialogues):
    model.train()
    fisher = {n: torch.zeros_like(p) for n, p in model.named_parameters()}
    optpar = {n: p.detach().clone() for n, p in model.named_parameters()}
    n_examples = 0
    for batch_list in dialogues:
        for turn_idx, batch in enumerate(batch_list):
            n_examples += 1
            if turn_idx != 0:
                batch["init_dial_rnn"] = decode_batch["init_dial_rnn"]
            decode_batch = model(batch, turn_idx=turn_idx, mode="teacher_force")
            loss, update_loss = model.get_loss(batch)
            # later turns backprop through this turn's dialogue state as well
            update_loss.backward(retain_graph=True)
            for n, p in model.named_parameters():
                if p.grad is not None:
                    fisher[n] += p.grad.detach() ** 2
            model.optimizer.zero_grad()
    return {n: f / n_examples for n, f in fisher.items()}, optpar


def finetune_ewc(model, dialogues, fisher, optpar, lambda_ewc):
    for batch_list in dialogues:
        total, state = 0.0, None
        for turn_idx, batch in enumerate(batch_list):
            batch["init_dial_rnn"] = state
            state = model(batch, turn_idx)["init_dial_rnn"]
            total = total + model.get_loss(batch)[1]
        for name, p in model.named_parameters():
            total = total + lambda_ewc * (fisher[name] * (p - optpar[name]).pow(2)).sum()
        model.optimizer.zero_grad()
        total.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        model.optimizer.step()
        print(f"finetune dialogue loss {total.item():.3f}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--vocab", type=int, default=40)
    parser.add_argument("--dim", type=int, default=32)
    parser.add_argument("--n_acts", type=int, default=6)
    parser.add_argument("--lambda_ewc", type=float, default=50.0)
    args = parser.parse_args()
    torch.manual_seed(0)
    model = DialogueModel(args.vocab, args.dim, args.n_acts, lr=1e-3)
    src = [make_dialogue(5, 8, args.vocab, args.n_acts) for _ in range(4)]
    fisher, optpar = compute_fisher_matrix(model, src)
    print("fisher mass:", round(sum(f.sum().item() for f in fisher.values()), 4))
    tgt = [make_dialogue(5, 8, args.vocab, args.n_acts, shift=1) for _ in range(6)]
    finetune_ewc(model, tgt, fisher, optpar, args.lambda_ewc)


if __name__ == "__main__":
    main()
