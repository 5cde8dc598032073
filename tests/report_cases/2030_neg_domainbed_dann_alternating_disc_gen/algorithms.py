"""DomainBed-style DANN / CDANN: discriminator and generator (featurizer+classifier) updates
alternate; the adversarial term enters the generator loss with a minus sign (no GRL)."""
import torch
import torch.autograd as autograd
import torch.nn as nn
import torch.nn.functional as F


class Algorithm(torch.nn.Module):
    def __init__(self, input_shape, num_classes, num_domains, hparams):
        super().__init__()
        self.hparams = hparams

    def update(self, minibatches, unlabeled=None):
        raise NotImplementedError


class AbstractDANN(Algorithm):
    """Domain-Adversarial Neural Networks (abstract class)"""

    def __init__(self, input_shape, num_classes, num_domains, hparams, conditional, class_balance):
        super().__init__(input_shape, num_classes, num_domains, hparams)
        self.register_buffer('update_count', torch.tensor([0]))
        self.conditional = conditional
        self.class_balance = class_balance

        self.featurizer = nn.Sequential(nn.Linear(input_shape[0], 16), nn.ReLU(), nn.Linear(16, 8))
        self.classifier = nn.Linear(8, num_classes)
        self.discriminator = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, num_domains))
        self.class_embeddings = nn.Embedding(num_classes, 8)

        self.disc_opt = torch.optim.Adam(
            (list(self.discriminator.parameters()) + list(self.class_embeddings.parameters())),
            lr=self.hparams["lr_d"], weight_decay=self.hparams['weight_decay_d'], betas=(self.hparams['beta1'], 0.9))
        self.gen_opt = torch.optim.Adam(
            (list(self.featurizer.parameters()) + list(self.classifier.parameters())),
            lr=self.hparams["lr_g"], weight_decay=self.hparams['weight_decay_g'], betas=(self.hparams['beta1'], 0.9))

    def update(self, minibatches, unlabeled=None):
        self.update_count += 1
        all_x = torch.cat([x for x, y in minibatches])
        all_y = torch.cat([y for x, y in minibatches])
        all_z = self.featurizer(all_x)
        if self.conditional:
            disc_input = all_z + self.class_embeddings(all_y)
        else:
            disc_input = all_z
        disc_out = self.discriminator(disc_input)
        disc_labels = torch.cat([torch.full((x.shape[0],), i, dtype=torch.int64)
                                 for i, (x, y) in enumerate(minibatches)])

        disc_loss = F.cross_entropy(disc_out, disc_labels)

        input_grad = autograd.grad(F.cross_entropy(disc_out, disc_labels, reduction='sum'),
                                   [disc_input], create_graph=True)[0]
        grad_penalty = (input_grad ** 2).sum(dim=1).mean(dim=0)
        disc_loss += self.hparams['grad_penalty'] * grad_penalty

        d_steps_per_g = self.hparams['d_steps_per_g_step']
        if (self.update_count.item() % (1 + d_steps_per_g) < d_steps_per_g):
            self.disc_opt.zero_grad()
            disc_loss.backward()
            self.disc_opt.step()
            return {'disc_loss': disc_loss.item()}
        else:
            all_preds = self.classifier(all_z)
            classifier_loss = F.cross_entropy(all_preds, all_y)
            gen_loss = (classifier_loss + (self.hparams['lambda'] * -disc_loss))
            self.disc_opt.zero_grad()
            self.gen_opt.zero_grad()
            gen_loss.backward()
            self.gen_opt.step()
            return {'gen_loss': gen_loss.item()}


class DANN(AbstractDANN):
    def __init__(self, input_shape, num_classes, num_domains, hparams):
        super().__init__(input_shape, num_classes, num_domains, hparams, conditional=False, class_balance=False)


class CDANN(AbstractDANN):
    def __init__(self, input_shape, num_classes, num_domains, hparams):
        super().__init__(input_shape, num_classes, num_domains, hparams, conditional=True, class_balance=True)
