import torch
import torch.nn.functional as F

from networks import GPPatchMcResDis

torch.manual_seed(0)

NUM_CLASSES = 5
BATCH = 4


def calc_dis_real_loss(dis, input_real, input_label):
    resp_real, gan_feat = dis(input_real, input_label)
    total_count = resp_real.numel()
    loss = F.relu(1.0 - resp_real).mean()
    correct_count = (resp_real >= 0).sum()
    return loss, correct_count.float() / total_count, resp_real


def calc_dis_fake_loss(dis, input_fake, input_label):
    resp_fake, gan_feat = dis(input_fake, input_label)
    total_count = resp_fake.numel()
    loss = F.relu(1.0 + resp_fake).mean()
    correct_count = (resp_fake < 0).sum()
    return loss, correct_count.float() / total_count


dis = GPPatchMcResDis(nf=8, n_res_blks=4, num_classes=NUM_CLASSES)
dis_opt = torch.optim.RMSprop(dis.parameters(), lr=1e-4, weight_decay=1e-4)

for it in range(4):
    real = torch.randn(BATCH, 3, 16, 16)
    fake = torch.tanh(torch.randn(BATCH, 3, 16, 16))
    label = torch.randint(0, NUM_CLASSES, (BATCH,))
    dis_opt.zero_grad()
    l_real, acc_r, resp_r = calc_dis_real_loss(dis, real, label)
    l_fake, acc_f = calc_dis_fake_loss(dis, fake, label)
    l_total = l_real + l_fake
    l_total.backward()
    dis_opt.step()
    print('iter %d  d_loss %.4f  acc_real %.2f  acc_fake %.2f' % (it, l_total.item(), acc_r.item(), acc_f.item()))
