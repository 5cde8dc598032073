#!/usr/bin/env python3
"""Naked self-attention classifier on tiny flattened digit-like images (script style): train
with Adam, accumulate the epoch-average loss and accuracy, validate with early stopping."""
import torch

torch.manual_seed(46525)


def graph_size(t):
    stack, seen = [getattr(t, "grad_fn", None)], set()
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(n for n, _ in fn.next_functions)
    return len(seen)


class SelfAttentionModel(torch.nn.Module):
    def __init__(self, num_inputs, num_channels, num_outputs):
        super().__init__()
        scale = num_inputs ** 0.5
        self.K = torch.nn.Parameter((2.0 * torch.rand(num_inputs, num_inputs) - 1.0) / scale)
        self.Q = torch.nn.Parameter((2.0 * torch.rand(num_inputs, num_inputs) - 1.0) / scale)
        self.V = torch.nn.Parameter((2.0 * torch.rand(num_inputs, num_inputs) - 1.0) / scale)
        self.softmax = torch.nn.Softmax(dim=1)
        self.out = torch.nn.Linear(num_inputs * num_channels, num_outputs)

    def forward(self, x):
        batch_size, num_inputs, num_channels = x.shape
        y = []
        for i in range(batch_size):  # one sample at a time
            x_i = x[i]
            x_k_i = self.K @ x_i
            x_q_i = self.Q @ x_i
            x_v_i = self.V @ x_i
            w_i = self.softmax(x_q_i @ x_k_i.T / num_inputs ** 0.5)
            y.append(w_i @ x_v_i)
        y = torch.stack(y, dim=0)
        return self.out(y.reshape(batch_size, num_inputs * num_channels))


def multiclass_accuracy(ps, ys):
    return (ps.argmax(1) == ys).float().mean()


model = SelfAttentionModel(num_inputs=16, num_channels=1, num_outputs=4)
probability = torch.nn.Softmax(dim=1)
loss = torch.nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)

xs_train, ys_train = torch.randn(48, 16, 1), torch.randint(0, 4, (48,))
xs_val, ys_val = torch.randn(16, 16, 1), torch.randint(0, 4, (16,))
dataset_train = torch.utils.data.TensorDataset(xs_train, ys_train)
sampler_train = torch.utils.data.RandomSampler(dataset_train, replacement=True)
loader_train = torch.utils.data.DataLoader(dataset_train, batch_size=8, sampler=sampler_train, drop_last=True)

e_better = 1.0e8
state_better = {}
for i in range(3):
    model.train()
    e_train = 0.0
    a_train = 0.0
    held = []
    for xs_batch, ys_batch in iter(loader_train):
        ls_batch = model(xs_batch)
        ps_batch = probability(ls_batch)
        e_batch = loss(ls_batch, ys_batch)
        a_batch = multiclass_accuracy(ps_batch, ys_batch)
        optimizer.zero_grad()
        e_batch.backward()
        optimizer.step()
        with torch.no_grad():  # bookkeeping only
            e_train += e_batch / len(loader_train)  # accumulate average loss for this epoch
            a_train += a_batch / len(loader_train)
        held.append(graph_size(e_train))
    print(f"epoch {i}: graph nodes held by e_train after each batch = {held}")

    model.eval()
    with torch.no_grad():
        ls_val = model(xs_val)
        e_val = loss(ls_val, ys_val)
        a_val = multiclass_accuracy(probability(ls_val), ys_val)
        if e_val < e_better:
            e_better = e_val
            state_better = {k: v.clone() for k, v in model.state_dict().items()}

    print("i: " + str(i), "e_train: {:.5f} bits".format(float(e_train) / 0.693),
          "a_train: {:.1f} %".format(100.0 * float(a_train)),
          "e_val: {:.5f} bits".format(float(e_val) / 0.693),
          "a_val: {:.1f} %".format(100.0 * float(a_val)), sep="\t", flush=True)

model.load_state_dict(state_better)
