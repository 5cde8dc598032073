"""Dual Learning Algorithm (Ai et al., SIGIR'18) for unbiased learning to rank: a ranking
model and a propensity (examination) model are trained jointly from click logs."""
import torch
import torch.nn as nn


class DenoisingNet(nn.Module):
    def __init__(self, input_vec_size):
        super().__init__()
        self.propensity_net = nn.Sequential(nn.Linear(input_vec_size, 1), nn.ELU())
        self.list_size = input_vec_size

    def forward(self, input_list):
        output_propensity_list = []
        for i in range(self.list_size):
            click_feature = [torch.zeros_like(input_list[i]).unsqueeze(-1) for _ in range(self.list_size)]
            click_feature[i] = torch.ones_like(input_list[i]).unsqueeze(-1)
            output_propensity_list.append(self.propensity_net(torch.cat(click_feature, 1)))
        return torch.cat(output_propensity_list, 1)


class DLA:
    def __init__(self, feature_size, rank_list_size, learning_rate=0.05):
        self.rank_list_size = rank_list_size
        self.model = nn.Sequential(nn.Linear(feature_size, 16), nn.ELU(), nn.Linear(16, 1))
        self.propensity_model = DenoisingNet(rank_list_size)
        self.logits_to_prob = nn.Softmax(dim=-1)
        self.opt_denoise = torch.optim.Adagrad(self.propensity_model.parameters(), learning_rate)
        self.opt_ranker = torch.optim.Adagrad(self.model.parameters(), learning_rate)
        self.global_step = 0

    def softmax_loss(self, output, labels, propensity_weights):
        weighted_labels = (labels + 1e-7) * propensity_weights
        label_dis = weighted_labels / torch.sum(weighted_labels, 1, keepdim=True)
        loss = torch.sum(-label_dis * torch.log_softmax(output, -1), -1) * torch.sum(weighted_labels, 1)
        return torch.sum(loss) / torch.sum(weighted_labels)

    def get_normalized_weights(self, propensity):
        propensity_list = torch.unbind(propensity, dim=1)
        pw_list = [propensity_list[0] / propensity_list[i] for i in range(len(propensity_list))]
        return torch.stack(pw_list, dim=1)

    def train(self, input_feed):
        features, labels = input_feed
        self.model.train()
        train_output = self.model(features).squeeze(-1)
        self.propensity = self.propensity_model(torch.unbind(labels, dim=1))
        self.propensity_weights = self.get_normalized_weights(self.logits_to_prob(self.propensity))
        self.rank_loss = self.softmax_loss(train_output, labels, self.propensity_weights)
        self.relevance_weights = self.get_normalized_weights(self.logits_to_prob(train_output))
        self.exam_loss = self.softmax_loss(self.propensity, labels, self.relevance_weights)
        self.loss = self.exam_loss + self.rank_loss
        self.opt_denoise.zero_grad()
        self.opt_ranker.zero_grad()
        self.loss.backward()
        self.opt_denoise.step()
        self.opt_ranker.step()
        self.global_step += 1
        summary = {"Rank Loss": self.rank_loss.item(), "Exam Loss": self.exam_loss.item()}
        return self.loss.item(), None, summary
