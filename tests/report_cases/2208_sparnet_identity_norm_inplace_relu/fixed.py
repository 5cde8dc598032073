import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

import blocks
from blocks import ConvLayer, ResidualBlock


_orig_norm_init = blocks.NormLayer.__init__


def _norm_init_copying_identity(self, channels, normalize_shape=None, norm_type='bn'):
    """'none' normalisation that returns a new tensor (maintainer's fix: lambda x: x * 1.0), so the
    in-place ReLU of preact_func never overwrites the block input that the previous ReLU saved."""
    _orig_norm_init(self, channels, normalize_shape, norm_type)
    if norm_type.lower() == 'none':
        self.norm = lambda x: x * 1.0


blocks.NormLayer.__init__ = _norm_init_copying_identity  # applies to every block built below

torch.manual_seed(0)
np.random.seed(0)


class SPARNet(nn.Module):
    """Face super-resolution network: encoder (down residual blocks) -> body -> decoder (up blocks)."""

    def __init__(self, min_ch=16, max_ch=64, in_size=32, out_size=32, min_feat_size=8,
                 res_depth=2, relu_type='relu', norm_type='none', hg_depth=2):
        super(SPARNet, self).__init__()
        nrargs = {'norm_type': norm_type, 'relu_type': relu_type}
        ch_clip = lambda x: max(min_ch, min(x, max_ch))
        down_steps = int(np.log2(in_size // min_feat_size))
        up_steps = int(np.log2(out_size // min_feat_size))
        n_ch = 16

        self.encoder = []
        self.encoder.append(ConvLayer(3, n_ch, 3, 'none', **nrargs))
        hg = hg_depth
        for i in range(down_steps):
            cin, cout = ch_clip(n_ch), ch_clip(n_ch * 2)
            self.encoder.append(ResidualBlock(cin, cout, scale='down', hg_depth=hg, **nrargs))
            n_ch = n_ch * 2
            hg = max(hg - 1, 0)
        self.encoder = nn.Sequential(*self.encoder)

        self.res_layers = nn.Sequential(*[ResidualBlock(ch_clip(n_ch), ch_clip(n_ch), scale='none',
                                                        hg_depth=hg, **nrargs) for _ in range(res_depth)])

        self.decoder = []
        for i in range(up_steps):
            hg = hg + 1
            cin, cout = ch_clip(n_ch), ch_clip(n_ch // 2)
            self.decoder.append(ResidualBlock(cin, cout, scale='up', hg_depth=hg, **nrargs))
            n_ch = n_ch // 2
        self.decoder = nn.Sequential(*self.decoder)
        self.out_conv = ConvLayer(ch_clip(n_ch), 3, 3, 'none', norm_type='none', relu_type='none')

    def forward(self, input_img):
        out = self.encoder(input_img)
        out = self.res_layers(out)
        out = self.decoder(out)
        return torch.tanh(self.out_conv(out))


def face_batches(n, batch_size=4, size=32):
    for _ in range(n):
        hr = torch.tanh(torch.randn(batch_size, 3, size, size).cumsum(-1) * 0.2)
        lr = F.interpolate(F.interpolate(hr, scale_factor=0.25, mode='bilinear', align_corners=False),
                           size=(size, size), mode='bicubic', align_corners=False)
        yield lr, hr


def train(opt):
    model = SPARNet(norm_type=opt['Gnorm'], relu_type=opt['Gact'])
    optimizer = torch.optim.Adam(model.parameters(), lr=opt['lr'], betas=(0.9, 0.99))
    criterion_pix = nn.L1Loss()
    for epoch in range(opt['epochs']):
        for i, (lr_img, hr_img) in enumerate(face_batches(opt['iters'])):
            sr_img = model(lr_img)
            loss_pix = criterion_pix(sr_img, hr_img) * opt['lambda_pix']
            optimizer.zero_grad()
            loss_pix.backward()
            optimizer.step()
        print('epoch %d  pix loss %.4f' % (epoch, loss_pix.item()))


if __name__ == '__main__':
    train({'Gnorm': 'none', 'Gact': 'relu', 'lr': 2e-4, 'epochs': 2, 'iters': 3, 'lambda_pix': 1.0})
