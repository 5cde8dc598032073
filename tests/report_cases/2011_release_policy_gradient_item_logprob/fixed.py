"""ReLeaSE-style REINFORCE fine-tuning of a SMILES generator toward a property reward (toy)."""
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

TOKENS = ['<', '>', 'C', 'N', 'O', '(', ')', '=', '1']


class StackAugmentedRNN(nn.Module):
    def __init__(self, input_size, hidden_size, output_size, lr=0.01):
        super().__init__()
        self.hidden_size = hidden_size
        self.encoder = nn.Embedding(input_size, hidden_size)
        self.rnn = nn.GRU(hidden_size, hidden_size)
        self.decoder = nn.Linear(hidden_size, output_size)
        self.optimizer = torch.optim.Adadelta(self.parameters(), lr=lr)

    def forward(self, inp, hidden):
        inp = self.encoder(inp.view(1, -1))
        output, next_hidden = self.rnn(inp.view(1, 1, -1), hidden)
        return self.decoder(output.view(1, -1)), next_hidden

    def init_hidden(self):
        return torch.zeros(1, 1, self.hidden_size)

    def char_tensor(self, string):
        return torch.tensor([TOKENS.index(c) for c in string], dtype=torch.long)

    def evaluate(self, prime_str='<', end_token='>', predict_len=12):
        hidden = self.init_hidden()
        prime_input = self.char_tensor(prime_str)
        new_sample = prime_str
        with torch.no_grad():
            for p in range(len(prime_str) - 1):
                _, hidden = self.forward(prime_input[p], hidden)
            inp = prime_input[-1]
            for p in range(predict_len):
                output, hidden = self.forward(inp, hidden)
                probs = torch.softmax(output, dim=1)
                top_i = torch.multinomial(probs.view(-1), 1)[0].item()
                predicted_char = TOKENS[top_i]
                new_sample += predicted_char
                inp = self.char_tensor(predicted_char)
                if predicted_char == end_token:
                    break
        return new_sample


def get_reward(smiles):
    body = smiles.strip('<>')
    if len(body) == 0:
        return 0.0
    return 1.0 + body.count('N') + 0.5 * body.count('O')


class Reinforcement(object):
    def __init__(self, generator, get_reward):
        self.generator = generator
        self.get_reward = get_reward

    def policy_gradient(self, n_batch=4, gamma=0.97):
        rl_loss = 0
        self.generator.optimizer.zero_grad()
        total_reward = 0

        for _ in range(n_batch):
            reward = 0
            trajectory = '<>'
            while reward == 0:
                trajectory = self.generator.evaluate()
                reward = self.get_reward(trajectory)

            trajectory_input = self.generator.char_tensor(trajectory)
            discounted_reward = reward
            total_reward += reward

            hidden = self.generator.init_hidden()
            for p in range(len(trajectory) - 1):
                output, hidden = self.generator(trajectory_input[p], hidden)
                log_probs = F.log_softmax(output, dim=1)
                top_i = trajectory_input[p + 1]
                rl_loss -= (log_probs[0, top_i] * discounted_reward)
                discounted_reward = discounted_reward * gamma

        rl_loss = rl_loss / n_batch
        total_reward = total_reward / n_batch
        rl_loss.backward()
        self.generator.optimizer.step()

        return total_reward, rl_loss.item()


if __name__ == '__main__':
    random.seed(0); np.random.seed(0); torch.manual_seed(0)
    generator = StackAugmentedRNN(len(TOKENS), 16, len(TOKENS), lr=1.0)
    RL = Reinforcement(generator, get_reward)
    rewards, rl_losses = [], []
    for i in range(3):
        cur_reward, cur_loss = RL.policy_gradient()
        rewards.append(cur_reward)
        rl_losses.append(cur_loss)
    print('rewards', np.round(rewards, 3), 'losses', np.round(rl_losses, 3))
