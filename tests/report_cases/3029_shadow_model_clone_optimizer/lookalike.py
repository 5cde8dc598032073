"""Membership-inference with shadow models (ART style): the target model is wrapped in a
PyTorchClassifier, ShadowModels clones the wrapper with clone_for_refitting() and fits each
clone on disjoint shadow data to build the attack's shadow dataset."""
import copy

import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
np.random.seed(0)


class ModelToAttack(nn.Module):
    def __init__(self, num_classes, num_features):
        super().__init__()
        self.fc1 = nn.Sequential(nn.Linear(num_features, 64), nn.ReLU())
        self.classifier = nn.Linear(64, num_classes)

    def forward(self, x):
        return self.classifier(self.fc1(x))


class PyTorchClassifier:
    def __init__(self, model, loss, optimizer, input_shape, nb_classes):
        self._model, self._loss, self._optimizer = model, loss, optimizer
        self.input_shape, self.nb_classes = input_shape, nb_classes

    @property
    def model(self):
        return self._model

    def fit(self, x, y, batch_size=32, nb_epochs=3):
        self._model.train()
        x, y = torch.from_numpy(x).float(), torch.from_numpy(y).long()
        for _ in range(nb_epochs):
            perm = torch.randperm(len(x))
            for i in range(0, len(x), batch_size):
                idx = perm[i:i + batch_size]
                self._optimizer.zero_grad()
                loss = self._loss(self._model(x[idx]), y[idx])
                loss.backward()
                self._optimizer.step()

    def predict(self, x):
        self._model.eval()
        with torch.no_grad():
            return torch.softmax(self._model(torch.from_numpy(x).float()), dim=1).numpy()

    def reset(self):
        for module in self._model.modules():
            if hasattr(module, "reset_parameters"):
                module.reset_parameters()

    def clone_for_refitting(self):
        """Create a copy of the classifier that can be refit from scratch (same architecture,
        optimizer and loss)."""
        clone = copy.deepcopy(self)   # model and optimizer copied together: the copy's optimizer
        clone.reset()                 # holds the copied parameters
        return clone


class ShadowModels:
    def __init__(self, shadow_model_template, num_shadow_models=2):
        self._shadow_models = [shadow_model_template.clone_for_refitting() for _ in range(num_shadow_models)]

    def get_shadow_models(self):
        return self._shadow_models

    def generate_shadow_dataset(self, x, y, member_ratio=0.5):
        splits = np.array_split(np.arange(len(x)), len(self._shadow_models))
        features, labels = [], []
        for shadow_model, idx in zip(self._shadow_models, splits):
            n_in = int(len(idx) * member_ratio)
            member, nonmember = idx[:n_in], idx[n_in:]
            shadow_model.fit(x[member], y[member])
            features += [shadow_model.predict(x[member]), shadow_model.predict(x[nonmember])]
            labels += [np.ones(len(member)), np.zeros(len(nonmember))]
        return np.concatenate(features), np.concatenate(labels)


def main():
    num_features, num_classes = 8, 4
    x_shadow = np.random.randn(128, num_features).astype(np.float32)
    y_shadow = np.random.randint(0, num_classes, 128)
    model = ModelToAttack(num_classes, num_features)
    model.load_state_dict(ModelToAttack(num_classes, num_features).state_dict())   # trained target checkpoint
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    art_classifier = PyTorchClassifier(model, nn.CrossEntropyLoss(), optimizer, (num_features,), num_classes)

    shadow_models = ShadowModels(art_classifier, num_shadow_models=2)
    before = [sm.model.classifier.weight.detach().clone() for sm in shadow_models.get_shadow_models()]
    shadow_x, shadow_y = shadow_models.generate_shadow_dataset(x_shadow, y_shadow)
    for k, sm in enumerate(shadow_models.get_shadow_models()):
        print(f"shadow model {k}: classifier weight change {(sm.model.classifier.weight - before[k]).abs().max().item()}")
    print("shadow dataset:", shadow_x.shape, "members:", int(shadow_y.sum()))


if __name__ == "__main__":
    main()
