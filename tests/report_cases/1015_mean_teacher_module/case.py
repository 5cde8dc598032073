import torch

from module import MeanTeacherModule
from utils import two_stream_batches


def fit(module, epochs=3, n_batches=4):
    optimizer = module.configure_optimizers()
    for epoch in range(epochs):
        module.train()
        module.teacher.train()
        for batch_idx, batch in enumerate(two_stream_batches(n_batches, seed=epoch)):
            loss = module.training_step(batch, batch_idx)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            module.on_train_batch_end()
        print(f"epoch {epoch}", {k: round(v, 4) for k, v in module.logged.items()})


if __name__ == "__main__":
    torch.manual_seed(0)
    fit(MeanTeacherModule())
