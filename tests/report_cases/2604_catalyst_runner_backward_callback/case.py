import torch
import torch.nn as nn

from runner import Runner

torch.manual_seed(0)


class TwoHeadNet(nn.Module):
    def __init__(self, in_dim=8, hidden=16):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU())
        self.head1 = nn.Linear(hidden, 2)
        self.head2 = nn.Linear(hidden, 2)

    def forward(self, x):
        h = self.backbone(x)
        return self.head1(h), self.head2(h)


class MultiCriterionRunner(Runner):
    def handle_batch(self, batch):
        logits1, logits2 = self.model(batch["features"])
        self.batch = dict(batch, logits1=logits1, logits2=logits2)
        loss1 = self.criterion["CE_Loss1"](self.batch["logits1"], self.batch["targets1"])
        loss2 = self.criterion["CE_Loss2"](self.batch["logits2"], self.batch["targets2"])
        loss_ce1ce2 = loss1 + loss2
        self.batch_metrics.update({"loss_ce1": loss1, "loss_ce2": loss2, "loss_ce1ce2": loss_ce1ce2})
        for key in ["loss_ce1", "loss_ce2", "loss_ce1ce2"]:
            self.meters[key].update(self.batch_metrics[key].item(), self.batch_size)
        if self.is_train_loader:
            self.engine.backward(loss_ce1ce2)
            self.optimizer.step()
            self.optimizer.zero_grad()


def make_loader(n_batches=4, bs=8):
    return [{"features": torch.randn(bs, 8), "targets1": torch.randint(0, 2, (bs,)),
             "targets2": torch.randint(0, 2, (bs,))} for _ in range(n_batches)]


class_weights = torch.FloatTensor([0.2, 0.3])
criterion = {"CE_Loss1": nn.CrossEntropyLoss(weight=class_weights), "CE_Loss2": nn.CrossEntropyLoss()}
model = TwoHeadNet()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
runner = MultiCriterionRunner(model)
runner.train(criterion=criterion, optimizer=optimizer, loss_key="loss_ce1ce2",
             loaders={"train": make_loader(), "valid": make_loader(2)}, num_epochs=2)
