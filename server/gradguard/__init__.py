"""GradGuard: finds PyTorch autograd graph-lifetime hazards in Python source, statically."""

__version__ = "0.1.0"
