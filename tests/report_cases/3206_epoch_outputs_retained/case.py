"""A hand-rolled Lightning-like trainer: it keeps every training_step output of the epoch so that
training_epoch_end can compute epoch metrics."""
import torch
from module import LitClassifier

torch.manual_seed(0)


class MiniTrainer:
    def __init__(self, max_epochs=2):
        self.max_epochs = max_epochs

    def fit(self, model, train_batches):
        optimizer = model.configure_optimizers()
        for epoch in range(self.max_epochs):
            epoch_outputs = []
            for batch_idx, batch in enumerate(train_batches):
                out = model.training_step(batch, batch_idx)
                optimizer.zero_grad()
                out["loss"].backward()
                optimizer.step()
                epoch_outputs.append(out)
            alive = sum(o["preds"].grad_fn is not None for o in epoch_outputs)
            metrics = model.training_epoch_end(epoch_outputs)
            print(f"epoch {epoch} {metrics} outputs still attached to a graph: {alive}")


if __name__ == "__main__":
    batches = [(torch.randn(16, 20), torch.randint(0, 5, (16,))) for _ in range(8)]
    MiniTrainer().fit(LitClassifier(), batches)
