class BackboneFinetuning:
    """Freeze the backbone before training and unfreeze it at a given epoch; the trainable state is
    saved into and restored from checkpoints."""

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
        self.freeze(model.backbone)

    def state_dict(self, model):
        return {"backbone_trainable": model.backbone[0].weight.requires_grad}

    def load_state_dict(self, model, state):
        if state["backbone_trainable"]:
            self.make_trainable(model.backbone)

    def on_train_epoch_start(self, model, epoch):
        if epoch == self.unfreeze_backbone_at_epoch:
            self.make_trainable(model.backbone)
