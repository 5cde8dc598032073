import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

torch.manual_seed(0)


class FinetunedModel(nn.Module):
    """make_model()-style wrapper: pretrained feature extractor + replaceable classifier."""

    def __init__(self, features, num_classes, in_features, classifier_factory=None, pool=nn.AdaptiveAvgPool2d(2)):
        super().__init__()
        self._features = features
        self.pool = pool
        flat = in_features * 2 * 2
        if classifier_factory is None:
            self._classifier = nn.Linear(flat, num_classes)
        else:
            self._classifier = classifier_factory(flat, num_classes)

    def features(self, x):
        return self._features(x)

    def forward(self, x):
        x = self.features(x)
        x = self.pool(x)
        x = x.view(x.size(0), -1)
        return self._classifier(x)


def vgg_features(cfg=(16, 'M', 32, 'M', 64, 64, 'M')):
    layers, in_ch = [], 3
    for v in cfg:
        if v == 'M':
            layers.append(nn.MaxPool2d(2, 2))
        else:
            layers += [nn.Conv2d(in_ch, v, 3, padding=1), nn.ReLU(inplace=True)]
            in_ch = v
    return nn.Sequential(*layers)


def make_classifier(in_features, num_classes):
    return nn.Sequential(
        nn.Linear(in_features, 128),
        nn.ReLU(inplace=True),
        nn.Linear(128, num_classes),
    )


def make_model(num_classes, pretrained=True):
    features = vgg_features()
    if pretrained:
        # stand-in for loading ImageNet weights
        for m in features.modules():
            if isinstance(m, nn.Conv2d):
                nn.init.kaiming_normal_(m.weight, mode='fan_out', nonlinearity='relu')
    return FinetunedModel(features, num_classes, in_features=64, classifier_factory=make_classifier)


def loaders(n, batch_size=16, num_classes=10):
    for _ in range(n):
        y = torch.randint(0, num_classes, (batch_size,))
        x = torch.randn(batch_size, 3, 32, 32) + F.one_hot(y, num_classes).float().repeat(1, 3)[:, :3, None, None]
        yield x, y


def main():
    model = make_model(num_classes=10, pretrained=True)
    for param in model._features.parameters():
        param.requires_grad = False
    # Print layers whose parameters will be updated during training.
    print([name for (name, param) in model.named_parameters() if param.requires_grad])

    optimizer = optim.SGD((param for param in model.parameters() if param.requires_grad), lr=0.01, momentum=0.9)
    criterion = nn.CrossEntropyLoss()
    for epoch in range(3):
        model.train()
        for data, target in loaders(6):
            optimizer.zero_grad()
            output = model(data)
            loss = criterion(output, target)
            loss.backward()
            optimizer.step()
        model.eval()
        correct = 0
        with torch.no_grad():
            for data, target in loaders(2):
                correct += model(data).argmax(1).eq(target).sum().item()
        print('epoch {} loss {:.4f} test acc {}/32'.format(epoch, loss.item(), correct))


if __name__ == '__main__':
    main()
