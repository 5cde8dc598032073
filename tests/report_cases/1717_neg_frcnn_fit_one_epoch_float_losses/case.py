import torch
import torch.optim as optim

from frcnn import FasterRCNN, FasterRCNNTrainer
from utils_fit import LossHistory, fit_one_epoch

torch.manual_seed(0)

NUM_CLASSES = 3
INPUT_SHAPE = 32
N_ANCHOR_POS = (INPUT_SHAPE // 4) ** 2 * 3


def make_batches(n_batches, batch_size):
    batches = []
    for _ in range(n_batches):
        images = torch.randn(batch_size, 3, INPUT_SHAPE, INPUT_SHAPE)
        rpn_loc_t = torch.randn(batch_size, N_ANCHOR_POS, 4) * 0.1
        rpn_lbl_t = torch.randint(0, 2, (batch_size, N_ANCHOR_POS))
        roi_lbl_t = torch.randint(0, NUM_CLASSES + 1, (batch_size,))
        roi_loc_t = torch.randn(batch_size, 4) * 0.1
        batches.append((images, rpn_loc_t, rpn_lbl_t, roi_loc_t, roi_lbl_t))
    return batches


if __name__ == "__main__":
    Init_Epoch, Freeze_Epoch, UnFreeze_Epoch = 0, 2, 4
    model = FasterRCNN(NUM_CLASSES)
    loss_history = LossHistory()
    gen, gen_val = make_batches(6, 4), make_batches(3, 4)

    for param in model.extractor.parameters():
        param.requires_grad = False
    model.freeze_bn()
    optimizer = optim.Adam(filter(lambda p: p.requires_grad, model.parameters()), lr=1e-3, weight_decay=5e-4)
    train_util = FasterRCNNTrainer(model, optimizer)
    for epoch in range(Init_Epoch, Freeze_Epoch):
        fit_one_epoch(model, train_util, loss_history, optimizer, epoch, len(gen), len(gen_val),
                      gen, gen_val, UnFreeze_Epoch)

    for param in model.extractor.parameters():
        param.requires_grad = True
    optimizer = optim.Adam(model.parameters(), lr=1e-4, weight_decay=5e-4)
    train_util = FasterRCNNTrainer(model, optimizer)
    for epoch in range(Freeze_Epoch, UnFreeze_Epoch):
        fit_one_epoch(model, train_util, loss_history, optimizer, epoch, len(gen), len(gen_val),
                      gen, gen_val, UnFreeze_Epoch)
