import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Encoder(nn.Module):
    def __init__(self, input_size, hidden_size, T):
        super().__init__()
        self.input_size, self.hidden_size, self.T = input_size, hidden_size, T
        self.lstm_layer = nn.LSTM(input_size=input_size, hidden_size=hidden_size, num_layers=1)
        self.attn_linear = nn.Linear(2 * hidden_size + T - 1, 1)

    def forward(self, input_data):
        B = input_data.size(0)
        input_weighted = torch.zeros(B, self.T - 1, self.input_size)
        input_encoded = torch.zeros(B, self.T - 1, self.hidden_size)
        hidden = torch.zeros(1, B, self.hidden_size)
        cell = torch.zeros(1, B, self.hidden_size)
        for t in range(self.T - 1):
            x = torch.cat((hidden.repeat(self.input_size, 1, 1).permute(1, 0, 2),
                           cell.repeat(self.input_size, 1, 1).permute(1, 0, 2),
                           input_data.permute(0, 2, 1)), dim=2)
            x = self.attn_linear(x.view(-1, self.hidden_size * 2 + self.T - 1))
            attn_weights = F.softmax(x.view(-1, self.input_size), dim=1)
            attn_weights = attn_weights + 1e-6  # keep every driving series slightly active
            weighted_input = torch.mul(attn_weights, input_data[:, t, :])
            _, (hidden, cell) = self.lstm_layer(weighted_input.unsqueeze(0), (hidden, cell))
            input_weighted[:, t, :] = weighted_input
            input_encoded[:, t, :] = hidden[0]
        return input_weighted, input_encoded


class Decoder(nn.Module):
    def __init__(self, encoder_hidden_size, decoder_hidden_size, T):
        super().__init__()
        self.T = T
        self.attn = nn.Sequential(nn.Linear(2 * decoder_hidden_size + encoder_hidden_size, encoder_hidden_size),
                                  nn.Tanh(), nn.Linear(encoder_hidden_size, 1))
        self.lstm_layer = nn.LSTM(input_size=1, hidden_size=decoder_hidden_size)
        self.fc = nn.Linear(encoder_hidden_size + 1, 1)
        self.fc_final = nn.Linear(decoder_hidden_size + encoder_hidden_size, 1)
        self.dh = decoder_hidden_size

    def forward(self, input_encoded, y_history):
        B = input_encoded.size(0)
        hidden = torch.zeros(1, B, self.dh)
        cell = torch.zeros(1, B, self.dh)
        for t in range(self.T - 1):
            x = torch.cat((hidden.repeat(self.T - 1, 1, 1).permute(1, 0, 2),
                           cell.repeat(self.T - 1, 1, 1).permute(1, 0, 2), input_encoded), dim=2)
            attn = F.softmax(self.attn(x).squeeze(-1), dim=1)
            context = torch.bmm(attn.unsqueeze(1), input_encoded)[:, 0, :]
            y_tilde = self.fc(torch.cat((context, y_history[:, t].unsqueeze(1)), dim=1))
            _, (hidden, cell) = self.lstm_layer(y_tilde.unsqueeze(0), (hidden, cell))
        return self.fc_final(torch.cat((hidden[0], context), dim=1))


T, n_series = 6, 4
encoder, decoder = Encoder(n_series, 8, T), Decoder(8, 8, T)
enc_opt = torch.optim.Adam(encoder.parameters(), lr=1e-3)
dec_opt = torch.optim.Adam(decoder.parameters(), lr=1e-3)
for it in range(3):
    X = torch.randn(16, T - 1, n_series)
    y_hist = torch.randn(16, T - 1)
    y_target = X.sum(dim=(1, 2)).unsqueeze(1) * 0.1
    enc_opt.zero_grad(); dec_opt.zero_grad()
    _, enc = encoder(X)
    loss = F.mse_loss(decoder(enc, y_hist), y_target)
    loss.backward()
    enc_opt.step(); dec_opt.step()
    print(it, round(loss.item(), 4))
