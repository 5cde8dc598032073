"""EdgeConnect stage 1 (edge model) for image inpainting: an edge generator completes the
edge map of a masked grayscale image; a discriminator with feature matching supervises it."""
import torch
import torch.nn as nn
import torch.optim as optim

torch.manual_seed(0)


class EdgeGenerator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(),
                                 nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(),
                                 nn.Conv2d(16, 1, 3, padding=1))

    def forward(self, x):
        return torch.sigmoid(self.net(x))


class Discriminator(nn.Module):
    def __init__(self, in_channels=2):
        super().__init__()
        self.conv1 = nn.Sequential(nn.Conv2d(in_channels, 16, 4, stride=2, padding=1), nn.LeakyReLU(0.2))
        self.conv2 = nn.Sequential(nn.Conv2d(16, 32, 4, stride=2, padding=1), nn.LeakyReLU(0.2))
        self.conv3 = nn.Conv2d(32, 1, 3, padding=1)

    def forward(self, x):
        conv1 = self.conv1(x)
        conv2 = self.conv2(conv1)
        outputs = torch.sigmoid(self.conv3(conv2))
        return outputs, [conv1, conv2]


class EdgeModel(nn.Module):
    def __init__(self, lr=1e-4, d2g_lr=0.1, fm_loss_weight=10.0):
        super().__init__()
        self.generator = EdgeGenerator()
        self.discriminator = Discriminator(in_channels=2)
        self.l1_loss = nn.L1Loss()
        self.adversarial_loss = nn.BCELoss()
        self.fm_loss_weight = fm_loss_weight
        self.gen_optimizer = optim.Adam(self.generator.parameters(), lr=lr, betas=(0.0, 0.9))
        self.dis_optimizer = optim.Adam(self.discriminator.parameters(), lr=lr * d2g_lr, betas=(0.0, 0.9))

    def process(self, images, edges, masks):
        self.gen_optimizer.zero_grad()
        self.dis_optimizer.zero_grad()
        outputs = self(images, edges, masks)

        dis_input_real = torch.cat((images, edges), dim=1)
        dis_input_fake = torch.cat((images, outputs.detach()), dim=1)
        dis_real, dis_real_feat = self.discriminator(dis_input_real)
        dis_fake, dis_fake_feat = self.discriminator(dis_input_fake)
        dis_loss = (self.adversarial_loss(dis_real, torch.ones_like(dis_real)) +
                    self.adversarial_loss(dis_fake, torch.zeros_like(dis_fake))) / 2

        gen_input_fake = torch.cat((images, outputs), dim=1)
        gen_fake, gen_fake_feat = self.discriminator(gen_input_fake)
        gen_loss = self.adversarial_loss(gen_fake, torch.ones_like(gen_fake))
        gen_fm_loss = 0
        for i in range(len(dis_real_feat)):
            gen_fm_loss += self.l1_loss(gen_fake_feat[i], dis_real_feat[i].detach())
        gen_loss += gen_fm_loss * self.fm_loss_weight
        logs = [("l_d1", dis_loss.item()), ("l_g1", gen_loss.item())]
        return outputs, gen_loss, dis_loss, logs

    def forward(self, images, edges, masks):
        edges_masked = edges * (1 - masks)
        images_masked = images * (1 - masks) + masks
        return self.generator(torch.cat((images_masked, edges_masked, masks), dim=1))

    def backward(self, gen_loss=None, dis_loss=None):
        if dis_loss is not None:
            dis_loss.backward()
        self.dis_optimizer.step()

        if gen_loss is not None:
            gen_loss.backward()
        self.gen_optimizer.step()


if __name__ == "__main__":
    model = EdgeModel()
    images = torch.rand(4, 1, 16, 16)
    edges = (torch.rand(4, 1, 16, 16) > 0.8).float()
    masks = torch.zeros(4, 1, 16, 16)
    masks[:, :, 4:12, 4:12] = 1
    for iteration in range(5):
        outputs, gen_loss, dis_loss, logs = model.process(images, edges, masks)
        model.backward(gen_loss, dis_loss)
        print(iteration, logs)
