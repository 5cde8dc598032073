"""Training a graph-convolutional 2D-to-3D human pose lifter on synthetic skeleton sequences."""
import torch
from model import S_AGCN

torch.manual_seed(0)

ARGS = dict(frames=9, joints=9, batch=8, epochs=3, iters=4, lr=1e-3)


def mpjpe(pred, target):
    return (pred - target).norm(dim=-1).mean()


def synthetic_batch(args):
    pose3d = torch.randn(args["batch"], args["frames"], args["joints"], 3)
    pose2d = pose3d[..., :2] / (pose3d[..., 2:].abs() + 2.0)
    return pose2d, pose3d[:, args["frames"] // 2]


def train(args):
    model = S_AGCN(num_joints=args["joints"])
    optimizer = torch.optim.Adam(model.parameters(), lr=args["lr"])
    for epoch in range(args["epochs"]):
        model.train()
        for _ in range(args["iters"]):
            inputs_2d, target_3d = synthetic_batch(args)
            predicted_3d = model(inputs_2d)
            loss = mpjpe(predicted_3d, target_3d)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: MPJPE {loss.item():.4f}")


if __name__ == "__main__":
    train(ARGS)
