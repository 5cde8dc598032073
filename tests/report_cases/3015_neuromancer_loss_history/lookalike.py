"""Physics-informed solution map (Neuromancer style, grad_inference=True): the loss contains
d x / d p obtained with autograd.grad, so evaluation must run with gradients enabled; the
Trainer stores detached per-batch losses in its history."""
import torch

from problem import Node, Problem, blocks, make_loaders, graph_size
from trainer_fixed import Trainer

torch.manual_seed(0)


def objective(out):
    x, p = out["x"], out["p"]
    return ((x[:, 0] - p[:, 0]) ** 2 + (x[:, 1] - p[:, 1]) ** 2).mean()


def smoothness(out):
    # sensitivity of the solution map with respect to its parameters
    dx_dp, = torch.autograd.grad(out["x"].sum(), out["p"], create_graph=True)
    return dx_dp.pow(2).mean()


def monotone_constraint(out):
    return out["x"].sum(dim=1) - 0.5


class SensitivityProblem(Problem):
    def forward(self, data):
        data = dict(data, p=data["p"].clone().requires_grad_(True))
        return super().forward(data)


def main():
    train_data, dev_data = make_loaders()
    sol_map = Node(blocks(2, 2), ["p"], ["x"], name="solution_map")
    problem = SensitivityProblem([sol_map], objectives=[(1.0, objective), (0.1, smoothness)],
                                 constraints=[(10.0, monotone_constraint)], grad_inference=True)
    optimizer = torch.optim.AdamW(problem.parameters(), lr=1e-3)
    trainer = Trainer(problem, train_data, dev_data, optimizer, epochs=6, patience=20, warmup=2)
    best_model = trainer.train()
    problem.load_state_dict(best_model)
    print("graph nodes held by trainer.loss_history:",
          graph_size(trainer.loss_history["train"] + trainer.loss_history["dev"]),
          "for", len(trainer.loss_history["train"]), "epochs")


if __name__ == "__main__":
    main()
