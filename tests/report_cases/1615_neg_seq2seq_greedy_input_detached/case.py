"""GRU encoder-decoder learning to reverse short digit sequences (teacher forcing half the time)."""
import random

import torch
import torch.nn as nn
import torch.optim as optim

random.seed(0)
torch.manual_seed(0)

SOS_token, EOS_token = 0, 1
VOCAB = 12  # SOS, EOS, digits 0-9 -> ids 2..11
HIDDEN = 64
MAX_LENGTH = 8
teacher_forcing_ratio = 0.5


class EncoderRNN(nn.Module):
    def __init__(self, input_size, hidden_size):
        super(EncoderRNN, self).__init__()
        self.hidden_size = hidden_size
        self.embedding = nn.Embedding(input_size, hidden_size)
        self.gru = nn.GRU(hidden_size, hidden_size)

    def forward(self, input, hidden):
        embedded = self.embedding(input).view(1, 1, -1)
        output, hidden = self.gru(embedded, hidden)
        return output, hidden

    def initHidden(self):
        return torch.zeros(1, 1, self.hidden_size)


class DecoderRNN(nn.Module):
    def __init__(self, hidden_size, output_size):
        super(DecoderRNN, self).__init__()
        self.embedding = nn.Embedding(output_size, hidden_size)
        self.gru = nn.GRU(hidden_size, hidden_size)
        self.out = nn.Linear(hidden_size, output_size)
        self.softmax = nn.LogSoftmax(dim=1)

    def forward(self, input, hidden):
        output = torch.relu(self.embedding(input).view(1, 1, -1))
        output, hidden = self.gru(output, hidden)
        return self.softmax(self.out(output[0])), hidden


def random_pair():
    digits = [random.randint(2, VOCAB - 1) for _ in range(random.randint(3, MAX_LENGTH - 2))]
    src = torch.tensor(digits + [EOS_token]).view(-1, 1)
    tgt = torch.tensor(digits[::-1] + [EOS_token]).view(-1, 1)
    return src, tgt


def train(input_tensor, target_tensor, encoder, decoder, encoder_optimizer, decoder_optimizer, criterion):
    encoder_hidden = encoder.initHidden()
    encoder_optimizer.zero_grad()
    decoder_optimizer.zero_grad()

    loss = 0
    for ei in range(input_tensor.size(0)):
        _, encoder_hidden = encoder(input_tensor[ei], encoder_hidden)

    decoder_input = torch.tensor([[SOS_token]])
    decoder_hidden = encoder_hidden
    use_teacher_forcing = random.random() < teacher_forcing_ratio

    for di in range(target_tensor.size(0)):
        decoder_output, decoder_hidden = decoder(decoder_input, decoder_hidden)
        loss += criterion(decoder_output, target_tensor[di])
        if use_teacher_forcing:
            decoder_input = target_tensor[di]
        else:
            topv, topi = decoder_output.topk(1)
            decoder_input = topi.squeeze().detach()  # detach from history as input
            if decoder_input.item() == EOS_token:
                break

    loss.backward()
    encoder_optimizer.step()
    decoder_optimizer.step()
    return loss.item() / target_tensor.size(0)


def trainIters(encoder, decoder, n_iters=200, print_every=50, learning_rate=0.01):
    print_loss_total = 0
    encoder_optimizer = optim.SGD(encoder.parameters(), lr=learning_rate)
    decoder_optimizer = optim.SGD(decoder.parameters(), lr=learning_rate)
    criterion = nn.NLLLoss()
    for it in range(1, n_iters + 1):
        input_tensor, target_tensor = random_pair()
        print_loss_total += train(input_tensor, target_tensor, encoder, decoder,
                                  encoder_optimizer, decoder_optimizer, criterion)
        if it % print_every == 0:
            print(f"iter {it}: avg loss {print_loss_total / print_every:.4f}")
            print_loss_total = 0


if __name__ == "__main__":
    encoder = EncoderRNN(VOCAB, HIDDEN)
    decoder = DecoderRNN(HIDDEN, VOCAB)
    trainIters(encoder, decoder)
