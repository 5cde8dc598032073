import torch

from v2.raft_encoder import RAFTLite

torch.manual_seed(0)


def sequence_loss(flow_preds, flow_gt, gamma=0.8):
    n = len(flow_preds)
    loss = 0.0
    for i, pred in enumerate(flow_preds):
        loss = loss + gamma ** (n - i - 1) * (pred - flow_gt).abs().mean()
    return loss


model = RAFTLite(iters=3)
optimizer = torch.optim.AdamW(model.parameters(), lr=4e-4, weight_decay=1e-4)
scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=4e-4, total_steps=20)

model.train()
for it in range(6):
    img1 = torch.rand(2, 3, 32, 32)
    img2 = torch.roll(img1, shifts=2, dims=3)
    flow_gt = torch.zeros(2, 2, 32, 32)
    flow_gt[:, 0] = 2.0
    loss = sequence_loss(model(img1, img2), flow_gt)
    optimizer.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    scheduler.step()
    print('iter %d  epe-ish loss %.4f' % (it, loss.item()))
