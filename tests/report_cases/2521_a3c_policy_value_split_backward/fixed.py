import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

OBS_DIM, NUM_ACTIONS = 6, 3
GAMMA, TAU, ENTROPY_COEF = 0.99, 1.0, 0.01


class ActorCritic(nn.Module):
    def __init__(self):
        super(ActorCritic, self).__init__()
        self.fc = nn.Sequential(nn.Linear(OBS_DIM, 32), nn.ELU(), nn.Linear(32, 32), nn.ELU())
        self.lstm = nn.LSTMCell(32, 32)
        self.critic_linear = nn.Linear(32, 1)
        self.actor_linear = nn.Linear(32, NUM_ACTIONS)

    def forward(self, inputs):
        x, (hx, cx) = inputs
        hx, cx = self.lstm(self.fc(x), (hx, cx))
        return self.critic_linear(hx), self.actor_linear(hx), (hx, cx)


class ChainEnv:
    def reset(self):
        self.pos = 0
        return self.obs()

    def obs(self):
        o = torch.zeros(1, OBS_DIM)
        o[0, self.pos] = 1.0
        return o

    def step(self, action):
        self.pos = max(0, min(OBS_DIM - 1, self.pos + action - 1))
        done = self.pos == OBS_DIM - 1
        return self.obs(), (1.0 if done else -0.01), done


model = ActorCritic()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
env = ChainEnv()
state = env.reset()
cx, hx = torch.zeros(1, 32), torch.zeros(1, 32)

for update in range(6):
    cx, hx = cx.detach(), hx.detach()
    values, log_probs, rewards, entropies = [], [], [], []
    for step in range(10):
        value, logit, (hx, cx) = model((state, (hx, cx)))
        prob = F.softmax(logit, dim=-1)
        log_prob = F.log_softmax(logit, dim=-1)
        entropy = -(log_prob * prob).sum(1, keepdim=True)
        action = prob.multinomial(num_samples=1).detach()
        log_prob = log_prob.gather(1, action)
        state, reward, done = env.step(int(action))
        if done:
            state = env.reset()
            cx, hx = torch.zeros(1, 32), torch.zeros(1, 32)
        values.append(value)
        log_probs.append(log_prob)
        rewards.append(reward)
        entropies.append(entropy)

    with torch.no_grad():
        R, _, _ = model((state, (hx, cx)))
    values.append(R)
    policy_loss, value_loss = 0, 0
    gae = torch.zeros(1, 1)
    for i in reversed(range(len(rewards))):
        R = GAMMA * R + rewards[i]
        advantage = R - values[i]
        value_loss = value_loss + 0.5 * advantage.pow(2)
        delta_t = rewards[i] + GAMMA * values[i + 1].detach() - values[i].detach()
        gae = gae * GAMMA * TAU + delta_t
        policy_loss = policy_loss - log_probs[i] * gae - ENTROPY_COEF * entropies[i]

    optimizer.zero_grad()
    (policy_loss + 0.5 * value_loss).backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 40)
    optimizer.step()
    print('update %d  policy loss %.4f  value loss %.4f' % (update, policy_loss.item(), value_loss.item()))
