import argparse

import torch
import torch.nn as nn

from model import AnomalyTransformer, my_kl_loss


class Solver:
    def __init__(self, config):
        self.__dict__.update(vars(config))
        self.model = AnomalyTransformer(win_size=self.win_size, enc_in=self.input_c)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=self.lr)
        self.criterion = nn.MSELoss()

    def association_discrepancy(self, series, prior, detach_prior):
        series_loss, prior_loss = 0.0, 0.0
        for u in range(len(prior)):
            p = prior[u]
            s = series[u]
            if detach_prior:
                series_loss = series_loss + torch.mean(my_kl_loss(s, p.detach())) + torch.mean(my_kl_loss(p.detach(), s))
            else:
                prior_loss = prior_loss + torch.mean(my_kl_loss(p, s.detach())) + torch.mean(my_kl_loss(s.detach(), p))
        return (series_loss if detach_prior else prior_loss) / len(prior)

    def train(self, windows):
        for epoch in range(self.num_epochs):
            self.model.train()
            for i in range(0, windows.size(0), self.batch_size):
                input = windows[i:i + self.batch_size]
                self.optimizer.zero_grad()
                output, series, prior = self.model(input)

                series_loss = self.association_discrepancy(series, prior, detach_prior=True)
                prior_loss = self.association_discrepancy(series, prior, detach_prior=False)
                rec_loss = self.criterion(output, input)

                loss1 = rec_loss - self.k * series_loss
                loss2 = rec_loss + self.k * prior_loss

                # Minimax strategy
                loss1.backward(retain_graph=True)
                self.optimizer.step()
                loss2.backward()
                self.optimizer.step()
            print(f"epoch {epoch}: rec {rec_loss.item():.4f} series {series_loss.item():.4f}")


def parse():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lr", type=float, default=1e-4)
    parser.add_argument("--num_epochs", type=int, default=2)
    parser.add_argument("--k", type=int, default=3)
    parser.add_argument("--win_size", type=int, default=10)
    parser.add_argument("--input_c", type=int, default=5)
    parser.add_argument("--batch_size", type=int, default=8)
    return parser.parse_args([])


if __name__ == "__main__":
    torch.manual_seed(0)
    config = parse()
    series = torch.sin(torch.linspace(0, 12, 200))[:, None] + 0.1 * torch.randn(200, config.input_c)
    windows = series.unfold(0, config.win_size, config.win_size).permute(0, 2, 1)[:16]
    Solver(config).train(windows)
