import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
config = {"num_options": 3, "state_dim": 6, "action_dim": 2, "rollout_length": 5, "discount": 0.99,
          "termination_regularizer": 0.01, "entropy_weight": 0.01, "beta_reg": 0.01}


class OptionCriticNet(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.body = nn.Sequential(nn.Linear(cfg["state_dim"], 32), nn.ReLU())
        self.fc_q = nn.Linear(32, cfg["num_options"])
        self.fc_pi = nn.Linear(32, cfg["num_options"] * cfg["action_dim"])
        self.fc_beta = nn.Linear(32, cfg["num_options"])

    def forward(self, x):
        phi = self.body(x)
        pi = self.fc_pi(phi).view(-1, self.cfg["num_options"], self.cfg["action_dim"])
        return {"q": self.fc_q(phi), "beta": torch.sigmoid(self.fc_beta(phi)),
                "log_pi": F.log_softmax(pi, -1), "pi": F.softmax(pi, -1)}


network = OptionCriticNet(config)
optimizer = torch.optim.RMSprop(network.parameters(), lr=1e-3)
target_network = OptionCriticNet(config)
target_network.load_state_dict(network.state_dict())

for it in range(3):
    storage = {k: [] for k in ["q", "beta", "log_pi", "ent", "a", "o", "prev_o", "r", "m"]}
    states = torch.randn(4, config["state_dim"])
    prev_o = torch.randint(0, config["num_options"], (4,))
    for _ in range(config["rollout_length"]):
        pred = network(states)
        o = torch.randint(0, config["num_options"], (4,))
        pi_o = pred["pi"][torch.arange(4), o]
        a = torch.distributions.Categorical(probs=pi_o).sample()
        storage["q"].append(pred["q"]); storage["beta"].append(pred["beta"])
        storage["log_pi"].append(pred["log_pi"][torch.arange(4), o].gather(1, a.unsqueeze(-1)))
        storage["ent"].append(-(pi_o * pi_o.log()).sum(-1, keepdim=True))
        storage["a"].append(a); storage["o"].append(o.unsqueeze(-1)); storage["prev_o"].append(prev_o.unsqueeze(-1))
        storage["r"].append(torch.randn(4, 1)); storage["m"].append(torch.ones(4, 1))
        prev_o, states = o, torch.randn(4, config["state_dim"])
    with torch.no_grad():
        prediction = target_network(states)
        ret = prediction["q"].max(-1, keepdim=True)[0]
    q_loss = pi_loss = beta_loss = 0
    for i in reversed(range(config["rollout_length"])):
        ret = storage["r"][i] + config["discount"] * storage["m"][i] * ret
        q = storage["q"][i].gather(1, storage["o"][i])
        v = storage["q"][i].max(-1, keepdim=True)[0]
        adv = (ret - q).detach()
        beta_adv = (q - v).detach() + config["beta_reg"]
        q_loss = q_loss + (q - ret.detach()).pow(2).mul(0.5).mean()
        pi_loss = pi_loss - (storage["log_pi"][i] * adv).mean() - config["entropy_weight"] * storage["ent"][i].mean()
        beta = storage["beta"][i].gather(1, storage["prev_o"][i])
        beta_loss = beta_loss + (beta * beta_adv).mean()
    optimizer.zero_grad()
    (pi_loss + q_loss + beta_loss).backward()
    nn.utils.clip_grad_norm_(network.parameters(), 5.0)
    optimizer.step()
    target_network.load_state_dict(network.state_dict())
