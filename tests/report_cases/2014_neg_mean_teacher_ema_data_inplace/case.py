"""Mean Teacher (semi-supervised): student trained with class + consistency loss, teacher is an EMA."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

NO_LABEL = -1


def create_model(ema=False):
    model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Dropout(0.2), nn.Linear(32, 4))
    if ema:
        for param in model.parameters():
            param.detach_()
    return model


def update_ema_variables(model, ema_model, alpha, global_step):
    # Use the true average until the exponential average is more correct
    alpha = min(1 - 1 / (global_step + 1), alpha)
    for ema_param, param in zip(ema_model.parameters(), model.parameters()):
        ema_param.data.mul_(alpha).add_(param.data, alpha=1 - alpha)


def softmax_mse_loss(input_logits, target_logits):
    input_softmax = F.softmax(input_logits, dim=1)
    target_softmax = F.softmax(target_logits, dim=1)
    num_classes = input_logits.size()[1]
    return F.mse_loss(input_softmax, target_softmax, reduction='sum') / num_classes


def get_current_consistency_weight(epoch, consistency=10.0, rampup=2):
    phase = 1.0 - min(epoch, rampup) / rampup
    return consistency * float(torch.exp(torch.tensor(-5.0 * phase * phase)))


def train(train_loader, model, ema_model, optimizer, epoch, args, global_step):
    class_criterion = nn.CrossEntropyLoss(reduction='sum', ignore_index=NO_LABEL)
    model.train()
    ema_model.train()
    meters = {'class_loss': 0.0, 'cons_loss': 0.0}
    for i, ((input, ema_input), target) in enumerate(train_loader):
        minibatch_size = len(target)
        labeled_minibatch_size = target.ne(NO_LABEL).sum().item()

        ema_model_out = ema_model(ema_input)
        model_out = model(input)
        ema_logit = ema_model_out.detach()

        class_loss = class_criterion(model_out, target) / minibatch_size
        consistency_weight = get_current_consistency_weight(epoch)
        consistency_loss = consistency_weight * softmax_mse_loss(model_out, ema_logit) / minibatch_size
        loss = class_loss + consistency_loss

        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        global_step += 1
        update_ema_variables(model, ema_model, args.ema_decay, global_step)

        meters['class_loss'] += class_loss.item()
        meters['cons_loss'] += consistency_loss.item()
        if i % args.print_freq == 0:
            print('Epoch: [{0}][{1}/{2}] labeled {3} class {4:.4f} cons {5:.4f}'.format(
                epoch, i, len(train_loader), labeled_minibatch_size,
                meters['class_loss'] / (i + 1), meters['cons_loss'] / (i + 1)))
    return global_step


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--ema-decay', default=0.99, type=float)
    parser.add_argument('--epochs', default=2, type=int)
    parser.add_argument('--print-freq', default=2, type=int)
    args = parser.parse_args()
    torch.manual_seed(0)
    model = create_model()
    ema_model = create_model(ema=True)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, nesterov=True)
    loader = []
    for _ in range(4):
        x = torch.randn(8, 10)
        target = torch.randint(0, 4, (8,))
        target[4:] = NO_LABEL
        loader.append(((x + 0.05 * torch.randn_like(x), x + 0.05 * torch.randn_like(x)), target))
    global_step = 0
    for epoch in range(args.epochs):
        global_step = train(loader, model, ema_model, optimizer, epoch, args, global_step)


if __name__ == '__main__':
    main()
