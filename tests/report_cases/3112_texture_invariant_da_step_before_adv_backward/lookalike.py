"""Output-space adversarial domain adaptation for semantic segmentation with two generator steps per
iteration: a source segmentation step, then an adversarial step on freshly predicted target maps."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
NUM_CLASSES, LAMBDA_ADV = 4, 0.001


class SegNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 16, 3, padding=1), nn.ReLU())
        self.classifier = nn.Conv2d(16, NUM_CLASSES, 1)

    def forward(self, x):
        return self.classifier(self.features(x))


class FCDiscriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(NUM_CLASSES, 16, 4, 2, 1), nn.LeakyReLU(0.2), nn.Conv2d(16, 1, 4, 2, 1))

    def forward(self, x):
        return self.net(x)


def main(num_steps=4):
    model, model_D = SegNet(), FCDiscriminator()
    optimizer = torch.optim.SGD(model.parameters(), lr=2.5e-4, momentum=0.9, weight_decay=5e-4)
    optimizer_D = torch.optim.Adam(model_D.parameters(), lr=1e-4, betas=(0.9, 0.99))
    bce_loss = nn.BCEWithLogitsLoss()
    source_label, target_label = 0.0, 1.0
    for i_iter in range(num_steps):
        src_img, src_lbl = torch.rand(2, 3, 16, 16), torch.randint(0, NUM_CLASSES, (2, 16, 16))
        tgt_img = torch.rand(2, 3, 16, 16)
        optimizer.zero_grad()
        optimizer_D.zero_grad()
        # train G: don't accumulate grads in D
        for param in model_D.parameters():
            param.requires_grad = False
        pred = model(src_img)
        loss_seg = F.cross_entropy(pred, src_lbl)
        loss_seg.backward()
        # optimize the source step first, then build the target graph with the updated weights
        optimizer.step()
        optimizer.zero_grad()
        pred_target = model(tgt_img)
        D_out = model_D(F.softmax(pred_target, dim=1))
        loss_adv = bce_loss(D_out, torch.full_like(D_out, source_label))
        loss_adv = loss_adv * LAMBDA_ADV
        loss_adv.backward()
        optimizer.step()
        # train D
        for param in model_D.parameters():
            param.requires_grad = True
        D_out = model_D(F.softmax(pred.detach(), dim=1))
        loss_D = bce_loss(D_out, torch.full_like(D_out, source_label)) / 2
        loss_D.backward()
        D_out = model_D(F.softmax(pred_target.detach(), dim=1))
        loss_D = bce_loss(D_out, torch.full_like(D_out, target_label)) / 2
        loss_D.backward()
        optimizer_D.step()
        print(f"iter {i_iter} seg {loss_seg.item():.3f} adv {loss_adv.item():.5f}")


if __name__ == "__main__":
    main()
