"""Knowledge distillation from a fixed teacher with early-stopping bookkeeping."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
T_SOFT, ALPHA = 2.0, 0.7

teacher = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Dropout(0.2), nn.Linear(64, 5))
student = nn.Sequential(nn.Linear(20, 16), nn.ReLU(), nn.Linear(16, 5))
teacher.eval()
optimizer = torch.optim.Adam(student.parameters(), lr=3e-3)
scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer, factor=0.5, patience=1)
x_tr, y_tr = torch.randn(128, 20), torch.randint(0, 5, (128,))
x_va, y_va = torch.randn(64, 20), torch.randint(0, 5, (64,))


@torch.inference_mode()
def validate(model):
    model.eval()
    logits = model(x_va)
    return F.cross_entropy(logits, y_va).item(), (logits.argmax(1) == y_va).float().mean().item()


def distill_loss(student_logits, teacher_logits, labels):
    soft = F.kl_div(F.log_softmax(student_logits / T_SOFT, dim=-1),
                    F.softmax(teacher_logits / T_SOFT, dim=-1), reduction="batchmean") * T_SOFT ** 2
    return ALPHA * soft + (1 - ALPHA) * F.cross_entropy(student_logits, labels)


best = {"loss": float("inf"), "epoch": -1, "state": None}
for epoch in range(6):
    student.train()
    for i in range(0, 128, 32):
        xb, yb = x_tr[i:i + 32], y_tr[i:i + 32]
        with torch.no_grad():
            t_logits = teacher(xb)
        loss = distill_loss(student(xb), t_logits, yb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    val_loss, val_acc = validate(student)
    scheduler.step(val_loss)
    if val_loss < best["loss"]:
        best.update(loss=val_loss, epoch=epoch,
                    state={k: v.detach().clone() for k, v in student.state_dict().items()})
print(best["epoch"], round(best["loss"], 4))
student.load_state_dict(best["state"])
