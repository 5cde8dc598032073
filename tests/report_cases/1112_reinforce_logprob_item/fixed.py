"""Policy-gradient fine-tuning of a SMILES-like token generator (ReLeaSE reinforcement.py style)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

TOKENS = "<>CNOc1()=#"
START, END = 0, 1


class StackAugmentedGRU(nn.Module):
    def __init__(self, vocab=len(TOKENS), hidden=32):
        super().__init__()
        self.hidden_size = hidden
        self.encoder = nn.Embedding(vocab, hidden)
        self.rnn = nn.GRUCell(hidden, hidden)
        self.decoder = nn.Linear(hidden, vocab)

    def init_hidden(self):
        return torch.zeros(1, self.hidden_size)

    def forward(self, inp, hidden):
        hidden = self.rnn(self.encoder(inp.view(1)), hidden)
        return self.decoder(hidden), hidden

    @torch.no_grad()
    def evaluate(self, max_len=12):
        hidden, tok, out = self.init_hidden(), torch.tensor(START), [START]
        for _ in range(max_len):
            logits, hidden = self(tok, hidden)
            tok = torch.multinomial(F.softmax(logits, dim=-1), 1).view(())
            out.append(int(tok))
            if int(tok) == END:
                break
        return torch.tensor(out)


def get_reward(trajectory):
    """Toy 'predictor': reward aromatic carbons, penalise very short molecules."""
    aromatic = (trajectory == TOKENS.index("c")).sum().item()
    return 1.0 + aromatic - (2.0 if len(trajectory) < 4 else 0.0)


class Reinforcement:
    def __init__(self, generator, get_reward, lr=1e-3):
        self.generator = generator
        self.get_reward = get_reward
        self.optimizer = torch.optim.Adam(generator.parameters(), lr=lr)

    def policy_gradient(self, n_batch=4, gamma=0.97):
        rl_loss = torch.zeros(1)
        total_reward = 0.0
        for _ in range(n_batch):
            trajectory = self.generator.evaluate()
            reward = self.get_reward(trajectory)
            discounted_reward = reward
            hidden = self.generator.init_hidden()
            for p in range(len(trajectory) - 1):
                output, hidden = self.generator(trajectory[p], hidden)
                log_probs = F.log_softmax(output, dim=1)
                top_i = trajectory[p + 1]
                rl_loss = rl_loss - (log_probs[0, top_i] * discounted_reward)
                discounted_reward = discounted_reward * gamma
            total_reward += reward
        rl_loss = rl_loss / n_batch
        self.optimizer.zero_grad()
        rl_loss.backward()
        self.optimizer.step()
        return total_reward / n_batch, rl_loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    RL = Reinforcement(StackAugmentedGRU(), get_reward)
    for i in range(4):
        mean_reward, loss = RL.policy_gradient()
        print(f"iter {i} reward {mean_reward:.2f} loss {loss:.3f}")
