"""LSTM seq2seq forecaster: the decoder writes each step's prediction into a preallocated output
tensor; optional teacher forcing."""
import random

import numpy as np
import torch
import torch.nn as nn


class LSTMSeq2Seq(nn.Module):
    def __init__(self, input_feature_num, future_seq_len, output_feature_num, lstm_hidden_dim=16,
                 lstm_layer_num=1, teacher_forcing=False):
        super().__init__()
        self.lstm_encoder = nn.LSTM(input_size=input_feature_num, hidden_size=lstm_hidden_dim,
                                    num_layers=lstm_layer_num, batch_first=True)
        self.lstm_decoder = nn.LSTM(input_size=output_feature_num, hidden_size=lstm_hidden_dim,
                                    num_layers=lstm_layer_num, batch_first=True)
        self.fc = nn.Linear(in_features=lstm_hidden_dim, out_features=output_feature_num)
        self.future_seq_len = future_seq_len
        self.output_feature_num = output_feature_num
        self.teacher_forcing = teacher_forcing

    def forward(self, input_seq, target_seq=None):
        x, (hidden, cell) = self.lstm_encoder(input_seq)
        # input feature order should have target dimensions in the first
        decoder_input = input_seq[:, -1, :self.output_feature_num]
        decoder_input = decoder_input.unsqueeze(1)
        decoder_output = torch.zeros(input_seq.shape[0], self.future_seq_len, self.output_feature_num)
        for i in range(self.future_seq_len):
            decoder_output_step, (hidden, cell) = self.lstm_decoder(decoder_input, (hidden, cell))
            out_step = self.fc(decoder_output_step)
            decoder_output[:, i:i + 1, :] = out_step
            if not self.teacher_forcing or target_seq is None:
                # no teaching force
                decoder_input = out_step
            else:
                # with teaching force
                decoder_input = target_seq[:, i:i + 1, :]
        return decoder_output


def roll_windows(series, past, future):
    xs, ys = [], []
    for s in range(len(series) - past - future):
        xs.append(series[s:s + past])
        ys.append(series[s + past:s + past + future, :1])
    return torch.tensor(np.array(xs), dtype=torch.float32), torch.tensor(np.array(ys), dtype=torch.float32)


if __name__ == '__main__':
    random.seed(0); np.random.seed(0); torch.manual_seed(0)
    t = np.arange(80)
    series = np.stack([np.sin(t / 5.0), np.cos(t / 7.0)], axis=1)
    x, y = roll_windows(series, past=8, future=3)
    for teacher_forcing in (False, True):
        model = LSTMSeq2Seq(input_feature_num=2, future_seq_len=3, output_feature_num=1,
                            teacher_forcing=teacher_forcing)
        optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
        loss_fn = nn.MSELoss()
        for epoch in range(2):
            for s in range(0, 32, 16):
                xb, yb = x[s:s + 16], y[s:s + 16]
                optimizer.zero_grad()
                yhat = model(xb, yb)
                loss = loss_fn(yhat, yb)
                loss.backward()
                optimizer.step()
            print('teacher_forcing', teacher_forcing, 'epoch', epoch, 'mse %.4f' % loss.item())
