"""Deep online video stabilization: an LSTM predicts a virtual camera pose (quaternion)
per frame from gyro readings; trained with smoothness + follow losses."""
import torch
import torch.nn as nn

cf = {
    "data": {"batch_size": 2, "resize_ratio": 1, "number_real": 10, "number_virtual": 2},
    "model": {"hidden_size": 16, "num_layers": 1, "cnn_dim": 0},
    "train": {"epoch": 2, "init_lr": 1e-3, "clip_norm": 1.0, "sample_freq": 4},
    "loss": {"follow": 10.0, "angle": 1.0, "smooth": 5.0},
}


def norm_quat(quat):
    return quat / torch.norm(quat, dim=-1, keepdim=True).clamp_min(1e-6)


class Net(nn.Module):
    def __init__(self, cf):
        super().__init__()
        self.hidden_size = cf["model"]["hidden_size"]
        in_dim = 4 * (cf["data"]["number_real"] + cf["data"]["number_virtual"])
        self.fc_in = nn.Sequential(nn.Linear(in_dim, 32), nn.ReLU())
        self.LSTM = nn.LSTMCell(32, self.hidden_size)
        self.fc_out = nn.Sequential(nn.Linear(self.hidden_size, 16), nn.ReLU(), nn.Linear(16, 4))
        self.hx = None
        self.cx = None

    def init_hidden(self, batch_size):
        self.hx = torch.zeros(batch_size, self.hidden_size)
        self.cx = torch.zeros(batch_size, self.hidden_size)

    def forward(self, x):
        x = self.fc_in(x)
        self.hx, self.cx = self.LSTM(x, (self.hx, self.cx))
        return norm_quat(self.fc_out(self.hx))


class Model():
    def __init__(self, cf):
        self.net = Net(cf)
        self.loss_follow = nn.MSELoss()
        self.loss_smooth = nn.MSELoss()

    def init_hidden(self, batch_size):
        self.net.init_hidden(batch_size)


def make_loader(cf, n_batches=3, steps=5):
    torch.manual_seed(0)
    b = cf["data"]["batch_size"]
    in_dim = 4 * cf["data"]["number_real"]
    loader = []
    for _ in range(n_batches):
        real_inputs = torch.randn(b, steps, in_dim) * 0.1
        real_postion = norm_quat(torch.randn(b, steps, 4))
        loader.append((real_inputs, real_postion))
    return loader


def run_epoch(model, loader, cf, epoch, optimizer=None, clip_norm=0, is_training=True):
    number_virtual = cf["data"]["number_virtual"]
    avg_loss = 0.0
    model.net.train(is_training)
    model.init_hidden(cf["data"]["batch_size"])
    for i, (real_inputs, real_postion) in enumerate(loader):
        batch_size, step, _ = real_inputs.shape
        virtual_queue = [torch.tensor([[0.0, 0.0, 0.0, 1.0]]).repeat(batch_size, 1)] * number_virtual
        loss = 0
        for j in range(step):
            virtual_inputs = torch.cat(virtual_queue[-number_virtual:], dim=1)
            inputs = torch.cat([real_inputs[:, j], virtual_inputs], dim=1)
            out = model.net(inputs)
            loss = loss + cf["loss"]["follow"] * model.loss_follow(out, real_postion[:, j])
            if j > 0:
                loss = loss + cf["loss"]["smooth"] * model.loss_smooth(out, virtual_queue[-1])
            virtual_queue.append(out)

        if is_training:
            optimizer.zero_grad()
            loss.backward(retain_graph=True)
            if clip_norm:
                nn.utils.clip_grad_norm_(model.net.parameters(), max_norm=clip_norm)
            optimizer.step()
        avg_loss += loss.item()
    return avg_loss / len(loader)


def train():
    model = Model(cf)
    optimizer = torch.optim.Adam(model.net.parameters(), lr=cf["train"]["init_lr"])
    loader = make_loader(cf)
    for count in range(cf["train"]["epoch"]):
        train_loss = run_epoch(model, loader, cf, count, optimizer=optimizer,
                               clip_norm=cf["train"]["clip_norm"], is_training=True)
        print("Epoch: {}, train loss: {:.4f}".format(count, train_loss))


if __name__ == "__main__":
    train()
