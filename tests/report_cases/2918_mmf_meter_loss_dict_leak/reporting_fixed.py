import torch


def graph_size(obj):
    stack, seen = [], set()
    def collect(o):
        if torch.is_tensor(o) and o.grad_fn is not None:
            stack.append(o.grad_fn)
        elif hasattr(o, "__dict__"):
            for v in vars(o).values():
                collect(v)
        elif isinstance(o, dict):
            for v in o.values():
                collect(v)
        elif isinstance(o, (list, tuple)) or type(o).__name__ == "deque":
            for v in o:
                collect(v)
    collect(obj)
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(n for n, _ in fn.next_functions)
    return len(seen)


def update_meter(meter, report, meter_update_dict=None):
    """Collect the losses of a training report into the training meter."""
    if meter_update_dict is None:
        meter_update_dict = {}
    reduced_loss_dict = report["losses"]
    reduced_loss = sum(loss.mean() for loss in reduced_loss_dict.values())
    meter_update_dict.update({"total_loss": reduced_loss.item()})
    for key in reduced_loss_dict:
        meter_update_dict[key] = reduced_loss_dict[key].item()
    meter.update(meter_update_dict, report["batch_size"])
    return meter_update_dict
