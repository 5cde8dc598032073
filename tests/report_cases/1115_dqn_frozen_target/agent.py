import torch
import torch.nn.functional as F

from nets import DeepQNetwork
from replay import ReplayBuffer


class DQNAgent:
    EPS_MIN = 0.05
    EPS_DEC = 0.02

    def __init__(self, input_dims, n_actions, gamma=0.99, batch_size=16, mem_size=256,
                 replace=10):
        self.gamma, self.batch_size, self.replace_target_cnt = gamma, batch_size, replace
        self.n_actions = n_actions
        self._epsilon = 1.0
        self.learn_step_counter = 0
        self.memory = ReplayBuffer(mem_size, input_dims)
        self.q_eval = DeepQNetwork(input_dims, n_actions)
        self.q_next = DeepQNetwork(input_dims, n_actions)
        self.q_next.load_state_dict(self.q_eval.state_dict())
        self.q_next.requires_grad_(False)
        self.optimizer = None

    @property
    def epsilon(self):
        return self._epsilon

    def decrement_epsilon(self):
        self._epsilon = max(self.EPS_MIN, self._epsilon - self.EPS_DEC)

    def choose_action(self, observation):
        if torch.rand(()) > self.epsilon:
            with torch.no_grad():
                return int(self.q_eval(observation[None]).argmax(dim=1))
        return int(torch.randint(self.n_actions, ()))

    def replace_target_network(self):
        if self.learn_step_counter % self.replace_target_cnt == 0:
            self.q_next.load_state_dict(self.q_eval.state_dict())

    def compute_targets(self, rewards, states_, dones):
        with torch.no_grad():
            q_next = self.q_next(states_).max(dim=1).values
            q_next[dones] = 0.0
            return rewards + self.gamma * q_next
