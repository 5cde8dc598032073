"""PySyft-style FederatedClient (optimizer reset on every new TrainConfig): a worker that holds local datasets, receives a TrainConfig
(model, loss, optimizer settings) from the server and trains the model on its local data."""
import torch as th


class TrainConfig:
    def __init__(self, model, loss_fn, batch_size=8, epochs=1, optimizer="SGD", lr=0.1):
        self.model, self.loss_fn = model, loss_fn
        self.batch_size, self.epochs, self.optimizer, self.lr = batch_size, epochs, optimizer, lr


class FederatedClient:
    """A worker that can fit a model on its local datasets."""

    def __init__(self, id, datasets=None):
        self.id = id
        self.datasets = datasets if datasets is not None else {}
        self.optimizer = None
        self.train_config = None
        self._objects = {}

    def add_dataset(self, dataset, key):
        self.datasets[key] = dataset

    def set_obj(self, obj):
        if isinstance(obj, TrainConfig):
            self.train_config = obj
            self.optimizer = None  # a new TrainConfig brings a new model: rebuild the optimizer
        else:
            self._objects[id(obj)] = obj

    def _build_optimizer(self, optimizer_name, model, lr):
        """Build an optimizer if needed."""
        if self.optimizer is not None:
            return self.optimizer
        if optimizer_name.lower() == "sgd":
            self.optimizer = th.optim.SGD(model.parameters(), lr=lr)
        else:
            raise ValueError("Unknown optimizer: {}".format(optimizer_name))
        return self.optimizer

    def fit(self, dataset_key):
        if self.train_config is None:
            raise ValueError("TrainConfig not defined.")
        model = self.train_config.model
        loss_fn = self.train_config.loss_fn
        self._build_optimizer(self.train_config.optimizer, model, lr=self.train_config.lr)
        return self._fit(model=model, dataset_key=dataset_key, loss_fn=loss_fn)

    def _fit(self, model, dataset_key, loss_fn):
        model.train()
        data, target = self.datasets[dataset_key]
        loss = None
        for _ in range(self.train_config.epochs):
            for i in range(0, len(data), self.train_config.batch_size):
                self.optimizer.zero_grad()
                output = model(data[i:i + self.train_config.batch_size])
                loss = loss_fn(output, target[i:i + self.train_config.batch_size])
                loss.backward()
                self.optimizer.step()
        return loss.item()
