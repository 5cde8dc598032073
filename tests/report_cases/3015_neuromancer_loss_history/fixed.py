"""Differentiable parametric programming (Neuromancer style): a policy network maps problem
parameters p to a solution x minimising a quadratic objective under box/coupling constraints,
trained with the library's Trainer."""
import torch

from problem import Node, Problem, blocks, make_loaders, graph_size
from trainer_fixed import Trainer

torch.manual_seed(0)


def objective(out):
    x, p = out["x"], out["p"]
    return ((x[:, 0] - p[:, 0]) ** 2 + (x[:, 1] - p[:, 1]) ** 2 + 0.5 * x[:, 0] * x[:, 1]).mean()


def coupling_constraint(out):
    return out["x"].sum(dim=1) - 0.5          # x0 + x1 <= 0.5


def box_constraint(out):
    return out["x"].abs() - 1.0               # |x| <= 1


def main():
    train_data, dev_data = make_loaders()
    sol_map = Node(blocks(2, 2), ["p"], ["x"], name="solution_map")
    problem = Problem([sol_map], objectives=[(1.0, objective)],
                      constraints=[(10.0, coupling_constraint), (10.0, box_constraint)])
    optimizer = torch.optim.AdamW(problem.parameters(), lr=1e-3)
    trainer = Trainer(problem, train_data, dev_data, optimizer, epochs=6, patience=20, warmup=2)
    best_model = trainer.train()
    problem.load_state_dict(best_model)
    print("graph nodes held by trainer.loss_history:",
          graph_size(trainer.loss_history["train"] + trainer.loss_history["dev"]),
          "for", len(trainer.loss_history["train"]), "epochs")


if __name__ == "__main__":
    main()
