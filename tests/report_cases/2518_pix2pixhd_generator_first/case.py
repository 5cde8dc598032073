import torch

from pix2pixHD_model import Pix2PixHDModel

torch.manual_seed(0)

model = Pix2PixHDModel()
optimizer_G, optimizer_D = model.optimizer_G, model.optimizer_D

for epoch in range(2):
    for i in range(3):
        label = torch.nn.functional.one_hot(torch.randint(0, 4, (2, 16, 16)), 4).permute(0, 3, 1, 2).float()
        real_image = torch.rand(2, 3, 16, 16) * 2 - 1

        losses, generated = model(label, real_image)
        loss_dict = dict(zip(['G_GAN', 'G_GAN_Feat', 'D_real', 'D_fake'], losses))

        # calculate final loss scalar
        loss_D = (loss_dict['D_fake'] + loss_dict['D_real']) * 0.5
        loss_G = loss_dict['G_GAN'] + loss_dict['G_GAN_Feat']

        # update generator weights
        optimizer_G.zero_grad()
        loss_G.backward()
        optimizer_G.step()

        # update discriminator weights
        optimizer_D.zero_grad()
        loss_D.backward()
        optimizer_D.step()

    print('epoch %d  ' % epoch + '  '.join('%s %.3f' % (k, float(v)) for k, v in loss_dict.items()))
