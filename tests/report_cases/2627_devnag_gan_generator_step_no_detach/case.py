import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim

torch.manual_seed(0)
np.random.seed(0)

data_mean, data_stddev = 4, 1.25
g_input_size, g_hidden_size, g_output_size = 1, 5, 1
d_input_size, d_hidden_size, d_output_size = 50, 10, 1
minibatch_size = d_input_size
d_learning_rate, g_learning_rate, sgd_momentum = 1e-3, 1e-3, 0.9
num_epochs, d_steps, g_steps = 5, 2, 2


def get_distribution_sampler(mu, sigma):
    return lambda n: torch.Tensor(np.random.normal(mu, sigma, (1, n)))


def get_generator_input_sampler():
    return lambda m, n: torch.rand(m, n)


class Generator(nn.Module):
    def __init__(self, input_size, hidden_size, output_size, f):
        super().__init__()
        self.map1 = nn.Linear(input_size, hidden_size)
        self.map2 = nn.Linear(hidden_size, hidden_size)
        self.map3 = nn.Linear(hidden_size, output_size)
        self.f = f

    def forward(self, x):
        return self.map3(self.f(self.map2(self.f(self.map1(x)))))


class Discriminator(nn.Module):
    def __init__(self, input_size, hidden_size, output_size, f):
        super().__init__()
        self.map1 = nn.Linear(input_size, hidden_size)
        self.map2 = nn.Linear(hidden_size, hidden_size)
        self.map3 = nn.Linear(hidden_size, output_size)
        self.f = f

    def forward(self, x):
        return self.f(self.map3(self.f(self.map2(self.f(self.map1(x))))))


d_sampler, gi_sampler = get_distribution_sampler(data_mean, data_stddev), get_generator_input_sampler()
G = Generator(g_input_size, g_hidden_size, g_output_size, torch.tanh)
D = Discriminator(d_input_size, d_hidden_size, d_output_size, torch.sigmoid)
criterion = nn.BCELoss()
d_optimizer = optim.SGD(D.parameters(), lr=d_learning_rate, momentum=sgd_momentum)
g_optimizer = optim.SGD(G.parameters(), lr=g_learning_rate, momentum=sgd_momentum)

for epoch in range(num_epochs):
    for d_index in range(d_steps):
        D.zero_grad()
        d_real_decision = D(d_sampler(d_input_size))
        d_real_error = criterion(d_real_decision, torch.ones([1, 1]))
        d_real_error.backward()
        d_gen_input = gi_sampler(minibatch_size, g_input_size)
        d_fake_data = G(d_gen_input).detach()  # detach to avoid training G on these labels
        d_fake_decision = D(d_fake_data.t())
        d_fake_error = criterion(d_fake_decision, torch.zeros([1, 1]))
        d_fake_error.backward()
        d_optimizer.step()

    for g_index in range(g_steps):
        G.zero_grad()
        gen_input = gi_sampler(minibatch_size, g_input_size)
        g_fake_data = G(gen_input)
        dg_fake_decision = D(g_fake_data.t())
        g_error = criterion(dg_fake_decision, torch.ones([1, 1]))  # train G to pretend it's genuine
        g_error.backward()
        g_optimizer.step()  # only optimizes G's parameters
    print(epoch, round(d_real_error.item(), 4), round(d_fake_error.item(), 4), round(g_error.item(), 4))
