import torch
import torch.nn as nn

from methods import Finetune

torch.manual_seed(0)

n_way, n_shot, n_query = 2, 3, 2
n_tasks_per_epoch = 6
LOSS_FUNCTION = nn.CrossEntropyLoss()


def make_backbone():
    # stands in for the pretrained ResNet whose weights were loaded from classical training
    return nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                         nn.Linear(8, 16))


def sample_task():
    support_labels = torch.arange(n_way).repeat_interleave(n_shot)
    query_labels = torch.arange(n_way).repeat_interleave(n_query)
    support_images = torch.randn(len(support_labels), 3, 8, 8) + support_labels.view(-1, 1, 1, 1)
    query_images = torch.randn(len(query_labels), 3, 8, 8) + query_labels.view(-1, 1, 1, 1)
    return support_images, support_labels, query_images, query_labels


def training_epoch(model, data_loader, optimizer):
    all_loss = []
    model.train()
    for support_images, support_labels, query_images, query_labels in data_loader:
        optimizer.zero_grad()
        model.process_support_set(support_images, support_labels)
        classification_scores = model(query_images)
        loss = LOSS_FUNCTION(classification_scores, query_labels)
        loss.backward()
        optimizer.step()
        all_loss.append(loss.item())
    return sum(all_loss) / len(all_loss)


backbone = make_backbone()
few_shot_classifier = Finetune(backbone)
train_optimizer = torch.optim.SGD(few_shot_classifier.parameters(), lr=1e-2, momentum=0.9)
train_loader = [sample_task() for _ in range(n_tasks_per_epoch)]
for epoch in range(2):
    print("Epoch", epoch, "average loss", training_epoch(few_shot_classifier, train_loader, train_optimizer))
