from dataclasses import dataclass


@dataclass
class TrainConfig:
    vocab_size: int = 64
    block_size: int = 8
    n_embd: int = 16
    batch_size: int = 4
    gradient_accumulation_steps: int = 2
    max_iters: int = 3
    learning_rate: float = 6e-4
    weight_decay: float = 0.1
    grad_clip: float = 1.0
    use_amp: bool = False
    log_interval: int = 1
