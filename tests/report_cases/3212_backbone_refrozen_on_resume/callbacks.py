class BackboneFinetuning:
    """Freeze the backbone before training and unfreeze it at a given epoch (Lightning-style callback)."""

    def __init__(self, unfreeze_backbone_at_epoch=1):
        self.unfreeze_backbone_at_epoch = unfreeze_backbone_at_epoch

    @staticmethod
    def freeze(module):
        for p in module.parameters():
            p.requires_grad = False

    @staticmethod
    def make_trainable(module):
        for p in module.parameters():
            p.requires_grad = True

    def setup(self, model):
        # runs on every fit(), fresh or resumed, before the optimizers are configured
        self.freeze(model.backbone)

    def on_train_epoch_start(self, model, epoch):
        if epoch == self.unfreeze_backbone_at_epoch:
            self.make_trainable(model.backbone)
