import torch

from base_gan import BaseGAN

torch.manual_seed(0)

config = {
    'dimLatentVector': 32,
    'depthScale0': 32,
    'learningRate': 1e-3,
    'epsilonD': 0.001,
    'GDPP': True,
    'miniBatchSize': 16,
    'nIterations': 25,
}


def sampleRealBatch(n):
    base = torch.linspace(-1, 1, 8)
    grid = (base.view(1, 1, 8, 1) * base.view(1, 1, 1, 8)).expand(n, 3, 8, 8)
    return (grid + 0.1 * torch.randn(n, 3, 8, 8)).clamp(-1, 1)


if __name__ == '__main__':
    model = BaseGAN(config)
    for it in range(config['nIterations']):
        losses = model.optimizeParameters(sampleRealBatch(config['miniBatchSize']))
        if it % 5 == 0:
            print(it, {k: round(v, 4) for k, v in losses.items()})
