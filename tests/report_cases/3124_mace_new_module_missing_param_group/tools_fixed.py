def get_params_options(model, weight_decay=5e-7, lr=1e-2):
    decay_interactions, no_decay_interactions = {}, {}
    for name, param in model.interactions.named_parameters():
        if "linear.weight" in name:
            decay_interactions[name] = param
        else:
            no_decay_interactions[name] = param
    groups = [
            {"name": "embedding", "params": list(model.node_embedding.parameters()), "weight_decay": 0.0},
            {"name": "interactions_decay", "params": list(decay_interactions.values()), "weight_decay": weight_decay},
            {"name": "interactions_no_decay", "params": list(no_decay_interactions.values()), "weight_decay": 0.0},
            {"name": "products", "params": list(model.products.parameters()), "weight_decay": weight_decay},
            {"name": "readouts", "params": list(model.readouts.parameters()), "weight_decay": 0.0},
        ]
    # any parameter not covered above (e.g. newly added modules) goes into a default group
    covered = {id(p) for group in groups for p in group["params"]}
    rest = [p for p in model.parameters() if id(p) not in covered]
    if rest:
        groups.append({"name": "other", "params": rest, "weight_decay": 0.0})
    return dict(params=groups, lr=lr, amsgrad=True)
