import torch
import torch.nn as nn

torch.manual_seed(0)


class StatisticsCollector:
    def __init__(self):
        self.statistics = {}

    def add_statistic(self, key):
        self.statistics[key] = []

    def collect(self, key, value):
        self.statistics[key].append(value)

    def mean(self, key):
        return sum(self.statistics[key]) / max(len(self.statistics[key]), 1)


class MNISTProblem:
    def __init__(self):
        self.loss_function = nn.CrossEntropyLoss()

    def generate_batch(self):
        return {"inputs": torch.randn(16, 1, 8, 8), "targets": torch.randint(0, 10, (16,))}

    def evaluate_loss(self, data_dict, logits):
        return self.loss_function(logits, data_dict["targets"])

    def collect_statistics(self, stat_col, data_dict, logits, loss):
        stat_col.collect("loss", loss)
        stat_col.collect("acc", (logits.argmax(1) == data_dict["targets"]).float().mean())


class SimpleConvNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3)
        self.fc = nn.Linear(4 * 6 * 6, 10)

    def forward(self, data_dict):
        return self.fc(torch.relu(self.conv(data_dict["inputs"])).flatten(1))


problem, model = MNISTProblem(), SimpleConvNet()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
stat_col = StatisticsCollector()
stat_col.add_statistic("loss")
stat_col.add_statistic("acc")

for episode in range(20):
    data_dict = problem.generate_batch()
    optimizer.zero_grad()
    logits = model(data_dict)
    loss = problem.evaluate_loss(data_dict, logits)
    loss.backward()
    optimizer.step()
    problem.collect_statistics(stat_col, data_dict, logits, loss)
    if episode % 10 == 9:
        print(f"episode {episode}: mean loss {stat_col.mean('loss'):.3f}")
