"""EdgeConnect training, MODEL=3 style: the edge model is trained on its own losses and the
inpainting model is trained on the (detached) edge maps it produces, in the same iteration."""
import torch
from models import EdgeModel, InpaintingModel

torch.manual_seed(0)


def load_batch(b=2, size=16):
    images = torch.rand(b, 3, size, size)
    images_gray = images.mean(1, keepdim=True)
    edges = (images_gray > 0.5).float()
    masks = torch.zeros(b, 1, size, size)
    masks[:, :, 4:12, 4:12] = 1
    return images, images_gray, edges, masks


class EdgeConnect:
    def __init__(self):
        self.edge_model = EdgeModel()
        self.inpaint_model = InpaintingModel()

    def train(self, iterations=3):
        for it in range(iterations):
            images, images_gray, edges, masks = load_batch()
            e_outputs, e_gen_loss, e_dis_loss = self.edge_model.process(images_gray, edges, masks)
            e_outputs = e_outputs.detach() * masks + edges * (1 - masks)
            i_outputs, i_gen_loss, i_dis_loss = self.inpaint_model.process(images, e_outputs, masks)
            outputs_merged = (i_outputs * masks) + (images * (1 - masks))
            psnr = 10 * torch.log10(1.0 / ((outputs_merged - images) ** 2).mean())
            self.inpaint_model.backward(i_gen_loss, i_dis_loss)
            self.edge_model.backward(e_gen_loss, e_dis_loss)
            print(f"iter {it} psnr {psnr.item():.2f} e_gen {e_gen_loss.item():.3f} i_gen {i_gen_loss.item():.3f}")


if __name__ == "__main__":
    EdgeConnect().train()
