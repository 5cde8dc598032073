"""Training buffer for the scene-coordinate head: features of all mapping images are computed
once by the frozen, pre-trained encoder and kept in a flat tensor."""
import torch


def create_training_buffer(encoder, images, coords, samples_per_image=32):
    encoder.eval()
    feats, targets = [], []
    with torch.no_grad():
        for image, coord in zip(images, coords):
            f = encoder(image.unsqueeze(0))                 # 1 x C x H x W
            f = f.flatten(2).squeeze(0).transpose(0, 1)     # HW x C
            t = coord.flatten(1).transpose(0, 1)            # HW x 3
            idx = torch.randperm(f.size(0))[:samples_per_image]
            feats.append(f[idx])
            targets.append(t[idx])
    training_buffer = {
        'features': torch.cat(feats),
        'target_coords': torch.cat(targets),
    }
    return training_buffer


def iterate_buffer(training_buffer, batch_size):
    n = training_buffer['features'].size(0)
    perm = torch.randperm(n)
    for start in range(0, n, batch_size):
        idx = perm[start:start + batch_size]
        yield training_buffer['features'][idx], training_buffer['target_coords'][idx]
