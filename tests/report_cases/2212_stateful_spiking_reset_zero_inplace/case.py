import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class SingleSpike(torch.autograd.Function):
    """Heaviside spike in the forward, boxcar surrogate gradient in the backward."""

    @staticmethod
    def forward(ctx, v_minus_thr, window=1.0):
        ctx.save_for_backward(v_minus_thr)
        ctx.window = window
        return (v_minus_thr > 0).float()

    @staticmethod
    def backward(ctx, grad_output):
        (v_minus_thr,) = ctx.saved_tensors
        surrogate = (v_minus_thr.abs() < ctx.window).float() / (2 * ctx.window)
        return grad_output * surrogate, None


class StatefulLayer(nn.Module):
    """Keeps named state tensors as buffers between forward calls."""

    def __init__(self, state_names):
        super().__init__()
        for name in state_names:
            self.register_buffer(name, torch.zeros(0))

    def is_state_initialised(self):
        return all(buffer.numel() > 0 for buffer in self.buffers())

    def state_has_shape(self, shape):
        return all(buffer.shape == shape for buffer in self.buffers())

    def init_state_with_shape(self, shape, randomize=False):
        for name, buffer in self.named_buffers():
            self.register_buffer(name, torch.zeros(shape, device=buffer.device))
        self.reset_states(randomize=randomize)

    def reset_states(self, randomize=False):
        """Reset the state/buffers in a layer."""
        if self.is_state_initialised():
            for buffer in self.buffers():
                if randomize:
                    torch.nn.init.uniform_(buffer)
                else:
                    buffer.zero_()


class LIF(StatefulLayer):
    def __init__(self, tau_mem=5.0, spike_threshold=0.5):
        super().__init__(state_names=["v_mem"])
        self.alpha = float(torch.exp(torch.tensor(-1.0 / tau_mem)))
        self.spike_threshold = spike_threshold

    def forward(self, input_data):
        batch_size, time_steps, *trailing_dim = input_data.shape
        if not self.is_state_initialised() or not self.state_has_shape((batch_size, *trailing_dim)):
            self.init_state_with_shape((batch_size, *trailing_dim))
        v_mem = self.v_mem
        output_spikes = []
        for step in range(time_steps):
            v_mem = self.alpha * v_mem + (1 - self.alpha) * input_data[:, step]
            spikes = SingleSpike.apply(v_mem - self.spike_threshold)
            v_mem = v_mem - spikes * self.spike_threshold  # reset by subtraction
            output_spikes.append(spikes)
        self.v_mem = v_mem
        return torch.stack(output_spikes, 1)


class TimeDistributed(nn.Module):
    def __init__(self, layer):
        super().__init__()
        self.layer = layer

    def forward(self, x):
        b, t = x.shape[:2]
        return self.layer(x.reshape(b * t, *x.shape[2:])).reshape(b, t, -1)


class SNN(nn.Module):
    def __init__(self, n_in=20, n_hidden=48, n_out=4):
        super().__init__()
        self.net = nn.Sequential(TimeDistributed(nn.Linear(n_in, n_hidden)), LIF(),
                                 TimeDistributed(nn.Linear(n_hidden, n_out)), LIF())

    def reset_states(self):
        for layer in self.net:
            if isinstance(layer, StatefulLayer):
                layer.reset_states()

    def forward(self, x):
        return self.net(x)


def spike_train_batches(n_batches, batch_size=16, time_steps=25, n_in=20):
    rates = torch.rand(4, n_in) * 0.6
    batches = []
    for _ in range(n_batches):
        target = torch.randint(0, 4, (batch_size,))
        data = (torch.rand(batch_size, time_steps, n_in) < rates[target][:, None]).float() * 4.0
        batches.append((data, target))
    return batches


def train(epochs=4):
    model = SNN()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    loader = spike_train_batches(5)
    for epoch in range(epochs):
        for data, target in loader:
            model.reset_states()
            out = model(data)
            loss = F.cross_entropy(out.sum(1), target)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    train()
