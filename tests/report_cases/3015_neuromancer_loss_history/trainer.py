"""Neuromancer-style Trainer: per-epoch train loop, dev evaluation, early stopping, loss history."""
from copy import deepcopy

import numpy as np
import torch


class Trainer:
    def __init__(self, problem, train_data, dev_data=None, optimizer=None, epochs=10, epoch_verbose=1,
                 patience=5, warmup=0, train_metric="train_loss", dev_metric="dev_loss",
                 eval_metric="dev_loss", clip=100.0):
        self.model = problem
        self.optimizer = optimizer if optimizer is not None else torch.optim.Adam(problem.parameters(), 0.01, betas=(0.0, 0.9))
        self.train_data, self.dev_data = train_data, dev_data
        self.epochs, self.current_epoch, self.epoch_verbose = epochs, 0, epoch_verbose
        self.train_metric, self.dev_metric, self.eval_metric = train_metric, dev_metric, eval_metric
        self.patience, self.warmup, self.badcount, self.clip = patience, warmup, 0, clip
        self.best_devloss = np.finfo(np.float32).max
        self.best_model = deepcopy(self.model.state_dict())
        self.loss_history = {"train": [], "dev": []}

    def train(self):
        for i in range(self.current_epoch, self.current_epoch + self.epochs):
            self.model.train()
            losses = []
            for t_batch in self.train_data:
                t_batch["epoch"] = i
                output = self.model(t_batch)
                self.optimizer.zero_grad()
                output[self.train_metric].backward()
                torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.clip)
                self.optimizer.step()
                losses.append(output[self.train_metric])
            output[f"mean_{self.train_metric}"] = torch.mean(torch.stack(losses))

            with torch.set_grad_enabled(self.model.grad_inference):
                self.model.eval()
                losses = []
                for d_batch in self.dev_data:
                    eval_output = self.model(d_batch)
                    losses.append(eval_output[self.dev_metric])
                mean_dev_loss = torch.mean(torch.stack(losses))
                self.loss_history["dev"].append(mean_dev_loss)
                eval_output[f"mean_{self.dev_metric}"] = mean_dev_loss
                output = {**output, **eval_output}

                if output[self.eval_metric] < self.best_devloss:
                    self.best_model = deepcopy(self.model.state_dict())
                    self.best_devloss = output[self.eval_metric]
                    self.badcount = 0
                elif i > self.warmup:
                    self.badcount += 1
                mean_loss = output[f"mean_{self.train_metric}"]
                self.loss_history["train"].append(mean_loss)
                if i % self.epoch_verbose == 0:
                    print(f"epoch: {i}  {self.train_metric}: {mean_loss.item():.4f}")
                if self.badcount > self.patience:
                    print("Early stopping!!!")
                    break
            self.current_epoch = i + 1
        return self.best_model
