def get_params_options(model, weight_decay=5e-7, lr=1e-2):
    decay_interactions, no_decay_interactions = {}, {}
    for name, param in model.interactions.named_parameters():
        if "linear.weight" in name:
            decay_interactions[name] = param
        else:
            no_decay_interactions[name] = param
    return dict(
        params=[
            {"name": "embedding", "params": model.node_embedding.parameters(), "weight_decay": 0.0},
            {"name": "interactions_decay", "params": list(decay_interactions.values()), "weight_decay": weight_decay},
            {"name": "interactions_no_decay", "params": list(no_decay_interactions.values()), "weight_decay": 0.0},
            {"name": "products", "params": model.products.parameters(), "weight_decay": weight_decay},
            {"name": "readouts", "params": model.readouts.parameters(), "weight_decay": 0.0},
        ],
        lr=lr, amsgrad=True)
