import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
args = {"n_agents": 3, "obs_dim": 8, "n_actions": 4, "rnn_hidden_dim": 16, "episode_limit": 6, "batch_size": 4}


class RNNAgent(nn.Module):
    def __init__(self, input_shape, args):
        super().__init__()
        self.fc1 = nn.Linear(input_shape, args["rnn_hidden_dim"])
        self.rnn = nn.GRUCell(args["rnn_hidden_dim"], args["rnn_hidden_dim"])
        self.fc2 = nn.Linear(args["rnn_hidden_dim"], args["n_actions"])
        self.args = args

    def init_hidden(self):
        return self.fc1.weight.new_zeros(1, self.args["rnn_hidden_dim"])

    def forward(self, inputs, hidden_state):
        x = F.relu(self.fc1(inputs))
        h = self.rnn(x, hidden_state.reshape(-1, self.args["rnn_hidden_dim"]))
        return self.fc2(h), h


class BasicMAC:
    def __init__(self, args):
        self.args = args
        self.agent = RNNAgent(args["obs_dim"], args)
        self.hidden_states = None

    def init_hidden(self, batch_size):
        self.hidden_states = self.agent.init_hidden().unsqueeze(0).expand(batch_size, self.args["n_agents"], -1)

    def forward(self, obs_t):
        agent_outs, self.hidden_states = self.agent(obs_t.reshape(-1, self.args["obs_dim"]), self.hidden_states)
        return agent_outs.view(obs_t.shape[0], self.args["n_agents"], -1)

    def parameters(self):
        return self.agent.parameters()


mac = BasicMAC(args)
optimiser = torch.optim.RMSprop(mac.parameters(), lr=5e-4)
for t_env in range(3):
    T, B = args["episode_limit"], args["batch_size"]
    obs = torch.randn(B, T, args["n_agents"], args["obs_dim"])
    actions = torch.randint(0, args["n_actions"], (B, T, args["n_agents"], 1))
    targets = torch.randn(B, T, args["n_agents"])
    mac_out = []
    mac.init_hidden(B)
    for t in range(T):
        mac_out.append(mac.forward(obs[:, t]))
    mac_out = torch.stack(mac_out, dim=1)
    chosen_action_qvals = torch.gather(mac_out, dim=3, index=actions).squeeze(3)
    loss = ((chosen_action_qvals - targets) ** 2).mean()
    optimiser.zero_grad()
    loss.backward()
    optimiser.step()
