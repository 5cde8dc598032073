import torch
import torch.nn as nn

from actor import SpikingActor

torch.manual_seed(0)
OBS, ACTS, N_ENVS, HORIZON = 6, 3, 8, 4
MINIBATCH = N_ENVS

actor = SpikingActor(OBS, ACTS)
critic = nn.Sequential(nn.Linear(OBS, 32), nn.Tanh(), nn.Linear(32, 1))
actor_opt = torch.optim.Adam(actor.parameters(), lr=3e-4)
critic_opt = torch.optim.Adam(critic.parameters(), lr=1e-3)


def collect_rollout():
    obs, actions, logp_old = [], [], []
    with torch.no_grad():
        actor.reset_states()
        for t in range(HORIZON):
            o = torch.randn(N_ENVS, OBS)
            dist = actor(o)
            a = dist.sample()
            obs.append(o)
            actions.append(a)
            logp_old.append(dist.log_prob(a))
        obs, actions, logp_old = torch.cat(obs), torch.cat(actions), torch.cat(logp_old)
        values = critic(obs).squeeze(-1)
    returns = values + torch.randn_like(values)
    return obs, actions, logp_old, returns, returns - values


def ppo_update(batch, clip=0.2):
    obs, actions, logp_old, returns, adv = batch
    for start in range(0, obs.shape[0], MINIBATCH):
        idx = slice(start, start + MINIBATCH)
        dist = actor(obs[idx])
        ratio = torch.exp(dist.log_prob(actions[idx]) - logp_old[idx])
        surr = torch.min(ratio * adv[idx], ratio.clamp(1 - clip, 1 + clip) * adv[idx])
        actor_loss = -surr.mean() - 0.01 * dist.entropy().mean()
        actor_opt.zero_grad()
        actor_loss.backward()
        actor_opt.step()

        value_loss = (critic(obs[idx]).squeeze(-1) - returns[idx]).pow(2).mean()
        critic_opt.zero_grad()
        value_loss.backward()
        critic_opt.step()


for iteration in range(2):
    ppo_update(collect_rollout())
    print("iteration", iteration, "done")
