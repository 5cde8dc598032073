"""Long-horizon forecasting experiment (decomposition + linear heads, in the
style of Autoformer/DLinear experiment scripts): train on sliding windows,
validate and test after every epoch, early-stop on the validation loss."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
SEQ_LEN, PRED_LEN, N_VARS = 48, 12, 4


class SeriesDecomp(nn.Module):
    def __init__(self, kernel=13):
        super().__init__()
        self.pad = kernel // 2
        self.avg = nn.AvgPool1d(kernel, stride=1)

    def forward(self, x):                      # x: [B, L, C]
        xt = x.transpose(1, 2)
        xt = F.pad(xt, (self.pad, self.pad), mode="replicate")
        trend = self.avg(xt).transpose(1, 2)
        return x - trend, trend


class DecompForecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.decomp = SeriesDecomp()
        self.seasonal = nn.Sequential(nn.Linear(SEQ_LEN, 64), nn.GELU(), nn.Linear(64, PRED_LEN))
        self.trend = nn.Linear(SEQ_LEN, PRED_LEN)

    def forward(self, x):
        season, trend = self.decomp(x)
        out = self.seasonal(season.transpose(1, 2)) + self.trend(trend.transpose(1, 2))
        return out.transpose(1, 2)             # [B, PRED_LEN, C]


def make_loader(n_windows, batch=16, offset=0):
    t = torch.arange(offset, offset + n_windows + SEQ_LEN + PRED_LEN, dtype=torch.float32)
    series = torch.stack([torch.sin(t / (5 + k)) + 0.01 * t for k in range(N_VARS)], dim=1)
    series = series + 0.1 * torch.randn_like(series)
    xs = torch.stack([series[i:i + SEQ_LEN] for i in range(n_windows)])
    ys = torch.stack([series[i + SEQ_LEN:i + SEQ_LEN + PRED_LEN] for i in range(n_windows)])
    return [(xs[i:i + batch], ys[i:i + batch]) for i in range(0, n_windows, batch)]


class EarlyStopping:
    def __init__(self, patience=3):
        self.patience, self.counter, self.val_loss_min = patience, 0, None
        self.best_state = None

    def __call__(self, val_loss, model):
        if self.val_loss_min is None or val_loss < self.val_loss_min:
            self.val_loss_min = val_loss
            self.best_state = {k: v.clone() for k, v in model.state_dict().items()}
            self.counter = 0
        else:
            self.counter += 1
        return self.counter >= self.patience


class ExpForecast:
    def __init__(self, lr=1e-3):
        self.model = DecompForecaster()
        self.criterion = nn.MSELoss()
        self.optim = torch.optim.Adam(self.model.parameters(), lr=lr)
        self.history = []

    def vali(self, loader):
        self.model.eval()
        total_loss = []
        for batch_x, batch_y in loader:
            outputs = self.model(batch_x)
            loss = self.criterion(outputs, batch_y)
            total_loss.append(loss)
        self.model.train()
        return torch.stack(total_loss).mean()

    def train(self, epochs=4):
        train_loader = make_loader(96)
        vali_loader = make_loader(64, offset=200)
        test_loader = make_loader(64, offset=400)
        stopper = EarlyStopping()
        for epoch in range(epochs):
            train_loss = []
            for batch_x, batch_y in train_loader:
                self.optim.zero_grad()
                loss = self.criterion(self.model(batch_x), batch_y)
                loss.backward()
                self.optim.step()
                train_loss.append(loss.item())
            vali_loss = self.vali(vali_loader)
            test_loss = self.vali(test_loader)
            self.history.append({"epoch": epoch, "train": sum(train_loss) / len(train_loss),
                                 "vali": vali_loss, "test": test_loss})
            print(f"Epoch {epoch + 1} | Train {self.history[-1]['train']:.4f} "
                  f"Vali {vali_loss.item():.4f} Test {test_loss.item():.4f}")
            if stopper(vali_loss, self.model):
                print("Early stopping")
                break
        self.model.load_state_dict(stopper.best_state)
        return self.model


if __name__ == "__main__":
    ExpForecast().train()
