import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

CONFIG = {"n_agents": 3, "state_dim": 4, "embed_dim": 8, "n_actions": 3, "lr": 1e-3, "gamma": 0.9,
          "batch": 16, "episodes": 4}
NEIGHBORS = {0: [1], 1: [0, 2], 2: [1]}


class IntersectionAgent(nn.Module):
    """Each intersection encodes its state and reads its neighbours' embeddings (end-to-end)."""

    def __init__(self, cfg, n_neighbors):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(cfg["state_dim"], cfg["embed_dim"]), nn.Tanh(),
                                     nn.Linear(cfg["embed_dim"], cfg["embed_dim"]))
        self.q_head = nn.Linear(cfg["embed_dim"] * (1 + n_neighbors), cfg["n_actions"])
        self.optimizer = torch.optim.Adam(self.parameters(), lr=cfg["lr"])

    def embed(self, state):
        return torch.tanh(self.encoder(state))

    def q_values(self, own_embedding, neighbor_embeddings):
        return self.q_head(torch.cat([own_embedding] + neighbor_embeddings, dim=1))


def network_forward(agents, states):
    embeddings = [agent.embed(s) for agent, s in zip(agents, states)]
    return [agent.q_values(embeddings[i], [embeddings[j] for j in NEIGHBORS[i]])
            for i, agent in enumerate(agents)]


def train_step(agents, batch, cfg):
    states, actions, rewards, next_states = batch
    q_all = network_forward(agents, states)
    with torch.no_grad():
        q_next = network_forward(agents, next_states)
    losses = []
    for i, agent in enumerate(agents):
        q_sa = q_all[i].gather(1, actions[i].unsqueeze(1)).squeeze(1)
        target = rewards[i] + cfg["gamma"] * q_next[i].max(1).values
        loss = F.smooth_l1_loss(q_sa, target)
        agent.optimizer.zero_grad()
        loss.backward(retain_graph=True)
        agent.optimizer.step()
        losses.append(loss.item())
    return losses


def sample_batch(cfg):
    n, b = cfg["n_agents"], cfg["batch"]
    return ([torch.randn(b, cfg["state_dim"]) for _ in range(n)],
            [torch.randint(0, cfg["n_actions"], (b,)) for _ in range(n)],
            [torch.randn(b) for _ in range(n)],
            [torch.randn(b, cfg["state_dim"]) for _ in range(n)])


agents = [IntersectionAgent(CONFIG, len(NEIGHBORS[i])) for i in range(CONFIG["n_agents"])]
for episode in range(CONFIG["episodes"]):
    print(episode, train_step(agents, sample_batch(CONFIG), CONFIG))
