import torch
import torch.nn as nn
import torch.nn.functional as F


class SpatioTemporalLSTMCell(nn.Module):
    def __init__(self, in_channel, num_hidden, filter_size=3):
        super().__init__()
        self.num_hidden = num_hidden
        pad = filter_size // 2
        self.conv_x = nn.Conv2d(in_channel, num_hidden * 7, filter_size, 1, pad)
        self.conv_h = nn.Conv2d(num_hidden, num_hidden * 4, filter_size, 1, pad)
        self.conv_m = nn.Conv2d(num_hidden, num_hidden * 3, filter_size, 1, pad)
        self.conv_o = nn.Conv2d(num_hidden * 2, num_hidden, filter_size, 1, pad)
        self.conv_last = nn.Conv2d(num_hidden * 2, num_hidden, 1)

    def forward(self, x_t, h_t, c_t, m_t):
        i_x, f_x, g_x, i_x_p, f_x_p, g_x_p, o_x = torch.split(self.conv_x(x_t), self.num_hidden, 1)
        i_h, f_h, g_h, o_h = torch.split(self.conv_h(h_t), self.num_hidden, 1)
        i_m, f_m, g_m = torch.split(self.conv_m(m_t), self.num_hidden, 1)
        i_t, f_t, g_t = torch.sigmoid(i_x + i_h), torch.sigmoid(f_x + f_h + 1.0), torch.tanh(g_x + g_h)
        delta_c = i_t * g_t
        c_new = f_t * c_t + delta_c
        i_t_p, f_t_p, g_t_p = torch.sigmoid(i_x_p + i_m), torch.sigmoid(f_x_p + f_m + 1.0), torch.tanh(g_x_p + g_m)
        delta_m = i_t_p * g_t_p
        m_new = f_t_p * m_t + delta_m
        mem = torch.cat((c_new, m_new), 1)
        o_t = torch.sigmoid(o_x + o_h + self.conv_o(mem))
        h_new = o_t * torch.tanh(self.conv_last(mem))
        return h_new, c_new, m_new, delta_c, delta_m


class RNN(nn.Module):
    """PredRNN-V2 with the memory-decoupling adapter (1x1 conv shared by all layers)."""

    def __init__(self, num_layers, num_hidden, frame_channel):
        super().__init__()
        self.num_layers, self.num_hidden = num_layers, num_hidden
        cells = [SpatioTemporalLSTMCell(frame_channel if i == 0 else num_hidden[i - 1], num_hidden[i])
                 for i in range(num_layers)]
        self.cell_list = nn.ModuleList(cells)
        self.conv_last = nn.Conv2d(num_hidden[-1], frame_channel, 1, bias=False)
        self.adapter = nn.Conv2d(num_hidden[0], num_hidden[0], 1, bias=False)

    def forward(self, frames, input_length):
        B, T, C, H, W = frames.shape
        h_t = [torch.zeros(B, n, H, W) for n in self.num_hidden]
        c_t = [torch.zeros(B, n, H, W) for n in self.num_hidden]
        memory = torch.zeros(B, self.num_hidden[0], H, W)
        next_frames, decouple_terms = [], []
        x_gen = None
        for t in range(T - 1):
            net = frames[:, t] if t < input_length else x_gen
            for i in range(self.num_layers):
                h_t[i], c_t[i], memory, delta_c, delta_m = self.cell_list[i](
                    net if i == 0 else h_t[i - 1], h_t[i], c_t[i], memory)
                dc = F.normalize(self.adapter(delta_c).view(B, delta_c.shape[1], -1), dim=2)
                dm = F.normalize(self.adapter(delta_m).view(B, delta_m.shape[1], -1), dim=2)
                decouple_terms.append(torch.mean(torch.abs(torch.cosine_similarity(dc, dm, dim=2))))
            x_gen = self.conv_last(h_t[-1])
            next_frames.append(x_gen)
        return torch.stack(next_frames, 1), decouple_terms
