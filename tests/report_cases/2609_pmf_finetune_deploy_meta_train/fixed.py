import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

ARGS = {"deploy": "finetune", "ada_steps": 3, "ada_lr": 1e-3, "lr": 5e-4, "nSupport": 2, "n_way": 3,
        "n_query": 2, "epochs": 2, "episodes": 4}


class ProtoNet(nn.Module):
    def __init__(self, backbone):
        super().__init__()
        self.backbone = backbone
        self.scale_cls = nn.Parameter(torch.tensor(10.0))

    def cos_classifier(self, w, f):
        f = F.normalize(f, p=2, dim=f.dim() - 1)
        w = F.normalize(w, p=2, dim=w.dim() - 1)
        return self.scale_cls * f @ w.transpose(1, 2)

    def forward(self, supp_x, supp_y, x):
        num_classes = supp_y.max() + 1
        B, nSupp = supp_x.shape[:2]
        supp_f = self.backbone(supp_x.flatten(0, 1)).view(B, nSupp, -1)
        supp_y_1hot = F.one_hot(supp_y, num_classes).transpose(1, 2)
        prototypes = torch.bmm(supp_y_1hot.float(), supp_f) / supp_y_1hot.sum(dim=2, keepdim=True)
        feat = self.backbone(x.flatten(0, 1)).view(B, x.shape[1], -1)
        return self.cos_classifier(prototypes, feat)


class ProtoNet_Finetune(ProtoNet):
    def __init__(self, backbone, num_iters=3, lr=1e-3):
        super().__init__(backbone)
        self.num_iters, self.lr = num_iters, lr
        self.backbone_state = copy.deepcopy(backbone.state_dict())

    def forward(self, supp_x, supp_y, x):
        self.backbone.load_state_dict(self.backbone_state, strict=True)
        if self.lr == 0:
            return super().forward(supp_x, supp_y, x)
        B, nSupp = supp_x.shape[:2]
        num_classes = supp_y.max() + 1
        supp_y_1hot = F.one_hot(supp_y, num_classes).transpose(1, 2)
        criterion = nn.CrossEntropyLoss()
        opt = torch.optim.Adam(self.backbone.parameters(), lr=self.lr, betas=(0.9, 0.999), weight_decay=0.0)

        def single_step(z, mode=True):
            with torch.set_grad_enabled(mode):
                supp_f = self.backbone(supp_x.flatten(0, 1)).view(B, nSupp, -1)
                prototypes = torch.bmm(supp_y_1hot.float(), supp_f) / supp_y_1hot.sum(dim=2, keepdim=True)
                feat = self.backbone(z.flatten(0, 1)).view(B, z.shape[1], -1)
                logits = self.cos_classifier(prototypes, feat)
                loss = criterion(logits.view(-1, num_classes), supp_y.view(-1)) if mode else None
            return logits, loss

        for _ in range(self.num_iters):
            opt.zero_grad()
            z = supp_x + 0.05 * torch.randn_like(supp_x)  # stands in for DiffAugment
            _, loss = single_step(z, True)
            loss.backward()
            opt.step()
        logits, _ = single_step(x, False)
        return logits


def get_model(args):
    backbone = nn.Sequential(nn.Linear(12, 16), nn.ReLU(), nn.Linear(16, 8))
    if args["deploy"] == "finetune":
        return ProtoNet_Finetune(backbone, args["ada_steps"], args["ada_lr"])
    return ProtoNet(backbone)


def sample_episode(args):
    n, s, q = args["n_way"], args["nSupport"], args["n_query"]
    supp_y = torch.arange(n).repeat_interleave(s).unsqueeze(0)
    qry_y = torch.arange(n).repeat_interleave(q).unsqueeze(0)
    supp_x = torch.randn(1, n * s, 12) + supp_y.unsqueeze(-1).float()
    qry_x = torch.randn(1, n * q, 12) + qry_y.unsqueeze(-1).float()
    return supp_x, supp_y, qry_x, qry_y


def train_one_epoch(model, episodes, optimizer, args):
    model.train()
    criterion = nn.CrossEntropyLoss()
    for supp_x, supp_y, x, y in episodes:
        output = model(supp_x, supp_y, x)
        loss = criterion(output.view(-1, args["n_way"]), y.view(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss.item()


# meta-train the plain ProtoNet; the fine-tuning deploy mode is only used at meta-test time
model = get_model(dict(ARGS, deploy="none"))
optimizer = torch.optim.SGD(model.parameters(), lr=ARGS["lr"], momentum=0.9)
for epoch in range(ARGS["epochs"]):
    episodes = [sample_episode(ARGS) for _ in range(ARGS["episodes"])]
    print("epoch", epoch, "loss", train_one_epoch(model, episodes, optimizer, ARGS))

test_model = ProtoNet_Finetune(model.backbone, ARGS["ada_steps"], ARGS["ada_lr"])
supp_x, supp_y, x, y = sample_episode(ARGS)
print("meta-test acc", (test_model(supp_x, supp_y, x).argmax(-1) == y).float().mean().item())
