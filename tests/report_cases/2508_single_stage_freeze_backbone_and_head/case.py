import torch

from single_stage import SingleStageDetector, TinyBackbone, SSDHead, parse_losses

torch.manual_seed(0)

train_cfg = dict(freeze_head=True)
model = SingleStageDetector(TinyBackbone(), SSDHead(), train_cfg=train_cfg)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9, weight_decay=5e-4)


def data_loader(n_batches=4):
    for _ in range(n_batches):
        img = torch.randn(2, 3, 32, 32)
        gt_labels = torch.randint(0, 5, (2, 8, 8, 4))
        gt_bboxes = torch.randn(2, 8, 8, 4, 4) * 0.1
        yield img, gt_bboxes, gt_labels


model.train()
for epoch in range(2):
    for i, (img, gt_bboxes, gt_labels) in enumerate(data_loader()):
        losses = model.forward_train(img, gt_bboxes, gt_labels)
        loss, log_vars = parse_losses(losses)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print('epoch', epoch, log_vars)
