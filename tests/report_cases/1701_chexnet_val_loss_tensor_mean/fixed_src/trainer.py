import torch
import torch.nn as nn
import torch.optim as optim
from torch.optim.lr_scheduler import ReduceLROnPlateau

from densenet import DenseNetLite


class ChexnetTrainer:
    def __init__(self, classCount, learningRate=1e-3):
        self.model = DenseNetLite(classCount)
        self.optimizer = optim.Adam(self.model.parameters(), lr=learningRate,
                                    betas=(0.9, 0.999), eps=1e-08, weight_decay=1e-5)
        self.scheduler = ReduceLROnPlateau(self.optimizer, factor=0.1, patience=5, mode='min')
        self.loss = nn.BCELoss(reduction='mean')
        self.lossHistory = []

    def epochTrain(self, dataLoader):
        self.model.train()
        for varInput, varTarget in dataLoader:
            varOutput = self.model(varInput)
            lossvalue = self.loss(varOutput, varTarget)
            self.optimizer.zero_grad()
            lossvalue.backward()
            self.optimizer.step()

    def epochVal(self, dataLoader):
        self.model.eval()
        lossVal = 0
        lossValNorm = 0
        losstensorMean = 0
        with torch.no_grad():
            for varInput, varTarget in dataLoader:
                varOutput = self.model(varInput)
                losstensor = self.loss(varOutput, varTarget)
                losstensorMean += losstensor
                lossVal += losstensor.item()
                lossValNorm += 1
        outLoss = lossVal / lossValNorm
        losstensorMean = losstensorMean / lossValNorm
        return outLoss, losstensorMean

    def train(self, trainLoader, valLoader, trMaxEpoch):
        lossMIN = 100000
        for epochID in range(trMaxEpoch):
            self.epochTrain(trainLoader)
            lossVal, losstensor = self.epochVal(valLoader)
            self.scheduler.step(losstensor.item())
            self.lossHistory.append(losstensor)
            if lossVal < lossMIN:
                lossMIN = lossVal
                self.bestState = {k: v.clone() for k, v in self.model.state_dict().items()}
                print('Epoch [' + str(epochID + 1) + '] [save] loss= ' + str(lossVal))
            else:
                print('Epoch [' + str(epochID + 1) + '] [----] loss= ' + str(lossVal))
        return lossMIN
