"""Recurrent Q-learning (DRQN-style) on a cue-recall task: a cue is shown at
the first step of an episode and must be reported at the last step.  The agent
acts with its recurrent state carried through the episode; learning samples
whole stored episodes from a replay buffer and replays them from a zero state."""
import random
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
random.seed(0)
EP_LEN, N_ACT, OBS = 8, 2, 3


class RecurrentQ(nn.Module):
    def __init__(self, hid=32):
        super().__init__()
        self.cell = nn.GRUCell(OBS, hid)
        self.q = nn.Linear(hid, N_ACT)

    def forward(self, obs, hidden):
        hidden = self.cell(obs, hidden)
        return self.q(hidden), hidden


def observation(t, cue):
    o = torch.zeros(1, OBS)
    o[0, 0] = float(cue) if t == 0 else 0.0
    o[0, 2] = 1.0 if t == EP_LEN - 1 else 0.0          # "decide now" flag
    return o


@torch.no_grad()                                        # acting needs values only, no graph
def run_episode(net, hidden, eps):
    cue = random.randint(0, 1)
    transitions = []
    for t in range(EP_LEN):
        obs = observation(t, cue)
        q, hidden = net(obs, hidden)
        a = random.randrange(N_ACT) if random.random() < eps else int(q.argmax())
        r = float(a == cue) if t == EP_LEN - 1 else 0.0
        transitions.append((obs, a, r))
    return transitions, hidden


def learn(net, target, opt, episodes, gamma=0.9):
    loss = 0.0
    for ep in episodes:
        h, h_t = torch.zeros(1, 32), torch.zeros(1, 32)
        qs, next_vals = [], []
        for obs, a, r in ep:
            q, h = net(obs, h)
            with torch.no_grad():
                q_t, h_t = target(obs, h_t)
            qs.append(q[0, a]); next_vals.append(q_t.max())
        for t, (_, _, r) in enumerate(ep):
            boot = gamma * next_vals[t + 1] if t + 1 < len(ep) else 0.0
            loss = loss + F.smooth_l1_loss(qs[t], torch.tensor(r) + boot)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


def main():
    net, target = RecurrentQ(), RecurrentQ()
    target.load_state_dict(net.state_dict())
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    buffer, hidden = [], torch.zeros(1, 32)
    for episode in range(40):
        transitions, hidden = run_episode(net, hidden, eps=0.3)   # state carried across episodes
        buffer.append(transitions)
        if len(buffer) >= 4:
            loss = learn(net, target, opt, random.sample(buffer, 4))
        if episode % 10 == 9:
            target.load_state_dict(net.state_dict())
            print(f"episode {episode} loss {loss:.4f} hidden grad_fn {type(hidden.grad_fn).__name__}")


if __name__ == "__main__":
    main()
