import torch
import torch.nn.functional as F


class WGANGP:
    def getCriterion(self, input, status):
        if status:
            return -input[:, 0].sum()
        return input[:, 0].sum()


def _eig(phi):
    phi = F.normalize(phi, dim=1)
    L = phi @ phi.t()
    return torch.linalg.eigh(L + 1e-3 * torch.eye(L.size(0)))


def GDPPLoss(phiFake, phiReal, backward=True):
    """Determinantal point process loss between fake and real feature batches."""
    fakeEigVals, fakeEigVecs = _eig(phiFake)
    realEigVals, realEigVecs = _eig(phiReal)

    realEigVals = realEigVals / realEigVals.max()
    fakeEigVals = fakeEigVals / fakeEigVals.max()

    magnitudeLoss = F.mse_loss(fakeEigVals, realEigVals)
    weights = realEigVals.detach()
    structureLoss = -torch.sum(weights * F.cosine_similarity(realEigVecs, fakeEigVecs, dim=0))
    output = magnitudeLoss + 0.01 * structureLoss
    if backward:
        output.backward()
        return output.item()
    return output
