import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
np.random.seed(0)

VIEWS = ["L-CC", "R-CC", "L-MLO", "R-MLO"]
LABELS = ["left_benign", "right_benign", "left_malignant", "right_malignant"]
parameters = {"model_mode": "view_split", "lr": 1e-3, "batch_size": 4}


class SplitBreastModel(nn.Module):
    """Four view columns sharing nothing; each view head outputs benign/malignant logits per side."""

    def __init__(self, in_dim=16):
        super().__init__()
        self.columns = nn.ModuleDict({v: nn.Sequential(nn.Linear(in_dim, 16), nn.ReLU()) for v in VIEWS})
        self.heads = nn.ModuleDict({v: nn.Linear(16, 4) for v in VIEWS})

    def forward(self, x):
        return {v: self.heads[v](self.columns[v](x[v])).view(-1, 2, 2) for v in VIEWS}


def compute_batch_predictions(y_hat, mode):
    """Like the repo's run_model helper: softmax per view, moved to numpy."""
    assert mode == "view_split"
    return {v: F.softmax(y_hat[v], dim=-1).data.cpu().numpy() for v in VIEWS}


def average_over_views(batch_predictions):
    # stands in for pd.DataFrame(...).T.reset_index().groupby("label").mean()
    side = {"L": 0, "R": 1}
    preds = np.zeros((next(iter(batch_predictions.values())).shape[0], len(LABELS)))
    for v, p in batch_predictions.items():
        s = side[v[0]]
        preds[:, s] += p[:, s, 0] / 2      # benign of that side
        preds[:, 2 + s] += p[:, s, 1] / 2  # malignant of that side
    return preds


def average_over_views_torch(y_hat):
    """Same view averaging as average_over_views, but on tensors so the graph is kept."""
    side = {"L": 0, "R": 1}
    cols = [0.0] * len(LABELS)
    for v in VIEWS:
        p = F.softmax(y_hat[v], dim=-1)
        s = side[v[0]]
        cols[s] = cols[s] + p[:, s, 0] / 2
        cols[2 + s] = cols[2 + s] + p[:, s, 1] / 2
    return torch.stack(cols, dim=1)


def run_model(model, optimizer, batch, birads_labels):
    output = model(batch)
    predictions = average_over_views_torch(output)
    gt = torch.tensor(birads_labels, dtype=torch.float)
    l = F.binary_cross_entropy(predictions, gt)
    optimizer.zero_grad()
    l.backward()
    optimizer.step()
    return l.item()


model = SplitBreastModel()
optimizer = torch.optim.Adam(model.parameters(), lr=parameters["lr"])
for it in range(6):
    batch = {v: torch.randn(parameters["batch_size"], 16) for v in VIEWS}
    birads_labels = np.random.randint(0, 2, (parameters["batch_size"], len(LABELS)))
    print(it, run_model(model, optimizer, batch, birads_labels))
