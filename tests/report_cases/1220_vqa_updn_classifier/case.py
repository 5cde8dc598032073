"""Bottom-up top-down VQA baseline (trimmed) trained on random region features."""
import torch
import torch.nn as nn
from torch.nn.utils import weight_norm


class FCNet(nn.Module):
    def __init__(self, dims):
        super().__init__()
        layers = []
        for i in range(len(dims) - 1):
            layers.append(weight_norm(nn.Linear(dims[i], dims[i + 1]), dim=None))
            layers.append(nn.ReLU())
        self.main = nn.Sequential(*layers)

    def forward(self, x):
        return self.main(x)


class SimpleClassifier(nn.Module):
    def __init__(self, in_dim, hid_dim, out_dim, dropout):
        super().__init__()
        layers = [
            weight_norm(nn.Linear(in_dim, hid_dim), dim=None),
            nn.ReLU(),
            nn.Dropout(dropout, inplace=True),
            weight_norm(nn.Linear(hid_dim, out_dim), dim=None),
        ]
        self.main = nn.Sequential(*layers)

    def forward(self, x):
        return self.main(x)


class QuestionEmbedding(nn.Module):
    def __init__(self, ntoken, emb_dim, num_hid):
        super().__init__()
        self.emb = nn.Embedding(ntoken + 1, emb_dim, padding_idx=ntoken)
        self.rnn = nn.GRU(emb_dim, num_hid, batch_first=True)

    def forward(self, q):
        output, _ = self.rnn(self.emb(q))
        return output[:, -1]


class NewAttention(nn.Module):
    def __init__(self, v_dim, q_dim, num_hid, dropout=0.2):
        super().__init__()
        self.v_proj = FCNet([v_dim, num_hid])
        self.q_proj = FCNet([q_dim, num_hid])
        self.dropout = nn.Dropout(dropout)
        self.linear = weight_norm(nn.Linear(num_hid, 1), dim=None)

    def forward(self, v, q):
        v_proj = self.v_proj(v)
        q_proj = self.q_proj(q).unsqueeze(1).repeat(1, v.size(1), 1)
        logits = self.linear(self.dropout(v_proj * q_proj))
        return nn.functional.softmax(logits, 1)


class BaseModel(nn.Module):
    def __init__(self, ntoken, v_dim=32, num_hid=32, num_ans=10):
        super().__init__()
        self.q_emb = QuestionEmbedding(ntoken, 16, num_hid)
        self.v_att = NewAttention(v_dim, num_hid, num_hid)
        self.q_net = FCNet([num_hid, num_hid])
        self.v_net = FCNet([v_dim, num_hid])
        self.classifier = SimpleClassifier(num_hid, num_hid * 2, num_ans, 0.5)

    def forward(self, v, q):
        q_emb = self.q_emb(q)
        att = self.v_att(v, q_emb)
        v_emb = (att * v).sum(1)
        joint_repr = self.q_net(q_emb) * self.v_net(v_emb)
        return self.classifier(joint_repr)


def instance_bce_with_logits(logits, labels):
    loss = nn.functional.binary_cross_entropy_with_logits(logits, labels)
    return loss * labels.size(1)


def compute_score_with_logits(logits, labels):
    pred = logits.argmax(1)
    one_hots = torch.zeros_like(labels).scatter_(1, pred.view(-1, 1), 1)
    return (one_hots * labels).sum()


def train(model, batches, num_epochs=2):
    optim = torch.optim.Adamax(model.parameters())
    for epoch in range(num_epochs):
        total_loss, train_score = 0.0, 0.0
        model.train()
        for v, q, a in batches:
            pred = model(v, q)
            loss = instance_bce_with_logits(pred, a)
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 0.25)
            optim.step()
            optim.zero_grad()
            total_loss += loss.item() * v.size(0)
            train_score += compute_score_with_logits(pred, a.data).item()
        n = sum(v.size(0) for v, _, _ in batches)
        print(f"epoch {epoch}, train_loss: {total_loss / n:.3f}, score: {100 * train_score / n:.2f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    ntoken, n_obj, v_dim, num_ans = 40, 6, 32, 10
    batches = []
    for _ in range(3):
        v = torch.randn(8, n_obj, v_dim)
        q = torch.randint(0, ntoken, (8, 7))
        a = (torch.rand(8, num_ans) > 0.8).float() * 0.9
        batches.append((v, q, a))
    model = BaseModel(ntoken, v_dim=v_dim, num_ans=num_ans)
    train(model, batches)
