import copy

import torch
import torch.nn as nn

from model import SineRegressor, sample_task


class MetaLearner:
    def __init__(self, model, inner_lr=0.01, meta_lr=1e-3, inner_steps=1):
        self.model = model
        self.inner_lr = inner_lr
        self.inner_steps = inner_steps
        self.criterion = nn.MSELoss()
        self.meta_optimizer = torch.optim.Adam(self.model.parameters(), lr=meta_lr)

    def inner_update(self, model, support_x, support_y):
        adapted_model = copy.deepcopy(model)
        for _ in range(self.inner_steps):
            loss = self.criterion(adapted_model(support_x), support_y)
            grads = torch.autograd.grad(loss, adapted_model.parameters(), create_graph=True)
            for param, grad in zip(adapted_model.parameters(), grads):
                param.data -= self.inner_lr * grad
        return adapted_model

    def outer_update(self, meta_loss):
        self.meta_optimizer.zero_grad()
        meta_loss.backward()
        self.meta_optimizer.step()

    def meta_train_step(self, tasks):
        meta_loss = 0.0
        for (support_x, support_y), (query_x, query_y) in tasks:
            adapted_model = self.inner_update(self.model, support_x, support_y)
            pred = adapted_model(query_x)
            task_loss = self.criterion(pred, query_y)
            meta_loss += task_loss
        meta_loss = meta_loss / len(tasks)
        self.outer_update(meta_loss)
        return meta_loss.item()


def main(meta_iters=3, meta_batch=4):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    learner = MetaLearner(SineRegressor())
    for it in range(meta_iters):
        tasks = [sample_task(gen=gen) for _ in range(meta_batch)]
        print(f"meta iter {it}: query loss {learner.meta_train_step(tasks):.4f}")


if __name__ == "__main__":
    main()
