import torch
from torch.autograd import grad


def jacobian(y, x):
    """d y / d x for batched points: y, x (N, 3) -> (N, 3, 3)."""
    jac = []
    for i in range(y.shape[-1]):
        jac.append(grad(y[:, i], x, torch.ones_like(y[:, i]), retain_graph=True, create_graph=False)[0])
    return torch.stack(jac, dim=1)


def forward_skinning_jac(x_cano, skinning_model, bone_transforms):
    with torch.enable_grad():  # may be called from validation, which runs under no_grad
        x_cano = x_cano.requires_grad_(True)
        x_deformed = skinning_model.deform(x_cano, bone_transforms)
        return x_deformed.detach(), jacobian(x_deformed, x_cano)


def search_canonical(x_deformed, skinning_model, bone_transforms, iters=5):
    """Newton iterations x <- x - J^-1 (f(x) - x_d) to invert the forward skinning."""
    x = x_deformed.clone()
    for _ in range(iters):
        f_x, J = forward_skinning_jac(x.detach(), skinning_model, bone_transforms)
        x = x.detach() - torch.linalg.solve(J, (f_x - x_deformed).unsqueeze(-1)).squeeze(-1)
    return x.detach()
