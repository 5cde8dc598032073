"""Recurrent REINFORCE on a cue-recall task: a cue is shown at the first step
of an episode and must be reported at the last step.  The policy's recurrent
state is carried through the whole episode with its graph, and the episode's
log-probabilities are backpropagated through time once the episode ends."""
import random
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
random.seed(0)
EP_LEN, N_ACT, OBS = 8, 2, 3


class RecurrentPolicy(nn.Module):
    def __init__(self, hid=32):
        super().__init__()
        self.cell = nn.GRUCell(OBS, hid)
        self.pi = nn.Linear(hid, N_ACT)

    def forward(self, obs, hidden):
        hidden = self.cell(obs, hidden)
        return F.log_softmax(self.pi(hidden), -1), hidden


def observation(t, cue):
    o = torch.zeros(1, OBS)
    o[0, 0] = float(cue) if t == 0 else 0.0
    o[0, 2] = 1.0 if t == EP_LEN - 1 else 0.0          # "decide now" flag
    return o


def run_episode(policy, hidden):
    cue = random.randint(0, 1)
    log_probs, rewards = [], []
    for t in range(EP_LEN):
        logp, hidden = policy(observation(t, cue), hidden)    # graph kept on purpose (BPTT)
        a = int(torch.multinomial(logp.exp(), 1))
        log_probs.append(logp[0, a])
        rewards.append(float(a == cue) if t == EP_LEN - 1 else 0.0)
    return log_probs, rewards


def main():
    policy = RecurrentPolicy()
    opt = torch.optim.Adam(policy.parameters(), lr=3e-3)
    baseline = 0.5
    for episode in range(40):
        hidden = torch.zeros(1, 32)                           # new episode, new state, new graph
        log_probs, rewards = run_episode(policy, hidden)
        ret = sum(rewards)
        loss = -(ret - baseline) * torch.stack(log_probs).sum()
        opt.zero_grad()
        loss.backward()                                       # frees the whole episode graph
        opt.step()
        baseline = 0.9 * baseline + 0.1 * ret
        if episode % 10 == 9:
            print(f"episode {episode} return {ret:.1f} baseline {baseline:.2f}")


if __name__ == "__main__":
    main()
