import torch


class LossHistory:
    def __init__(self):
        self.losses = []
        self.val_loss = []

    def append_loss(self, epoch, loss, val_loss):
        self.losses.append(loss)
        self.val_loss.append(val_loss)


def fit_one_epoch(model, train_util, loss_history, optimizer, epoch, epoch_step, epoch_step_val,
                  gen, gen_val, Epoch):
    total_loss = 0
    rpn_loc_loss = 0
    rpn_cls_loss = 0
    roi_loc_loss = 0
    roi_cls_loss = 0
    val_loss = 0

    model.train()
    for iteration, batch in enumerate(gen):
        if iteration >= epoch_step:
            break
        images, targets = batch[0], batch[1:]
        rpn_loc, rpn_cls, roi_loc, roi_cls, total = train_util.train_step(images, *targets)
        total_loss += float(total)
        rpn_loc_loss += rpn_loc.item()
        rpn_cls_loss += rpn_cls.item()
        roi_loc_loss += roi_loc.item()
        roi_cls_loss += roi_cls.item()

    model.eval()
    with torch.no_grad():
        for iteration, batch in enumerate(gen_val):
            if iteration >= epoch_step_val:
                break
            images, targets = batch[0], batch[1:]
            train_util.optimizer.zero_grad()
            _, _, _, _, val_total = train_util.forward(images, *targets)
            val_loss += val_total

    loss_history.append_loss(epoch + 1, total_loss / epoch_step, float(val_loss) / epoch_step_val)
    print('Epoch:' + str(epoch + 1) + '/' + str(Epoch))
    print('Total Loss: %.3f || Val Loss: %.3f ' % (total_loss / epoch_step, float(val_loss) / epoch_step_val))
