import torch
import torch.nn as nn


class LearningConfig:
    def __init__(self, epochs=3, batch_size=16, step_size=0.05, step_schedule=None, momentum=0.9, random_seed=0):
        self.epochs = epochs
        self.batch_size = batch_size
        self.step_size = step_size
        self.step_schedule = step_schedule
        self.momentum = momentum
        self.random_seed = random_seed


class NaiveBayes(nn.Module):
    """Generative label model over the votes of m labeling functions (0 = abstain)."""

    def __init__(self, num_classes, num_lfs, init_acc=0.9, acc_prior=0.025):
        super().__init__()
        self.num_classes, self.num_lfs = num_classes, num_lfs
        self.acc_prior = acc_prior
        self.accuracy = nn.Parameter(torch.full((num_lfs,), float(torch.logit(torch.tensor(init_acc)))))
        self.propensity = nn.Parameter(torch.zeros(num_lfs))
        self.class_balance = nn.Parameter(torch.zeros(num_classes))

    def forward(self, votes):
        acc = torch.sigmoid(self.accuracy)
        prop = torch.sigmoid(self.propensity)
        voted = (votes > 0).float()
        ll = []
        for k in range(1, self.num_classes + 1):
            correct = (votes == k).float()
            wrong = voted - correct
            lp = (voted * prop.log() + (1 - voted) * (1 - prop).log()
                  + correct * acc.log() + wrong * ((1 - acc) / (self.num_classes - 1)).log())
            ll.append(lp.sum(dim=1))
        return torch.stack(ll, dim=1) + torch.log_softmax(self.class_balance, dim=0)

    def _get_regularization_loss(self):
        return self.acc_prior * (torch.sigmoid(self.accuracy) - 0.7).pow(2).sum()

    def _create_minibatches(self, votes, batch_size, shuffle=True):
        order = torch.randperm(votes.shape[0]) if shuffle else torch.arange(votes.shape[0])
        return [votes[order[i:i + batch_size]] for i in range(0, votes.shape[0], batch_size)]

    def estimate_label_model(self, votes, config=None):
        config = config or LearningConfig()
        torch.manual_seed(config.random_seed)
        batches = self._create_minibatches(votes, config.batch_size)
        optimizer = torch.optim.SGD(self.parameters(), lr=config.step_size, momentum=config.momentum)
        if config.step_schedule is not None:
            scheduler = torch.optim.lr_scheduler.StepLR(optimizer, config.step_schedule, gamma=0.1)
        else:
            scheduler = None

        for epoch in range(config.epochs):
            running_loss = 0.0
            for i_batch, inputs in enumerate(batches):
                optimizer.zero_grad()
                log_likelihood = torch.logsumexp(self(inputs), dim=1)
                loss = -1 * torch.mean(log_likelihood)
                loss += self._get_regularization_loss()
                loss.backward()
                optimizer.step()
                running_loss += loss.item()
            if scheduler is not None:
                scheduler.step()
            epoch_loss = running_loss / len(batches)
            print(f"Epoch {epoch + 1}: {float(epoch_loss):.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    n, m, k = 96, 5, 2
    gold = torch.randint(1, k + 1, (n,))
    fires = torch.rand(n, m) < 0.6
    right = torch.rand(n, m) < 0.8
    votes = torch.where(fires, torch.where(right, gold[:, None], (gold[:, None] % k) + 1), torch.zeros_like(gold[:, None]))
    model = NaiveBayes(num_classes=k, num_lfs=m)
    model.estimate_label_model(votes, LearningConfig(epochs=3))
    print("learned accuracies", torch.sigmoid(model.accuracy).detach())
