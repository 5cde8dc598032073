import torch


class ReplayBuffer:
    """Fixed-size replay memory stored as preallocated tensors."""

    def __init__(self, max_size, input_dims):
        self.mem_size = max_size
        self.mem_cntr = 0
        self.state_memory = torch.zeros(max_size, input_dims)
        self.new_state_memory = torch.zeros(max_size, input_dims)
        self.action_memory = torch.zeros(max_size, dtype=torch.long)
        self.reward_memory = torch.zeros(max_size)
        self.terminal_memory = torch.zeros(max_size, dtype=torch.bool)

    def store_transition(self, state, action, reward, state_, done):
        index = self.mem_cntr % self.mem_size
        self.state_memory[index] = state
        self.new_state_memory[index] = state_
        self.action_memory[index] = action
        self.reward_memory[index] = reward
        self.terminal_memory[index] = done
        self.mem_cntr += 1

    def sample_buffer(self, batch_size):
        max_mem = min(self.mem_cntr, self.mem_size)
        batch = torch.randperm(max_mem)[:batch_size]
        return (self.state_memory[batch], self.action_memory[batch], self.reward_memory[batch],
                self.new_state_memory[batch], self.terminal_memory[batch])
