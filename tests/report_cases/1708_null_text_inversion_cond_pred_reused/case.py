import torch
import torch.nn as nn
import torch.nn.functional as nnf
from torch.optim.adam import Adam

torch.manual_seed(0)

NUM_DDIM_STEPS = 10
GUIDANCE_SCALE = 7.5
VOCAB, SEQ, EMB = 64, 8, 32
LATENT_SHAPE = (1, 4, 8, 8)


class ToyTokenizer:
    def __call__(self, prompts):
        ids = []
        for p in prompts:
            toks = [1 + (ord(c) % (VOCAB - 1)) for c in p][:SEQ]
            ids.append(toks + [0] * (SEQ - len(toks)))
        return torch.tensor(ids)


class TextEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, EMB)
        self.pos = nn.Parameter(torch.randn(SEQ, EMB) * 0.02)
        self.mlp = nn.Sequential(nn.Linear(EMB, EMB), nn.GELU(), nn.Linear(EMB, EMB))

    def forward(self, ids):
        h = self.tok(ids) + self.pos
        return h + self.mlp(h)


class TinyUNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = nn.Conv2d(4, 32, 3, padding=1)
        self.ctx = nn.Linear(EMB, 32)
        self.time = nn.Linear(1, 32)
        self.mid = nn.Conv2d(32, 32, 3, padding=1)
        self.out = nn.Conv2d(32, 4, 3, padding=1)

    def forward(self, x, t, context):
        h = self.inp(x)
        c = self.ctx(context).mean(dim=1)[:, :, None, None]
        tt = self.time(torch.full((x.shape[0], 1), float(t) / 1000.0))[:, :, None, None]
        h = nnf.silu(h + c + tt)
        h = nnf.silu(self.mid(h))
        return self.out(h)


class DDIMScheduler:
    def __init__(self, num_train_timesteps=1000, num_inference_steps=NUM_DDIM_STEPS):
        betas = torch.linspace(0.00085 ** 0.5, 0.012 ** 0.5, num_train_timesteps) ** 2
        self.alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)
        self.final_alpha_cumprod = torch.tensor(1.0)
        self.step_ratio = num_train_timesteps // num_inference_steps
        self.timesteps = list(range(0, num_train_timesteps, self.step_ratio))[::-1]


class NullInversion:
    def __init__(self, unet, text_encoder, tokenizer, scheduler):
        self.unet = unet
        self.text_encoder = text_encoder
        self.tokenizer = tokenizer
        self.scheduler = scheduler
        self.context = None

    def prev_step(self, model_output, timestep, sample):
        prev_timestep = timestep - self.scheduler.step_ratio
        alpha_prod_t = self.scheduler.alphas_cumprod[timestep]
        alpha_prod_t_prev = self.scheduler.alphas_cumprod[prev_timestep] if prev_timestep >= 0 else self.scheduler.final_alpha_cumprod
        beta_prod_t = 1 - alpha_prod_t
        pred_original_sample = (sample - beta_prod_t ** 0.5 * model_output) / alpha_prod_t ** 0.5
        pred_sample_direction = (1 - alpha_prod_t_prev) ** 0.5 * model_output
        return alpha_prod_t_prev ** 0.5 * pred_original_sample + pred_sample_direction

    def next_step(self, model_output, timestep, sample):
        timestep, next_timestep = min(timestep - self.scheduler.step_ratio, 999), timestep
        alpha_prod_t = self.scheduler.alphas_cumprod[timestep] if timestep >= 0 else self.scheduler.final_alpha_cumprod
        alpha_prod_t_next = self.scheduler.alphas_cumprod[next_timestep]
        beta_prod_t = 1 - alpha_prod_t
        next_original_sample = (sample - beta_prod_t ** 0.5 * model_output) / alpha_prod_t ** 0.5
        next_sample_direction = (1 - alpha_prod_t_next) ** 0.5 * model_output
        return alpha_prod_t_next ** 0.5 * next_original_sample + next_sample_direction

    def get_noise_pred_single(self, latents, t, context):
        return self.unet(latents, t, context)

    def init_prompt(self, prompt):
        uncond_input = self.tokenizer([""])
        uncond_embeddings = self.text_encoder(uncond_input)
        text_input = self.tokenizer([prompt])
        text_embeddings = self.text_encoder(text_input)
        self.context = torch.cat([uncond_embeddings, text_embeddings])
        self.prompt = prompt

    @torch.no_grad()
    def ddim_loop(self, latent):
        uncond_embeddings, cond_embeddings = self.context.chunk(2)
        all_latent = [latent]
        latent = latent.clone().detach()
        for i in range(NUM_DDIM_STEPS):
            t = self.scheduler.timesteps[len(self.scheduler.timesteps) - i - 1]
            noise_pred = self.get_noise_pred_single(latent, t, cond_embeddings)
            latent = self.next_step(noise_pred, t, latent)
            all_latent.append(latent)
        return all_latent

    def null_optimization(self, latents, num_inner_steps, epsilon):
        uncond_embeddings, cond_embeddings = self.context.chunk(2)
        uncond_embeddings_list = []
        latent_cur = latents[-1]
        for i in range(NUM_DDIM_STEPS):
            uncond_embeddings = uncond_embeddings.clone().detach()
            uncond_embeddings.requires_grad = True
            optimizer = Adam([uncond_embeddings], lr=1e-2 * (1. - i / 100.))
            latent_prev = latents[len(latents) - i - 2]
            t = self.scheduler.timesteps[i]
            noise_pred_cond = self.get_noise_pred_single(latent_cur, t, cond_embeddings)
            for j in range(num_inner_steps):
                noise_pred_uncond = self.get_noise_pred_single(latent_cur, t, uncond_embeddings)
                noise_pred = noise_pred_uncond + GUIDANCE_SCALE * (noise_pred_cond - noise_pred_uncond)
                latents_prev_rec = self.prev_step(noise_pred, t, latent_cur)
                loss = nnf.mse_loss(latents_prev_rec, latent_prev)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
                if loss.item() < epsilon + i * 2e-5:
                    break
            uncond_embeddings_list.append(uncond_embeddings[:1].detach())
            with torch.no_grad():
                context = torch.cat([uncond_embeddings, cond_embeddings])
                noise_pred_uncond, noise_pred_cond = self.unet(torch.cat([latent_cur] * 2), t, context).chunk(2)
                noise_pred = noise_pred_uncond + GUIDANCE_SCALE * (noise_pred_cond - noise_pred_uncond)
                latent_cur = self.prev_step(noise_pred, t, latent_cur)
        return uncond_embeddings_list

    def invert(self, image_latent, prompt, num_inner_steps=10, early_stop_epsilon=1e-5):
        self.init_prompt(prompt)
        ddim_latents = self.ddim_loop(image_latent)
        uncond_embeddings = self.null_optimization(ddim_latents, num_inner_steps, early_stop_epsilon)
        return ddim_latents[-1], uncond_embeddings


if __name__ == '__main__':
    unet, text_encoder = TinyUNet(), TextEncoder()
    null_inversion = NullInversion(unet, text_encoder, ToyTokenizer(), DDIMScheduler())
    image_latent = torch.randn(LATENT_SHAPE)
    x_t, uncond_embeddings = null_inversion.invert(image_latent, "a cat sitting next to a mirror")
    print(len(uncond_embeddings), x_t.shape)
