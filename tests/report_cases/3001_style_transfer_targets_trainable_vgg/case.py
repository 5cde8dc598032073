"""Neural style transfer (Gatys et al.): optimize the pixels of an image so that its VGG
content features match a content image and its Gram matrices match a style image."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Vgg16(nn.Module):
    """Small stand-in for the torchvision VGG16 feature slices used for style transfer."""

    def __init__(self):
        super().__init__()
        self.slice1 = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU())
        self.slice2 = nn.Sequential(nn.MaxPool2d(2), nn.Conv2d(8, 16, 3, padding=1), nn.ReLU())
        self.slice3 = nn.Sequential(nn.MaxPool2d(2), nn.Conv2d(16, 16, 3, padding=1), nn.ReLU())
        self.content_feature_maps_index = 1
        self.style_feature_maps_indices = [0, 1, 2]

    def forward(self, x):
        relu1 = self.slice1(x)
        relu2 = self.slice2(relu1)
        relu3 = self.slice3(relu2)
        return [relu1, relu2, relu3]


def gram_matrix(x, should_normalize=True):
    b, ch, h, w = x.size()
    features = x.view(b, ch, w * h)
    gram = features.bmm(features.transpose(1, 2))
    if should_normalize:
        gram /= ch * h * w
    return gram


def total_variation(y):
    return torch.sum(torch.abs(y[:, :, :, :-1] - y[:, :, :, 1:])) + \
        torch.sum(torch.abs(y[:, :, :-1, :] - y[:, :, 1:, :]))


def build_loss(neural_net, optimizing_img, target_representations, config):
    target_content_representation = target_representations[0]
    target_style_representation = target_representations[1]
    current_set_of_feature_maps = neural_net(optimizing_img)
    current_content_representation = current_set_of_feature_maps[neural_net.content_feature_maps_index].squeeze(0)
    content_loss = F.mse_loss(target_content_representation, current_content_representation)
    style_loss = 0.0
    current_style_representation = [gram_matrix(x) for cnt, x in enumerate(current_set_of_feature_maps)
                                    if cnt in neural_net.style_feature_maps_indices]
    for gram_gt, gram_hat in zip(target_style_representation, current_style_representation):
        style_loss += F.mse_loss(gram_gt[0], gram_hat[0], reduction='sum')
    style_loss /= len(target_style_representation)
    tv_loss = total_variation(optimizing_img)
    total_loss = config['content_weight'] * content_loss + config['style_weight'] * style_loss + \
        config['tv_weight'] * tv_loss
    return total_loss, content_loss, style_loss, tv_loss


def neural_style_transfer(config):
    content_img = torch.rand(1, 3, 16, 16)
    style_img = torch.rand(1, 3, 16, 16)
    optimizing_img = content_img.clone().requires_grad_(True)

    neural_net = Vgg16()
    content_img_set_of_feature_maps = neural_net(content_img)
    style_img_set_of_feature_maps = neural_net(style_img)
    target_content_representation = content_img_set_of_feature_maps[neural_net.content_feature_maps_index].squeeze(0)
    target_style_representation = [gram_matrix(x) for cnt, x in enumerate(style_img_set_of_feature_maps)
                                   if cnt in neural_net.style_feature_maps_indices]
    target_representations = [target_content_representation, target_style_representation]

    optimizer = torch.optim.Adam((optimizing_img,), lr=0.05)
    for cnt in range(config['num_of_iterations']):
        total_loss, content_loss, style_loss, tv_loss = build_loss(
            neural_net, optimizing_img, target_representations, config)
        total_loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        print(f'iteration: {cnt:03}, total loss={total_loss.item():12.4f}, content_loss={content_loss.item():10.4f}, '
              f'style loss={style_loss.item():10.4f}, tv loss={tv_loss.item():8.4f}')
    return optimizing_img.detach()


if __name__ == "__main__":
    config = {'content_weight': 1e5, 'style_weight': 3e4, 'tv_weight': 1.0, 'num_of_iterations': 5}
    neural_style_transfer(config)
