import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class GumbleSoftmax(nn.Module):
    def __init__(self, hard=False):
        super(GumbleSoftmax, self).__init__()
        self.hard = hard

    def sample_gumbel_like(self, template_tensor, eps=1e-10):
        uniform_samples_tensor = template_tensor.clone().uniform_()
        return -torch.log(eps - torch.log(uniform_samples_tensor + eps))

    def gumbel_softmax_sample(self, logits, temperature):
        dim = logits.size(-1)
        gumble_samples_tensor = self.sample_gumbel_like(logits.data)
        gumble_trick_log_prob_samples = logits + gumble_samples_tensor
        return F.softmax(gumble_trick_log_prob_samples / temperature, dim=-1)

    def gumbel_softmax(self, logits, temperature, hard=False):
        y = self.gumbel_softmax_sample(logits, temperature)
        if hard:
            _, max_value_indexes = y.data.max(1, keepdim=True)
            y_hard = logits.data.clone().zero_().scatter_(1, max_value_indexes, 1)
            y = (y_hard - y.data) + y
        return y

    def forward(self, logits, temp=1, force_hard=False):
        samplesize = logits.size()
        if self.training and not force_hard:
            return self.gumbel_softmax(logits, temperature=1, hard=False)
        return self.gumbel_softmax(logits, temperature=1, hard=True)


class GatedBlock(nn.Module):
    """Residual block whose execution is decided per image by a small gate (ConvNet-AIG)."""

    def __init__(self, c):
        super().__init__()
        self.conv1 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(c)
        self.conv2 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(c)
        self.fc1 = nn.Conv2d(c, 8, 1)
        self.fc2 = nn.Conv2d(8, 2, 1)
        self.fc2.bias.data[0] = 0.1
        self.fc2.bias.data[1] = 2
        self.gs = GumbleSoftmax()

    def forward(self, x, temperature=1):
        w = F.avg_pool2d(x, x.size(2))
        w = self.fc2(F.relu(self.fc1(w)))
        w = self.gs(w.view(w.size(0), 2), temp=temperature, force_hard=True)
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        out = x + out * w[:, 1].view(-1, 1, 1, 1)
        return F.relu(out), w[:, 1]


class ResNetAIG(nn.Module):
    def __init__(self, num_classes=10, c=16):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, c, 3, padding=1, bias=False), nn.BatchNorm2d(c), nn.ReLU())
        self.blocks = nn.ModuleList([GatedBlock(c) for _ in range(3)])
        self.fc = nn.Linear(c, num_classes)

    def forward(self, x):
        x = self.stem(x)
        gates = []
        for block in self.blocks:
            x, g = block(x)
            gates.append(g)
        return self.fc(F.adaptive_avg_pool2d(x, 1).flatten(1)), torch.stack(gates, 1)


model = ResNetAIG()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=5e-4)
target_rate = 0.6
for it in range(6):
    images, labels = torch.randn(8, 3, 16, 16), torch.randint(0, 10, (8,))
    output, activation_rates = model(images)
    loss_classify = F.cross_entropy(output, labels)
    acts = activation_rates.mean(0)
    loss_target_rate = torch.pow(acts - target_rate, 2).mean()
    loss = loss_classify + 2.0 * loss_target_rate
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print('iter %d  loss %.4f  exec rate %.2f' % (it, loss.item(), acts.mean().item()))
