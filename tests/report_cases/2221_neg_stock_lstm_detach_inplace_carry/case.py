import logging

import numpy as np
import torch
from torch.nn import Module, LSTM, Linear
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
np.random.seed(0)
logging.basicConfig(level=logging.INFO, format="%(message)s")


class Config:
    input_size = 7
    output_size = 2
    hidden_size = 32
    lstm_layers = 2
    dropout_rate = 0.2
    time_step = 20
    do_continue_train = True   # carry the final (h, c) of one sample into the next
    batch_size = 1             # continuous training needs the samples in order, one per batch
    learning_rate = 0.001
    epoch = 3
    patience = 5
    train_data_rate = 0.8
    valid_data_rate = 0.15


class Net(Module):
    """LSTM time-series layer + Linear regression output"""

    def __init__(self, config):
        super(Net, self).__init__()
        self.lstm = LSTM(input_size=config.input_size, hidden_size=config.hidden_size,
                         num_layers=config.lstm_layers, batch_first=True, dropout=config.dropout_rate)
        self.linear = Linear(in_features=config.hidden_size, out_features=config.output_size)

    def forward(self, x, hidden=None):
        lstm_out, hidden = self.lstm(x, hidden)
        linear_out = self.linear(lstm_out)
        return linear_out, hidden


def make_stock_data(config, n_days=600):
    t = np.arange(n_days)
    base = np.cumsum(np.random.randn(n_days)) * 0.5 + 10 * np.sin(t / 50)
    feats = np.stack([base + np.random.randn(n_days) * 0.1 for _ in range(config.input_size)], 1)
    feats = (feats - feats.mean(0)) / feats.std(0)
    labels = np.stack([np.roll(feats[:, 1], -1), np.roll(feats[:, 2], -1)], 1)
    # non-overlapping consecutive windows so that sample k+1 continues sample k
    n = (n_days - 1) // config.time_step
    X = feats[:n * config.time_step].reshape(n, config.time_step, -1).astype(np.float32)
    Y = labels[:n * config.time_step].reshape(n, config.time_step, -1).astype(np.float32)
    n_train = int(n * config.train_data_rate)
    n_valid = int(n_train * config.valid_data_rate)
    return X[:n_train - n_valid], Y[:n_train - n_valid], X[n_train - n_valid:n_train], Y[n_train - n_valid:n_train], X[n_train:]


def train(config, logger, train_and_valid_data):
    train_X, train_Y, valid_X, valid_Y = train_and_valid_data
    train_X, train_Y = torch.from_numpy(train_X).float(), torch.from_numpy(train_Y).float()
    train_loader = DataLoader(TensorDataset(train_X, train_Y), batch_size=config.batch_size)
    valid_X, valid_Y = torch.from_numpy(valid_X).float(), torch.from_numpy(valid_Y).float()
    valid_loader = DataLoader(TensorDataset(valid_X, valid_Y), batch_size=config.batch_size)

    model = Net(config)
    optimizer = torch.optim.Adam(model.parameters(), lr=config.learning_rate)
    criterion = torch.nn.MSELoss()

    valid_loss_min = float("inf")
    bad_epoch = 0
    best_state = None
    for epoch in range(config.epoch):
        logger.info("Epoch {}/{}".format(epoch, config.epoch))
        model.train()
        train_loss_array = []
        hidden_train = None
        for i, _data in enumerate(train_loader):
            _train_X, _train_Y = _data[0], _data[1]
            optimizer.zero_grad()
            pred_Y, hidden_train = model(_train_X, hidden_train)

            if not config.do_continue_train:
                hidden_train = None
            else:
                h_0, c_0 = hidden_train
                h_0.detach_(), c_0.detach_()    # drop the gradient history, keep the values
                hidden_train = (h_0, c_0)
            loss = criterion(pred_Y, _train_Y)
            loss.backward()
            optimizer.step()
            train_loss_array.append(loss.item())

        model.eval()
        valid_loss_array = []
        hidden_valid = None
        with torch.no_grad():
            for _valid_X, _valid_Y in valid_loader:
                pred_Y, hidden_valid = model(_valid_X, hidden_valid)
                if not config.do_continue_train:
                    hidden_valid = None
                loss = criterion(pred_Y, _valid_Y)
                valid_loss_array.append(loss.item())

        train_loss_cur = np.mean(train_loss_array)
        valid_loss_cur = np.mean(valid_loss_array)
        logger.info("The train loss is {:.6f}. The valid loss is {:.6f}.".format(train_loss_cur, valid_loss_cur))
        if valid_loss_cur < valid_loss_min:
            valid_loss_min = valid_loss_cur
            bad_epoch = 0
            best_state = {k: v.clone() for k, v in model.state_dict().items()}
        else:
            bad_epoch += 1
            if bad_epoch >= config.patience:
                logger.info(" The training stops early in epoch {}".format(epoch))
                break
    return best_state


def predict(config, state_dict, test_X):
    test_loader = DataLoader(TensorDataset(torch.from_numpy(test_X).float()), batch_size=1)
    model = Net(config)
    model.load_state_dict(state_dict)
    result = torch.Tensor()
    model.eval()
    hidden_predict = None
    with torch.no_grad():
        for _data in test_loader:
            pred_X, hidden_predict = model(_data[0], hidden_predict)
            result = torch.cat((result, torch.squeeze(pred_X, dim=0)), dim=0)
    return result.detach().cpu().numpy()


if __name__ == "__main__":
    config = Config()
    logger = logging.getLogger("stock")
    train_X, train_Y, valid_X, valid_Y, test_X = make_stock_data(config)
    state = train(config, logger, (train_X, train_Y, valid_X, valid_Y))
    pred = predict(config, state, test_X)
    logger.info("predicted %d days, first: %s" % (pred.shape[0], np.round(pred[0], 3)))
