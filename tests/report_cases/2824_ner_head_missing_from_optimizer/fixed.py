import torch
import torch.nn as nn

torch.manual_seed(0)
VOCAB, N_TAGS, DIM = 50, 5, 32


class CRF(nn.Module):
    def __init__(self, num_tags):
        super().__init__()
        self.start_transitions = nn.Parameter(torch.randn(num_tags) * 0.1)
        self.transitions = nn.Parameter(torch.randn(num_tags, num_tags) * 0.1)

    def forward(self, emissions, tags):
        B, T, K = emissions.shape
        score = self.start_transitions[tags[:, 0]] + emissions[:, 0].gather(1, tags[:, :1]).squeeze(1)
        for t in range(1, T):
            score = score + self.transitions[tags[:, t - 1], tags[:, t]] + emissions[:, t].gather(1, tags[:, t:t + 1]).squeeze(1)
        alpha = self.start_transitions + emissions[:, 0]
        for t in range(1, T):
            alpha = torch.logsumexp(alpha.unsqueeze(2) + self.transitions + emissions[:, t].unsqueeze(1), dim=1)
        return (torch.logsumexp(alpha, dim=1) - score).mean()


class HMNeTNERModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.bert = nn.Sequential(nn.Embedding(VOCAB, DIM), nn.Linear(DIM, DIM), nn.GELU())
        self.image_model = nn.Linear(16, DIM)        # visual prefix encoder
        self.encoder_conv = nn.Linear(2 * DIM, DIM)  # fuses text and visual prefix
        self.fc = nn.Linear(DIM, N_TAGS)
        self.crf = CRF(N_TAGS)

    def forward(self, input_ids, images, labels):
        text = self.bert(input_ids)
        vis = self.image_model(images).unsqueeze(1).expand_as(text)
        h = torch.tanh(self.encoder_conv(torch.cat([text, vis], dim=-1)))
        return self.crf(self.fc(h), labels)


class NERTrainer:
    def __init__(self, model, lr=1e-3, crf_lr=5e-2):
        self.model = model
        self.before_fc = model.fc.weight.detach().clone()
        parameters = []
        params = {"lr": lr, "weight_decay": 1e-2}
        params["params"] = [p for n, p in model.named_parameters() if "bert" in n]
        parameters.append(params)
        params = {"lr": lr, "weight_decay": 1e-2}
        params["params"] = [p for n, p in model.named_parameters() if "encoder_conv" in n or "image_model" in n]
        parameters.append(params)
        params = {"lr": crf_lr, "weight_decay": 0.0}
        params["params"] = [p for n, p in model.named_parameters() if "crf" in n or n.startswith("fc")]
        parameters.append(params)
        self.optimizer = torch.optim.AdamW(parameters)

    def train(self, loader, epochs=3):
        for epoch in range(epochs):
            for input_ids, images, labels in loader:
                loss = self.model(input_ids, images, labels)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
            print("epoch", epoch, round(loss.item(), 4))
        print("fc weight change:", (self.model.fc.weight - self.before_fc).abs().sum().item())


loader = [(torch.randint(0, VOCAB, (4, 7)), torch.randn(4, 16), torch.randint(0, N_TAGS, (4, 7))) for _ in range(3)]
NERTrainer(HMNeTNERModel()).train(loader)
