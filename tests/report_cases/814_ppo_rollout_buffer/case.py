"""PPO with a pre-allocated rollout buffer and clipped-surrogate minibatch epochs (cleanrl layout)."""
import torch
import torch.nn as nn

from agent import Agent
from buffer import RolloutBuffer

torch.manual_seed(0)
OBS, N_ACT, NUM_STEPS, MB = 4, 2, 64, 16
CLIP, ENT_COEF, VF_COEF = 0.2, 0.01, 0.5

agent = Agent(OBS, N_ACT)
optimizer = torch.optim.Adam(agent.parameters(), lr=2.5e-4, eps=1e-5)
stats = {"pg_loss": [], "v_loss": [], "clipfrac": []}

next_obs = torch.randn(OBS)
for iteration in range(3):
    buf = RolloutBuffer(NUM_STEPS, OBS)
    for step in range(NUM_STEPS):
        with torch.no_grad():
            action, logprob, _, value = agent.get_action_and_value(next_obs)
        reward = 1.0 if action.item() == int(next_obs[0] > 0) else 0.0
        buf.add(step, next_obs, action, logprob, reward, value.flatten())
        next_obs = torch.randn(OBS)
    with torch.no_grad():
        next_value = agent.get_value(next_obs).reshape(1)
        batch = buf.compute_returns(next_value).detach()

    b_inds = torch.arange(NUM_STEPS)
    for epoch in range(2):
        b_inds = b_inds[torch.randperm(NUM_STEPS)]
        for start in range(0, NUM_STEPS, MB):
            mb = b_inds[start:start + MB]
            _, newlogprob, entropy, newvalue = agent.get_action_and_value(batch.obs[mb], batch.actions[mb])
            logratio = newlogprob - batch.logprobs[mb]
            ratio = logratio.exp()
            with torch.no_grad():
                stats["clipfrac"].append(((ratio - 1.0).abs() > CLIP).float().mean().item())
            mb_adv = batch.advantages[mb]
            mb_adv = (mb_adv - mb_adv.mean()) / (mb_adv.std() + 1e-8)
            pg_loss = torch.max(-mb_adv * ratio, -mb_adv * torch.clamp(ratio, 1 - CLIP, 1 + CLIP)).mean()
            v_loss = 0.5 * ((newvalue.view(-1) - batch.returns[mb]) ** 2).mean()
            loss = pg_loss - ENT_COEF * entropy.mean() + v_loss * VF_COEF
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
            optimizer.step()
            stats["pg_loss"].append(pg_loss.item())
            stats["v_loss"].append(v_loss.item())
    print(iteration, {k: round(sum(v) / len(v), 4) for k, v in stats.items()})
