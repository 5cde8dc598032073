import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.autograd import Variable

torch.manual_seed(0)
np.random.seed(0)


class cnn_reg(nn.Module):
    """3D CNN on interface feature grids (DeepRank-style), regression of a docking score."""

    def __init__(self, input_shape):
        super(cnn_reg, self).__init__()
        self.convlayer_000 = nn.Conv3d(input_shape[0], 4, kernel_size=2)
        self.convlayer_001 = nn.MaxPool3d((2, 2, 2))
        self.convlayer_002 = nn.Conv3d(4, 5, kernel_size=2)
        self.convlayer_003 = nn.MaxPool3d((2, 2, 2))
        size = self._get_conv_output(input_shape)
        self.fclayer_000 = nn.Linear(size, 84)
        self.fclayer_001 = nn.Linear(84, 1)

    def _get_conv_output(self, shape):
        inp = Variable(torch.rand(1, *shape))
        out = self._forward_features(inp)
        return out.data.view(1, -1).size(1)

    def _forward_features(self, x):
        x = F.relu(self.convlayer_000(x))
        x = self.convlayer_001(x)
        x = F.relu(self.convlayer_002(x))
        x = self.convlayer_003(x)
        return x

    def forward(self, x):
        x = self._forward_features(x)
        x = x.view(x.size(0), -1)
        x = F.relu(self.fclayer_000(x))
        return self.fclayer_001(x)


class NeuralNet:
    def __init__(self, input_shape, lr=0.005):
        self.net = cnn_reg(input_shape)
        self.criterion = nn.MSELoss(reduction='sum')
        self.optimizer = optim.SGD(self.net.parameters(), lr=lr, momentum=0.9, weight_decay=0.001)
        self.losses = {'train': [], 'valid': []}

    def _get_variables(self, inputs, targets):
        inputs = Variable(inputs).float()
        targets = Variable(targets).float()
        return inputs, targets

    def _epoch(self, data_loader, train_model):
        running_loss = 0
        data = {'outputs': [], 'targets': []}
        n = 0
        for d in data_loader:
            inputs, targets = self._get_variables(d['feature'], d['target'])
            self.optimizer.zero_grad()
            outputs = self.net(inputs)
            loss = self.criterion(outputs, targets)
            running_loss += loss.data.item()
            n += len(inputs)
            if train_model:
                loss.backward()
                self.optimizer.step()
            data['outputs'] += outputs.data.cpu().numpy().flatten().tolist()
            data['targets'] += targets.data.numpy().flatten().tolist()
        if n > 0:
            running_loss /= n
        return running_loss, data

    def _train(self, train_loader, valid_loader, nepoch=3):
        for epoch in range(nepoch):
            t0 = time.time()
            self.net.train()
            train_loss, _ = self._epoch(train_loader, train_model=True)
            self.losses['train'].append(train_loss)
            self.net.eval()
            valid_loss, valid_data = self._epoch(valid_loader, train_model=False)
            self.losses['valid'].append(valid_loss)
            print('epoch %d train loss %.4f valid loss %.4f  (%.2fs)' %
                  (epoch, train_loss, valid_loss, time.time() - t0))
        return self.losses


def make_loader(n_batches, batch_size=8, shape=(3, 10, 10, 10)):
    w = torch.randn(shape[0])
    loader = []
    for _ in range(n_batches):
        feature = torch.rand(batch_size, *shape)
        target = (feature.mean(dim=(2, 3, 4)) @ w).unsqueeze(1)
        loader.append({'feature': feature, 'target': target})
    return loader


if __name__ == '__main__':
    model = NeuralNet(input_shape=(3, 10, 10, 10))
    model._train(make_loader(6), make_loader(2), nepoch=3)
