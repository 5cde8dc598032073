"""Birdsong syllable classifier (vak-style Model.fit): validation every `val_step` training steps,
checkpoint on improvement, early stop after `patience` validations without improvement."""
import torch
import torch.nn as nn


class TweetyNetLite(nn.Module):
    def __init__(self, n_freq=16, n_classes=5, hidden=16):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(n_freq, hidden, 3, padding=1), nn.ReLU())
        self.rnn = nn.LSTM(hidden, hidden, batch_first=True, bidirectional=True)
        self.fc = nn.Linear(2 * hidden, n_classes)

    def forward(self, x):                 # x: B x F x T
        h = self.conv(x).transpose(1, 2)  # B x T x H
        h, _ = self.rnn(h)
        return self.fc(h).transpose(1, 2)  # B x C x T


class Model:
    def __init__(self, network, optimizer, loss, val_step=2, patience=2):
        self.network = network
        self.optimizer = optimizer
        self.loss = loss
        self.val_step = val_step
        self.patience = patience
        self.global_step = 0
        self.best_val_acc = None
        self.patience_counter = 0
        self.best_state = None
        self.summary = []

    def _train(self, train_data):
        self.network.train()
        progress = []
        for x, y in train_data:
            y_pred = self.network(x)
            loss = self.loss(y_pred, y)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            self.global_step += 1
            progress.append(loss.item())

            if self.val_step and self.global_step % self.val_step == 0:
                metric_vals = self._eval(self.val_data)
                self.network.train()  # because _eval calls network.eval()
                self.summary.append({'step': self.global_step, **metric_vals})
                if self.best_val_acc is None or metric_vals['acc'] > self.best_val_acc:
                    self.best_val_acc = metric_vals['acc']
                    self.best_state = {k: v.clone() for k, v in self.network.state_dict().items()}
                    self.patience_counter = 0
                else:
                    self.patience_counter += 1
                if self.patience_counter > self.patience:
                    return True, progress
        return False, progress

    def _eval(self, eval_data):
        self.network.eval()
        correct, total, loss_sum = 0, 0, 0.0
        with torch.no_grad():
            for x, y in eval_data:
                y_pred = self.network(x)
                loss_sum += self.loss(y_pred, y).item()
                correct += (y_pred.argmax(dim=1) == y).sum().item()
                total += y.numel()
        return {'acc': correct / total, 'loss': loss_sum / len(eval_data)}

    def fit(self, train_data, num_epochs, val_data=None):
        self.val_data = val_data
        for epoch in range(1, num_epochs + 1):
            stop, progress = self._train(train_data)
            print(f'epoch {epoch}: mean train loss {sum(progress) / len(progress):.4f}, '
                  f'best val acc {self.best_val_acc}')
            if stop:
                print(f'stopping early: {self.patience} validations without improvement')
                break


if __name__ == '__main__':
    torch.manual_seed(0)
    make = lambda: (torch.randn(2, 16, 20), torch.randint(0, 5, (2, 20)))
    train_data = [make() for _ in range(4)]
    val_data = [make() for _ in range(2)]
    net = TweetyNetLite()
    model = Model(net, torch.optim.Adam(net.parameters(), lr=1e-3), nn.CrossEntropyLoss())
    model.fit(train_data, num_epochs=2, val_data=val_data)
