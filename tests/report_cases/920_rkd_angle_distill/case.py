"""Relational knowledge distillation (distance + angle) from a frozen teacher."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def pdist(e, eps=1e-12):
    prod = e @ e.t()
    sq = prod.diag()
    return (sq.unsqueeze(1) + sq.unsqueeze(0) - 2 * prod).clamp(min=eps).sqrt()


class RkdDistance(nn.Module):
    def forward(self, student, teacher):
        with torch.no_grad():
            t_d = pdist(teacher)
            t_d = t_d / t_d[t_d > 0].mean()
        d = pdist(student)
        d = d / d[d > 0].mean()
        return F.smooth_l1_loss(d, t_d)


class RKdAngle(nn.Module):
    def forward(self, student, teacher):
        with torch.no_grad():
            td = teacher.unsqueeze(0) - teacher.unsqueeze(1)
            norm_td = F.normalize(td, p=2, dim=2)
            t_angle = torch.bmm(norm_td, norm_td.transpose(1, 2)).view(-1)
        sd = student.unsqueeze(0) - student.unsqueeze(1)
        norm_sd = F.normalize(sd, p=2, dim=2)
        s_angle = torch.bmm(norm_sd, norm_sd.transpose(1, 2)).view(-1)
        return F.smooth_l1_loss(s_angle, t_angle)


def main():
    torch.manual_seed(0)
    teacher = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 16)).eval()
    student = nn.Sequential(nn.Linear(20, 24), nn.ReLU(), nn.Linear(24, 16))
    dist_crit, angle_crit = RkdDistance(), RKdAngle()
    opt = torch.optim.Adam(student.parameters(), lr=1e-3)
    for it in range(4):
        images = torch.randn(10, 20)
        with torch.no_grad():
            t_e = teacher(images)
        s_e = student(images)
        loss = 1.0 * dist_crit(s_e, t_e) + 2.0 * angle_crit(s_e, t_e)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(it, round(loss.item(), 4))


if __name__ == "__main__":
    main()
