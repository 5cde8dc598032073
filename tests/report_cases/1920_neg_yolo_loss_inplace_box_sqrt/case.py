"""YOLOv1 from scratch (small): the YoloLoss square-roots the width/height of the
selected box predictions and targets by assigning into slices in place."""
import torch
import torch.nn as nn

torch.manual_seed(0)
S, B, C = 3, 2, 4


def intersection_over_union(boxes_preds, boxes_labels):
    b1_x1 = boxes_preds[..., 0:1] - boxes_preds[..., 2:3] / 2
    b1_y1 = boxes_preds[..., 1:2] - boxes_preds[..., 3:4] / 2
    b1_x2 = boxes_preds[..., 0:1] + boxes_preds[..., 2:3] / 2
    b1_y2 = boxes_preds[..., 1:2] + boxes_preds[..., 3:4] / 2
    b2_x1 = boxes_labels[..., 0:1] - boxes_labels[..., 2:3] / 2
    b2_y1 = boxes_labels[..., 1:2] - boxes_labels[..., 3:4] / 2
    b2_x2 = boxes_labels[..., 0:1] + boxes_labels[..., 2:3] / 2
    b2_y2 = boxes_labels[..., 1:2] + boxes_labels[..., 3:4] / 2
    inter = (torch.min(b1_x2, b2_x2) - torch.max(b1_x1, b2_x1)).clamp(0) * \
            (torch.min(b1_y2, b2_y2) - torch.max(b1_y1, b2_y1)).clamp(0)
    area1 = abs((b1_x2 - b1_x1) * (b1_y2 - b1_y1))
    area2 = abs((b2_x2 - b2_x1) * (b2_y2 - b2_y1))
    return inter / (area1 + area2 - inter + 1e-6)


class YoloLoss(nn.Module):
    def __init__(self):
        super().__init__()
        self.mse = nn.MSELoss(reduction="sum")
        self.lambda_noobj, self.lambda_coord = 0.5, 5

    def forward(self, predictions, target):
        predictions = predictions.reshape(-1, S, S, C + B * 5)
        iou_b1 = intersection_over_union(predictions[..., C + 1:C + 5], target[..., C + 1:C + 5])
        iou_b2 = intersection_over_union(predictions[..., C + 6:C + 10], target[..., C + 1:C + 5])
        ious = torch.cat([iou_b1.unsqueeze(0), iou_b2.unsqueeze(0)], dim=0)
        iou_maxes, bestbox = torch.max(ious, dim=0)
        exists_box = target[..., C].unsqueeze(3)

        box_predictions = exists_box * (bestbox * predictions[..., C + 6:C + 10]
                                        + (1 - bestbox) * predictions[..., C + 1:C + 5])
        box_targets = exists_box * target[..., C + 1:C + 5]
        box_predictions[..., 2:4] = torch.sign(box_predictions[..., 2:4]) * torch.sqrt(
            torch.abs(box_predictions[..., 2:4] + 1e-6))
        box_targets[..., 2:4] = torch.sqrt(box_targets[..., 2:4])
        box_loss = self.mse(torch.flatten(box_predictions, end_dim=-2), torch.flatten(box_targets, end_dim=-2))

        pred_box = bestbox * predictions[..., C + 5:C + 6] + (1 - bestbox) * predictions[..., C:C + 1]
        object_loss = self.mse(torch.flatten(exists_box * pred_box), torch.flatten(exists_box * target[..., C:C + 1]))
        no_object_loss = self.mse(torch.flatten((1 - exists_box) * predictions[..., C:C + 1], start_dim=1),
                                  torch.flatten((1 - exists_box) * target[..., C:C + 1], start_dim=1))
        no_object_loss += self.mse(torch.flatten((1 - exists_box) * predictions[..., C + 5:C + 6], start_dim=1),
                                   torch.flatten((1 - exists_box) * target[..., C:C + 1], start_dim=1))
        class_loss = self.mse(torch.flatten(exists_box * predictions[..., :C], end_dim=-2),
                              torch.flatten(exists_box * target[..., :C], end_dim=-2))
        return (self.lambda_coord * box_loss + object_loss
                + self.lambda_noobj * no_object_loss + class_loss)


model = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.LeakyReLU(0.1),
                      nn.AdaptiveAvgPool2d(S), nn.Flatten(), nn.Linear(8 * S * S, S * S * (C + B * 5)))
loss_fn = YoloLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=2e-5)
images = torch.randn(6, 3, 24, 24)
targets = torch.zeros(6, S, S, C + 5)
targets[..., C] = (torch.rand(6, S, S) < 0.3).float()
targets[..., C + 1:C + 5] = torch.rand(6, S, S, 4)
for epoch in range(3):
    mean_loss = []
    for i in range(0, 6, 2):
        out = model(images[i:i + 2])
        loss = loss_fn(out, targets[i:i + 2])
        mean_loss.append(loss.item())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"Mean loss was {sum(mean_loss) / len(mean_loss)}")
