"""PredRNN-V2 video prediction trainer with the memory decoupling loss.
The decoupling adapter is optimised separately with its own learning rate."""
import argparse

import torch
import torch.nn.functional as F

from predrnn_v2 import RNN


class Model:
    def __init__(self, configs):
        self.configs = configs
        self.network = RNN(configs.num_layers, [configs.num_hidden] * configs.num_layers, configs.img_channel)
        adapter_params = list(self.network.adapter.parameters())
        other_params = [p for n, p in self.network.named_parameters() if not n.startswith("adapter.")]
        self.optimizer = torch.optim.Adam(other_params, lr=configs.lr)
        self.adapter_optimizer = torch.optim.Adam(adapter_params, lr=configs.adapter_lr)

    def train(self, frames):
        self.optimizer.zero_grad()
        self.adapter_optimizer.zero_grad()
        next_frames, decouple_terms = self.network(frames, self.configs.input_length)
        mse = F.mse_loss(next_frames, frames[:, 1:])
        decouple_loss = torch.mean(torch.tensor(decouple_terms))
        loss = mse + self.configs.decouple_beta * decouple_loss
        loss.backward()
        self.optimizer.step()
        self.adapter_optimizer.step()
        return mse.item(), decouple_loss.item()


def make_moving_square(batch, T, size=12):
    frames = torch.zeros(batch, T, 1, size, size)
    pos = torch.randint(0, size - 4, (batch, 2))
    vel = torch.randint(-1, 2, (batch, 2))
    for t in range(T):
        for b in range(batch):
            y, x = (pos[b] + t * vel[b]).clamp(0, size - 4).tolist()
            frames[b, t, 0, y:y + 4, x:x + 4] = 1.0
    return frames


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--num_layers", type=int, default=2)
    parser.add_argument("--num_hidden", type=int, default=12)
    parser.add_argument("--img_channel", type=int, default=1)
    parser.add_argument("--total_length", type=int, default=6)
    parser.add_argument("--input_length", type=int, default=3)
    parser.add_argument("--decouple_beta", type=float, default=0.1)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--adapter_lr", type=float, default=1e-2)
    parser.add_argument("--max_iterations", type=int, default=4)
    configs = parser.parse_args()
    torch.manual_seed(0)
    model = Model(configs)
    for itr in range(1, configs.max_iterations + 1):
        ims = make_moving_square(4, configs.total_length)
        mse, dec = model.train(ims)
        print(f"itr {itr} mse {mse:.5f} decouple {dec:.4f}")


if __name__ == "__main__":
    main()
