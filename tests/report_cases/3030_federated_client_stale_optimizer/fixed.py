"""Federated averaging over two PySyft-style workers: every round the server serialises the
current global model into a TrainConfig, each worker fits it on its local data, and the
server averages the returned models."""
import copy

import torch as th
import torch.nn as nn
import torch.nn.functional as F

from federated_client_fixed import FederatedClient, TrainConfig

th.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(10, 16)
        self.fc2 = nn.Linear(16, 3)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


def loss_fn(output, target):
    return F.cross_entropy(output, target)


def federated_average(models):
    avg = copy.deepcopy(models[0])
    with th.no_grad():
        for name, p in avg.named_parameters():
            p.copy_(th.stack([dict(m.named_parameters())[name] for m in models]).mean(0))
    return avg


def main(rounds=3):
    workers = [FederatedClient(f"worker_{k}") for k in range(2)]
    for w in workers:
        w.add_dataset((th.randn(32, 10), th.randint(0, 3, (32,))), key="local")
    global_model = Net()
    for curr_round in range(rounds):
        returned = []
        for w in workers:
            sent_model = copy.deepcopy(global_model)      # stands in for serialising the traced model
            w.set_obj(TrainConfig(model=sent_model, loss_fn=loss_fn, batch_size=8, lr=0.1))
            before = sent_model.fc1.weight.detach().clone()
            loss = w.fit(dataset_key="local")
            change = (sent_model.fc1.weight - before).abs().max().item()
            print(f"round {curr_round} {w.id}: loss {loss:.4f} weight change during fit {change:.6f}")
            returned.append(sent_model)
        global_model = federated_average(returned)


if __name__ == "__main__":
    main()
