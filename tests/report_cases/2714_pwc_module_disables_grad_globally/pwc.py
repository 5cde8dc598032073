import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_grad_enabled(False)  # make sure to not compute gradients for computational performance

torch.backends.cudnn.enabled = True


class Network(nn.Module):
    """Stand-in for the pretrained PWC-Net flow estimator."""

    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(6, 8, 3, padding=1), nn.LeakyReLU(0.1), nn.Conv2d(8, 2, 3, padding=1))

    def forward(self, first, second):
        return self.features(torch.cat([first, second], 1))


netNetwork = None


def estimate(tenFirst, tenSecond):
    global netNetwork
    if netNetwork is None:
        netNetwork = Network().eval()
    flow = netNetwork(tenFirst, tenSecond)
    return F.interpolate(flow, size=tenFirst.shape[-2:], mode="bilinear", align_corners=False)
