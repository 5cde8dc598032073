import argparse

import torch
import torch.nn.functional as F

from ema import sigmoid_rampup, update_ema_variables
from model import create_model

NO_LABEL = -1


def softmax_mse_loss(input_logits, target_logits):
    num_classes = input_logits.size(1)
    return F.mse_loss(F.softmax(input_logits, dim=1), F.softmax(target_logits, dim=1), reduction="sum") / num_classes


def get_args():
    p = argparse.ArgumentParser()
    p.add_argument("--num-classes", type=int, default=4)
    p.add_argument("--lr", type=float, default=0.05)
    p.add_argument("--ema-decay", type=float, default=0.99)
    p.add_argument("--consistency", type=float, default=10.0)
    p.add_argument("--consistency-rampup", type=int, default=5)
    p.add_argument("--batches", type=int, default=3)
    p.add_argument("--batch-size", type=int, default=8)
    return p.parse_args([])


def make_batch(args):
    x = torch.randn(args.batch_size, 1, 8, 8)
    target = torch.randint(0, args.num_classes, (args.batch_size,))
    target[args.batch_size // 2:] = NO_LABEL
    noise = lambda t: t + 0.1 * torch.randn_like(t)
    return noise(x), noise(x), target


def train(args):
    model = create_model(args.num_classes)
    ema_model = create_model(args.num_classes, ema=True, base=model)
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9, nesterov=True)
    class_criterion = torch.nn.CrossEntropyLoss(ignore_index=NO_LABEL)
    global_step = 0

    model.train()
    ema_model.train()
    for i in range(args.batches):
        input, ema_input, target = make_batch(args)
        ema_model_out = ema_model(ema_input)
        model_out = model(input)

        class_loss = class_criterion(model_out, target)
        consistency_weight = args.consistency * sigmoid_rampup(i, args.consistency_rampup)
        consistency_loss = consistency_weight * softmax_mse_loss(model_out, ema_model_out) / args.batch_size
        loss = class_loss + consistency_loss

        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        global_step += 1
        update_ema_variables(model, ema_model, args.ema_decay, global_step)
        print(f"batch {i}: class {class_loss.item():.4f} consistency {consistency_loss.item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    train(get_args())
