import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim

torch.manual_seed(0)
np.random.seed(0)


class GANLoss(nn.Module):
    def __init__(self, use_lsgan=True, target_real_label=1.0, target_fake_label=0.0):
        super(GANLoss, self).__init__()
        self.register_buffer('real_label', torch.tensor(target_real_label))
        self.register_buffer('fake_label', torch.tensor(target_fake_label))
        self.loss = nn.MSELoss() if use_lsgan else nn.BCELoss()

    def __call__(self, input, target_is_real):
        target_tensor = self.real_label if target_is_real else self.fake_label
        return self.loss(input, target_tensor.expand_as(input))


def mlp(dims, last_act=None):
    layers = []
    for i in range(len(dims) - 1):
        layers.append(nn.Linear(dims[i], dims[i + 1]))
        if i < len(dims) - 2:
            layers.append(nn.LeakyReLU(0.2))
    if last_act is not None:
        layers.append(last_act)
    return nn.Sequential(*layers)


class AutoEncoder(nn.Module):
    def __init__(self, dim, hid_dim):
        super(AutoEncoder, self).__init__()
        self.enc = nn.Sequential(nn.Linear(dim, 2 * hid_dim), nn.ReLU(), nn.Linear(2 * hid_dim, hid_dim))
        self.dec = nn.Sequential(nn.Linear(hid_dim, 2 * hid_dim), nn.ReLU(), nn.Linear(2 * hid_dim, dim))

    def forward(self, x):
        enc = self.enc(x)
        return enc, self.dec(enc)


class SEM_PCYC(nn.Module):
    def __init__(self, params_model):
        super(SEM_PCYC, self).__init__()
        self.dim_out = params_model['dim_out']
        self.sem_dim = params_model['sem_dim']
        self.num_clss = params_model['num_clss']
        self.lr = params_model['lr']
        self.momentum = params_model['momentum']
        self.dict_clss = params_model['dict_clss']
        self.sem = params_model['sem']

        # Frozen pretrained feature extractors (stand-ins for the VGG trunks)
        self.sketch_model = mlp([128, 96, 64])
        self.image_model = mlp([128, 96, 64])
        for p in list(self.sketch_model.parameters()) + list(self.image_model.parameters()):
            p.requires_grad = False

        # Semantic autoencoder
        self.aut_enc = AutoEncoder(self.sem_dim, self.dim_out)
        # Generators
        self.gen_sk2se = mlp([64, 64, self.dim_out])
        self.gen_im2se = mlp([64, 64, self.dim_out])
        self.gen_se2sk = mlp([self.dim_out, 64, 64])
        self.gen_se2im = mlp([self.dim_out, 64, 64])
        # Discriminators
        self.disc_se = mlp([self.dim_out, 32, 1], nn.Sigmoid())
        self.disc_sk = mlp([64, 32, 1], nn.Sigmoid())
        self.disc_im = mlp([64, 32, 1], nn.Sigmoid())
        # Fixed classifiers (pretrained on the seen classes)
        self.classifier_sk = nn.Linear(64, self.num_clss)
        self.classifier_im = nn.Linear(64, self.num_clss)
        self.classifier_se = nn.Linear(self.dim_out, self.num_clss)
        for c in (self.classifier_sk, self.classifier_im, self.classifier_se):
            for p in c.parameters():
                p.requires_grad = False

        self.optimizer_gen = optim.Adam(list(self.gen_sk2se.parameters()) + list(self.gen_im2se.parameters()) +
                                        list(self.gen_se2sk.parameters()) + list(self.gen_se2im.parameters()),
                                        lr=self.lr)
        self.optimizer_disc = optim.SGD(list(self.disc_se.parameters()) + list(self.disc_sk.parameters()) +
                                        list(self.disc_im.parameters()), lr=self.lr, momentum=self.momentum)
        self.optimizer_ae = optim.SGD(list(self.aut_enc.parameters()), lr=100 * self.lr, momentum=self.momentum)

        self.lambda_se = params_model['lambda_se']
        self.lambda_im = params_model['lambda_im']
        self.lambda_sk = params_model['lambda_sk']
        self.lambda_gen_cyc = params_model['lambda_gen_cyc']
        self.lambda_gen_adv = params_model['lambda_gen_adv']
        self.lambda_gen_cls = params_model['lambda_gen_cls']
        self.lambda_gen_reg = params_model['lambda_gen_reg']
        self.lambda_disc_se = params_model['lambda_disc_se']
        self.lambda_disc_sk = params_model['lambda_disc_sk']
        self.lambda_disc_im = params_model['lambda_disc_im']
        self.lambda_regular = params_model['lambda_regular']
        self.criterion_gan = GANLoss(use_lsgan=True)
        self.criterion_cyc = nn.L1Loss()
        self.criterion_cls = nn.CrossEntropyLoss()
        self.criterion_reg = nn.MSELoss()

    def forward(self, sk, im, se):
        self.sk_fe = self.sketch_model(sk)
        self.im_fe = self.image_model(im)
        self.se_em_enc, self.se_em_rec = self.aut_enc(se)

        # Generate fake example with generators
        self.im2se_em = self.gen_im2se(self.im_fe)
        self.sk2se_em = self.gen_sk2se(self.sk_fe)
        self.se2im_em = self.gen_se2im(self.se_em_enc.detach())
        self.se2sk_em = self.gen_se2sk(self.se_em_enc.detach())

        # Reconstruct original examples for cycle consistency
        self.im_em_hat = self.gen_se2im(self.im2se_em)
        self.sk_em_hat = self.gen_se2sk(self.sk2se_em)
        self.se_em_hat1 = self.gen_sk2se(self.se2sk_em)
        self.se_em_hat2 = self.gen_im2se(self.se2im_em)

    def backward(self, se, cl):
        # Semantic reconstruction
        regularizer = 0
        for l in range(len(self.aut_enc.enc)):
            if self.aut_enc.enc[l]._get_name() == 'Linear':
                regularizer = regularizer + torch.norm(self.aut_enc.enc[l].weight, 2, dim=0).sum()
        loss_aut_enc = self.criterion_reg(self.se_em_rec, se) + self.lambda_regular * regularizer / cl.shape[0]
        self.optimizer_ae.zero_grad()
        loss_aut_enc.backward()
        self.optimizer_ae.step()

        # Adversarial loss with flipped labels (false -> true)
        loss_gen_adv = self.criterion_gan(self.disc_se(self.im2se_em), True) + \
            self.criterion_gan(self.disc_se(self.sk2se_em), True) + \
            self.criterion_gan(self.disc_im(self.se2im_em), True) + \
            self.criterion_gan(self.disc_sk(self.se2sk_em), True)
        loss_gen_adv = self.lambda_gen_adv * loss_gen_adv

        # Cycle consistency loss
        loss_gen_cyc = self.lambda_im * self.criterion_cyc(self.im_em_hat, self.im_fe) + \
            self.lambda_sk * self.criterion_cyc(self.sk_em_hat, self.sk_fe) + \
            self.lambda_se * (self.criterion_cyc(self.se_em_hat1, self.se_em_enc.detach()) +
                              self.criterion_cyc(self.se_em_hat2, self.se_em_enc.detach()))
        loss_gen_cyc = self.lambda_gen_cyc * loss_gen_cyc

        # Classification loss
        loss_gen_cls = self.lambda_se * (self.criterion_cls(self.classifier_se(self.im2se_em), cl) +
                                         self.criterion_cls(self.classifier_se(self.sk2se_em), cl)) + \
            self.lambda_sk * self.criterion_cls(self.classifier_sk(self.se2sk_em), cl) + \
            self.lambda_im * self.criterion_cls(self.classifier_im(self.se2im_em), cl)
        loss_gen_cls = self.lambda_gen_cls * loss_gen_cls

        # Regression loss
        loss_gen_reg = self.lambda_se * (self.criterion_reg(self.im2se_em, self.sk2se_em) +
                                         self.criterion_reg(self.sk2se_em, self.im2se_em)) + \
            self.lambda_im * self.criterion_reg(self.se2im_em, self.im_fe) + \
            self.lambda_sk * self.criterion_reg(self.se2sk_em, self.sk_fe)
        loss_gen_reg = self.lambda_gen_reg * loss_gen_reg

        loss_gen = loss_gen_adv + loss_gen_cyc + loss_gen_cls + loss_gen_reg

        self.optimizer_gen.zero_grad()
        loss_gen.backward()
        self.optimizer_gen.step()

        self.optimizer_disc.zero_grad()

        # Semantic discriminator loss
        # generator / encoder outputs are detached: their graphs were already used (and their
        # weights already stepped) above, the discriminators only need the values
        loss_disc_se = 2 * self.criterion_gan(self.disc_se(self.se_em_enc.detach()), True) + \
            self.criterion_gan(self.disc_se(self.im2se_em.detach()), False) + \
            self.criterion_gan(self.disc_se(self.sk2se_em.detach()), False)
        loss_disc_se = self.lambda_disc_se * loss_disc_se
        loss_disc_se.backward()

        # Sketch discriminator loss
        loss_disc_sk = self.criterion_gan(self.disc_sk(self.sk_fe), True) + \
            self.criterion_gan(self.disc_sk(self.se2sk_em.detach()), False)
        loss_disc_sk = self.lambda_disc_sk * loss_disc_sk
        loss_disc_sk.backward()

        # Image discriminator loss
        loss_disc_im = self.criterion_gan(self.disc_im(self.im_fe), True) + \
            self.criterion_gan(self.disc_im(self.se2im_em.detach()), False)
        loss_disc_im = self.lambda_disc_im * loss_disc_im
        loss_disc_im.backward()

        self.optimizer_disc.step()

        loss_disc = loss_disc_se + loss_disc_sk + loss_disc_im
        return {'aut_enc': loss_aut_enc.item(), 'gen': loss_gen.item(), 'disc': loss_disc.item()}

    def optimize_params(self, sk, im, cl):
        num_cls = torch.from_numpy(numeric_classes(cl, self.dict_clss))
        se = np.zeros((len(cl), self.sem_dim), dtype=np.float32)
        for i, c in enumerate(cl):
            se_c = np.array([], dtype=np.float32)
            for s in self.sem:
                se_c = np.concatenate((se_c, s.get(c).astype(np.float32)), axis=0)
            se[i] = se_c
        se = torch.from_numpy(se)
        self.forward(sk, im, se)
        return self.backward(se, num_cls)


def numeric_classes(tags_classes, dict_tags):
    return np.array([dict_tags.get(t) for t in tags_classes])


def main():
    classes = ['airplane', 'bicycle', 'cat', 'chair', 'cup', 'horse']
    dict_clss = {c: i for i, c in enumerate(classes)}
    # two kinds of side information (e.g. word2vec + hierarchy embeddings), 40 + 24 dims
    sem = [{c: np.random.randn(40) for c in classes}, {c: np.random.randn(24) for c in classes}]
    params_model = dict(dim_out=32, sem_dim=64, num_clss=len(classes), lr=1e-3, momentum=0.9,
                        dict_clss=dict_clss, sem=sem, lambda_se=10.0, lambda_im=10.0, lambda_sk=10.0,
                        lambda_gen_cyc=1.0, lambda_gen_adv=1.0, lambda_gen_cls=1.0, lambda_gen_reg=0.1,
                        lambda_disc_se=0.25, lambda_disc_sk=0.5, lambda_disc_im=0.5, lambda_regular=0.001)
    model = SEM_PCYC(params_model)
    for epoch in range(2):
        for i in range(5):
            cl = list(np.random.choice(classes, 16))
            sk = torch.randn(16, 128)
            im = torch.randn(16, 128)
            loss = model.optimize_params(sk, im, cl)
            print(epoch, i, {k: round(v, 4) for k, v in loss.items()})


if __name__ == '__main__':
    main()
