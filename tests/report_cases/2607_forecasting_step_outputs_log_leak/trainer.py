class Trainer:
    """Minimal Lightning-like loop: automatic optimisation on the 'loss' of training_step."""

    def __init__(self, max_epochs=1):
        self.max_epochs = max_epochs

    def fit(self, model, train_dataloaders):
        optimizer = model.configure_optimizers()
        for epoch in range(self.max_epochs):
            model.train()
            for batch_idx, batch in enumerate(train_dataloaders):
                log = model.training_step(batch, batch_idx)
                optimizer.zero_grad()
                log["loss"].backward()
                optimizer.step()
            model.on_train_epoch_end()
            print("epoch", epoch, model.logged)
