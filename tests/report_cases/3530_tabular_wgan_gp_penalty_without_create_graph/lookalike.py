"""CTGAN-style tabular synthesizer: residual generator with tanh heads for
continuous columns and Gumbel-softmax heads for categorical columns, a packed
critic (PAC) and WGAN-GP training with several critic steps per generator step."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_CONT, CAT_SIZES, Z_DIM, PAC, BATCH = 2, [3, 4], 16, 4, 64
DATA_DIM = N_CONT + sum(CAT_SIZES)


def make_table(n=512):
    cont = torch.randn(n, N_CONT) * 0.3
    cats = [F.one_hot(torch.randint(0, k, (n,)), k).float() for k in CAT_SIZES]
    cont[:, 1] += 0.5 * cats[0].argmax(1).float() - 0.5     # column dependency
    return torch.cat([cont.clamp(-1, 1)] + cats, dim=1)


class Residual(nn.Module):
    def __init__(self, i, o):
        super().__init__()
        self.fc, self.bn = nn.Linear(i, o), nn.BatchNorm1d(o)

    def forward(self, x):
        return torch.cat([F.relu(self.bn(self.fc(x))), x], dim=1)


class Generator(nn.Module):
    def __init__(self, hid=64):
        super().__init__()
        self.body = nn.Sequential(Residual(Z_DIM, hid), Residual(Z_DIM + hid, hid))
        self.out = nn.Linear(Z_DIM + 2 * hid, DATA_DIM)

    def forward(self, z):
        raw = self.out(self.body(z))
        parts, start = [torch.tanh(raw[:, :N_CONT])], N_CONT
        for k in CAT_SIZES:
            parts.append(F.gumbel_softmax(raw[:, start:start + k], tau=0.2))
            start += k
        return torch.cat(parts, dim=1)


class Critic(nn.Module):
    def __init__(self, hid=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(DATA_DIM * PAC, hid), nn.LeakyReLU(0.2), nn.Dropout(0.5),
                                 nn.Linear(hid, hid), nn.LeakyReLU(0.2), nn.Linear(hid, 1))

    def forward(self, x):
        return self.net(x.view(-1, DATA_DIM * PAC))


def gradient_penalty(critic, real, fake, lam=10.0):
    alpha = torch.rand(real.size(0) // PAC, 1, 1).expand(-1, PAC, DATA_DIM).reshape(-1, DATA_DIM)
    interp = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    scores = critic(interp)
    grads = torch.autograd.grad(outputs=scores, inputs=interp,
                                grad_outputs=torch.ones_like(scores),
                                create_graph=True, retain_graph=True)[0]
    grads = grads.view(-1, PAC * DATA_DIM)
    return lam * ((grads.norm(2, dim=1) - 1) ** 2).mean()


def critic_input_grad_norm(critic, batch):
    """Diagnostic: how steep the critic is around real rows (logged only)."""
    x = batch.clone().requires_grad_(True)
    scores = critic(x)
    grads = torch.autograd.grad(outputs=scores, inputs=x,
                                grad_outputs=torch.ones_like(scores))[0]
    return grads.view(-1, PAC * DATA_DIM).norm(2, dim=1).mean().item()


class TabularWGAN:
    def __init__(self, critic_steps=3):
        self.G, self.D = Generator(), Critic()
        self.opt_g = torch.optim.Adam(self.G.parameters(), lr=2e-4, betas=(0.5, 0.9))
        self.opt_d = torch.optim.Adam(self.D.parameters(), lr=2e-4, betas=(0.5, 0.9))
        self.critic_steps = critic_steps

    def critic_step(self, real):
        fake = self.G(torch.randn(real.size(0), Z_DIM)).detach()
        self.opt_d.zero_grad()
        d_real, d_fake = self.D(real).mean(), self.D(fake).mean()
        gp = gradient_penalty(self.D, real, fake)
        loss_d = d_fake - d_real + gp
        loss_d.backward()
        self.opt_d.step()
        return loss_d.item()

    def generator_step(self):
        self.opt_g.zero_grad()
        loss_g = -self.D(self.G(torch.randn(BATCH, Z_DIM))).mean()
        loss_g.backward()
        self.opt_g.step()
        return loss_g.item()

    def fit(self, table, epochs=3):
        for epoch in range(epochs):
            perm = torch.randperm(table.size(0))
            for i in range(0, table.size(0), BATCH * self.critic_steps):
                for k in range(self.critic_steps):
                    idx = perm[i + k * BATCH:i + (k + 1) * BATCH]
                    if idx.numel() == BATCH:
                        loss_d = self.critic_step(table[idx])
                loss_g = self.generator_step()
            steep = critic_input_grad_norm(self.D, table[perm[:BATCH]])
            print(f"epoch {epoch}: loss_d {loss_d:.3f} loss_g {loss_g:.3f} |grad D| {steep:.3f}")


if __name__ == "__main__":
    TabularWGAN().fit(make_table())
