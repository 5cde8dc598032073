"""Knowledge distillation where the teacher's outputs are precomputed once per epoch and
stored as numpy arrays, then turned back into tensors inside the KD loss."""
import argparse
import logging

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

logging.basicConfig(level=logging.INFO, format='%(message)s')


class Net(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.fc1 = nn.Linear(20, hidden)
        self.fc2 = nn.Linear(hidden, 5)
        self.dropout = nn.Dropout(0.3)

    def forward(self, x):
        return self.fc2(self.dropout(F.relu(self.fc1(x))))


def loss_fn_kd(outputs, labels, teacher_outputs, params):
    alpha = params.alpha
    T = params.temperature
    KD_loss = nn.KLDivLoss(reduction='batchmean')(F.log_softmax(outputs / T, dim=1),
                                                  F.softmax(teacher_outputs / T, dim=1)) * (alpha * T * T) + \
        F.cross_entropy(outputs, labels) * (1. - alpha)
    return KD_loss


def fetch_teacher_outputs(teacher_model, dataloader):
    teacher_model.eval()
    teacher_outputs = []
    for data_batch, labels_batch in dataloader:
        output_teacher_batch = teacher_model(data_batch).data.cpu().numpy()
        teacher_outputs.append(output_teacher_batch)
    return teacher_outputs


def train_kd(model, teacher_outputs, optimizer, loss_fn_kd, dataloader, params):
    model.train()
    loss_avg = []
    for i, (train_batch, labels_batch) in enumerate(dataloader):
        output_batch = model(train_batch)
        output_teacher_batch = torch.from_numpy(teacher_outputs[i])
        loss = loss_fn_kd(output_batch, labels_batch, output_teacher_batch, params)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        loss_avg.append(loss.item())
    return float(np.mean(loss_avg))


def train_and_evaluate_kd(model, teacher_model, train_dataloader, optimizer, loss_fn_kd, params):
    for epoch in range(params.num_epochs):
        logging.info("Epoch {}/{}".format(epoch + 1, params.num_epochs))
        teacher_outputs = fetch_teacher_outputs(teacher_model, train_dataloader)
        train_loss = train_kd(model, teacher_outputs, optimizer, loss_fn_kd, train_dataloader, params)
        logging.info("- Train loss: {:05.3f}".format(train_loss))


if __name__ == '__main__':
    parser = argparse.ArgumentParser()
    parser.add_argument('--alpha', type=float, default=0.9)
    parser.add_argument('--temperature', type=float, default=4.0)
    parser.add_argument('--num_epochs', type=int, default=2)
    parser.add_argument('--learning_rate', type=float, default=1e-3)
    params = parser.parse_args()
    torch.manual_seed(230)
    train_dl = [(torch.randn(16, 20), torch.randint(0, 5, (16,))) for _ in range(3)]
    teacher_model = Net(64)
    model = Net(8)
    optimizer = torch.optim.Adam(model.parameters(), lr=params.learning_rate)
    train_and_evaluate_kd(model, teacher_model, train_dl, optimizer, loss_fn_kd, params)
