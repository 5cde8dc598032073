"""GG401 / GG402 (graphs cut too early): the labelled programs of tests/gg4xx_cases (written
from public reports, labelled by running them under torch) and the facts the rules rest
on, each with a look-alike that must stay quiet."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from gradguard.analysis import analyze
from gradguard.fixes import apply_edits
from gradguard.rules import gg402_parameters_never_receive_gradient as gg402

HERE = Path(__file__).resolve().parent
CASES = HERE / "gg4xx_cases"
# ../shared beside the checkout (a worktree may sit one folder deeper)
SCORE = next((p / "shared" / "tools" / "score.py" for p in HERE.parents
              if (p / "shared" / "tools" / "score.py").exists()), HERE / "absent")


def codes(text):
    return [f.code for f in analyze(text).findings]


@pytest.mark.skipif(not SCORE.exists(), reason="../shared/tools/score.py is absent")
def test_gg4xx_cases_recall_and_no_false_alarm():
    # this checkout's engine (an installed gradguard may be another one)
    exe = f"env PYTHONPATH={HERE.parent / 'server'} {sys.executable} -m gradguard"
    out = subprocess.run([sys.executable, str(SCORE), str(CASES), "--cmd", exe],
                         capture_output=True, text=True, timeout=900, cwd=CASES)
    last = out.stdout.strip().splitlines()[-1]
    nums = {k: (int(a), int(b)) for k, a, b in re.findall(
        r"(recall|false alarms) (\d+)/(\d+)", last)}
    tp, failing = nums["recall"]
    fa, _ = nums["false alarms"]
    assert failing >= 19 and tp / failing >= 0.9, out.stdout
    assert fa == 0, out.stdout


# the rule's own INVALID example: a GAN whose generator loss also detaches the fake
GAN = gg402.RULE.invalid[0]


def test_gg402_gan_fix_removes_only_the_generator_steps_detach():
    result = analyze(GAN)
    (f,) = [f for f in result.findings if f.code == "GG402"]
    assert f.span.start.line == 15
    fixed = apply_edits(GAN, f.fixes[0].edits)
    assert "loss_g = -D(fake).mean()" in fixed and "D(fake.detach()).mean()" in fixed
    assert codes(fixed) == []


def test_gg402_quiet_when_the_module_escapes_to_unknown_code():
    text = GAN.replace("for _ in range(2):", "helper.register(G)\nfor _ in range(2):")
    assert "GG402" not in codes(text)


def test_gg402_quiet_when_gradients_are_written_by_hand():
    text = GAN.replace("    opt_g.step()", "    G.weight.grad = torch.ones(2, 2)\n    opt_g.step()")
    assert "GG402" not in codes(text)


def test_gg402_quiet_when_optimizer_holds_more_than_module_parameters():
    text = GAN.replace("torch.optim.SGD(G.parameters(), lr=0.1)",
                       "torch.optim.SGD(list(G.parameters()) + [extra], lr=0.1)")
    assert "GG402" not in codes(text)


def test_gg402_quiet_in_a_function_with_unknown_modules():
    text = """import torch
def train(G, D, opt_g, z):
    fake = G(z)
    loss_g = -D(fake.detach()).mean()
    loss_g.backward()
    opt_g.step()
"""
    assert codes(text) == []


def test_gg402_a_parameter_assigned_to_a_module_is_that_modules():
    # ``self.w = nn.Parameter(...)``: a graph through ``x @ self.w`` reaches ``net``, and
    # no backward reaches ``other``, which the optimizer steps
    text = """import torch
import torch.nn as nn
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.randn(2, 2))
    def forward(self, x):
        return x @ self.w
net, other = Net(), nn.Linear(2, 2)
opt = torch.optim.SGD(other.parameters(), lr=0.1)
for _ in range(2):
    loss = net(torch.randn(3, 2)).sum()
    loss.backward()
    opt.step()
"""
    assert codes(text) == ["GG402"]
    assert codes(text.replace("other.parameters()", "net.parameters()")) == []


@pytest.mark.parametrize("text", [
    # a parameter of unknown kind may require grad
    "import torch\ndef f(x):\n    (x * torch.ones(3)).sum().backward()\n",
    # requires_grad set by attribute
    "import torch\nx = torch.zeros(3)\nx.requires_grad = True\n(x * 2).sum().backward()\n",
    # y.backward(grad) on a tensor the engine does not know: grad is not the root
    "import torch\ndef f(model, x):\n    y = model.logits(x)\n    g = torch.zeros(3)\n"
    "    y.backward(g)\n",
    # requires_grad=flag: not known
    "import torch\ndef f(flag):\n    w = torch.zeros(3, requires_grad=flag)\n    w.sum().backward()\n",
    # torch.as_tensor returns a tensor argument itself
    "import torch\ndef f(t):\n    torch.as_tensor(t).sum().backward()\n",
])
def test_gg401_quiet_on_what_is_not_known(text):
    assert "GG401" not in codes(text)


@pytest.mark.parametrize("text,line", [
    ("import torch\nnet = torch.nn.Linear(2, 1)\nclass M(torch.nn.Module):\n"
     "    def __init__(self):\n        super().__init__()\n        self.l = torch.nn.Linear(2, 1)\n"
     "    @torch.no_grad()\n    def score(self, x):\n        return self.l(x).squeeze(1)\n"
     "m = M()\nm.score(torch.randn(3, 2)).sum().backward()\n", 11),
    ("import torch\nnet = torch.nn.Linear(2, 1)\nt = torch.tensor(0.0)\n"
     "t += net(torch.randn(3, 2)).sum().item()\nt.backward()\n", 5),
    # a comparison of tensors (aten gt) has no derivative: the mask carries no graph,
    # and the argmax already cut the loss
    ("import torch\nnet = torch.nn.Linear(2, 3)\nx = torch.randn(4, 2)\n"
     "mask = (torch.rand(4) > 0.3).float()\npred = net(x).argmax(1).float()\n"
     "(pred * mask).mean().backward()\n", 6),
])
def test_gg401_reported(text, line):
    found = [f for f in analyze(text).findings if f.code == "GG401"]
    assert [f.span.start.line for f in found] == [line]


def test_gg401_no_grad_fix_dedents_the_block():
    text = """import torch
net = torch.nn.Linear(2, 1)
x = torch.randn(4, 2)
with torch.no_grad():
    out = net(x)
    loss = out.pow(2).mean()
loss.backward()
"""
    (f,) = analyze(text).findings
    assert f.fixes and f.fixes[0].preferred
    fixed = apply_edits(text, f.fixes[0].edits)
    assert "no_grad" not in fixed and "\nout = net(x)\nloss = out.pow(2).mean()\n" in fixed
    assert codes(fixed) == []


def test_gg401_no_fix_when_the_block_holds_more():
    text = """import torch
net = torch.nn.Linear(2, 1)
x = torch.randn(4, 2)
with torch.no_grad():
    out = net(x)
    ref = net(x * 2)
loss = out.pow(2).mean()
loss.backward()
"""
    (f,) = analyze(text).findings
    assert f.fixes == ()


def test_gg401_quiet_on_a_model_not_known_under_no_grad():
    # its forward may turn grad mode on inside (torch.enable_grad())
    text = """import torch
model = build_model()
model.eval()
with torch.no_grad():
    out = model(torch.randn(3, 2))
out.sum().backward()
"""
    assert "GG401" not in codes(text)


# an optimizer given parameter groups gathered from named_parameters() (the weight-decay
# split of transformer recipes), then the model rebound to a new one (report_cases 1227)
GROUPS = """import torch
import torch.nn as nn
import torch.nn.functional as F


def build_optimizer(model):
    decay, no_decay = [], []
    for name, p in model.named_parameters():
        (no_decay if name.endswith("bias") else decay).append(p)
    return torch.optim.AdamW([
        {"params": decay, "weight_decay": 0.01},
        {"params": no_decay, "weight_decay": 0.0},
    ], lr=1e-3)


def main():
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))
    optimizer = build_optimizer(model)
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))
    for _ in range(3):
        loss = F.cross_entropy(model(torch.randn(5, 4)), torch.randint(0, 3, (5,)))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
"""


def test_gg402_parameter_groups_gathered_from_a_model_later_replaced():
    (f,) = analyze(GROUPS).findings
    assert (f.code, f.span.start.line) == ("GG402", 24)
    assert f.message.render() == (
        "`optimizer` steps the parameters of `model`, but no backward of this loop reaches "
        "them (their way to the loss is cut, or the loss is built from other modules), so "
        "their gradients stay None and `model` does not train")
    assert [(r.span.start.line, r.message.render()) for r in f.related] == [
        (23, "this backward does not reach `model`"),
        (10, "the optimizer took the parameters `model` had here")]


def test_gg402_quiet_on_parameter_groups_of_the_model_trained():
    text = GROUPS.replace(
        "    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))\n    for", "    for")
    assert codes(text) == []


def test_gg402_quiet_when_a_group_may_hold_other_tensors():
    text = GROUPS.replace('{"params": no_decay, "weight_decay": 0.0}',
                          '{"params": no_decay + extra, "weight_decay": 0.0}')
    assert codes(text) == []


# a head installed after the optimizer took the model's parameters (timm's
# reset_classifier): the optimizer holds the old head, the loss reaches only the new one
HEAD = """import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self, classes):
        super().__init__()
        self.body = nn.Linear(4, 8)
        self.pool = nn.AdaptiveAvgPool1d(1)
        self.head = nn.Linear(1, classes)

    def reset_head(self, classes):
        self.head = nn.Linear(1, classes) if classes > 0 else nn.Identity()

    def forward(self, x):
        return self.head(self.pool(self.body(x).unsqueeze(1)).flatten(1))


model = Net(3)
for p in model.body.parameters():
    p.requires_grad = False
optimizer = torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=0.1)
model.reset_head(5)
for _ in range(2):
    loss = model(torch.randn(2, 4)).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
"""


def test_gg402_a_head_installed_after_the_optimizer_was_built():
    # reported where the head is installed, with the fix that builds the optimizer after
    (f,) = analyze(HEAD).findings
    assert (f.code, f.span.start.line, f.message.render()) == (
        "GG402", 23, "`model.reset_head(5)` builds layers of `model` again, after `optimizer` "
                     "took their parameters (line 22): the backward reaches the new layers, "
                     "the optimizer steps the old ones, so they do not train. Build the "
                     "optimizer after this line")
    fixed = apply_edits(HEAD, f.preferred_fix.edits)
    assert fixed.splitlines()[19:23] == [
        "for p in model.body.parameters():", "    p.requires_grad = False",
        "model.reset_head(5)",
        "optimizer = torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=0.1)"]
    assert analyze(fixed).findings == ()


def test_gg402_quiet_when_the_head_is_installed_before_the_optimizer():
    text = HEAD.replace("model.reset_head(5)\n", "").replace(
        "model = Net(3)\n", "model = Net(3)\nmodel.reset_head(5)\n")
    assert codes(text) == []


# Variable(x, requires_grad=True) is x.detach() made a new leaf (torch's legacy
# constructor): the loss behind it reaches no parameter, and nothing raises
VARIABLE = """import torch
import torch.nn as nn
from torch.autograd import Variable

model = nn.Linear(4, 2)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_op = nn.CrossEntropyLoss()
for _ in range(2):
    x = [[1.0, 2.0, 3.0, 4.0]]
    wrapped = False
    if not isinstance(x, torch.Tensor):
        x = torch.as_tensor(x)
        wrapped = True
    out = model(x)
    if wrapped:
        out = out.data
    loss = loss_op(out, torch.tensor([1]))
    loss = Variable(loss, requires_grad=True)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
"""


def test_gg402_a_loss_rewrapped_as_a_new_leaf_by_variable():
    # reported where the loss was rewrapped (the error it would raise, silenced)
    (f,) = analyze(VARIABLE).findings
    assert (f.code, f.span.start.line) == ("GG402", 18)
    assert [(r.span.start.line, r.message.render()) for r in f.related] == [
        (21, "`optimizer` steps `model` here"),
        (16, "the graph from `model` is cut here"),
        (20, "this backward does not reach `model`"),
        (6, "the optimizer took the parameters `model` had here")]


def test_a_python_list_is_no_tensor_and_variable_without_requires_grad_cuts():
    # isinstance(list, torch.Tensor) is False: the .data branch is taken; without the
    # flag, Variable(loss) has no graph and the backward raises (GG401)
    text = VARIABLE.replace("Variable(loss, requires_grad=True)", "Variable(loss)")
    assert [(f.code, f.span.start.line) for f in analyze(text).findings] == [("GG401", 20)]
    # a tensor input never takes the .data branch
    text = VARIABLE.replace("x = [[1.0, 2.0, 3.0, 4.0]]", "x = torch.randn(1, 4)")
    assert codes(text.replace("Variable(loss, requires_grad=True)", "loss")) == []


def test_gg402_quiet_on_a_model_known_only_from_its_methods():
    # self.net comes from a factory the engine cannot read; self.net.train() makes it a
    # model of self's; the loss goes through it and a LogSoftmax (which has no parameters)
    text = """import torch
from zoo import make_net


class Learner(torch.nn.Module):
    def __init__(self):
        super(Learner, self).__init__()
        self.net = make_net()
        self.lsm = torch.nn.LogSoftmax(dim=1)
        self.opt = torch.optim.SGD(self.parameters(), lr=0.1)

    def observe(self, x, y):
        self.net.train()
        self.opt.zero_grad()
        loss = torch.nn.functional.nll_loss(self.lsm(self.net(x)), y)
        loss.backward()
        self.opt.step()


learner = Learner()
for _ in range(2):
    learner.observe(torch.randn(2, 4), torch.tensor([0, 1]))
"""
    assert codes(text) == []


# an actor-critic worker keeps (log_prob, reward, value) tuples, cleared after each update;
# the update rebuilds the log-probs with torch.tensor, a new tensor cut from their graph
WORKER = """import torch
import torch.nn as nn
from torch.distributions import Categorical


class Worker:
    def __init__(self):
        self.actor = nn.Sequential(nn.Linear(4, 2), nn.Softmax(dim=-1))
        self.critic = nn.Linear(4, 1)
        self.actor_opt = torch.optim.Adam(self.actor.parameters(), lr=1e-3)
        self.critic_opt = torch.optim.Adam(self.critic.parameters(), lr=1e-3)
        self.memory = []

    def rollout(self, state):
        for _ in range(3):
            dist = Categorical(self.actor(state))
            action = dist.sample()
            self.memory.append((dist.log_prob(action), float(action), self.critic(state)))
            state = state + 0.1

    def learn(self):
        returns, R = [], 0.0
        for _, r, _ in reversed(self.memory):
            R = r + 0.9 * R
            returns.insert(0, R)
        returns = torch.tensor(returns).unsqueeze(1)
        log_probs = torch.tensor([m[0] for m in self.memory]).unsqueeze(1)
        values = torch.stack([m[2] for m in self.memory])
        advantage = returns - values
        loss = -(log_probs * advantage.detach()).mean() + advantage.pow(2).mean()
        self.actor_opt.zero_grad()
        self.critic_opt.zero_grad()
        loss.backward()
        self.actor_opt.step()
        self.critic_opt.step()
        self.memory.clear()


worker = Worker()
for _ in range(3):
    worker.rollout(torch.zeros(4))
    worker.learn()
"""


def test_gg402_log_probs_rebuilt_with_torch_tensor():
    # reported at the one cut on the way, where the fix goes; the step is related
    (f,) = analyze(WORKER).findings
    assert (f.code, f.span.start.line) == ("GG402", 27)
    assert f.message.render() == (
        "`torch.tensor([m[0] for m in self.memo...` cuts `self.actor` out of the loss: "
        "`self.actor_opt` (line 34) steps their parameters, but no backward of this loop "
        "reaches them, so their gradients stay None and `self.actor` does not train")
    assert [(r.span.start.line, r.message.render()) for r in f.related] == [
        (34, "`self.actor_opt` steps `self.actor` here"),
        (33, "this backward does not reach `self.actor`"),
        (10, "the optimizer took the parameters `self.actor` had here")]
    assert f.preferred_fix.title.render() == (
        "Build `torch.tensor([m[0] for m in self.memo...` with torch.stack, which keeps the "
        "graph of the tensors it stacks, so that the step's modules receive a gradient")
    fixed = apply_edits(WORKER, f.preferred_fix.edits)
    assert fixed == WORKER.replace("torch.tensor([m[0] for m in self.memory])",
                                   "torch.stack([m[0] for m in self.memory])")


def test_gg402_log_probs_gathered_in_lists_are_no_leak_but_a_cut():
    # the list gathers log-probabilities for a loss (not a graph kept for nothing): the
    # finding is the copy that cuts them, fixed by stacking the list
    text = WORKER.replace("self.memory = []", "self.memory, self.log_probs = [], []").replace(
        "            self.memory.append((dist.log_prob(action), float(action), self.critic(state)))\n",
        "            self.log_probs.append(dist.log_prob(action))\n"
        "            self.memory.append((None, float(action), self.critic(state)))\n").replace(
        "torch.tensor([m[0] for m in self.memory])", "torch.tensor(self.log_probs)").replace(
        "        self.memory.clear()\n", "        self.memory.clear()\n        self.log_probs.clear()\n")
    (f,) = analyze(text).findings
    assert (f.code, f.span.start.line) == ("GG402", 28)
    fixed = apply_edits(text, f.preferred_fix.edits)
    assert "        log_probs = torch.stack(self.log_probs).unsqueeze(1)\n" in fixed
    assert codes(fixed) == []


def test_gg402_quiet_on_log_probs_stacked():
    text = WORKER.replace("torch.tensor([m[0] for m in self.memory])",
                          "torch.stack([m[0] for m in self.memory])")
    assert codes(text) == []


# every parameter frozen (the feature-extraction recipe applied to the new head too): a
# batch list of (inputs, labels) tuples, a model none of whose parameters requires grad
FROZEN_ALL = """import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
for p in model.parameters():
    p.requires_grad = False
opt = torch.optim.SGD(model.parameters(), lr=0.1)
batches = [(torch.randn(3, 4), torch.randint(0, 2, (3,))) for _ in range(2)]
for inputs, labels in batches:
    loss = nn.functional.cross_entropy(model(inputs), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
"""


def test_gg401_a_model_none_of_whose_parameters_requires_grad():
    (f,) = analyze(FROZEN_ALL).findings
    assert (f.code, f.span.start.line) == ("GG401", 12)
    assert f.message.render() == (
        "`loss` has no graph: `model(inputs)` on line 10 runs a module none of whose "
        "parameters requires grad on inputs that do not either, so this backward raises "
        "\"element 0 of tensors does not require grad and does not have a grad_fn\"")
    assert [(r.span.start.line, r.span.start.column, r.message.render())
            for r in f.related] == [
        (8, 12, "this tensor does not require grad"),
        (10, 39, "no parameter of this module requires grad"),
        (8, 31, "this tensor does not require grad")]


def test_gg401_quiet_when_the_last_layer_is_trained_again():
    text = FROZEN_ALL.replace("opt = torch", "model[2].requires_grad_(True)\nopt = torch")
    assert codes(text) == []


# linear probing: the backbone frozen parameter by parameter (its own nn.Parameter among
# them), then the head "unfrozen" with an attribute nn.Module does not have
PROBE = """import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(4, 4)
        self.pos = nn.Parameter(torch.zeros(4))
        self.head = nn.Linear(4, 2)

    def forward(self, x):
        return self.head(self.body(x) + self.pos)


model = Net()
for p in model.parameters():
    p.requires_grad = False
model.head.requires_grad = True
opt = torch.optim.SGD(model.head.parameters(), lr=0.1)
for _ in range(2):
    loss = nn.functional.cross_entropy(model(torch.randn(3, 4)), torch.tensor([0, 1, 0]))
    opt.zero_grad()
    loss.backward()
    opt.step()
"""


def test_gg401_requires_grad_set_on_a_module_is_a_plain_attribute():
    (f,) = analyze(PROBE).findings
    assert (f.code, f.span.start.line) == ("GG401", 24)
    assert [(r.span.start.line, r.message.render()) for r in f.related][-2:] == [
        (18, "these parameters stop requiring grad here"),
        (19, "this sets a plain attribute of the module, not its parameters' requires_grad")]
    assert f.preferred_fix.title.render() == \
        "Use `model.head.requires_grad_(True)` to make the module's parameters require grad"
    fixed = apply_edits(PROBE, f.preferred_fix.edits)
    assert "\nmodel.head.requires_grad_(True)\nopt = " in fixed
    assert analyze(fixed).findings == ()


def test_a_frozen_parameter_attribute_has_no_graph():
    # the loop over parameters() surely runs (the module holds an nn.Parameter), so the
    # attribute itself is frozen too: without the head, nothing requires grad
    text = PROBE.replace("model.head.requires_grad = True\n", "").replace(
        "self.head(self.body(x) + self.pos)", "(x * self.pos).sum(1, keepdim=True)")
    (f,) = analyze(text).findings
    assert f.message.render() == (
        "`loss` has no graph: the parameters it is computed from were made not to require "
        "grad (`p.requires_grad`, line 18), so this backward raises \"element 0 of tensors "
        "does not require grad and does not have a grad_fn\"")
    # requires_grad_() undoes it: the loss has a graph, through ``self.pos``, a parameter
    # of ``model``, not of the head the optimizer steps
    assert [f.code for f in analyze(text.replace(
        "opt = torch", "model.requires_grad_()\nopt = torch")).findings] == ["GG402"]


# a learned inner loss (ML3-style meta-learning): torch.autograd.grad without create_graph
# returns gradients with no graph, so the loss after the inner step never reaches loss_net
META = """import torch
import torch.nn as nn
import torch.nn.functional as F

loss_net = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 1))
meta_opt = torch.optim.Adam(loss_net.parameters(), lr=1e-3)
for _ in range(2):
    w = torch.zeros(1, requires_grad=True)
    x, y = torch.randn(4, 1), torch.randn(4, 1)
    inner = loss_net(torch.cat([x * w, y], 1)).mean()
    (g,) = torch.autograd.grad(inner, [w])
    fast = w - 0.1 * g
    meta_loss = F.mse_loss(x * fast, y)
    meta_opt.zero_grad()
    meta_loss.backward()
    meta_opt.step()
"""


def test_gg402_inner_gradients_without_create_graph():
    (f,) = analyze(META).findings
    assert (f.code, f.span.start.line) == ("GG402", 16)
    assert [(r.span.start.line, r.message.render()) for r in f.related] == [
        (11, "the graph from `loss_net` is cut here"),
        (15, "this backward does not reach `loss_net`"),
        (6, "the optimizer took the parameters `loss_net` had here")]
    assert f.preferred_fix.title.render() == (
        "Pass create_graph=True to `torch.autograd.grad`, so that the loss after the inner "
        "step reaches the step's modules")
    fixed = apply_edits(META, f.preferred_fix.edits)
    assert "    (g,) = torch.autograd.grad(inner, [w], create_graph=True)\n" in fixed
    assert codes(fixed) == []


def test_gg401_a_loss_made_of_gradients_without_their_graph():
    text = """import torch
w = torch.randn(3, requires_grad=True)
(g,) = torch.autograd.grad((w ** 2).sum(), [w])
(g ** 2).sum().backward()
"""
    (f,) = analyze(text).findings
    assert (f.code, f.span.start.line) == ("GG401", 4)
    assert f.message.render().startswith(
        "`(g ** 2).sum()` has no graph: it was computed from the gradients "
        "`torch.autograd.grad((w ** 2).sum(), [w])` on line 3 returned without "
        "create_graph=True")


# gradient accumulation with zero_grad() between the backwards and the step
ZERO_THEN_STEP = """import torch
import torch.nn as nn

model = nn.Linear(4, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(4):
    loss = model(torch.randn(2, 4)).pow(2).mean()
    loss.backward()
    if (step + 1) % 2 == 0:
        optimizer.zero_grad(set_to_none=True)
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
"""


def test_gg402_a_step_right_after_zero_grad():
    (f,) = analyze(ZERO_THEN_STEP).findings
    assert (f.code, f.span.start.line) == ("GG402", 12)
    assert f.message.render() == (
        "`optimizer.step()` runs right after `optimizer.zero_grad(set_to_none=True)` (line 10) "
        "with no backward in between: every gradient is None, so the step updates nothing "
        "and the model does not train")
    assert [(r.span.start.line, r.message.render()) for r in f.related] == [
        (10, "the gradients are set to None here")]
    fixed = apply_edits(ZERO_THEN_STEP, f.preferred_fix.edits)
    assert fixed.splitlines()[9:12] == [
        "        nn.utils.clip_grad_norm_(model.parameters(), 1.0)",
        "        optimizer.step()",
        "        optimizer.zero_grad(set_to_none=True)"]
    assert codes(fixed) == []


@pytest.mark.parametrize("before,after", [
    # the usual order
    ("    loss.backward()\n", "    optimizer.zero_grad()\n    loss.backward()\n"),
    # zero_grad(set_to_none=False) leaves zeros, not None: not this finding
    ("set_to_none=True", "set_to_none=False"),
    # code the engine does not follow, given the model, may run a backward
    ("        nn.utils.clip_grad_norm_", "        hooks.on_update(model)\n        nn.utils.clip_grad_norm_"),
])
def test_gg402_quiet_when_a_backward_may_run_after_zero_grad(before, after):
    text = ZERO_THEN_STEP.replace(before, after)
    if before == "    loss.backward()\n":
        text = text.replace("        optimizer.zero_grad(set_to_none=True)\n", "")
    assert codes(text) == []


PHASES = """import torch
import torch.nn as nn


def run_epoch(model, batches, optimizer, phase):
    with torch.set_grad_enabled(phase == "training"):
        for x, y in batches:
            loss = nn.functional.mse_loss(model(x), y)
            if phase == "train":
                loss.requires_grad = True
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()


model = nn.Linear(4, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
batches = [(torch.randn(8, 4), torch.randn(8, 1))]
run_epoch(model, batches, optimizer, "train")
run_epoch(model, batches, optimizer, "val")
"""


def test_gg402_grad_mode_set_from_a_comparison_of_known_strings():
    # the call passes "train", the block compares with "training": grad mode is off, the
    # loss is rewrapped as a leaf, and no gradient reaches the model
    (f,) = analyze(PHASES).findings
    assert (f.code, f.span.start.line) == ("GG402", 10)
    assert [(r.span.start.line, r.message.render()) for r in f.related][:3] == [
        (13, "`optimizer` steps `model` here"),
        (6, "the graph from `model` is cut here"),
        (8, "`model(x)` runs under no_grad here")]


@pytest.mark.parametrize("before,after", [
    # the phase the block compares with is the one the call passes
    ('phase == "training"', 'phase == "train"'),
    # a phase not known: grad mode may be on
    ('run_epoch(model, batches, optimizer, "train")', 'run_epoch(model, batches, optimizer, input())'),
])
def test_gg402_quiet_when_grad_mode_may_be_on(before, after):
    text = PHASES.replace(before, after)
    if before.startswith("run_epoch"):
        text = text.replace('            if phase == "train":\n', '            if phase:\n')
    assert codes(text) == []


SIDE_PARAMETERS = """\
import torch
from torch import nn


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Linear(3, 3)
        self.side = nn.Linear(3, 3)

    def forward(self, x):
        return self.main(x) + self.side(x).detach()


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([Block() for _ in range(2)])

    def side_parameters(self):
        return [p for b in self.blocks for p in b.side.parameters()]

    def forward(self, x):
        x = self.blocks[0](x)
        x = self.blocks[1](x)
        return x


net = Net()
opt = torch.optim.SGD(net.parameters(), lr=0.1)
side_opt = torch.optim.SGD(net.side_parameters(), lr=0.1)
for _ in range(3):
    loss = net(torch.randn(4, 3)).pow(2).mean()
    opt.zero_grad()
    side_opt.zero_grad()
    loss.backward()
    opt.step()
    side_opt.step()
"""


def test_gg402_parameters_a_method_gathers_from_submodules():
    # ``net.side_parameters()`` gathers the ``side`` submodules' parameters: every use of
    # their output is detached, so the side optimizer steps with no gradient
    (f,) = analyze(SIDE_PARAMETERS).findings
    assert (f.code, f.span.start.line) == ("GG402", 12)
    assert f.message.render() == (
        "`self.side(x).detach()` cuts `net.side_parameters()` out of the loss: `side_opt` "
        "(line 38) steps their parameters, but no backward of this loop reaches them, so "
        "their gradients stay None and `net.side_parameters()` does not train")
    assert codes(SIDE_PARAMETERS.replace("self.side(x).detach()", "self.side(x)")) == []


MODULE_ZERO = """import torch
import torch.nn as nn

G = nn.Linear(4, 4)
D = nn.Linear(4, 1)
opt_g = torch.optim.Adam(G.parameters())
opt_d = torch.optim.Adam(D.parameters())
for _ in range(3):
    z = torch.randn(8, 4)
    D.zero_grad()
    fake = G(z)
    loss_d = D(fake).mean()
    loss_d.backward(retain_graph=True)
    opt_d.step()
    G.zero_grad()
    loss_g = -D(fake.detach()).mean()
    loss_g.backward()
    opt_g.step()
"""


def test_gg402_a_module_zero_grad_clears_what_an_earlier_backward_gave():
    # the discriminator's backward reaches G through the fake, but G.zero_grad() sets
    # G's gradients to None before the generator step, whose loss detaches the fake
    (f,) = analyze(MODULE_ZERO).findings
    assert (f.code, f.span.start.line) == ("GG402", 18)
    assert f.message.render() == (
        "`opt_g` steps the parameters of `G`, but no backward since `G.zero_grad()` (line 15) "
        "reaches them (their way to the loss is cut, or the loss is built from other "
        "modules), so their gradients are None and `G` does not train")
    assert [(r.span.start.line, r.message.render()) for r in f.related] == [
        (15, "the gradients are set to None here"),
        (16, "the graph from `G` is cut here"),
        (17, "this backward does not reach `G`"),
        (6, "the optimizer took the parameters `G` had here")]
    fixed = apply_edits(MODULE_ZERO, f.preferred_fix.edits)
    assert fixed.splitlines()[15] == "    loss_g = -D(fake).mean()"
    assert codes(fixed) == []


@pytest.mark.parametrize("before,after", [
    # without the module's zero_grad() the discriminator's backward gave G a gradient
    ("    G.zero_grad()\n", ""),
    # zeros, not None: the discriminator's gradient is gone, but not this finding's fact
    ("G.zero_grad()", "G.zero_grad(set_to_none=False)"),
    # a model holding both clears both, and the generator's loss reaches G
    ("    G.zero_grad()\n    loss_g = -D(fake.detach())", "    G.zero_grad()\n    loss_g = -D(fake)"),
])
def test_gg402_quiet_when_a_gradient_may_reach_after_the_module_zero_grad(before, after):
    assert codes(MODULE_ZERO.replace(before, after)) == []


def test_gg402_fix_keeps_a_cut_whose_graph_a_backward_freed():
    # the discriminator's backward freed the fake's graph: removing the generator step's
    # detach would raise "Trying to backward through the graph a second time"
    text = MODULE_ZERO.replace("loss_d.backward(retain_graph=True)", "loss_d.backward()")
    (f,) = analyze(text).findings
    assert (f.code, f.span.start.line, f.fixes) == ("GG402", 18, ())


MID_DETACH = """import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Linear(4, 8)
        self.mid = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 8))
        self.head = nn.Linear(16, 1)

    def forward(self, x):
        h = torch.relu(self.stem(x))
        m = self.mid(h).detach()
        return self.head(torch.cat([h, m], 1))


net = Net()
opt = torch.optim.Adam(net.parameters(), lr=1e-3)
for step in range(3):
    loss = net(torch.randn(2, 4)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""


def test_gg402_a_detach_in_the_middle_of_a_model_takes_out_the_stages_before_it():
    # ``self.mid`` runs on what the trained stem computed and feeds the trained head only
    # through the detached value: it never gets a gradient (DTUM's decoder feature)
    (f,) = analyze(MID_DETACH).findings
    assert (f.code, f.span.start.line, f.span.start.column) == ("GG402", 14, 12)
    assert f.message.render() == (
        "`self.mid(h).detach()` cuts the graph in the middle of the model: the loss depends "
        "on the parameters of `self.mid` only through it, so no backward of this loop "
        "reaches them, and `opt` (line 24) steps them with no gradient: they do not train")
    assert f.preferred_fix.title.render() == (
        "Remove `.detach()`, so that the backward reaches `self.mid`")
    fixed = apply_edits(MID_DETACH, f.preferred_fix.edits)
    assert "        m = self.mid(h)\n" in fixed
    assert analyze(fixed).findings == ()


@pytest.mark.parametrize("before,after", [
    # what only the input fed: a module frozen that way (a teacher, a fixed backbone)
    ("self.mid(h).detach()", "self.mid(x.new_ones(2, 8)).detach()"),
    # also kept on the model, where the engine does not follow its uses
    ("        m = self.mid(h).detach()\n",
     "        m = self.mid(h).detach()\n        self.feat = self.mid(h)\n"),
    # the middle stage also used with its graph: the head trains it
    ("torch.cat([h, m], 1)", "torch.cat([h, self.mid(h)], 1)"),
])
def test_gg402_quiet_on_a_detach_that_takes_out_nothing_between_trained_stages(before, after):
    text = MID_DETACH.replace(before, after)
    assert text != MID_DETACH
    assert analyze(text).findings == ()


ADD_MODULE = """import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.add_module("conv", nn.Linear(4, 4))

    def forward(self, x):
        return self.conv(x)


G = Block()
opt = torch.optim.Adam(G.parameters())
for _ in range(2):
    with torch.no_grad():
        out = G(torch.randn(2, 4))
    loss = out.mean()
    loss.requires_grad_(True)
    opt.zero_grad()
    loss.backward()
    opt.step()
"""


def test_add_module_registers_a_submodule_as_an_attribute_does():
    # before, add_module handed the module to code the engine does not follow (quiet)
    (f,) = analyze(ADD_MODULE).findings
    assert (f.code, f.span.start.line) == ("GG402", 20)
    assert [(r.span.start.line, r.message.render()) for r in f.related][:3] == [
        (23, "`opt` steps `G` here"),
        (17, "the graph from `G` is cut here"),
        (11, "`self.conv(x)` runs under no_grad here")]


ACTORS = """import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self, i, o):
        super().__init__()
        self.fc1 = nn.Linear(i, 16)
        self.fc2 = nn.Linear(16, o)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


actors = [Net(4, 2), Net(4, 2)]
critic = Net(4, 1)
opts = [torch.optim.Adam(actors[0].parameters()), torch.optim.Adam(actors[1].parameters())]
for _ in range(3):
    obs = torch.randn(8, 4)
    mu = torch.cat([actors[0](obs), actors[1](obs)], dim=1)
    for opt in opts:
        loss = -critic(mu).mean()
        opt.zero_grad()
        loss.backward(retain_graph=True)
        opt.step()
"""


def test_an_optimizer_of_a_module_held_in_a_list_trains_that_module():
    # Adam(actors[0].parameters()): the first actor's step changes weights the joint
    # actions' graph saved, which the second pass's backward needs (MADDPG)
    (f,) = analyze(ACTORS).findings
    assert (f.code, f.span.start.line) == ("GG201", 24)
    assert [(r.span.start.line, r.message.render()) for r in f.related] == [
        (12, "the forward pass saved the parameters of `self.fc2` here"),
        (25, "the parameters were updated here")]


def test_quiet_when_each_listed_optimizer_steps_the_module_of_its_own_loss():
    text = ACTORS.replace("    mu = torch.cat([actors[0](obs), actors[1](obs)], dim=1)\n",
                          "    losses = [actors[0](obs).mean(), actors[1](obs).mean()]\n")
    text = text.replace("    for opt in opts:\n        loss = -critic(mu).mean()\n",
                        "    for opt, loss in zip(opts, losses):\n")
    text = text.replace("backward(retain_graph=True)", "backward()")
    assert codes(text) == []


TWO_LOSSES = """import torch
import torch.nn as nn

enc_a, enc_b = nn.Linear(4, 8), nn.Linear(4, 8)
opt = torch.optim.Adam(list(enc_a.parameters()) + list(enc_b.parameters()))
for _ in range(3):
    x = torch.randn(5, 4)
    la = enc_a(x).pow(2).mean()
    lb = enc_b(x).pow(2).mean()
    opt.zero_grad()
    for loss in [la, lb]:
        loss.backward()
    opt.step()
"""


def test_a_loop_over_a_list_of_losses_backwards_each_graph_once():
    # each element in turn: `la` and `lb` have graphs of their own, each freed once
    assert codes(TWO_LOSSES) == []


def test_a_loop_over_losses_that_share_a_trunk_frees_it_on_the_first():
    text = TWO_LOSSES.replace("    la = enc_a(x).pow(2).mean()\n    lb = enc_b(x).pow(2).mean()\n",
                              "    h = enc_a(x)\n    la = h.pow(2).mean()\n"
                              "    lb = h.abs().mean() + enc_b(x).mean()\n")
    (f,) = analyze(text).findings
    assert (f.code, f.span.start.line) == ("GG101", 13)
    assert "detach" not in f.fixes[0].title.render().lower()


SILENCED = """import torch
net = torch.nn.Linear(2, 1)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for _ in range(3):
    with torch.no_grad():
        out = net(torch.randn(4, 2))
    loss = out.pow(2).mean()
    loss.requires_grad_(True)
    opt.zero_grad()
    loss.backward()
    opt.step()
"""


@pytest.mark.parametrize("silencer,code", [
    ("    loss.requires_grad_(True)\n", "loss.requires_grad_(True)"),
    ("    loss.requires_grad = True  # else: element 0 of tensors does not require grad\n",
     "loss.requires_grad = True"),
    ("    loss = torch.autograd.Variable(loss, requires_grad=True)\n",
     "torch.autograd.Variable(loss, require...")])
def test_a_loss_made_a_new_leaf_to_silence_the_error_is_reported_there(silencer, code):
    # the backward runs and stops at the new leaf: the finding is where the error was hidden
    text = SILENCED.replace("    loss.requires_grad_(True)\n", silencer)
    (f,) = analyze(text).findings
    assert (f.code, f.span.start.line) == ("GG402", 8)
    assert f.message.render() == (
        f"`opt` steps the parameters of `net`, but `{code}` makes a tensor that has no graph "
        "a new leaf: the backward on line 10 runs and stops there, so their gradients stay "
        "None and `net` does not train")
    assert [(r.span.start.line, r.message.render()) for r in f.related][:2] == [
        (11, "`opt` steps `net` here"), (5, "the graph from `net` is cut here")]


def test_a_new_input_leaf_is_no_silencer():
    # a fresh tensor made to require grad is an input (a WGAN-GP interpolate, an
    # adversarial example): nothing was cut, and the step's module is on the loss path
    text = SILENCED.replace("    with torch.no_grad():\n        out = net(torch.randn(4, 2))\n",
                            "    x = torch.randn(4, 2)\n    x.requires_grad_(True)\n"
                            "    out = net(x)\n")
    text = text.replace("    loss.requires_grad_(True)\n", "")
    assert codes(text) == []


def test_a_loss_rebuilt_from_item_sums_as_a_new_leaf_is_reported_there():
    # knowledge distillation summing .item()s (a Python float: `total = 0.0` joined with
    # the loop's sums is known to have no graph) into torch.tensor(..., requires_grad=True)
    text = """import torch
import torch.nn.functional as F


def soft_ce(student_logits, teacher_logits, T=4.0):
    total = 0.0
    for s, t in zip(student_logits, teacher_logits):
        total += -(F.softmax(t / T, -1) * F.log_softmax(s / T, -1)).sum().item()
    return torch.tensor(total / len(student_logits), requires_grad=True)


student = torch.nn.Linear(8, 4)
optimizer = torch.optim.SGD(student.parameters(), lr=0.1)
for _ in range(2):
    x = torch.randn(16, 8)
    loss = soft_ce(student(x), torch.randn(16, 4))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
"""
    (f,) = analyze(text).findings
    assert (f.code, f.span.start.line) == ("GG402", 9)
    assert f.message.render().startswith(
        "`optimizer` steps the parameters of `student`, but `torch.tensor(total / "
        "len(student_logi...` makes a tensor that has no graph a new leaf: the "
        "backward on line 18 runs")


def test_a_silencer_of_a_loss_whose_history_is_not_all_known_is_reported_there():
    # PPO's coefficients come from code the engine does not follow: requires_grad = True
    # raises on a tensor with a graph, so the loss had none there
    text = SILENCED.replace("import torch\n", "import torch\nfrom config import coef\n").replace(
        "    loss = out.pow(2).mean()\n", "    loss = out.pow(2).mean() * coef('vf')\n")
    (f,) = analyze(text).findings
    assert (f.code, f.span.start.line) == ("GG402", 9)


REENTRANT = """import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint

emb = nn.Embedding(10, 4)
emb.requires_grad_(False)
block = nn.Linear(4, 4)
x = emb(torch.randint(0, 10, (2, 3)))
out = checkpoint(block, x, use_reentrant=True)
out.sum().backward()
"""


def test_reentrant_checkpoint_of_inputs_without_grad_has_no_graph():
    # use_reentrant=True: the output requires grad only if an input tensor does; the
    # block's own parameters do not count (torch/utils/checkpoint.py)
    (f,) = analyze(REENTRANT).findings
    assert (f.code, f.span.start.line) == ("GG401", 10)
    assert f.message.render().startswith(
        "`out.sum()` has no graph: it was computed under `checkpoint(block, x, "
        "use_reentrant=True)` (line 9)")
    assert codes(REENTRANT.replace("use_reentrant=True", "use_reentrant=False")) == []
    assert codes(REENTRANT.replace("emb.requires_grad_(False)\n", "")) == []


ACCUMULATION_REMAINDER = """import torch
net = torch.nn.Linear(2, 1)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for epoch in range(2):
    accumulated = 0
    opt.zero_grad()
    for x in [torch.randn(3, 2) for _ in range(5)]:
        net(x).pow(2).mean().backward()
        accumulated += len(x)
        if accumulated >= 6:
            opt.step()
            opt.zero_grad()
            accumulated = 0
    if accumulated != 0:
        opt.step()
"""


def test_a_step_after_zero_grad_on_some_paths_only_is_no_finding():
    # imitation's gradient accumulation: the last step runs for the remainder, after a
    # backward on every path that reaches it (the zero_grad is in the branch before)
    assert codes(ACCUMULATION_REMAINDER) == []
    # right after a zero_grad on every path: it updates nothing
    always = ACCUMULATION_REMAINDER.replace("    if accumulated != 0:\n        opt.step()\n",
                                            "    opt.zero_grad()\n    opt.step()\n")
    assert codes(always) == ["GG402"]


def test_data_parallel_returns_what_the_wrapped_module_returns():
    # flair: ``loss, n = ddp(batch)`` with forward returning (loss, int): n is no tensor
    text = '''import torch
from torch.nn.parallel import DistributedDataParallel as DDP


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(2, 1)

    def forward(self, x):
        return self.lin(x).pow(2).mean(), x.size(0)


ddp = DDP(Model())
total, seen = 0, 0
for _ in range(3):
    loss, n = ddp(torch.randn(4, 2))
    seen += n
    total += loss
    loss.backward()
'''
    assert [(f.code, f.span.start.line) for f in analyze(text).findings] == [("GG301", 19)]


def test_one_parameter_frozen_leaves_its_module_training():
    # opacus' DDP hook check: net1.bias frozen, net1.weight still requires grad
    text = """import torch
import torch.nn as nn
net1, net2 = nn.Linear(10, 10), nn.Linear(10, 5)
net1.bias.requires_grad = False
net2.weight.requires_grad_(False)
opt = torch.optim.SGD(net1.parameters(), lr=1)
for _ in range(2):
    loss = net2(net1(torch.randn(4, 10))).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""
    assert codes(text) == []
    assert codes(text.replace("net1.bias.requires_grad = False\n",
                              "for p in net1.parameters():\n    p.requires_grad = False\n")) \
        == ["GG402"]  # (all of net1 frozen: its optimizer steps nothing)


# practical-pytorch's char-RNN classifier: the optimizer is built over the first RNN, then
# the script builds the RNN again before training (torch: SGD steps, no gradient ever)
REBUILT = """import torch
import torch.nn as nn

rnn = nn.RNN(4, 8)
optimizer = torch.optim.SGD(rnn.parameters(), lr=0.005)


def train(x):
    optimizer.zero_grad()
    out, _ = rnn(x)
    out.sum().backward()
    optimizer.step()


rnn = nn.RNN(4, 8)
for _ in range(3):
    train(torch.randn(5, 2, 4))
"""


def test_gg402_model_built_again_after_its_optimizer_is_reported_where_it_is_built():
    (f,) = analyze(REBUILT).findings
    assert (f.code, f.span.start.line, f.span.start.column) == ("GG402", 15, 0)
    assert f.message.render() == (
        "`rnn` is built again here, after `optimizer` took the parameters of the previous "
        "`rnn` (line 5): the backward reaches this one, the optimizer steps the old one, so "
        "`rnn` does not train. Build the optimizer after this line")
    assert [(r.span.start.line, r.message.render()) for r in f.related] == [
        (5, "the optimizer took the parameters `rnn` had here"),
        (12, "`optimizer` steps `rnn` here")]
    (fix,) = f.fixes
    assert fix.title.render() == "Build `optimizer` after line 15, once `rnn` is built again"
    fixed = apply_edits(REBUILT, fix.edits)
    assert fixed.splitlines()[13:15] == [
        "rnn = nn.RNN(4, 8)", "optimizer = torch.optim.SGD(rnn.parameters(), lr=0.005)"]
    assert analyze(fixed).findings == ()
    # the optimizer built after the model it trains: nothing to report
    assert analyze(REBUILT.replace("rnn = nn.RNN(4, 8)\nfor", "for")).findings == ()


# ArcFace: the margin head is built beside the embedder and trained by the loss, but the
# optimizer is given only the embedder's parameters
MARGIN_HEAD = """import torch
import torch.nn as nn
import torch.nn.functional as F


class Margin(nn.Module):
    def __init__(self, d, n):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(n, d))
        nn.init.xavier_uniform_(self.weight)

    def forward(self, x):
        return F.linear(F.normalize(x), F.normalize(self.weight))


def train(loader):
    model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 4))
    head = Margin(4, 3)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        loss = F.cross_entropy(head(model(x)), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
"""


def test_gg403_a_module_the_loss_trains_in_no_optimizer():
    (f,) = analyze(MARGIN_HEAD).findings
    assert (f.code, f.span.start.line, f.span.start.column) == ("GG403", 19, 16)
    assert f.message.render() == (
        "`optimizer` is not given the parameters of `head`: the backward on line 23 computes "
        "their gradients, but no optimizer updates them, so `head` keeps its initial weights")
    assert apply_edits(MARGIN_HEAD, f.preferred_fix.edits).splitlines()[18] == (
        "    optimizer = torch.optim.SGD([*model.parameters(), *head.parameters()], lr=0.1)")
    assert analyze(apply_edits(MARGIN_HEAD, f.preferred_fix.edits)).findings == ()


@pytest.mark.parametrize("change", [
    # its own optimizer (stepped elsewhere)
    ("    optimizer = torch", "    head_opt = torch.optim.SGD(head.parameters())\n"
                            "    optimizer = torch"),
    # frozen, loaded, or a copy: not meant to be trained here
    ("    head = Margin(4, 3)\n", "    head = Margin(4, 3).requires_grad_(False)\n"),
    ("    head = Margin(4, 3)\n", "    head = Margin(4, 3)\n"
                                "    head.load_state_dict(torch.load('head.pt'))\n"),
    # run on data only (a network that makes the inputs), not on what the model computed
    ("F.cross_entropy(head(model(x)), y)", "F.cross_entropy(model(head(x)), y)"),
    # handed to code the engine does not follow
    ("    for x, y", "    register(head)\n    for x, y"),
])
def test_gg403_quiet_when_the_module_may_be_left_out_on_purpose(change):
    text = MARGIN_HEAD.replace(*change)
    assert text != MARGIN_HEAD
    assert "GG403" not in codes(text)


def test_gg403_modules_in_a_plain_list_are_not_parameters():
    # learning to learn: the LSTM cells are kept in a list, which parameters() does not see
    text = """import torch
import torch.nn as nn


class MetaOptimizer(nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = nn.Linear(2, 8)
        self.cells = []
        for _ in range(2):
            self.cells.append(nn.Linear(8, 8))
        self.out = nn.Linear(8, 1)

    def forward(self, x):
        x = self.inp(x)
        for cell in self.cells:
            x = torch.tanh(cell(x))
        return self.out(x)


meta = MetaOptimizer()
opt = torch.optim.Adam(meta.parameters())
opt2 = torch.optim.Adam(torch.nn.Linear(1, 1).parameters())
for _ in range(3):
    loss = meta(torch.randn(4, 2)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""
    [(code, line)] = [(f.code, f.span.start.line) for f in analyze(text).findings]
    assert (code, line) == ("GG403", 22)
    assert codes(text.replace("self.cells = []", "self.cells = nn.ModuleList()")) == []


# fine-tuning with a frozen head unfrozen later: the optimizer was built from the parameters
# that required grad then, so it never holds the head's
UNFROZEN_LATER = """import torch
import torch.nn as nn


class Detector(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Linear(8, 8)
        self.head = nn.Sequential(nn.Linear(8, 8), nn.ReLU())
        self.cls = nn.Linear(8, 3)
        self.head.requires_grad_(False)

    def forward(self, x):
        return self.cls(self.head(self.backbone(x)))


model = Detector()
params = [p for p in model.parameters() if p.requires_grad]
optimizer = torch.optim.SGD(params, lr=0.1, momentum=0.9)
for it in range(8):
    if it == 3:
        for p in model.head.parameters():
            p.requires_grad = True
    loss = model(torch.randn(4, 8)).logsumexp(1).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
"""


def test_gg403_a_module_unfrozen_after_the_optimizer_took_what_required_grad():
    (f,) = analyze(UNFROZEN_LATER).findings
    assert (f.code, f.span.start.line, f.span.start.column) == ("GG403", 18, 9)
    assert f.message.render() == (
        "`optimizer` is given only the parameters that require grad when it is built: "
        "`self.head` was frozen then and requires grad again from line 23, so the backward "
        "on line 26 computes its gradients, but no optimizer updates them")
    assert [(r.span.start.line, r.message.render()) for r in f.related] == [
        (23, "`self.head` requires grad again here"),
        (26, "this backward gives `self.head` gradients"),
        (27, "`optimizer` steps only its own parameters here")]
    fixed = apply_edits(UNFROZEN_LATER, f.preferred_fix.edits)
    assert fixed.splitlines()[17] == "params = list(model.parameters())"
    assert analyze(fixed).findings == ()


@pytest.mark.parametrize("old, new", [
    ("[p for p in model.parameters() if p.requires_grad]",
     "filter(lambda p: p.requires_grad, model.parameters())"),
    ("[p for p in model.parameters() if p.requires_grad]",
     "(p for p in model.parameters() if p.requires_grad)"),
])
def test_gg403_other_spellings_of_the_requires_grad_filter(old, new):
    (f,) = analyze(UNFROZEN_LATER.replace(old, new)).findings
    assert (f.code, f.span.start.line) == ("GG403", 18)
    assert f.preferred_fix.edits[0].new_text == "model.parameters()"


@pytest.mark.parametrize("change", [
    # never unfrozen: left out on purpose
    ("            p.requires_grad = True", "            pass"),
    # the optimizer is given the head when it is unfrozen
    ("            p.requires_grad = True",
     "            p.requires_grad = True\n"
     "        optimizer.add_param_group({'params': model.head.parameters()})"),
    # every parameter (the frozen ones are skipped while they have no gradient)
    ("[p for p in model.parameters() if p.requires_grad]", "list(model.parameters())"),
    # never frozen: the optimizer holds them from the start
    ("        self.head.requires_grad_(False)\n", ""),
])
def test_gg403_quiet_when_the_optimizer_holds_the_unfrozen_module(change):
    text = UNFROZEN_LATER.replace(*change)
    assert text != UNFROZEN_LATER
    assert "GG403" not in codes(text)


# a model whose parameter groups name its encoder and its classifier, not the pooler between
# them (MMF's VisualBERT)
POOLER_LEFT_OUT = """import torch
import torch.nn as nn


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Linear(8, 8)
        self.pooler = nn.Sequential(nn.Linear(8, 8), nn.Tanh())
        self.head = nn.Linear(8, 3)

    def forward(self, x):
        return self.head(self.pooler(self.encoder(x)))

    def optimizer_groups(self, lr):
        return [{"params": self.head.parameters(), "lr": lr},
                {"params": self.encoder.parameters(), "lr": lr * 0.1}]


model = Classifier()
optimizer = torch.optim.AdamW(model.optimizer_groups(1e-3))
for _ in range(3):
    loss = model(torch.randn(4, 8)).logsumexp(1).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
"""


def test_gg403_a_part_of_the_model_left_out_of_its_parameter_groups():
    (f,) = analyze(POOLER_LEFT_OUT).findings
    assert (f.code, f.span.start.line) == ("GG403", 21)
    assert f.message.render() == (
        "`optimizer` is not given the parameters of `self.pooler`: the backward on line 25 "
        "computes their gradients, but no optimizer updates them, so `self.pooler` keeps its "
        "initial weights")
    # the whole model, or a pooler kept fixed in evaluation mode (linear probing): quiet
    assert codes(POOLER_LEFT_OUT.replace("model.optimizer_groups(1e-3)", "model.parameters()")) == []
    assert codes(POOLER_LEFT_OUT.replace(
        "        return self.head(self.pooler(", "        self.pooler.eval()\n"
                                                  "        return self.head(self.pooler(")) == []
    # a last stage left out (a pretrained decoder an encoder is trained through): quiet
    assert codes(POOLER_LEFT_OUT.replace("self.head.parameters()", "self.pooler.parameters()")) == []


# a detector and a loss module with learnable weights of its own (an ID classifier,
# uncertainty weights), joined by a wrapper module only after the optimizer was given the
# detector's parameters (FairMOT's ModelWithLoss)
LOSS_MODULE_JOINED = """import torch
import torch.nn as nn


class JointLoss(nn.Module):
    def __init__(self):
        super().__init__()
        self.classifier = nn.Linear(8, 5)
        self.s_id = nn.Parameter(torch.zeros(1))

    def forward(self, emb, ids):
        ce = nn.functional.cross_entropy(self.classifier(emb), ids)
        return torch.exp(-self.s_id) * ce + self.s_id


class WithLoss(nn.Module):
    def __init__(self, model, loss):
        super().__init__()
        self.model, self.loss = model, loss

    def forward(self, x, ids):
        return self.loss(self.model(x), ids)


def build_loss():
    return JointLoss()


def main():
    detector = nn.Linear(4, 8)
    optimizer = torch.optim.Adam(detector.parameters(), lr=1e-3)
    wrapped = WithLoss(detector, build_loss())
    for _ in range(3):
        loss = wrapped(torch.randn(6, 4), torch.randint(0, 5, (6,)))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


main()
"""


def test_gg403_a_loss_module_joined_to_the_model_after_its_optimizer():
    (f,) = analyze(LOSS_MODULE_JOINED).findings
    assert (f.code, f.span.start.line) == ("GG403", 31)
    assert f.message.render() == (
        "`optimizer` is not given the parameters of `self.loss`: the backward on line 36 "
        "computes their gradients, but no optimizer updates them, so `self.loss` keeps its "
        "initial weights")
    # joined before the optimizer was built, which is given a part of the wrapper chosen
    # on purpose (an encoder trained through a fixed decoder): quiet
    chosen = LOSS_MODULE_JOINED.replace(
        "    optimizer = torch.optim.Adam(detector.parameters(), lr=1e-3)\n"
        "    wrapped = WithLoss(detector, build_loss())\n",
        "    wrapped = WithLoss(detector, build_loss())\n"
        "    optimizer = torch.optim.Adam(wrapped.model.parameters(), lr=1e-3)\n")
    assert chosen != LOSS_MODULE_JOINED and codes(chosen) == []
    assert codes(LOSS_MODULE_JOINED.replace("Adam(detector.parameters()",
                                            "Adam(wrapped_params(detector)")) == []


# a model whose optimizer is given its classifier only: the projection layers the
# classifier runs on are built fresh in the model, get gradients, and stay as initialised
CLASSIFIER_ONLY = """import torch
import torch.nn as nn
import torch.nn.functional as F


class Predictor(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, 16)
        self.fusion = nn.Sequential(nn.Linear(16, 16), nn.ReLU())
        self.classifier = nn.Linear(16, 2)

    def forward(self, x):
        return self.classifier(self.fusion(self.proj(x)))


model = Predictor()
optimizer = torch.optim.AdamW(model.classifier.parameters(), lr=1e-3)
for _ in range(3):
    loss = F.cross_entropy(model(torch.randn(4, 8)), torch.randint(0, 2, (4,)))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
"""


def test_gg403_the_parts_a_trained_classifier_runs_on():
    (f,) = analyze(CLASSIFIER_ONLY).findings
    assert (f.code, f.span.start.line) == ("GG403", 18)
    assert f.message.render() == (
        "`optimizer` is not given the parameters of `self.fusion, self.proj`: the backward "
        "on line 22 computes their gradients, but no optimizer updates them, so "
        "`self.fusion, self.proj` keeps its initial weights")
    # frozen by name (linear probing), with the flag a test of the name: quiet
    for freeze in ('p.requires_grad_(name.startswith("classifier"))',
                   'p.requires_grad = name.startswith("classifier")'):
        probe = CLASSIFIER_ONLY.replace(
            "optimizer = torch.optim", "for name, p in model.named_parameters():\n"
                                       f"    {freeze}\noptimizer = torch.optim")
        assert probe != CLASSIFIER_ONLY and codes(probe) == []
    # or kept in evaluation mode: quiet
    assert codes(CLASSIFIER_ONLY.replace("        return self.classifier(",
                                         "        self.proj.eval()\n"
                                         "        self.fusion.eval()\n"
                                         "        return self.classifier(")) == []


# a physics-informed fit of a coefficient: the optimizer is given the coefficient itself,
# and the loss reads only its value (``.item()``), so no backward reaches it
COEFFICIENT = """import torch
import torch.nn as nn


def fit(x, y):
    model = nn.Linear(2, 1)
    lam = torch.tensor(0.5, requires_grad=True)
    net_opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    coef_opt = torch.optim.Adam([lam], lr=1e-2)
    for _ in range(5):
        loss = ((model(x) * lam.item() - y) ** 2).mean()
        net_opt.zero_grad()
        coef_opt.zero_grad()
        loss.backward()
        net_opt.step()
        coef_opt.step()
"""


def test_gg402_an_optimizer_over_tensors_no_backward_reaches():
    # reported where the loss loses them: the one cut of them before the backward
    (f,) = analyze(COEFFICIENT).findings
    assert (f.code, f.span.start.line, f.span.start.column) == ("GG402", 11, 28)
    assert f.message.render() == (
        "`lam.item()` cuts `[lam]` out of the loss: `coef_opt` (line 16) steps their "
        "parameters, but no backward of this loop reaches them, so their gradients stay None "
        "and `[lam]` does not train")
    assert [(r.span.start.line, r.message.render()) for r in f.related] == [
        (16, "`coef_opt` steps `[lam]` here"), (14, "this backward does not reach `[lam]`"),
        (9, "the optimizer took the parameters `[lam]` had here")]
    assert codes(COEFFICIENT.replace("lam.item()", "lam")) == []
    # a cut after the backward (logging) is not on its way: reported at the step
    logged = COEFFICIENT.replace("lam.item()", "2.0").replace(
        "        coef_opt.step()\n", "        coef_opt.step()\n        print(lam.item())\n")
    (f,) = analyze(logged).findings
    assert (f.code, f.span.start.line) == ("GG402", 16)
    assert f.message.render() == (
        "`coef_opt` steps the parameters of `[lam]`, but no backward of this loop reaches them "
        "(their way to the loss is cut, or the loss is built from other modules), so their "
        "gradients stay None and `[lam]` does not train")


# a memory layer's key table gets an optimizer of its own; its scores are computed under
# no_grad (for the top-k selection) and then used as the mixing weights
KEYS_UNDER_NO_GRAD = """import torch
import torch.nn as nn


class Memory(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)
        self.keys = nn.Parameter(torch.randn(8, 4))

    def forward(self, h):
        q = self.proj(h)
        with torch.no_grad():
            scores = q @ self.keys.t()
        return (torch.softmax(scores, -1) * q.sum(-1, keepdim=True)).sum()


model = Memory()
opt = torch.optim.Adam(model.proj.parameters(), lr=1e-3)
opt_keys = torch.optim.Adam([model.keys], lr=1e-2)
for step in range(3):
    loss = model(torch.randn(5, 4))
    opt.zero_grad()
    opt_keys.zero_grad()
    loss.backward()
    opt.step()
    opt_keys.step()
"""


def test_gg402_an_optimizer_given_one_parameter_attribute_of_a_module():
    # ``Adam([model.keys])`` trains that parameter, not the whole module (whose proj the
    # backward does reach)
    (f,) = analyze(KEYS_UNDER_NO_GRAD).findings
    assert (f.code, f.span.start.line) == ("GG402", 27)
    assert f.message.render().startswith(
        "`opt_keys` steps the parameters of `[model.keys]`, but no backward of this loop "
        "reaches them")
    assert codes(KEYS_UNDER_NO_GRAD.replace("        with torch.no_grad():\n"
                                            "            scores = q @ self.keys.t()\n",
                                            "        scores = q @ self.keys.t()\n")) == []


# a straight-through estimator as a custom Function whose backward gives the code vector
# no gradient: a codebook loss computed on its output trains no codebook
STRAIGHT_THROUGH = """import torch
import torch.nn as nn
import torch.nn.functional as F


class StraightThrough(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, q):
        return q.clone()

    @staticmethod
    def backward(ctx, grad_out):
        return grad_out, None


encoder = nn.Linear(4, 3)
codebook = nn.Embedding(8, 3)
opt = torch.optim.Adam(encoder.parameters(), lr=1e-3)
opt_codes = torch.optim.Adam(codebook.parameters(), lr=1e-3)
for _ in range(3):
    z = encoder(torch.randn(5, 4))
    e = StraightThrough.apply(z, codebook(torch.randint(0, 8, (5,))))
    loss = F.mse_loss(z.detach(), e) + F.mse_loss(z, e.detach()) + e.pow(2).mean()
    opt.zero_grad()
    opt_codes.zero_grad()
    loss.backward()
    opt.step()
    opt_codes.step()
"""


def test_gg402_a_custom_function_whose_backward_gives_an_input_no_gradient():
    (f,) = analyze(STRAIGHT_THROUGH).findings
    assert (f.code, f.span.start.line) == ("GG402", 28)
    assert f.message.render().startswith(
        "`opt_codes` steps the parameters of `codebook`, but no backward of this loop "
        "reaches them")
    assert [(r.span.start.line, r.message.render()) for r in f.related][:1] == [
        (22, "the graph from `codebook` is cut here")]
    # the code vector's gradient given back (``grad_out, grad_out``): quiet
    assert codes(STRAIGHT_THROUGH.replace("return grad_out, None",
                                          "return grad_out, grad_out")) == []


# an inverse PINN: the coefficients reach the residual through a helper's torch.as_tensor,
# a copy (a new leaf); the network's input derivatives come from autograd.grad, which
# sets no .grad, and the inputs concatenated with torch.cat are the data's, not parameters
INVERSE_PINN = """import torch
import torch.nn as nn


class PINN(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(2, 1)

    def forward(self, x, t):
        return self.net(torch.cat([x, t], dim=1))


def as_tensor(data):
    return torch.as_tensor(data, dtype=torch.float32)


model = PINN()
l1 = torch.tensor(0.0, requires_grad=True)
l2 = torch.tensor(0.1, requires_grad=True)
net_opt = torch.optim.Adam(model.parameters())
coef_opt = torch.optim.Adam([l1, l2])
for it in range(3):
    x = torch.rand(8, 1).requires_grad_()
    t = torch.rand(8, 1).requires_grad_()
    u = model(x, t)
    u_x, u_t = torch.autograd.grad(u.sum(), (x, t), create_graph=True)
    lambdas = as_tensor((l1, l2))
    lambdas.requires_grad = True
    loss = (u_t + lambdas[0] * u * u_x - lambdas[1]).pow(2).mean()
    net_opt.zero_grad()
    coef_opt.zero_grad()
    loss.backward()
    net_opt.step()
    coef_opt.step()
"""


def test_gg402_coefficients_copied_by_as_tensor_in_a_helper():
    (f,) = analyze(INVERSE_PINN).findings
    assert (f.code, f.span.start.line, f.span.start.column) == ("GG402", 15, 11)
    assert f.message.render() == (
        "`torch.as_tensor(data, dtype=torch.flo...` cuts `[l1, l2]` out of the loss: `coef_opt` "
        "(line 35) steps their parameters, but no backward of this loop reaches them, so their "
        "gradients stay None and `[l1, l2]` does not train")
    # torch.stack keeps each coefficient's graph
    assert codes(INVERSE_PINN.replace("torch.as_tensor(data, dtype=torch.float32)",
                                      "torch.stack(data)").replace(
        "    lambdas.requires_grad = True\n", "")) == []


def test_requires_grad_set_under_no_grad_makes_a_leaf():
    # Lightning's test_step runs under no_grad; requires_grad_() is a flag of the tensor,
    # set whatever the grad mode, and enable_grad() then builds a graph to it
    text = """import torch
import torch.nn as nn

observe = nn.Linear(4, 2)


@torch.no_grad()
def refine(x, y):
    x_hat = torch.zeros(3, 4).requires_grad_(True)
    opt = torch.optim.SGD([x_hat], lr=0.1)
    with torch.enable_grad():
        for _ in range(3):
            nll = (observe(x_hat) - y).pow(2).mean()
            opt.zero_grad()
            nll.backward()
            opt.step()
    return x_hat
"""
    assert codes(text) == []
