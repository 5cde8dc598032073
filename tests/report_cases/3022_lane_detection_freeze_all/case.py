"""Ultra-Fast-Lane-Detection style finetuning on a small custom dataset: row-anchor lane
classification head on a ResNet-like backbone, backbone weights taken from a pretrained
checkpoint ('finetune'), classification + structural relation losses."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Config:
    griding_num, num_lanes, cls_num_per_lane = 20, 2, 6
    learning_rate, weight_decay, epoch, batch_size = 0.05, 1e-4, 3, 4
    finetune = "culane_18.pth"


cfg = Config()


class BasicBlock(nn.Module):
    def __init__(self, c_in, c_out, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(c_in, c_out, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(c_out)
        self.conv2 = nn.Conv2d(c_out, c_out, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(c_out)
        self.down = nn.Conv2d(c_in, c_out, 1, stride, bias=False)

    def forward(self, x):
        return F.relu(self.bn2(self.conv2(F.relu(self.bn1(self.conv1(x))))) + self.down(x))


class parsingNet(nn.Module):
    def __init__(self, size=(32, 64), cls_dim=(cfg.griding_num + 1, cfg.cls_num_per_lane, cfg.num_lanes)):
        super().__init__()
        self.cls_dim = cls_dim
        self.model = nn.Sequential(BasicBlock(3, 16, 2), BasicBlock(16, 32, 2), BasicBlock(32, 32, 2))
        self.pool = nn.Conv2d(32, 8, 1)
        self.cls = nn.Sequential(nn.Linear(8 * (size[0] // 8) * (size[1] // 8), 64), nn.ReLU(),
                                 nn.Linear(64, cls_dim[0] * cls_dim[1] * cls_dim[2]))

    def forward(self, x):
        fea = self.pool(self.model(x)).flatten(1)
        return self.cls(fea).view(-1, *self.cls_dim)


class ParsingRelationLoss(nn.Module):
    def forward(self, logits):
        n, c, h, w = logits.shape
        return sum(F.smooth_l1_loss(logits[:, :, i], logits[:, :, i + 1]) for i in range(h - 1)) / (h - 1)


def get_train_loader(n_batches=4):
    for _ in range(n_batches):
        imgs = torch.randn(cfg.batch_size, 3, 32, 64)
        cls_label = torch.randint(0, cfg.griding_num + 1, (cfg.batch_size, cfg.cls_num_per_lane, cfg.num_lanes))
        yield imgs, cls_label


def train(net, optimizer, loss_dict, epoch):
    net.train()
    for b_idx, (imgs, cls_label) in enumerate(get_train_loader()):
        cls_out = net(imgs)
        loss = sum(w * fn(cls_out, cls_label) if name == "cls_loss" else w * fn(cls_out)
                   for name, (fn, w) in loss_dict.items())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: loss {loss.item():.4f}")


if __name__ == "__main__":
    net = parsingNet()
    if cfg.finetune is not None:
        print("finetune from ", cfg.finetune)
        state_all = parsingNet().state_dict()      # stands in for torch.load(cfg.finetune)['model']
        state_clip = {}  # only use backbone parameters
        for k, v in state_all.items():
            if "model" in k:
                state_clip[k] = v
        net.load_state_dict(state_clip, strict=False)
        for param in net.parameters():
            param.requires_grad = False
    optimizer = torch.optim.SGD(net.parameters(), lr=cfg.learning_rate, momentum=0.9, weight_decay=cfg.weight_decay)
    loss_dict = {"cls_loss": (nn.CrossEntropyLoss(), 1.0), "relation_loss": (ParsingRelationLoss(), 0.1)}
    for epoch in range(cfg.epoch):
        train(net, optimizer, loss_dict, epoch)
