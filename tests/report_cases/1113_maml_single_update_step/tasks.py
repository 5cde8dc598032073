import torch


def sample_tasks(args, n_batches):
    """N-way K-shot tasks drawn from random Gaussian class prototypes."""
    for _ in range(n_batches):
        protos = torch.randn(args.task_num, args.n_way, args.in_dim) * 2

        def draw(k):
            y = torch.arange(args.n_way).repeat_interleave(k)
            x = protos[:, y] + 0.5 * torch.randn(args.task_num, len(y), args.in_dim)
            return x, y.expand(args.task_num, -1)

        x_spt, y_spt = draw(args.k_spt)
        x_qry, y_qry = draw(args.k_qry)
        yield x_spt, y_spt, x_qry, y_qry
