import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
np.random.seed(0)


def multi_apply(func, *args, **kwargs):
    map_results = map(lambda *a: func(*a, **kwargs), *args)
    return tuple(map(list, zip(*map_results)))


def distance2bbox(points, distance):
    x1 = points[:, 0] - distance[:, 0]
    y1 = points[:, 1] - distance[:, 1]
    x2 = points[:, 0] + distance[:, 2]
    y2 = points[:, 1] + distance[:, 3]
    return torch.stack([x1, y1, x2, y2], -1)


def bbox2distance(points, bbox, max_dis):
    left = points[:, 0] - bbox[:, 0]
    top = points[:, 1] - bbox[:, 1]
    right = bbox[:, 2] - points[:, 0]
    bottom = bbox[:, 3] - points[:, 1]
    return torch.stack([left, top, right, bottom], -1).clamp(min=0, max=max_dis - 0.01)


def bbox_overlaps(a, b, eps=1e-6):
    lt = torch.max(a[:, :2], b[:, :2])
    rb = torch.min(a[:, 2:], b[:, 2:])
    wh = (rb - lt).clamp(min=0)
    overlap = wh[:, 0] * wh[:, 1]
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    return overlap / (area_a + area_b - overlap + eps)


def giou_loss(pred, target, weight, eps=1e-6):
    iou = bbox_overlaps(pred, target)
    enclose_lt = torch.min(pred[:, :2], target[:, :2])
    enclose_rb = torch.max(pred[:, 2:], target[:, 2:])
    enclose_wh = (enclose_rb - enclose_lt).clamp(min=0)
    enclose_area = enclose_wh[:, 0] * enclose_wh[:, 1] + eps
    area_p = (pred[:, 2] - pred[:, 0]) * (pred[:, 3] - pred[:, 1])
    area_t = (target[:, 2] - target[:, 0]) * (target[:, 3] - target[:, 1])
    union = area_p + area_t - iou * (area_p + area_t) / (1 + iou)
    giou = iou - (enclose_area - union) / enclose_area
    return ((1 - giou) * weight).sum()


def quality_focal_loss(pred, label, score, weight, beta=2.0):
    pred_sigmoid = pred.sigmoid()
    zerolabel = pred_sigmoid.new_zeros(pred.shape)
    loss = F.binary_cross_entropy_with_logits(pred, zerolabel, reduction='none') * pred_sigmoid.pow(beta)
    bg_class_ind = pred.size(1)
    pos = torch.nonzero((label >= 0) & (label < bg_class_ind), as_tuple=False).squeeze(1)
    if len(pos) > 0:
        pos_label = label[pos].long()
        scale_factor = score[pos] - pred_sigmoid[pos, pos_label]
        loss[pos, pos_label] = F.binary_cross_entropy_with_logits(
            pred[pos, pos_label], score[pos], reduction='none') * scale_factor.abs().pow(beta)
    return (loss.sum(dim=1) * weight).sum()


def distribution_focal_loss(pred, label, weight):
    dis_left = label.long()
    dis_right = dis_left + 1
    weight_left = dis_right.float() - label
    weight_right = label - dis_left.float()
    loss = F.cross_entropy(pred, dis_left, reduction='none') * weight_left \
        + F.cross_entropy(pred, dis_right, reduction='none') * weight_right
    return (loss * weight).sum()


class Integral(nn.Module):
    def __init__(self, reg_max=7):
        super(Integral, self).__init__()
        self.reg_max = reg_max
        self.register_buffer('project', torch.linspace(0, self.reg_max, self.reg_max + 1))

    def forward(self, x):
        x = F.softmax(x.reshape(-1, self.reg_max + 1), dim=1)
        return F.linear(x, self.project.type_as(x)).reshape(-1, 4)


class TinyDetector(nn.Module):
    def __init__(self, num_classes=3, reg_max=7, strides=(8, 16)):
        super(TinyDetector, self).__init__()
        self.num_classes = num_classes
        self.reg_max = reg_max
        self.strides = strides
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.ReLU(inplace=True),
                                  nn.Conv2d(16, 32, 3, 2, 1), nn.ReLU(inplace=True),
                                  nn.Conv2d(32, 32, 3, 2, 1), nn.ReLU(inplace=True))
        self.down = nn.Sequential(nn.Conv2d(32, 32, 3, 2, 1), nn.ReLU(inplace=True))
        self.gfl_cls = nn.Conv2d(32, num_classes, 3, padding=1)
        self.gfl_reg = nn.Conv2d(32, 4 * (reg_max + 1), 3, padding=1)
        self.distribution_project = Integral(reg_max)

    def forward(self, x):
        p3 = self.stem(x)
        p4 = self.down(p3)
        feats = [p3, p4]
        return [self.gfl_cls(f) for f in feats], [self.gfl_reg(f) for f in feats]

    def grid_cells(self, featmap_size, stride):
        h, w = featmap_size
        ys, xs = torch.meshgrid(torch.arange(h), torch.arange(w), indexing='ij')
        cx = (xs.reshape(-1).float() + 0.5) * stride
        cy = (ys.reshape(-1).float() + 0.5) * stride
        return torch.stack([cx, cy], -1)

    def target_assign_single_level(self, centers, stride, gt_bboxes, gt_labels):
        # centre sampling: a cell is positive when its centre lies in a box whose size fits this level
        labels = torch.full((centers.size(0),), self.num_classes, dtype=torch.long)
        bbox_targets = torch.zeros(centers.size(0), 4)
        for box, lab in zip(gt_bboxes, gt_labels):
            size = max(box[2] - box[0], box[3] - box[1])
            if not (stride * 1.5 <= size < stride * 6):
                continue
            inside = (centers[:, 0] > box[0]) & (centers[:, 0] < box[2]) & \
                     (centers[:, 1] > box[1]) & (centers[:, 1] < box[3])
            labels[inside] = int(lab)
            bbox_targets[inside] = torch.as_tensor(box, dtype=torch.float32)
        return labels, bbox_targets

    def loss_single(self, centers, cls_score, bbox_pred, labels, bbox_targets, stride, num_total_samples):
        cls_score = cls_score.permute(0, 2, 3, 1).reshape(-1, self.num_classes)
        bbox_pred = bbox_pred.permute(0, 2, 3, 1).reshape(-1, 4 * (self.reg_max + 1))
        centers = centers.repeat(labels.numel() // centers.size(0), 1)
        pos_inds = torch.nonzero((labels >= 0) & (labels < self.num_classes), as_tuple=False).squeeze(1)
        score = cls_score.new_zeros(labels.shape)

        if len(pos_inds) > 0:
            pos_bbox_pred = bbox_pred[pos_inds]
            pos_centers = centers[pos_inds] / stride
            weight_targets = cls_score.detach().sigmoid().max(dim=1)[0][pos_inds]
            pos_corners = self.distribution_project(pos_bbox_pred)
            pos_decode_bbox_pred = distance2bbox(pos_centers, pos_corners)
            pos_decode_bbox_targets = bbox_targets[pos_inds] / stride
            score[pos_inds] = bbox_overlaps(pos_decode_bbox_pred.detach(), pos_decode_bbox_targets)
            pred_corners = pos_bbox_pred.reshape(-1, self.reg_max + 1)
            target_corners = bbox2distance(pos_centers, pos_decode_bbox_targets, self.reg_max).reshape(-1)
            loss_bbox = giou_loss(pos_decode_bbox_pred, pos_decode_bbox_targets, weight_targets)
            loss_dfl = distribution_focal_loss(pred_corners, target_corners,
                                               weight_targets[:, None].expand(-1, 4).reshape(-1)) / 4.0
        else:
            loss_bbox = bbox_pred.sum() * 0
            loss_dfl = bbox_pred.sum() * 0
            weight_targets = torch.tensor(0)

        loss_qfl = quality_focal_loss(cls_score, labels, score, torch.ones_like(score)) / num_total_samples
        return loss_qfl, loss_bbox, loss_dfl, weight_targets.sum()

    def loss(self, preds, gt_meta):
        cls_scores, bbox_preds = preds
        level_centers, level_labels, level_targets = [], [], []
        for cls_score, stride in zip(cls_scores, self.strides):
            centers = self.grid_cells(cls_score.shape[-2:], stride)
            labs, tgts = [], []
            for gt_bboxes, gt_labels in zip(gt_meta['gt_bboxes'], gt_meta['gt_labels']):
                l, t = self.target_assign_single_level(centers, stride, gt_bboxes, gt_labels)
                labs.append(l)
                tgts.append(t)
            level_centers.append(centers)
            level_labels.append(torch.cat(labs))
            level_targets.append(torch.cat(tgts))
        num_total_samples = max(sum(int((l < self.num_classes).sum()) for l in level_labels), 1)

        losses_qfl, losses_bbox, losses_dfl, avg_factor = multi_apply(
            self.loss_single, level_centers, cls_scores, bbox_preds, level_labels, level_targets,
            self.strides, num_total_samples=num_total_samples)

        avg_factor = sum(avg_factor).item()
        if avg_factor <= 0:
            loss_qfl = torch.tensor(0)
            loss_bbox = torch.tensor(0)
            loss_dfl = torch.tensor(0)
        else:
            losses_bbox = list(map(lambda x: x / avg_factor, losses_bbox))
            losses_dfl = list(map(lambda x: x / avg_factor, losses_dfl))
            loss_qfl = sum(losses_qfl)
            loss_bbox = sum(losses_bbox)
            loss_dfl = sum(losses_dfl)

        loss = loss_qfl + loss_bbox + loss_dfl
        loss_states = dict(loss_qfl=loss_qfl, loss_bbox=loss_bbox, loss_dfl=loss_dfl)
        return loss, loss_states


def random_box():
    w, h = np.random.uniform(14, 40, size=2)
    x1, y1 = np.random.uniform(0, 64 - w), np.random.uniform(0, 64 - h)
    return [x1, y1, x1 + w, y1 + h]


def make_batches(n_batches, batch_size):
    batches = []
    for b in range(n_batches):
        imgs = torch.randn(batch_size, 3, 64, 64)
        background_only = (b == 3)  # a batch of negative (background) crops
        gt_bboxes, gt_labels = [], []
        for _ in range(batch_size):
            n = 0 if background_only else np.random.randint(1, 3)
            gt_bboxes.append(np.array([random_box() for _ in range(n)], dtype=np.float32).reshape(-1, 4))
            gt_labels.append(np.random.randint(0, 3, size=n))
        batches.append({'img': imgs, 'gt_bboxes': gt_bboxes, 'gt_labels': gt_labels})
    return batches


class Trainer:
    def __init__(self, model, lr=1e-3, warmup_steps=30):
        self.model = model
        self.optimizer = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
        self.warmup_steps = warmup_steps
        self.base_lr = lr
        self.step_count = 0

    def run_step(self, batch):
        preds = self.model(batch['img'])
        loss, loss_stats = self.model.loss(preds, batch)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss, loss_stats

    def warm_up(self, train_loader):
        for batch in train_loader:
            self.step_count += 1
            warmup_lr = self.base_lr * min(1.0, self.step_count / self.warmup_steps)
            for g in self.optimizer.param_groups:
                g['lr'] = warmup_lr
            loss, stats = self.run_step(batch)
            print('warmup step', self.step_count, 'loss %.4f' % loss.item(),
                  {k: round(float(v), 4) for k, v in stats.items()})


if __name__ == '__main__':
    trainer = Trainer(TinyDetector())
    trainer.warm_up(make_batches(6, 4))
