"""Unbiased learning-to-rank training loop (ULTRA main.py style): run DLA steps on simulated
click logs and report the average loss every steps_per_checkpoint steps."""
import torch
from dla import DLA

torch.manual_seed(0)


def graph_size(t):
    stack, seen = [getattr(t, "grad_fn", None)], set()
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(n for n, _ in fn.next_functions)
    return len(seen)


def get_batch(batch_size=8, list_size=5, feature_size=6):
    features = torch.randn(batch_size, list_size, feature_size)
    clicks = (torch.rand(batch_size, list_size) < torch.linspace(0.6, 0.1, list_size)).float()
    return features, clicks


model = DLA(feature_size=6, rank_list_size=5)
steps_per_checkpoint, max_train_iteration = 5, 10
step_time, loss = 0.0, 0.0
current_step = 0
while True:
    input_feed = get_batch()
    step_loss, _, summary = model.train(input_feed)
    loss += step_loss.detach() / steps_per_checkpoint
    current_step += 1
    print(f"step {current_step}: graph nodes held by running loss = {graph_size(loss)}")
    if current_step % steps_per_checkpoint == 0:
        print("global step %d loss %.4f" % (model.global_step, float(loss)))
        loss = 0.0
        if current_step >= max_train_iteration:
            break
