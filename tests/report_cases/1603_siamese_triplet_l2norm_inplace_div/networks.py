import torch.nn as nn


class EmbeddingNet(nn.Module):
    def __init__(self, emb_dim=16):
        super(EmbeddingNet, self).__init__()
        self.convnet = nn.Sequential(
            nn.Conv2d(1, 8, 3), nn.PReLU(), nn.MaxPool2d(2, stride=2),
            nn.Conv2d(8, 16, 3), nn.PReLU(), nn.MaxPool2d(2, stride=2),
        )
        self.fc = nn.Sequential(
            nn.Linear(16 * 5 * 5, 64), nn.PReLU(),
            nn.Linear(64, emb_dim),
        )

    def forward(self, x):
        output = self.convnet(x)
        output = output.view(output.size()[0], -1)
        output = self.fc(output)
        return output

    def get_embedding(self, x):
        return self.forward(x)


class EmbeddingNetL2(EmbeddingNet):
    """Same embedding, projected onto the unit sphere (for cosine-style margins)."""

    def __init__(self, emb_dim=16):
        super(EmbeddingNetL2, self).__init__(emb_dim)

    def forward(self, x):
        output = super(EmbeddingNetL2, self).forward(x)
        output /= output.pow(2).sum(1, keepdim=True).sqrt()
        return output

    def get_embedding(self, x):
        return self.forward(x)


class TripletNet(nn.Module):
    def __init__(self, embedding_net):
        super(TripletNet, self).__init__()
        self.embedding_net = embedding_net

    def forward(self, x1, x2, x3):
        output1 = self.embedding_net(x1)
        output2 = self.embedding_net(x2)
        output3 = self.embedding_net(x3)
        return output1, output2, output3

    def get_embedding(self, x):
        return self.embedding_net(x)
