import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim

torch.manual_seed(0)
np.random.seed(0)


class DANNModel(nn.Module):
    def __init__(self):
        super(DANNModel, self).__init__()
        self.feature = nn.Sequential()
        self.feature.add_module('f_conv1', nn.Conv2d(3, 16, kernel_size=5))
        self.feature.add_module('f_bn1', nn.BatchNorm2d(16))
        self.feature.add_module('f_pool1', nn.MaxPool2d(2))
        self.feature.add_module('f_relu1', nn.ReLU(True))
        self.feature.add_module('f_conv2', nn.Conv2d(16, 24, kernel_size=5))
        self.feature.add_module('f_bn2', nn.BatchNorm2d(24))
        self.feature.add_module('f_drop1', nn.Dropout2d())
        self.feature.add_module('f_pool2', nn.MaxPool2d(2))
        self.feature.add_module('f_relu2', nn.ReLU(True))

        self.class_classifier = nn.Sequential()
        self.class_classifier.add_module('c_fc1', nn.Linear(24 * 4 * 4, 64))
        self.class_classifier.add_module('c_bn1', nn.BatchNorm1d(64))
        self.class_classifier.add_module('c_relu1', nn.ReLU(True))
        self.class_classifier.add_module('c_fc2', nn.Linear(64, 10))
        self.class_classifier.add_module('c_softmax', nn.LogSoftmax(dim=1))

        self.domain_classifier = nn.Sequential()
        self.domain_classifier.add_module('d_fc1', nn.Linear(24 * 4 * 4, 64))
        self.domain_classifier.add_module('d_bn1', nn.BatchNorm1d(64))
        self.domain_classifier.add_module('d_relu1', nn.ReLU(True))
        self.domain_classifier.add_module('d_fc2', nn.Linear(64, 2))
        self.domain_classifier.add_module('d_softmax', nn.LogSoftmax(dim=1))

    def forward(self, input_data, alpha):
        feature = self.feature(input_data)
        feature = feature.view(-1, 24 * 4 * 4)
        class_output = self.class_classifier(feature)
        # gradient reversal with a hook: identity in the forward, -alpha * grad in the backward,
        # only on the branch that feeds the domain classifier
        reverse_feature = feature.view_as(feature)
        if reverse_feature.requires_grad:
            reverse_feature.register_hook(lambda grad: grad.neg() * alpha)
        domain_output = self.domain_classifier(reverse_feature)
        return class_output, domain_output


def digits_like(n, batch_size=32, shift=0.0):
    templates = torch.randn(10, 3, 28, 28)
    for _ in range(n):
        y = torch.randint(0, 10, (batch_size,))
        x = templates[y] + torch.randn(batch_size, 3, 28, 28) * 0.8 + shift
        yield x, y


def test(my_net, shift):
    my_net.eval()
    n_correct = n_total = 0
    with torch.no_grad():
        for t_img, t_label in digits_like(2, shift=shift):
            class_output, _ = my_net(input_data=t_img, alpha=0)
            pred = class_output.data.max(1, keepdim=True)[1]
            n_correct += pred.eq(t_label.data.view_as(pred)).cpu().sum().item()
            n_total += t_label.size(0)
    return n_correct / n_total


def main(n_epoch=3, len_dataloader=5):
    my_net = DANNModel()
    optimizer = optim.Adam(my_net.parameters(), lr=1e-3)
    loss_class = torch.nn.NLLLoss()
    loss_domain = torch.nn.NLLLoss()
    for epoch in range(n_epoch):
        my_net.train()
        data_source_iter = digits_like(len_dataloader)
        data_target_iter = digits_like(len_dataloader, shift=0.7)
        for i in range(len_dataloader):
            p = float(i + epoch * len_dataloader) / n_epoch / len_dataloader
            alpha = 2. / (1. + np.exp(-10 * p)) - 1

            # training model using source data
            s_img, s_label = next(data_source_iter)
            my_net.zero_grad()
            batch_size = len(s_label)
            domain_label = torch.zeros(batch_size).long()
            class_output, domain_output = my_net(input_data=s_img, alpha=alpha)
            err_s_label = loss_class(class_output, s_label)
            err_s_domain = loss_domain(domain_output, domain_label)

            # training model using target data
            t_img, _ = next(data_target_iter)
            domain_label = torch.ones(batch_size).long()
            _, domain_output = my_net(input_data=t_img, alpha=alpha)
            err_t_domain = loss_domain(domain_output, domain_label)
            err = err_t_domain + err_s_domain + err_s_label
            err.backward()
            optimizer.step()

        print('epoch: %d, err_s_label: %.4f, err_s_domain: %.4f, err_t_domain: %.4f, acc_t: %.3f' % (
            epoch, err_s_label.item(), err_s_domain.item(), err_t_domain.item(), test(my_net, 0.7)))


if __name__ == '__main__':
    main()
