import torch
import torch.nn as nn

torch.manual_seed(0)


def rmse(net, x, y):
    return torch.sqrt(torch.mean((net(x) - y) ** 2))


def r2(net, x, y):
    y_hat = net(x)
    return 1 - torch.sum((y - y_hat) ** 2) / torch.sum((y - y.mean()) ** 2)


class Train:
    def __init__(self, net, data, optimizer, n_epochs):
        self.net, self.data, self.optimizer, self.n_epochs = net, data, optimizer, n_epochs
        self.states = {}

    def train_once(self):
        for x, y in self.data:
            self.optimizer.zero_grad()
            loss = torch.mean((self.net(x) - y) ** 2)
            loss.backward()
            self.optimizer.step()

    def train(self):
        for epoch in range(self.n_epochs):
            self.train_once()
            self.states[epoch] = {k: v.clone() for k, v in self.net.state_dict().items()}
        return self.net


class Test:
    def __init__(self, net, data, metrics):
        self.net, self.data, self.metrics = net, data, metrics

    def test(self):
        x = torch.cat([d[0] for d in self.data])
        y = torch.cat([d[1] for d in self.data])
        return {name: metric(self.net, x, y) for name, metric in self.metrics.items()}


class TrainAndTest:
    def __init__(self, net, data_tr, data_te, optimizer, metrics, n_epochs=3):
        self.net, self.data_tr, self.data_te = net, data_tr, data_te
        self.optimizer, self.metrics, self.n_epochs = optimizer, metrics, n_epochs

    def run(self):
        Train(self.net, self.data_tr, self.optimizer, self.n_epochs).train()
        return {"test": Test(self.net, self.data_te, self.metrics).test()}


def experiment_generating_fn(param_dict):
    net = nn.Sequential(nn.Linear(6, param_dict["hidden"]), nn.Tanh(), nn.Linear(param_dict["hidden"], 1))
    data_tr = [(torch.randn(16, 6), torch.randn(16, 1)) for _ in range(4)]
    data_te = [(torch.randn(64, 6), torch.randn(64, 1)) for _ in range(4)]
    opt = torch.optim.Adam(net.parameters(), lr=param_dict["lr"])
    return TrainAndTest(net, data_tr, data_te, opt, {"rmse": rmse, "r2": r2})


class MultipleTrainAndTest:
    def __init__(self, experiment_generating_fn, param_dicts):
        self.experiment_generating_fn, self.param_dicts = experiment_generating_fn, param_dicts
        self.results = []

    def run(self):
        for param_dict in self.param_dicts:
            train_and_test = self.experiment_generating_fn(param_dict)
            result = train_and_test.run()
            self.results.append((param_dict, result))
            del train_and_test
        return self.results


param_dicts = [{"hidden": h, "lr": lr} for h in (8, 16) for lr in (1e-3, 1e-2)]
for pd_, res in MultipleTrainAndTest(experiment_generating_fn, param_dicts).run():
    print(pd_, {k: float(v) for k, v in res["test"].items()})
