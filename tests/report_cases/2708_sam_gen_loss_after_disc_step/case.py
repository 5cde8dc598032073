import torch
import torch.nn as nn

torch.manual_seed(0)
hparams = {"nh": 16, "dnh": 16, "lr": 0.01, "dlr": 0.01, "lambda1": 0.01, "train_epochs": 4, "batch_size": 32}


class SAMGenerators(nn.Module):
    """One small generator per variable; an adjacency mask selects its parents."""

    def __init__(self, n_vars, nh):
        super().__init__()
        self.n_vars = n_vars
        self.adj_logits = nn.Parameter(torch.zeros(n_vars, n_vars))
        self.gens = nn.ModuleList(nn.Sequential(nn.Linear(n_vars + 1, nh), nn.Tanh(), nn.Linear(nh, 1))
                                  for _ in range(n_vars))
        self.register_buffer("no_self_loop", 1 - torch.eye(n_vars))

    def adjacency(self):
        return torch.sigmoid(self.adj_logits) * self.no_self_loop

    def forward(self, data, noise):
        adj = self.adjacency()
        outs = [g(torch.cat([data * adj[:, i], noise[:, i:i + 1]], 1)) for i, g in enumerate(self.gens)]
        return torch.cat(outs, 1)


class SAMDiscriminator(nn.Module):
    def __init__(self, n_vars, dnh):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2 * n_vars, dnh), nn.LeakyReLU(0.2), nn.Linear(dnh, 1))

    def forward(self, generated, observed):
        return self.net(torch.cat([generated, observed], 1))


def run_SAM(data, hp):
    n_vars = data.shape[1]
    sam = SAMGenerators(n_vars, hp["nh"])
    discriminator = SAMDiscriminator(n_vars, hp["dnh"])
    g_optimizer = torch.optim.Adam(sam.parameters(), lr=hp["lr"])
    d_optimizer = torch.optim.Adam(discriminator.parameters(), lr=hp["dlr"])
    criterion = nn.BCEWithLogitsLoss()
    for epoch in range(hp["train_epochs"]):
        for batch in data.split(hp["batch_size"]):
            ones, zeros = torch.ones(batch.shape[0], 1), torch.zeros(batch.shape[0], 1)
            noise = torch.randn(batch.shape[0], n_vars)
            generated_variables = sam(batch, noise)
            disc_vars_d = discriminator(generated_variables.detach(), batch)
            disc_vars_g = discriminator(generated_variables, batch)
            true_vars_disc = discriminator(batch, batch)

            disc_loss = criterion(disc_vars_d, zeros) + criterion(true_vars_disc, ones)
            gen_loss = criterion(disc_vars_g, ones)

            d_optimizer.zero_grad()
            disc_loss.backward()
            d_optimizer.step()

            g_optimizer.zero_grad()
            loss = gen_loss + hp["lambda1"] * sam.adjacency().abs().sum()
            loss.backward()
            g_optimizer.step()
    return sam.adjacency().detach()


x = torch.randn(96, 1)
data = torch.cat([x, 2 * x + 0.1 * torch.randn(96, 1), torch.randn(96, 1)], 1)
print(run_SAM(data, hparams))
