"""REINFORCE-style losses that consume a distribution object."""


def policy_gradient_loss(dist, actions, advantages):
    log_prob = dist.log_prob(actions).sum(-1)
    return -(log_prob * advantages).mean()


def entropy_penalty(dist, coef):
    # maximise entropy -> minimise negative entropy
    return -coef * dist.entropy().sum(-1).mean()


def normalize_advantages(advantages, eps=1e-8):
    return (advantages - advantages.mean()) / (advantages.std() + eps)


def explained_variance(values, returns):
    """1 - Var[returns - values] / Var[returns]; logged only."""
    var_ret = returns.var()
    return float("nan") if var_ret == 0 else (1 - (returns - values).var() / var_ret).item()
