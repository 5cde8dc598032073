"""Naive Bayes label model for weak supervision: learns the accuracy of each labeling
function from the votes alone (no gold labels), by maximizing the marginal likelihood."""
import logging

import numpy as np
import torch
import torch.nn as nn

logging.basicConfig(level=logging.INFO, format='%(message)s')
logger = logging.getLogger('labelmodels')


class LearningConfig(object):
    def __init__(self):
        self.epochs = 3
        self.batch_size = 16
        self.step_size = 0.01
        self.step_schedule = None
        self.momentum = 0.9
        self.random_seed = 0


class NaiveBayes(nn.Module):
    def __init__(self, num_classes, num_lfs, init_acc=0.9, acc_prior=0.025):
        super().__init__()
        self.num_classes = num_classes
        self.num_lfs = num_lfs
        self.acc_prior = acc_prior
        self.init_acc = -1 * np.log(1.0 / init_acc - 1) / 2
        self.accuracy = nn.Parameter(torch.tensor([self.init_acc] * num_lfs))
        self.propensity = nn.Parameter(torch.zeros([num_lfs]))
        self.class_balance = nn.Parameter(torch.zeros([num_classes]))

    def forward(self, votes):
        votes = torch.as_tensor(votes, dtype=torch.long)
        cb = self.class_balance.unsqueeze(0)
        # log-likelihood of the votes under each candidate label
        ll = torch.zeros(votes.shape[0], self.num_classes)
        for k in range(self.num_classes):
            agree = (votes == k + 1).float()
            abstain = (votes == 0).float()
            disagree = 1 - agree - abstain
            ll_k = agree * self.accuracy - disagree * self.accuracy + (1 - abstain) * self.propensity
            ll[:, k] = ll_k.sum(dim=1)
        return torch.logsumexp(ll + cb - torch.logsumexp(cb, dim=1, keepdim=True), dim=1)

    def _get_regularization_loss(self):
        return self.acc_prior * torch.norm(self.accuracy - self.init_acc)

    def _get_norm_loss(self):
        return torch.logsumexp(self.propensity, dim=0) * 0.0

    def estimate_label_model(self, votes, config=None):
        if config is None:
            config = LearningConfig()
        batches = self._create_minibatches(votes, config.batch_size, shuffle_rows=True)
        self._do_estimate(batches, config)

    def _create_minibatches(self, votes, batch_size, shuffle_rows=False):
        votes = np.asarray(votes)
        if shuffle_rows:
            index = np.arange(votes.shape[0])
            np.random.shuffle(index)
            votes = votes[index, :]
        return [votes[i:i + batch_size] for i in range(0, votes.shape[0], batch_size)]

    def _do_estimate(self, batches, config):
        optimizer = torch.optim.SGD(self.parameters(), lr=config.step_size, momentum=config.momentum)
        self.train()
        for epoch in range(config.epochs):
            logger.info('Epoch {}/{}'.format(epoch + 1, config.epochs))
            running_loss = 0.0
            for i_batch, inputs in enumerate(batches):
                optimizer.zero_grad()
                log_likelihood = self(inputs)
                loss = -1 * torch.mean(log_likelihood)
                loss += self._get_regularization_loss()
                loss.backward()
                optimizer.step()
                running_loss += loss

            epoch_loss = running_loss / len(batches)
            logger.info('Train Loss: %.6f', epoch_loss)


def main():
    np.random.seed(0)
    torch.manual_seed(0)
    n, m, k = 96, 5, 2
    gold = np.random.randint(1, k + 1, size=n)
    votes = np.zeros((n, m), dtype=int)
    for j in range(m):
        fire = np.random.rand(n) < 0.6
        correct = np.random.rand(n) < 0.8
        votes[:, j] = np.where(fire, np.where(correct, gold, k + 1 - gold), 0)
    model = NaiveBayes(k, m)
    model.estimate_label_model(votes)
    print('estimated accuracies:', torch.sigmoid(2 * model.accuracy).detach().numpy().round(3))


if __name__ == '__main__':
    main()
