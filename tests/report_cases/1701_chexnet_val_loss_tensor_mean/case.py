import torch
from torch.utils.data import DataLoader, TensorDataset

from trainer import ChexnetTrainer

torch.manual_seed(0)

CLASS_COUNT = 6
IMG_SIZE = 32


def makeLoader(nImages, shuffle):
    images = torch.randn(nImages, 1, IMG_SIZE, IMG_SIZE)
    labels = (torch.rand(nImages, CLASS_COUNT) > 0.7).float()
    return DataLoader(TensorDataset(images, labels), batch_size=16, shuffle=shuffle)


if __name__ == '__main__':
    trainLoader = makeLoader(128, True)
    valLoader = makeLoader(96, False)
    chexnet = ChexnetTrainer(CLASS_COUNT, learningRate=1e-3)
    best = chexnet.train(trainLoader, valLoader, trMaxEpoch=4)
    print('best validation loss', best)
