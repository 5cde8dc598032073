import torch

from layers import L2Regularizer, Res15Encoder
from losses import AllTripletSelector, OnlineTripletLoss

torch.manual_seed(0)

N_WORDS = 6
N_MELS = 40


def speech_commands_batches(n_batches, per_class=3, frames=50):
    """Synthetic keyword-spotting batches: each keyword has its own spectral template."""
    templates = 0.3 * torch.randn(N_WORDS, N_MELS, 1)
    for _ in range(n_batches):
        labels = torch.arange(N_WORDS).repeat_interleave(per_class)
        audio = templates[labels] + torch.randn(len(labels), N_MELS, frames)
        yield audio, labels


def create_pipeline(encoder, l2_regularizer, triplet_loss, audio, labels):
    embeddings = encoder(audio_signal=audio)
    l2_embeddings = l2_regularizer(embeds=embeddings)
    return triplet_loss(embeds=l2_embeddings, targets=labels)


def train(num_epochs=3, steps_per_epoch=4):
    encoder = Res15Encoder(n_mels=N_MELS)
    l2_regularizer = L2Regularizer()
    triplet_loss = OnlineTripletLoss(margin=1.0, triplet_selector=AllTripletSelector())
    optimizer = torch.optim.Adam(encoder.parameters(), lr=1e-3)

    for epoch in range(num_epochs):
        running = 0.0
        for audio, labels in speech_commands_batches(steps_per_epoch):
            loss = create_pipeline(encoder, l2_regularizer, triplet_loss, audio, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            running += loss.item()
        print(f"epoch {epoch}: triplet loss {running / steps_per_epoch:.4f}")


if __name__ == "__main__":
    train()
