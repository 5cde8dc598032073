import torch
import torch.nn as nn

from v2.blocks import Conv2dBlock, ActFirstResBlock


class GPPatchMcResDis(nn.Module):
    """Patch discriminator with one output map per class (FUNIT-style)."""

    def __init__(self, nf=8, n_res_blks=4, num_classes=5):
        super(GPPatchMcResDis, self).__init__()
        cnn_f = [Conv2dBlock(3, nf, 7, 1, 3, pad_type='reflect', norm='none', activation='none')]
        for i in range(n_res_blks // 2):
            nf_out = nf * 2
            cnn_f += [ActFirstResBlock(nf, nf, None, 'lrelu', 'none')]
            cnn_f += [ActFirstResBlock(nf, nf_out, None, 'lrelu', 'none')]
            cnn_f += [nn.ReflectionPad2d(1), nn.AvgPool2d(kernel_size=3, stride=2)]
            nf = nf_out
        cnn_c = [Conv2dBlock(nf, num_classes, 1, 1, norm='none', activation='lrelu', activation_first=True)]
        self.cnn_f = nn.Sequential(*cnn_f)
        self.cnn_c = nn.Sequential(*cnn_c)

    def forward(self, x, y):
        feat = self.cnn_f(x)
        out = self.cnn_c(feat)
        index = torch.arange(out.size(0), device=out.device).long()
        out = out[index, y, :, :]
        return out, feat
