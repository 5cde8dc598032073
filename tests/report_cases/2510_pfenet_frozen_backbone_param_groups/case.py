import torch

from pfenet import PFENet

torch.manual_seed(0)

BASE_LR = 0.0025
model = PFENet(classes=2)
optimizer = torch.optim.SGD(
    [
        {'params': model.down_query.parameters()},
        {'params': model.down_supp.parameters()},
        {'params': model.init_merge.parameters()},
        {'params': model.res1.parameters()},
        {'params': model.cls.parameters()},
    ],
    lr=BASE_LR, momentum=0.9, weight_decay=1e-4)


def poly_learning_rate(optimizer, base_lr, curr_iter, max_iter, power=0.9):
    lr = base_lr * (1 - float(curr_iter) / max_iter) ** power
    for group in optimizer.param_groups:
        group['lr'] = lr


max_iter = 8
for i in range(max_iter):
    x = torch.randn(2, 3, 24, 24)
    y = torch.randint(0, 2, (2, 24, 24))
    s_x = torch.randn(2, 3, 24, 24)
    s_y = torch.randint(0, 2, (2, 24, 24))
    model.train()
    output, main_loss = model(x=x, s_x=s_x, s_y=s_y, y=y)
    optimizer.zero_grad()
    main_loss.backward()
    optimizer.step()
    poly_learning_rate(optimizer, BASE_LR, i + 1, max_iter)
    if i % 2 == 0:
        print('iter %d  main loss %.4f' % (i, main_loss.item()))
