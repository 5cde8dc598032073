"""Mobile video object detection with a Bottleneck-LSTM between the backbone and the SSD head
(training script for the lstm variant, toy data)."""
import argparse
import logging

import torch
import torch.nn as nn
import torch.nn.functional as F

logging.basicConfig(level=logging.INFO, format='%(asctime)s - %(message)s')


class BottleneckLSTMCell(nn.Module):
    def __init__(self, input_channels, hidden_channels):
        super().__init__()
        self.input_channels = input_channels
        self.hidden_channels = hidden_channels
        self.W = nn.Conv2d(input_channels, input_channels, 3, padding=1, groups=input_channels)
        self.Wy = nn.Conv2d(input_channels + hidden_channels, hidden_channels, 1)
        self.Wi = nn.Conv2d(hidden_channels, hidden_channels, 3, padding=1, groups=hidden_channels)
        self.Wbi = nn.Conv2d(hidden_channels, hidden_channels, 1)
        self.Wbf = nn.Conv2d(hidden_channels, hidden_channels, 1)
        self.Wbc = nn.Conv2d(hidden_channels, hidden_channels, 1)
        self.Wbo = nn.Conv2d(hidden_channels, hidden_channels, 1)

    def forward(self, x, h, c):
        x = self.W(x)
        y = torch.cat((x, h), 1)
        i = self.Wy(y)
        b = self.Wi(i)
        ci = torch.sigmoid(self.Wbi(b))
        cf = torch.sigmoid(self.Wbf(b))
        cc = cf * c + ci * F.relu6(self.Wbc(b))
        co = torch.sigmoid(self.Wbo(b))
        ch = co * F.relu6(cc)
        return ch, cc


class BottleneckLSTM(nn.Module):
    def __init__(self, input_channels, hidden_channels, height, width, batch_size):
        super().__init__()
        self.cell = BottleneckLSTMCell(input_channels, hidden_channels)
        self.hidden_state = torch.zeros(batch_size, hidden_channels, height, width)
        self.cell_state = torch.zeros(batch_size, hidden_channels, height, width)

    def forward(self, input):
        new_h, new_c = self.cell(input, self.hidden_state, self.cell_state)
        self.hidden_state = new_h
        self.cell_state = new_c
        return self.hidden_state


class SSD_LSTM(nn.Module):
    def __init__(self, num_classes, batch_size):
        super().__init__()
        self.num_classes = num_classes
        self.base_net = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.ReLU6(inplace=True),
                                      nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.ReLU6(inplace=True))
        self.bottleneck_lstm1 = BottleneckLSTM(16, 8, 4, 4, batch_size)
        self.classification_header = nn.Conv2d(8, 2 * num_classes, 3, padding=1)
        self.regression_header = nn.Conv2d(8, 2 * 4, 3, padding=1)

    def forward(self, x):
        x = self.base_net(x)
        x = self.bottleneck_lstm1(x)
        confidence = self.classification_header(x).permute(0, 2, 3, 1).reshape(x.size(0), -1, self.num_classes)
        locations = self.regression_header(x).permute(0, 2, 3, 1).reshape(x.size(0), -1, 4)
        return confidence, locations

    def detach_hidden(self):
        self.bottleneck_lstm1.hidden_state.detach_()
        self.bottleneck_lstm1.cell_state.detach_()


class MultiboxLoss(nn.Module):
    def forward(self, confidence, predicted_locations, labels, gt_locations):
        classification_loss = F.cross_entropy(confidence.reshape(-1, confidence.size(2)), labels.reshape(-1))
        smooth_l1_loss = F.smooth_l1_loss(predicted_locations, gt_locations)
        return smooth_l1_loss, classification_loss


def train(loader, net, criterion, optimizer, epoch=-1):
    net.train(True)
    running_loss = 0.0
    running_regression_loss = 0.0
    running_classification_loss = 0.0
    for i, videos in enumerate(loader):
        net.detach_hidden()
        for images, boxes, labels in videos:
            optimizer.zero_grad()
            confidence, locations = net(images)
            regression_loss, classification_loss = criterion(confidence, locations, labels, boxes)
            loss = regression_loss + classification_loss
            loss.backward()
            optimizer.step()

            running_loss += loss.item()
            running_regression_loss += regression_loss.item()
            running_classification_loss += classification_loss.item()
        logging.info(f"Epoch: {epoch}, Step: {i}, Average Loss: {running_loss:.4f}, "
                     f"Average Regression Loss {running_regression_loss:.4f}, "
                     f"Average Classification Loss: {running_classification_loss:.4f}")
        running_loss = running_regression_loss = running_classification_loss = 0.0


def main():
    parser = argparse.ArgumentParser(description='Mobile Video Object Detection (Bottleneck LSTM) Training')
    parser.add_argument('--batch_size', default=2, type=int)
    parser.add_argument('--sequence_length', default=3, type=int)
    parser.add_argument('--num_epochs', default=1, type=int)
    parser.add_argument('--lr', '--learning-rate', default=3e-3, type=float)
    args = parser.parse_args()

    torch.manual_seed(0)
    num_classes = 3
    net = SSD_LSTM(num_classes, args.batch_size)
    criterion = MultiboxLoss()
    optimizer = torch.optim.RMSprop(net.parameters(), lr=args.lr, momentum=0.9)

    n_anchors = 4 * 4 * 2
    loader = []
    for _ in range(2):
        video = [(torch.randn(args.batch_size, 3, 16, 16),
                  torch.randn(args.batch_size, n_anchors, 4),
                  torch.randint(0, num_classes, (args.batch_size, n_anchors)))
                 for _ in range(args.sequence_length)]
        loader.append(video)

    for epoch in range(args.num_epochs):
        train(loader, net, criterion, optimizer, epoch=epoch)


if __name__ == '__main__':
    main()
