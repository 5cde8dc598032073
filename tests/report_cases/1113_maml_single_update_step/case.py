"""MAML meta-training with a single inner update step (update_step=1)."""
import torch

from meta import Meta, MetaArgs
from tasks import sample_tasks


def main(args=MetaArgs(update_step=1), epochs=3):
    maml = Meta(args)
    meta_optim = torch.optim.Adam(maml.parameters(), lr=args.meta_lr)
    for step, (x_spt, y_spt, x_qry, y_qry) in enumerate(sample_tasks(args, epochs)):
        losses_q, corrects = maml(x_spt, y_spt, x_qry, y_qry)

        # end of all tasks: sum over all losses on query set across all tasks
        loss_q = losses_q[-1] / args.task_num
        meta_optim.zero_grad()
        loss_q.backward()
        meta_optim.step()

        accs = [c / (args.task_num * args.n_way * args.k_qry) for c in corrects]
        print(f"step {step} query loss {loss_q.item():.4f} accs {accs}")


if __name__ == "__main__":
    torch.manual_seed(0)
    main()
