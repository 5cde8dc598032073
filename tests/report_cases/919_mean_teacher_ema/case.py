"""Mean-teacher semi-supervised training on random labeled / unlabeled batches."""
import torch

from model import build_net, EMATeacher
from losses import supervised_loss, consistency_loss, teacher_targets


def main(iters=5, w_cons=2.0):
    torch.manual_seed(0)
    student = build_net()
    teacher = EMATeacher(student)
    opt = torch.optim.SGD(student.parameters(), lr=0.05, momentum=0.9, nesterov=True)
    for it in range(iters):
        x_l, y_l = torch.randn(4, 10), torch.randint(0, 3, (4,))
        x_u = torch.randn(8, 10)
        t_logits = teacher_targets(teacher, x_u + 0.05 * torch.randn_like(x_u))
        loss = supervised_loss(student(x_l), y_l) + w_cons * consistency_loss(student(x_u), t_logits)
        opt.zero_grad()
        loss.backward()
        opt.step()
        teacher.update(student)
        print(it, round(loss.item(), 4))


if __name__ == "__main__":
    main()
