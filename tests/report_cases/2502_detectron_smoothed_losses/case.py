import torch

from model import TinyRCNN
from training_stats import TrainingStats

torch.manual_seed(0)

MAX_ITER = 16
BATCH = 4


def get_minibatch():
    data = torch.randn(BATCH, 3, 16, 16)
    rpn_labels = (torch.rand(BATCH, 3, 8, 8) > 0.5).float()
    rpn_targets = torch.randn(BATCH, 12, 8, 8) * 0.1
    roi_labels = torch.randint(0, 4, (BATCH,))
    roi_targets = torch.randn(BATCH, 16) * 0.1
    return data, rpn_labels, rpn_targets, roi_labels, roi_targets


def main():
    maskRCNN = TinyRCNN()
    optimizer = torch.optim.SGD(maskRCNN.parameters(), lr=0.01, momentum=0.9)
    training_stats = TrainingStats()

    maskRCNN.train()
    for step in range(MAX_ITER):
        net_outputs = maskRCNN(*get_minibatch())
        loss = sum(net_outputs.values())
        training_stats.UpdateIterStats(net_outputs, loss)

        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        training_stats.LogIterStats(step)


if __name__ == '__main__':
    main()
