"""Inverse cooking (toy): image features -> ingredient list with an autoregressive decoder."""
import argparse

import torch
import torch.nn as nn


def get_parser():
    parser = argparse.ArgumentParser()
    parser.add_argument('--embed_size', type=int, default=16)
    parser.add_argument('--n_att_ingrs', type=int, default=2)
    parser.add_argument('--maxnumlabels', type=int, default=4)
    parser.add_argument('--learning_rate', type=float, default=1e-3)
    parser.add_argument('--num_epochs', type=int, default=2)
    parser.add_argument('--label_smoothing_ingr', type=float, default=0.1)
    return parser


class EncoderCNN(nn.Module):
    def __init__(self, embed_size):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.ReLU(),
                                  nn.Conv2d(8, embed_size, 3, stride=2, padding=1))

    def forward(self, images):
        feats = self.conv(images)
        return feats.flatten(2).transpose(1, 2)  # B x HW x E


class DecoderLayer(nn.Module):
    def __init__(self, embed_dim, heads):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(embed_dim, heads, batch_first=True)
        self.enc_attn = nn.MultiheadAttention(embed_dim, heads, batch_first=True)
        self.fc = nn.Sequential(nn.Linear(embed_dim, embed_dim), nn.ReLU())

    def forward(self, x, enc):
        x = x + self.self_attn(x, x, x, need_weights=False)[0]
        x = x + self.enc_attn(x, enc, enc, need_weights=False)[0]
        return x + self.fc(x)


class IngredientsDecoder(nn.Module):
    def __init__(self, embed_size, vocab_size, heads):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab_size, embed_size)
        self.layer = DecoderLayer(embed_size, heads)
        self.linear = nn.Linear(embed_size, vocab_size)

    def forward(self, ingr_ids, img_features):
        x = self.embed_tokens(ingr_ids)
        x = self.layer(x, img_features)
        return self.linear(x)

    def teacher_forcing(self, img_features, first_token, target_ingrs):
        logits = []
        prev = first_token
        for i in range(target_ingrs.size(1)):
            out = self.forward(prev, img_features)[:, -1]
            logits.append(out)
            prev = torch.cat([prev, target_ingrs[:, i:i + 1]], dim=1)
        logits = torch.stack(logits, 1)
        return logits


class InverseCookingModel(nn.Module):
    def __init__(self, args, ingr_vocab_size):
        super().__init__()
        self.image_encoder = EncoderCNN(args.embed_size)
        self.ingredient_decoder = IngredientsDecoder(args.embed_size, ingr_vocab_size, args.n_att_ingrs)
        self.crit_ingr = nn.CrossEntropyLoss(label_smoothing=args.label_smoothing_ingr)
        self.ingr_vocab_size = ingr_vocab_size

    def forward(self, img_inputs, target_ingrs):
        img_features = self.image_encoder(img_inputs)
        start = torch.zeros(target_ingrs.size(0), 1, dtype=torch.long)
        ingr_logits = self.ingredient_decoder.teacher_forcing(img_features, start, target_ingrs)
        losses = {}
        losses['ingr_loss'] = self.crit_ingr(ingr_logits.reshape(-1, self.ingr_vocab_size),
                                             target_ingrs.reshape(-1))
        return losses


def main(args):
    torch.manual_seed(1234)
    ingr_vocab_size = 12
    model = InverseCookingModel(args, ingr_vocab_size)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.learning_rate)
    data = [(torch.rand(2, 3, 16, 16), torch.randint(1, ingr_vocab_size, (2, args.maxnumlabels)))
            for _ in range(3)]
    for epoch in range(args.num_epochs):
        total_loss_dict = {'ingr_loss': []}
        model.train()
        for img_inputs, ingr_gt in data:
            losses = model(img_inputs, ingr_gt)
            loss = losses['ingr_loss'].mean()
            total_loss_dict['ingr_loss'].append(loss.item())
            model.zero_grad()
            loss.backward()
            optimizer.step()
        print('epoch', epoch, {k: sum(v) / len(v) for k, v in total_loss_dict.items()})


if __name__ == '__main__':
    main(get_parser().parse_args())
