import torch


def weight_clipping(model, clipped_range=0.01):
    for param in model.parameters():
        param.data.clamp_(-clipped_range, clipped_range)


class WGANTrainer:
    """Original WGAN recipe: RMSprop, n_critic updates with weight clipping, then one G update."""

    def __init__(self, generator, critic, z_dim, lr=5e-5, critic_iterations=5, weight_clip=0.01):
        self.gen = generator
        self.critic = critic
        self.z_dim = z_dim
        self.critic_iterations = critic_iterations
        self.weight_clip = weight_clip
        self.opt_gen = torch.optim.RMSprop(self.gen.parameters(), lr=lr)
        self.opt_critic = torch.optim.RMSprop(self.critic.parameters(), lr=lr)
        self.history = []

    def train_batch(self, data):
        cur_batch_size = data.shape[0]
        for _ in range(self.critic_iterations):
            noise = torch.randn(cur_batch_size, self.z_dim)
            fake = self.gen(noise)
            critic_real = self.critic(data).reshape(-1)
            critic_fake = self.critic(fake).reshape(-1)
            loss_critic = -(torch.mean(critic_real) - torch.mean(critic_fake))
            self.critic.zero_grad()
            loss_critic.backward(retain_graph=True)
            self.opt_critic.step()
            weight_clipping(self.critic, self.weight_clip)

        # Train Generator: max E[critic(gen_fake)] <-> min -E[critic(gen_fake)]
        gen_fake = self.critic(fake).reshape(-1)
        loss_gen = -torch.mean(gen_fake)
        self.gen.zero_grad()
        loss_gen.backward()
        self.opt_gen.step()
        self.history.append((loss_critic.item(), loss_gen.item()))
        return self.history[-1]
