import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import autograd

torch.manual_seed(0)

config = {'image_shape': [3, 32, 32], 'mask_shape': [16, 16], 'wgan_gp_lambda': 10, 'l1_loss_alpha': 1.2,
          'ae_loss_alpha': 1.2, 'gan_loss_alpha': 0.001, 'coarse_l1_alpha': 1.2, 'n_critic': 5, 'lr': 1e-4}


def gen_conv(cin, cout, k=3, s=1, d=1, act=True):
    layers = [nn.Conv2d(cin, cout, k, s, padding=d * (k - 1) // 2, dilation=d)]
    if act:
        layers.append(nn.ELU())
    return nn.Sequential(*layers)


class CoarseGenerator(nn.Module):
    def __init__(self, cnum=16):
        super().__init__()
        self.net = nn.Sequential(gen_conv(5, cnum, 5), gen_conv(cnum, cnum * 2, 3, 2), gen_conv(cnum * 2, cnum * 2, 3, 1, 2),
                                 gen_conv(cnum * 2, cnum * 2, 3, 1, 4), nn.Upsample(scale_factor=2),
                                 gen_conv(cnum * 2, cnum, 3), gen_conv(cnum, 3, 3, act=False))

    def forward(self, x, mask):
        ones = torch.ones(x.size(0), 1, x.size(2), x.size(3))
        return torch.clamp(self.net(torch.cat([x, ones, mask], dim=1)), -1., 1.)


class FineGenerator(nn.Module):
    def __init__(self, cnum=16):
        super().__init__()
        self.net = nn.Sequential(gen_conv(5, cnum, 5), gen_conv(cnum, cnum * 2, 3, 2), gen_conv(cnum * 2, cnum * 2, 3, 1, 2),
                                 nn.Upsample(scale_factor=2), gen_conv(cnum * 2, cnum, 3), gen_conv(cnum, 3, 3, act=False))

    def forward(self, xin, x_stage1, mask):
        x1_inpaint = x_stage1 * mask + xin * (1. - mask)
        ones = torch.ones(xin.size(0), 1, xin.size(2), xin.size(3))
        return torch.clamp(self.net(torch.cat([x1_inpaint, ones, mask], dim=1)), -1., 1.)


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.coarse_generator = CoarseGenerator()
        self.fine_generator = FineGenerator()

    def forward(self, x, mask):
        x_stage1 = self.coarse_generator(x, mask)
        x_stage2 = self.fine_generator(x, x_stage1, mask)
        return x_stage1, x_stage2


class Critic(nn.Module):
    def __init__(self, size, cnum=16):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(3, cnum, 5, 2, 2), nn.LeakyReLU(0.2),
                                  nn.Conv2d(cnum, cnum * 2, 5, 2, 2), nn.LeakyReLU(0.2))
        self.linear = nn.Linear(cnum * 2 * (size // 4) ** 2, 1)

    def forward(self, x):
        return self.linear(self.conv(x).view(x.size(0), -1))


def local_patch(x, bbox_list):
    return torch.stack([x[i, :, t:t + h, l:l + w] for i, (t, l, h, w) in enumerate(bbox_list)])


def spatial_discounting_mask(config):
    h, w = config['mask_shape']
    ys = torch.minimum(torch.arange(h), torch.arange(h).flip(0)).float()
    xs = torch.minimum(torch.arange(w), torch.arange(w).flip(0)).float()
    return (0.9 ** torch.minimum(ys[:, None], xs[None, :]))[None, None]


class Trainer(nn.Module):
    def __init__(self, config):
        super(Trainer, self).__init__()
        self.config = config
        self.netG = Generator()
        self.localD = Critic(config['mask_shape'][0])
        self.globalD = Critic(config['image_shape'][1])
        self.optimizer_g = torch.optim.Adam(self.netG.parameters(), lr=config['lr'], betas=(0.5, 0.9))
        d_params = list(self.localD.parameters()) + list(self.globalD.parameters())
        self.optimizer_d = torch.optim.Adam(d_params, lr=config['lr'], betas=(0.5, 0.9))

    def dis_forward(self, netD, ground_truth, x_inpaint):
        batch_size = ground_truth.size(0)
        batch_data = torch.cat([ground_truth, x_inpaint], dim=0)
        batch_output = netD(batch_data)
        return torch.split(batch_output, batch_size, dim=0)

    def calc_gradient_penalty(self, netD, real_data, fake_data):
        batch_size = real_data.size(0)
        alpha = torch.rand(batch_size, 1, 1, 1).expand_as(real_data)
        interpolates = alpha * real_data + (1 - alpha) * fake_data
        interpolates = interpolates.requires_grad_().clone()
        disc_interpolates = netD(interpolates)
        grad_outputs = torch.ones(disc_interpolates.size())
        gradients = autograd.grad(outputs=disc_interpolates, inputs=interpolates, grad_outputs=grad_outputs,
                                  create_graph=True, retain_graph=True, only_inputs=True)[0]
        gradients = gradients.view(batch_size, -1)
        return ((gradients.norm(2, dim=1) - 1) ** 2).mean()

    def inpaint(self, x, bboxes, masks, ground_truth):
        x1, x2 = self.netG(x, masks)
        x1_inpaint = x1 * masks + x * (1. - masks)
        x2_inpaint = x2 * masks + x * (1. - masks)
        return x1, x2, x1_inpaint, x2_inpaint

    def d_losses(self, x2_inpaint, bboxes, ground_truth):
        losses = {}
        local_patch_gt = local_patch(ground_truth, bboxes)
        local_patch_x2_inpaint = local_patch(x2_inpaint, bboxes)
        # D part: wgan d loss, the inpainted result is detached (no gradient to the generator)
        local_patch_real_pred, local_patch_fake_pred = self.dis_forward(
            self.localD, local_patch_gt, local_patch_x2_inpaint.detach())
        global_real_pred, global_fake_pred = self.dis_forward(self.globalD, ground_truth, x2_inpaint.detach())
        losses['wgan_d'] = torch.mean(local_patch_fake_pred - local_patch_real_pred) + \
            torch.mean(global_fake_pred - global_real_pred) * self.config['global_wgan_loss_alpha']
        # gradients penalty loss
        local_penalty = self.calc_gradient_penalty(self.localD, local_patch_gt, local_patch_x2_inpaint.detach())
        global_penalty = self.calc_gradient_penalty(self.globalD, ground_truth, x2_inpaint.detach())
        losses['wgan_gp'] = local_penalty + global_penalty
        return losses

    def g_losses(self, x, bboxes, masks, ground_truth):
        losses = {}
        x1, x2, x1_inpaint, x2_inpaint = self.inpaint(x, bboxes, masks, ground_truth)
        sd_mask = spatial_discounting_mask(self.config)
        local_patch_gt = local_patch(ground_truth, bboxes)
        local_patch_x1_inpaint = local_patch(x1_inpaint, bboxes)
        local_patch_x2_inpaint = local_patch(x2_inpaint, bboxes)
        losses['l1'] = F.l1_loss(local_patch_x1_inpaint * sd_mask, local_patch_gt * sd_mask) * \
            self.config['coarse_l1_alpha'] + F.l1_loss(local_patch_x2_inpaint * sd_mask, local_patch_gt * sd_mask)
        losses['ae'] = F.l1_loss(x1 * (1. - masks), ground_truth * (1. - masks)) * self.config['coarse_l1_alpha'] + \
            F.l1_loss(x2 * (1. - masks), ground_truth * (1. - masks))
        # wgan g loss: no detach here, the critics' judgement must reach the generator
        local_patch_real_pred, local_patch_fake_pred = self.dis_forward(self.localD, local_patch_gt, local_patch_x2_inpaint)
        global_real_pred, global_fake_pred = self.dis_forward(self.globalD, ground_truth, x2_inpaint)
        losses['wgan_g'] = - torch.mean(local_patch_fake_pred) - \
            torch.mean(global_fake_pred) * self.config['global_wgan_loss_alpha']
        return losses, x2_inpaint


def random_bbox_and_mask(batch_size, config):
    H, W = config['image_shape'][1:]
    h, w = config['mask_shape']
    bboxes, masks = [], torch.zeros(batch_size, 1, H, W)
    for i in range(batch_size):
        t, l = int(torch.randint(0, H - h + 1, (1,))), int(torch.randint(0, W - w + 1, (1,)))
        bboxes.append((t, l, h, w))
        masks[i, :, t:t + h, l:l + w] = 1.
    return bboxes, masks


def main():
    config['global_wgan_loss_alpha'] = 1.0
    trainer = Trainer(config)
    for iteration in range(1, 11):
        ground_truth = torch.tanh(torch.randn(4, 3, 32, 32).cumsum(-1) * 0.2)
        bboxes, masks = random_bbox_and_mask(4, config)
        x = ground_truth * (1. - masks)
        compute_g_loss = iteration % config['n_critic'] == 0

        # Update D
        with torch.no_grad():
            _, _, _, x2_inpaint = trainer.inpaint(x, bboxes, masks, ground_truth)
        trainer.optimizer_d.zero_grad()
        losses = trainer.d_losses(x2_inpaint, bboxes, ground_truth)
        losses['d'] = losses['wgan_d'] + losses['wgan_gp'] * config['wgan_gp_lambda']
        losses['d'].backward()
        trainer.optimizer_d.step()

        # Update G (critics re-evaluated after their update)
        if compute_g_loss:
            trainer.optimizer_g.zero_grad()
            g_losses, _ = trainer.g_losses(x, bboxes, masks, ground_truth)
            losses['g'] = g_losses['l1'] * config['l1_loss_alpha'] + g_losses['ae'] * config['ae_loss_alpha'] + \
                g_losses['wgan_g'] * config['gan_loss_alpha']
            losses['g'].backward()
            trainer.optimizer_g.step()
        print('iter %d  d %.4f  gp %.4f%s' % (iteration, losses['d'].item(), losses['wgan_gp'].item(),
                                             '  g %.4f' % losses['g'].item() if compute_g_loss else ''))


if __name__ == '__main__':
    main()
