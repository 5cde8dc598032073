"""Each rule's own VALID / INVALID examples, and exact findings on the bundled examples."""

import textwrap
from pathlib import Path

import pytest

from gradguard.analysis import analyze
from gradguard.analysis.model import Pos
from gradguard.fixes import apply_edits
from gradguard.rules import all_rules

ROOT = Path(__file__).resolve().parent.parent
RULES = all_rules()


@pytest.mark.parametrize("rule,index", [(r, i) for r in RULES for i in range(len(r.valid))],
                         ids=lambda v: v.code if hasattr(v, "code") else str(v))
def test_valid_examples_are_clean(rule, index):
    assert [f.code for f in analyze(rule.valid[index]).findings if f.code == rule.code] == []


@pytest.mark.parametrize("rule,index", [(r, i) for r in RULES for i in range(len(r.invalid))],
                         ids=lambda v: v.code if hasattr(v, "code") else str(v))
def test_invalid_examples_are_reported(rule, index):
    assert rule.code in [f.code for f in analyze(rule.invalid[index]).findings]


def test_every_rule_has_examples_and_docs():
    for rule in RULES:
        assert rule.valid and rule.invalid, rule.code
        assert "## What it does" in rule.docs and "## Use instead" in rule.docs


def _one(path):
    findings = analyze((ROOT / path).read_text()).findings
    assert len(findings) == 1, findings
    return findings[0]


def test_char_rnn_hidden_state_carried():
    f = _one("examples/char_rnn.py")
    assert (f.code, f.span.start.line, f.span.start.column) == ("GG102", 39, 12)
    assert f.message.render() == (
        "`loss` reaches the previous iteration's graph through `hidden`, which the backward "
        "on line 39 freed in that iteration")
    assert [(r.span.start.line, r.message.render()) for r in f.related] == [
        (36, "graph of `hidden` built here"), (39, "this backward freed it")]
    fix = f.preferred_fix
    assert fix.title.render() == ("Detach `hidden` after the backward on line 39, so the next "
                                  "iteration starts a new graph")
    text = (ROOT / "examples/char_rnn.py").read_text()
    fixed = apply_edits(text, fix.edits)
    assert "            loss.backward()\n            hidden = hidden.detach()\n" in fixed
    assert analyze(fixed).findings == ()


def test_dcgan_fake_detached_in_discriminator_step():
    f = _one("examples/dcgan.py")
    assert (f.code, f.span.start.line) == ("GG101", 44)
    assert f.message.render() == (
        "`errG` is backpropagated through the graph of `fake` (built on line 33), which the "
        "backward on line 38 already freed")
    fix = f.preferred_fix
    assert fix.title.render() == ("Detach `fake` on line 37: that loss must not backpropagate "
                                  "into the graph that built it")
    fixed = apply_edits((ROOT / "examples/dcgan.py").read_text(), fix.edits)
    assert "criterion(netD(fake.detach()), fake_label)" in fixed
    assert analyze(fixed).findings == ()
    alt = [x for x in f.fixes if not x.preferred]
    assert alt[0].title.render().startswith("Silence with retain_graph=True on line 38")


def test_actor_critic_values_recomputed_in_loop():
    f = _one("examples/actor_critic.py")
    assert (f.code, f.span.start.line) == ("GG103", 40)
    assert f.message.render() == (
        "`loss` uses `logits`, built once on line 28 before the loop; the backward on line 40 "
        "frees its graph in the first iteration, so the next iteration fails")
    fixed = apply_edits((ROOT / "examples/actor_critic.py").read_text(), f.preferred_fix.edits)
    assert "    for epoch in range(epochs):\n        logits, values = model(states)\n" in fixed
    assert fixed.count("logits, values = model(states)") == 1
    assert analyze(fixed).findings == ()


def test_discarded_detach_fixed_in_place_for_loop_variables():
    src = ("import torch\n"
           "def reset(state):\n"
           "    hidden = [torch.zeros(2) for _ in range(2)]\n"
           "    for h in hidden:\n"
           "        h.detach()\n"
           "    state.feed.detach()\n"
           "def step(loss):\n"
           "    loss.backward()\n")
    findings = analyze(src).findings
    assert [(f.code, f.span.start.line) for f in findings] == [("GG104", 5), ("GG104", 6)]
    fixed = apply_edits(src, findings[0].preferred_fix.edits)
    assert "        h.detach_()\n    state.feed = state.feed.detach()\n" in fixed


def test_a_discarded_detach_of_a_loop_variable_of_unknown_kind_is_quiet():
    # weakref.finalize objects kept in a dict other methods fill: their detach() is theirs
    src = ("import weakref\n"
           "class WeakIdNameMap:\n"
           "    def __init__(self):\n"
           "        self._finalizers = {}\n"
           "    def __setitem__(self, obj, name):\n"
           "        self._finalizers[id(obj)] = weakref.finalize(obj, print, name)\n"
           "    def clear(self):\n"
           "        for finalizer in self._finalizers.values():\n"
           "            finalizer.detach()\n")
    assert analyze(src).findings == ()


def test_retain_graph_and_create_graph_keep_the_graph():
    src = ("import torch\n"
           "net = torch.nn.Linear(2, 1)\n"
           "x = torch.randn(3, 2, requires_grad=True)\n"
           "out = net(x).sum()\n"
           "g, = torch.autograd.grad(out, x, create_graph=True)\n"
           "(out + g.pow(2).sum()).backward()\n")
    assert analyze(src).findings == ()


def test_autograd_grad_walks_and_frees_only_the_graph_between_outputs_and_inputs():
    # the engine executes only nodes on a path to an input: what built h is not freed,
    # and a gradient with respect to the carried state does not walk earlier iterations
    freed_part = ("import torch\n"
                  "f = torch.nn.Linear(4, 4)\n"
                  "x0 = torch.randn(8, 4, requires_grad=True)\n"
                  "h = torch.tanh(f(x0))\n"
                  "g = torch.autograd.grad((h * h).sum(), h)[0]\n"
                  "(torch.tanh(f(x0)).sum() + h.sum()).backward()\n")
    assert analyze(freed_part).findings == ()
    carried = ("import torch\n"
               "f = torch.nn.Linear(4, 4)\n"
               "x = torch.randn(8, 4, requires_grad=True)\n"
               "for t in range(10):\n"
               "    out = f(x)\n"
               "    g = torch.autograd.grad(out.sum(), x, retain_graph=True)[0]\n"
               "    x = x + 0.1 * torch.tanh(out)\n"
               "x.sum().backward()\n")
    assert analyze(carried).findings == ()
    # with respect to the leaf, the whole graph is walked and freed
    through_leaf = freed_part.replace("(h * h).sum(), h)", "(h * h).sum(), x0)")
    assert [(f.code, f.span.start.line) for f in analyze(through_leaf).findings] == \
        [("GG101", 6)]


def test_no_grad_blocks_build_no_graph():
    src = ("import torch\n"
           "net = torch.nn.Linear(2, 1)\n"
           "with torch.no_grad():\n"
           "    target = net(torch.randn(3, 2))\n"
           "for _ in range(3):\n"
           "    loss = (net(torch.randn(3, 2)) - target).pow(2).mean()\n"
           "    loss.backward()\n")
    assert analyze(src).findings == ()


def test_syntax_error_is_reported_not_raised():
    result = analyze("def f(:\n    loss.backward()\n")
    assert result.findings == () and result.syntax_error is not None
    # CPython's message and place (libcst said "expected one of ), *, **, NAME", line 2)
    assert (result.syntax_error.pos, result.syntax_error.message) == (Pos(1, 6), "invalid syntax")
    result = analyze("def f(x)\n    return x\n")
    assert (result.syntax_error.pos, result.syntax_error.message) == (Pos(1, 8), "expected ':'")
    # syntax newer than this Python's (libcst parses it) is analysed, not reported
    assert analyze("type Vec = list[float]\n").syntax_error is None


def test_syntax_error_messages_are_translated():
    from gradguard.i18n import render
    from gradguard.rules import syntax_error_message

    assert render(syntax_error_message("expected ':'"), "zh_CN") == "语法错误：缺少 ':'"
    assert render(syntax_error_message("'(' was never closed"), "zh_CN") == \
        "语法错误：'(' 没有闭合"
    assert render(syntax_error_message(
        "expected an indented block after 'for' statement on line 3"), "en") == \
        "syntax error: expected an indented block after 'for' statement on line 3"
    assert render(syntax_error_message("something new"), "zh_CN") == "语法错误：something new"


def _only(src, code):
    findings = [f for f in analyze(src).findings if f.code == code]
    assert len(findings) == 1, analyze(src).findings
    return findings[0]


ACTOR_CRITIC_STEP = """import torch
actor, critic = torch.nn.Linear(4, 2), torch.nn.Linear(6, 1)
actor_opt = torch.optim.Adam(actor.parameters())
critic_opt = torch.optim.Adam(critic.parameters())
states = torch.randn(8, 4)
q = critic(torch.cat([states, actor(states)], 1))
critic_loss = (q - 1).pow(2).mean()
actor_loss = -q.mean()
critic_opt.zero_grad()
critic_loss.backward(retain_graph=True)
critic_opt.step()
actor_opt.zero_grad()
actor_loss.backward()
actor_opt.step()
"""


def test_gg201_step_between_forward_and_backward():
    f = _only(ACTOR_CRITIC_STEP, "GG201")
    assert (f.span.start.line, f.span.start.column) == (13, 0)
    assert f.message.render() == ("`actor_loss` backpropagates through `critic` as it was on "
                                  "line 6, but its parameters were updated in place on line 11")
    assert [(r.span.start.line, r.message.render()) for r in f.related] == [
        (6, "the forward pass saved the parameters of `critic` here"),
        (11, "the parameters were updated here")]
    fixed = apply_edits(ACTOR_CRITIC_STEP, f.preferred_fix.edits)
    assert fixed.splitlines()[12:15] == [
        "q = critic(torch.cat([states, actor(states)], 1))", "actor_loss = -q.mean()",
        "actor_loss.backward()"]
    assert [x.code for x in analyze(fixed).findings] == []


def test_gg202_inplace_division_of_saved_output():
    src = ("import torch\n"
           "proj = torch.nn.Linear(4, 3)\n"
           "z = proj(torch.randn(2, 4))\n"
           "z /= z.norm(dim=1, keepdim=True)\n"
           "z.sum().backward()\n")
    f = _only(src, "GG202")
    assert (f.span.start.line, f.span.end.line) == (4, 4)
    assert f.message.render() == ("In-place change of `z`, which `z.norm(dim=1, keepdim=True)` "
                                  "(line 4) saved for backward")
    fixed = apply_edits(src, f.preferred_fix.edits)
    assert "z = z / z.norm(dim=1, keepdim=True)\n" in fixed
    assert analyze(fixed).findings == ()


def test_gg202_inplace_change_of_what_a_transformer_layer_saved():
    # a transformer layer saves its input (its first LayerNorm or attention projection):
    # the second decoder's ``+=`` changes the tensor the first one saved (probed under torch:
    # scripts/gen_torch_tables.py)
    src = ("import torch\n"
           "from torch import nn\n"
           "class Decoder(nn.Module):\n"
           "    def __init__(self):\n"
           "        super().__init__()\n"
           "        self.pos = nn.Parameter(torch.zeros(1, 4, 8))\n"
           "        layer = nn.TransformerEncoderLayer(8, 2, batch_first=True, norm_first=True)\n"
           "        self.blocks = nn.TransformerEncoder(layer, num_layers=1)\n"
           "    def forward(self, token):\n"
           "        token += self.pos\n"
           "        return self.blocks(token)\n"
           "a, b = Decoder(), Decoder()\n"
           "quant = nn.Linear(8, 8)(torch.randn(2, 4, 8))\n"
           "(a(quant) + b(quant)).sum().backward()\n")
    f = _only(src, "GG202")
    assert f.span.start.line == 10
    assert f.message.render() == ("In-place change of `token`, which `self.blocks(token)` "
                                  "(line 11) saved for backward")
    fixed = apply_edits(src, f.preferred_fix.edits)
    assert "        token = token + self.pos\n" in fixed
    assert analyze(fixed).findings == ()


def test_gg202_inplace_change_of_an_output_its_op_saved_with_its_input():
    # LinalgVectorNormBackward0 saves the norm's result as well as its input
    # (derivatives.yaml: every overload of norm uses ``result``)
    src = ("import torch\n"
           "w = torch.randn(3, requires_grad=True)\n"
           "theta = torch.norm(w, dim=-1, keepdim=True)\n"
           "theta += 1e-10\n"
           "(w / theta).sum().backward()\n")
    f = _only(src, "GG202")
    assert f.span.start.line == 4
    assert f.message.render() == ("In-place change of `theta`, which "
                                  "`torch.norm(w, dim=-1, keepdim=True)` (line 3) saved for "
                                  "backward")
    fixed = apply_edits(src, f.preferred_fix.edits)
    assert "theta = theta + 1e-10\n" in fixed
    assert analyze(fixed).findings == ()
    # pow with a number exponent saves only its input (its Tensor_Tensor overload saves
    # the result too): changing the result is fine
    assert analyze(src.replace("torch.norm(w, dim=-1, keepdim=True)", "w.pow(2)")).findings == ()


def test_gg202_preallocated_buffer_written_where_a_cell_saved_its_slice():
    # ``x.new_zeros`` makes a tensor of its own; writing a step's state into it gives it
    # that state's graph (CopySlices), and the next write changes the slice the cell saved
    src = ("import torch\n"
           "cell = torch.nn.GRUCell(4, 4)\n"
           "x = torch.randn(2, 5, 4)\n"
           "states = x.new_zeros(2, 6, 4)\n"
           "for i in range(5):\n"
           "    states[:, i + 1] = cell(x[:, i], states[:, i])\n"
           "states.sum().backward()\n")
    f = _only(src, "GG202")
    assert (f.span.start.line, f.span.start.column) == (6, 4)
    assert f.message.render() == ("In-place change of `states`, which "
                                  "`cell(x[:, i], states[:, i])` (line 6) saved for backward")
    # a clone before the statement would be saved and written all the same
    assert f.preferred_fix.title.render() == "Clone `states[:, i]` where `cell` saves it"
    fixed = apply_edits(src, f.preferred_fix.edits)
    assert "    states[:, i + 1] = cell(x[:, i], states[:, i].clone())\n" in fixed
    assert analyze(fixed).findings == ()


def test_gg202_inplace_change_of_a_detached_tensor_shares_the_saved_storage():
    # Tensor.detach(): "Returned Tensor shares the same storage with the original one"
    src = ("import torch\n"
           "w = torch.randn(3, requires_grad=True)\n"
           "out = torch.sigmoid(w * 2)\n"
           "target = out.detach()\n"
           "target[0] = 1.0\n"
           "((out - target) ** 2).sum().backward()\n")
    f = _only(src, "GG202")
    assert f.span.start.line == 5
    assert f.message.render() == ("In-place change of `target`, which `torch.sigmoid(w * 2)` "
                                  "(line 3) saved for backward")
    assert analyze(src.replace("out.detach()", "out.detach().clone()")).findings == ()


def test_gg202_silent_on_inplace_add_nobody_saved():
    src = ("import torch\n"
           "emb = torch.nn.Embedding(10, 4)\n"
           "x = emb(torch.randint(0, 10, (3,))) * 2.0\n"
           "x += torch.ones(3, 4)\n"
           "x.sum().backward()\n")
    assert analyze(src).findings == ()


def test_gg301_running_loss_and_item_fix():
    src = ("import torch\n"
           "net = torch.nn.Linear(2, 1)\n"
           "opt = torch.optim.SGD(net.parameters(), lr=0.1)\n"
           "running = 0.0\n"
           "for _ in range(3):\n"
           "    loss = net(torch.randn(4, 2)).pow(2).mean()\n"
           "    opt.zero_grad()\n"
           "    loss.backward()\n"
           "    opt.step()\n"
           "    running += loss\n")
    f = _only(src, "GG301")
    assert f.span.start.line == 10
    assert f.message.render() == ("`running` accumulates `loss` with its autograd graph: every "
                                  "iteration's graph stays in memory")
    fixed = apply_edits(src, f.preferred_fix.edits)
    assert fixed.endswith("    running += loss.detach()\n")
    assert analyze(fixed).findings == ()


def test_gg301_names_the_elements_of_a_record_that_hold_the_graphs():
    # a history of per-epoch records: the validation loss (computed with grad on) keeps
    # its graph in each record; the epoch number and the train loss (.item()) do not
    src = ("import torch\n"
           "net = torch.nn.Linear(2, 1)\n"
           "opt = torch.optim.SGD(net.parameters(), lr=0.1)\n"
           "history = []\n"
           "for epoch in range(3):\n"
           "    loss = net(torch.randn(4, 2)).pow(2).mean()\n"
           "    opt.zero_grad()\n"
           "    loss.backward()\n"
           "    opt.step()\n"
           "    vali = net(torch.randn(4, 2)).pow(2).mean()\n"
           "    history.append({\"epoch\": epoch, \"train\": loss.item(),\n"
           "                    \"vali\": vali})\n")
    f = _only(src, "GG301")
    assert (f.span.start.line, f.span.start.column) == (12, 28)
    assert f.message.render() == ("`history` accumulates `vali` with its autograd graph: every "
                                  "iteration's graph stays in memory")
    fixed = apply_edits(src, f.preferred_fix.edits)
    assert fixed.endswith("                    \"vali\": vali.detach()})\n")
    assert analyze(fixed).findings == ()


def test_gg301_sum_kept_before_the_backward_of_its_term():
    # the backward frees the saved tensors, but loss_sum keeps every step's nodes (~45 KB
    # a step for eight Linear layers, measured); backpropagating the sum itself uses it
    src = ("import torch\n"
           "net = torch.nn.Linear(2, 1)\n"
           "opt = torch.optim.SGD(net.parameters(), lr=0.1)\n"
           "loss_sum = 0\n"
           "for _ in range(3):\n"
           "    loss = net(torch.randn(4, 2)).pow(2).mean()\n"
           "    loss_sum += loss\n"
           "    loss.backward()\n"
           "    opt.step()\n"
           "    opt.zero_grad()\n"
           "print(float(loss_sum))\n")
    f = _only(src, "GG301")
    assert (f.span.start.line, f.message.render()) == (
        7, "`loss_sum` accumulates `loss` with its autograd graph: every iteration's graph "
           "stays in memory")
    used = src.replace("    loss.backward()\n", "    if _ % 2 == 1:\n        loss_sum.backward()\n"
                                               "        loss_sum = 0\n")
    assert analyze(used).findings == ()


_TENSOR_TOTAL = ("import torch\n"
                 "net = torch.nn.Linear(2, 1)\n"
                 "opt = torch.optim.SGD(net.parameters(), lr=0.1)\n"
                 "total = torch.zeros(())\n"
                 "for _ in range(3):\n"
                 "    loss = net(torch.randn(4, 2)).pow(2).mean()\n"
                 "    opt.zero_grad()\n"
                 "    loss.backward()\n"
                 "    opt.step()\n"
                 "    {update}\n")


@pytest.mark.parametrize("update", ["total += loss", "total.add_(loss)"])
def test_gg301_tensor_total_updated_in_place(update):
    # a tensor made before the loop, changed in place with the loss: every in-place
    # node keeps an edge to the tensor's previous graph (torch: total.grad_fn chains
    # AddBackward0 nodes, one per iteration)
    src = _TENSOR_TOTAL.format(update=update)
    f = _only(src, "GG301")
    assert (f.span.start.line, f.span.start.column) == (10, 4)
    assert f.message.render() == ("`total` accumulates `loss` with its autograd graph: every "
                                  "iteration's graph stays in memory")
    fixed = apply_edits(src, f.preferred_fix.edits)
    assert fixed.endswith(update.replace("loss", "loss.detach()") + "\n")
    assert analyze(fixed).findings == ()


@pytest.mark.parametrize("update", [
    "out = net(torch.randn(4, 2)); out.add_(loss)",  # a tensor of this iteration
    "total.add_(loss.item())",
])
def test_gg301_silent_for_in_place_updates_that_keep_no_old_graph(update):
    assert analyze(_TENSOR_TOTAL.format(update=update)).findings == ()


def test_gg301_silent_for_a_tensor_total_backpropagated_after_the_loop():
    src = ("import torch\n"
           "net = torch.nn.Linear(2, 1)\n"
           "total = torch.zeros(())\n"
           "for _ in range(3):\n"
           "    total += net(torch.randn(4, 2)).pow(2).mean()\n"
           "total.backward()\n")
    assert analyze(src).findings == ()


def test_gg301_silent_for_gradient_accumulation():
    src = ("import torch\n"
           "net = torch.nn.Linear(2, 1)\n"
           "losses = []\n"
           "for _ in range(3):\n"
           "    losses.append(net(torch.randn(4, 2)).pow(2).mean())\n"
           "torch.stack(losses).sum().backward()\n")
    assert analyze(src).findings == ()


def test_gg301_reported_beside_gg101_on_the_graph_both_losses_share():
    # `errD` is accumulated and never backpropagated itself; `errG.backward()` only runs
    # through the `fake` both share: that does not consume the accumulation (it did, so
    # the GG301 had no entry of its own until --fix had fixed the GG101)
    text = (ROOT / "examples/dcgan.py").read_text().replace(
        "    for step in range(steps):\n", "    d_losses = []\n    for step in range(steps):\n"
    ).replace("        optD.step()\n", "        optD.step()\n        d_losses.append(errD)\n")
    findings = analyze(text).findings
    assert [(f.code, f.span.start.line, f.span.start.column, f.message.render())
            for f in findings] == [
        ("GG301", 41, 8, "`d_losses` accumulates `errD` with its autograd graph: every "
                         "iteration's graph stays in memory"),
        ("GG101", 46, 8, "`errG` is backpropagated through the graph of `fake` (built on line "
                         "34), which the backward on line 39 already freed"),
    ]
    fixed = apply_edits(text, [e for f in findings for e in f.preferred_fix.edits])
    assert "        d_losses.append(errD.detach())\n" in fixed
    assert "criterion(netD(fake.detach()), fake_label)" in fixed
    assert analyze(fixed).findings == ()


@pytest.mark.parametrize("backward_args, found", [
    ("", [("GG301", 6)]),  # frees the graph both share: h.sum() is never backpropagated
    ("retain_graph=True", []),  # keeps it: a later backward may take the list (meta-learning)
    ("create_graph=flag", []),  # may keep it (not known to free)
])
def test_gg301_beside_a_backward_through_a_shared_graph(backward_args, found):
    src = ("import torch\n"
           "net = torch.nn.Linear(2, 2)\n"
           "losses = []\n"
           "for _ in range(3):\n"
           "    h = net(torch.randn(4, 2))\n"
           "    losses.append(h.sum())\n"
           f"    (h * 2).sum().backward({backward_args})\n")
    assert [(f.code, f.span.start.line) for f in analyze(src).findings] == found


def test_gg302_retain_graph_over_carried_state():
    src = ("import torch\n"
           "rnn = torch.nn.RNN(2, 4)\n"
           "h = None\n"
           "for _ in range(3):\n"
           "    out, h = rnn(torch.randn(5, 1, 2), h)\n"
           "    out.sum().backward(retain_graph=True)\n")
    f = _only(src, "GG302")
    assert f.span.start.line == 6
    fixed = apply_edits(src, f.preferred_fix.edits)
    assert fixed.endswith("    out.sum().backward()\n    h = h.detach()\n")
    assert analyze(fixed).findings == ()


SOFT_LABEL_CACHE = """import torch
import torch.nn.functional as F
teacher, student = torch.nn.Linear(4, 3), torch.nn.Linear(4, 3)
opt = torch.optim.SGD(student.parameters(), lr=0.1)
data = [torch.randn(2, 4) for _ in range(3)]
soft = [F.softmax(teacher(b), dim=1) for b in data]
for epoch in range(2):
    for x, s in zip(data, soft):
        loss = F.kl_div(F.log_softmax(student(x), dim=1), s, reduction="batchmean")
        opt.zero_grad()
        loss.backward()
        opt.step()
"""


def test_gg103_list_of_graphs_built_once_and_rebuilt_per_epoch():
    # each element of the list is a graph of its own: the first epoch walks each once,
    # the second walks them again (reported at the epoch loop); rebuilt per epoch, each
    # element is walked once
    f = _only(SOFT_LABEL_CACHE, "GG103")
    assert (f.span.start.line, f.span.start.column) == (11, 8)
    assert f.message.render() == (
        "`loss` uses `soft`, built once on line 6 before the loop; the backward on line 11 "
        "frees its graph in the first iteration, so the next iteration fails")
    fixed = apply_edits(SOFT_LABEL_CACHE, f.preferred_fix.edits)
    assert fixed.splitlines()[5:8] == [
        "for epoch in range(2):",
        "    soft = [F.softmax(teacher(b), dim=1) for b in data]",
        "    for x, s in zip(data, soft):"]
    assert analyze(fixed).findings == ()


@pytest.mark.parametrize("elt, found", [("head(x).exp()", []), ("h * x.sum()", [("GG103", 7)])])
def test_iterating_a_list_gives_each_element_its_graph_but_shares_what_they_share(elt, found):
    src = ("import torch\n"
           "enc, head = torch.nn.Linear(4, 4), torch.nn.Linear(4, 1)\n"
           "data = [torch.randn(2, 4) for _ in range(3)]\n"
           "h = enc(torch.randn(2, 4)).exp()\n"
           f"outs = [{elt} for x in data]\n"
           "for out in outs:\n"
           "    out.sum().backward()\n")
    assert [(x.code, x.span.start.line) for x in analyze(src).findings] == found


LEAKY_IN_SEQUENTIAL = 'import torch\nimport torch.nn as nn\n\n\nclass Leaky(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.mem = None\n\n    def reset(self):\n        self.mem = None\n\n    def forward(self, x):\n        if self.mem is None:\n            self.mem = torch.zeros_like(x)\n        self.mem = 0.5 * self.mem + x\n        return torch.sigmoid(self.mem)\n\n\nnet = nn.Sequential(nn.Linear(4, 4), Leaky())\nopt = torch.optim.SGD(net.parameters(), lr=0.1)\nfor step in range(3):\n    out = net(torch.randn(2, 4))\n    opt.zero_grad()\n    out.sum().backward()\n    opt.step()\n'


def test_gg102_state_of_a_module_inside_nn_sequential():
    # nn.Sequential(a, b) calls each child's forward in turn: Leaky keeps self.mem from
    # one batch to the next; the fix detaches it (it may be None: its class resets it so)
    f = _only(LEAKY_IN_SEQUENTIAL, "GG102")
    assert (f.span.start.line, f.span.start.column) == (25, 4)
    assert f.message.render() == ("`out.sum()` reaches the previous iteration's graph through "
                                  "`net[1].mem`, which the backward on line 25 freed in that "
                                  "iteration")
    fixed = apply_edits(LEAKY_IN_SEQUENTIAL, f.preferred_fix.edits)
    assert fixed.splitlines()[23:28] == [
        "    opt.zero_grad()", "    out.sum().backward()", "    if net[1].mem is not None:",
        "        net[1].mem = net[1].mem.detach()", "    opt.step()"]
    assert analyze(fixed).findings == ()


def test_reset_through_modules_loop_is_seen():
    # for m in net.modules(): the body runs for each submodule; isinstance resolves
    src = LEAKY_IN_SEQUENTIAL.replace(
        "    out = net(torch.randn(2, 4))\n",
        "    for m in net.modules():\n        if isinstance(m, Leaky):\n            m.reset()\n"
        "    out = net(torch.randn(2, 4))\n")
    assert analyze(src).findings == ()


def test_reset_of_another_class_keeps_the_state():
    src = LEAKY_IN_SEQUENTIAL.replace("class Leaky", "class Other(nn.Module):\n"
                                      "    def reset(self):\n        pass\n\n\nclass Leaky")
    src = src.replace("    out = net(torch.randn(2, 4))\n",
                      "    for m in net.modules():\n        if isinstance(m, Other):\n"
                      "            m.reset()\n    out = net(torch.randn(2, 4))\n")
    assert [(x.code, x.span.start.line) for x in analyze(src).findings] == [("GG102", 33)]


def test_unresolved_reset_call_stays_quiet():
    # a method of this file called on something unknown may be Leaky.reset: what it
    # assigns (self.mem) is unknown afterwards
    src = LEAKY_IN_SEQUENTIAL.replace(
        "    out = net(torch.randn(2, 4))\n",
        "    neuron_of(net).reset()\n    out = net(torch.randn(2, 4))\n")
    assert analyze(src).findings == ()


NESTED_CELL_STATE = 'import torch\nimport torch.nn as nn\n\n\nclass Cell(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.lin = nn.Linear(4, 4)\n        self.h = torch.zeros(2, 4)\n\n    def forward(self, x):\n        self.h = torch.tanh(self.lin(x) + self.h)\n        return self.h\n\n\nclass Model(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.cell = Cell()\n\n    def forward(self, x):\n        return self.cell(x)\n\n\nmodel = Model()\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\nfor step in range(3):\n    loss = model(torch.randn(2, 4)).sum()\n    opt.zero_grad()\n    loss.backward()\n    opt.step()\n'


def test_gg102_state_of_a_submodule_detached_by_its_path():
    f = _only(NESTED_CELL_STATE, "GG102")
    assert (f.span.start.line, f.span.start.column) == (30, 4)
    assert f.message.render() == ("`loss` reaches the previous iteration's graph through "
                                  "`model.cell.h`, which the backward on line 30 freed in that "
                                  "iteration")
    fixed = apply_edits(NESTED_CELL_STATE, f.preferred_fix.edits)
    assert fixed.splitlines()[29:32] == [
        "    loss.backward()", "    model.cell.h = model.cell.h.detach()", "    opt.step()"]
    assert analyze(fixed).findings == ()


def test_submodule_state_detached_in_forward_is_clean():
    src = NESTED_CELL_STATE.replace("        return self.h\n",
                                    "        out = self.h\n        self.h = self.h.detach()\n"
                                    "        return out\n")
    assert analyze(src).findings == ()


def test_retain_graph_from_a_flag_is_neither_a_free_nor_a_deliberate_retain():
    # a MAML inner step: retain_graph=second_order walks only this step's graph; only a
    # literal retain_graph=True is reported as hiding a carried graph (GG302)
    src = ("import torch\n\n\ndef adapt(model, fast, data, second_order):\n"
           "    model.train()\n    for x, y in data:\n"
           "        loss = (model(x) * fast).sum()\n"
           "        (g,) = torch.autograd.grad(loss, [fast], retain_graph=second_order,\n"
           "                                   create_graph=second_order)\n"
           "        fast = fast - 0.1 * g\n")
    assert analyze(src).findings == ()
    # with respect to fast itself, the walk stops at fast: no earlier step is walked
    literal = src.replace("retain_graph=second_order", "retain_graph=True")
    assert analyze(literal).findings == ()
    # with respect to the parameters, it runs back through every earlier step
    params = literal.replace("[fast]", "list(model.parameters())")
    assert [(f.code, f.span.start.line) for f in analyze(params).findings] == [("GG302", 8)]


def test_parameters_handed_to_an_unknown_constructor_are_held_not_computed_with():
    # an optimizer or scheduler of another library: its methods return no graph
    src = ("import torch\nfrom other import Optim, schedule\n\n\n"
           "def train(model, data, use_torch):\n"
           "    opt_cls = torch.optim.AdamW if use_torch else Optim\n"
           "    opt = opt_cls(params=model.parameters(), lr=0.1)\n"
           "    sched = schedule(opt)\n    state = {}\n"
           "    for x in data:\n        loss = model(x).sum()\n        loss.backward()\n"
           "        opt.step()\n        state['lr'] = sched.get_lr()[0]\n")
    assert analyze(src).findings == ()


SAC_TEMPERATURE = """import torch
import torch.nn as nn

policy = nn.Linear(4, 2)
log_alpha = nn.Parameter(torch.zeros(1))
alpha_opt = torch.optim.Adam([log_alpha], lr=3e-4)
policy_opt = torch.optim.Adam(policy.parameters(), lr=3e-4)
for it in range(3):
    logpi = policy(torch.randn(8, 4)).sum(-1)
    alpha_loss = -(log_alpha * (logpi + 1.0)).mean()
    alpha_opt.zero_grad()
    alpha_loss.backward()
    alpha_opt.step()
    policy_loss = (log_alpha.exp().detach() * logpi).mean()
    policy_opt.zero_grad()
    policy_loss.backward()
    policy_opt.step()
"""


def test_gg101_detach_in_the_loss_whose_optimizer_trains_only_its_own_tensor():
    # the temperature optimizer steps log_alpha alone: the temperature loss must not train
    # the policy, so the cut goes at its use of logpi (an arithmetic operand), not in the
    # policy loss (that would stop the policy from training)
    f = _only(SAC_TEMPERATURE, "GG101")
    assert f.preferred_fix.title.render() == (
        "Detach `logpi` on line 10: that loss must not backpropagate into the graph that "
        "built it")
    fixed = apply_edits(SAC_TEMPERATURE, f.preferred_fix.edits)
    assert "    alpha_loss = -(log_alpha * (logpi.detach() + 1.0)).mean()\n" in fixed
    assert analyze(fixed).findings == ()


METRIC_STATE = """import torch
import torch.nn as nn


class MeanMetric(nn.Module):
    def __init__(self):
        super().__init__()
        self.values = []

    def update(self, value):
        self.values.append(value)

    def forward(self, value):
        self.update(value)
        return value.mean()


net = nn.Linear(4, 1)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
metric = MeanMetric()
for step in range(3):
    out = net(torch.randn(8, 4))
    loss = out.pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    metric(out)
"""


def test_gg301_at_the_call_into_an_object_whose_methods_pass_the_graph_on_to_its_state():
    # metric(out) runs forward(value), which hands value to self.update, which appends
    # it: the call that hands the graph in is metric(out), in the training loop
    f = _only(METRIC_STATE, "GG301")
    assert (f.span.start.line, f.span.start.column, f.message.render()) == (
        27, 4, "`self.values` (in `update`) accumulates `out` with the autograd graph this "
               "call hands in: every iteration's graph stays in memory")
    assert [(r.span.start.line, r.message.render()) for r in f.related] == [
        (11, "accumulated here, in `update`")]
    fixed = apply_edits(METRIC_STATE, f.preferred_fix.edits)
    assert fixed.endswith("    metric(out.detach())\n")
    assert analyze(fixed).findings == ()


STEP_THEN_OWN_LOSS = """import torch
import torch.nn as nn


class Agent:
    def __init__(self):
        self.enc = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 8))
        self.head = nn.Linear(8, 1)
        self.enc_opt = torch.optim.SGD(self.enc.parameters(), lr=0.1)
        self.head_opt = torch.optim.SGD(self.head.parameters(), lr=0.1)

    def forward(self, x):
        self.z = self.enc(x)

    def backward_head(self):
        loss = self.head(self.z).pow(2).mean()
        loss.backward()

    def update(self):
        self.enc_opt.zero_grad()
        self.z.pow(2).mean().backward(retain_graph=True)
        self.enc_opt.step()
        self.head_opt.zero_grad()
        self.backward_head()
        self.head_opt.step()


agent = Agent()
for it in range(3):
    agent.forward(torch.randn(2, 4))
    agent.update()
"""


def test_gg201_reported_at_the_backward_of_a_function_that_builds_its_own_loss():
    # update() steps the encoder, then calls backward_head(), which builds its loss from
    # the encoder's output of before the step and backpropagates it: autograd raises at
    # that backward, so that is where the finding is (the step is a related location)
    f = _only(STEP_THEN_OWN_LOSS, "GG201")
    assert (f.span.start.line, f.span.start.column, f.message.render()) == (
        17, 8, "`loss` backpropagates through `self.enc` as it was on line 13, but its "
               "parameters were updated in place on line 22")
    assert [(r.span.start.line, r.message.render()) for r in f.related] == [
        (13, "the forward pass saved the parameters of `self.enc` here"),
        (22, "the parameters were updated here")]
    fixed = apply_edits(STEP_THEN_OWN_LOSS, f.preferred_fix.edits)
    assert "        self.backward_head()\n        self.enc_opt.step()\n" in fixed
    assert analyze(fixed).findings == ()


TWO_TASK_STEPS = """import torch
import torch.nn as nn


class Trainer:
    def __init__(self, encoder, heads):
        self.encoder, self.heads = encoder, heads
        self.opt = torch.optim.SGD([*encoder.parameters(), *heads.parameters()], lr=0.1)

    def regress(self, features, target):
        loss = (self.heads[0](features) - target).pow(2).mean()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()

    def classify(self, features, labels):
        loss = nn.functional.cross_entropy(self.heads[1](features), labels)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()

    def train(self, x, target, labels):
        features = self.encoder(x)
        self.regress(features, target)
        self.classify(features, labels)


trainer = Trainer(nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 8)), nn.ModuleList([nn.Linear(8, 1), nn.Linear(8, 3)]))
for it in range(3):
    trainer.train(torch.randn(2, 4), torch.randn(2, 1), torch.tensor([0, 2]))
"""


def test_gg101_detach_in_the_second_step_when_a_step_between_breaks_retain_graph():
    # the encoder runs once for two tasks, each with its own backward and step: the
    # second loss's gradients would train the encoder too, but retain_graph=True on the
    # first backward fails all the same (the first step changes the weights the encoder's
    # graph saved), so cutting the second task's use is the change that runs; the encoder
    # still learns from the first task
    f = _only(TWO_TASK_STEPS, "GG101")
    assert (f.span.start.line, f.preferred_fix.title.render()) == (
        19, "Detach `features` on line 17: that loss must not backpropagate into the graph "
            "that built it")
    fixed = apply_edits(TWO_TASK_STEPS, f.preferred_fix.edits)
    assert "        loss = nn.functional.cross_entropy(self.heads[1](features.detach()), " \
        "labels)\n" in fixed
    assert analyze(fixed).findings == ()
    # one step after both backwards: retain_graph=True lets the second run, and keeps
    # the second loss's gradients into the encoder, so it is the preferred fix
    one = TWO_TASK_STEPS.replace("        self.opt.zero_grad()\n        loss.backward()\n"
                                 "        self.opt.step()\n\n    def classify",
                                 "        self.opt.zero_grad()\n        loss.backward()\n\n"
                                 "    def classify")
    assert one != TWO_TASK_STEPS
    f = _only(one, "GG101")
    assert f.preferred_fix.title.render().startswith(
        "Keep the graph for the later backward: retain_graph=True on line 13")


def test_gg101_no_detach_where_the_optimizer_trains_a_tensor_the_graph_reads():
    # the first optimizer's own tensor w is in the shared graph: detaching h in the first
    # loss would leave w without a gradient, and in the second loss nothing would be left
    # to backpropagate into: no detach is offered
    src = """import torch
w = torch.randn(4, 4, requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
x = torch.randn(2, 4)
h = torch.tanh(x @ w)
loss1 = (h * 2).sum()
loss1.backward()
opt.step()
loss2 = (h * 3).sum()
loss2.backward()
"""
    f = _only(src, "GG101")
    assert not any("Detach" in x.title.render() for x in f.fixes), f.fixes


LSTM_WITH_RUNNING_LOSS = 'import torch\nimport torch.nn as nn\n\nrnn = nn.LSTM(4, 8)\nhead = nn.Linear(8, 1)\nopt = torch.optim.SGD(list(rnn.parameters()) + list(head.parameters()), lr=0.1)\nhidden = (torch.zeros(1, 2, 8), torch.zeros(1, 2, 8))\ntotal_loss = 0.\nfor step in range(3):\n    out, hidden = rnn(torch.randn(5, 2, 4), hidden)\n    loss = head(out).pow(2).mean()\n    opt.zero_grad()\n    loss.backward()\n    opt.step()\n    total_loss += loss\nprint(total_loss)\n'


def test_gg102_lstm_state_is_detached_as_a_tuple_and_a_running_sum_is_no_carrier():
    # total_loss (a float, then += loss) holds the freed graph too, but no loss reads it:
    # only the (h, c) tuple is carried; the running sum is GG301's (.item()), not GG102's
    [f] = [x for x in analyze(LSTM_WITH_RUNNING_LOSS).findings if x.code == "GG102"]
    assert f.message.render() == ("`loss` reaches the previous iteration's graph through "
                                  "`hidden`, which the backward on line 13 freed in that "
                                  "iteration")
    assert [(r.span.start.line, r.message.render()) for r in f.related] == [
        (10, "graph of `hidden` built here"), (13, "this backward freed it")]
    fixed = apply_edits(LSTM_WITH_RUNNING_LOSS, f.preferred_fix.edits)
    assert fixed.splitlines()[12:14] == [
        "    loss.backward()", "    hidden = tuple(t.detach() for t in hidden)"]
    [leak] = analyze(fixed).findings
    assert leak.code == "GG301"
    assert analyze(apply_edits(fixed, leak.preferred_fix.edits)).findings == ()


MODULE_WITH_CACHE = 'import torch\nimport torch.nn as nn\n\n\nclass Scaler(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.w = nn.Parameter(torch.ones(4))\n        self.cached = None\n\n    def forward(self, x):\n        if self.cached is None:\n            self.cached = torch.exp(self.w)\n        return x * self.cached\n\n\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.lin = nn.Linear(4, 4)\n        self.scale = Scaler()\n\n    def forward(self, x):\n        return self.scale(self.lin(x))\n\n\nnet = Net()\nopt = torch.optim.SGD(net.parameters(), lr=0.1)\nfor step in range(3):\n    loss = net(torch.randn(2, 4)).sum()\n    opt.zero_grad()\n    loss.backward()\n    opt.step()\n'


def test_gg102_a_cache_is_cleared_not_detached():
    # Scaler caches exp(w) in self.cached (set to None in __init__, never computed from
    # its own old value): detaching it would keep w without a gradient for good; clearing
    # it makes the next forward recompute it. The related location is where it was stored
    f = _only(MODULE_WITH_CACHE, "GG102")
    assert f.message.render() == ("`loss` reaches the previous iteration's graph through "
                                  "`net.scale.cached`, which the backward on line 32 freed "
                                  "in that iteration")
    assert (f.related[-1].span.start.line, f.related[-1].message.render()) == (
        13, "`net.scale.cached` got the graph here and carries it into the next iteration")
    assert f.preferred_fix.title.render() == (
        "Clear the cached `net.scale.cached` after the backward on line 32, so the next "
        "forward recomputes it from the current values")
    fixed = apply_edits(MODULE_WITH_CACHE, f.preferred_fix.edits)
    assert fixed.splitlines()[31:33] == ["    loss.backward()", "    net.scale.cached = None"]
    assert analyze(fixed).findings == ()


def test_gg102_a_cache_kept_valid_by_another_attribute_is_not_cleared():
    # the cache is recomputed when the input it was made for changes (``self.key``), not
    # when it is None: cleared after the backward, the next forward would read None
    src = MODULE_WITH_CACHE.replace(
        "        self.cached = None\n", "        self.cached = None\n        self.key = None\n"
    ).replace("        if self.cached is None:\n",
              "        if self.key is None or self.key != x.shape:\n"
              "            self.key = x.shape\n")
    assert "self.key != x.shape" in src
    f = _only(src, "GG102")
    assert f.preferred_fix is None
    assert [x.title.render().split(" on line")[0] for x in f.fixes] == [
        "Silence with retain_graph=True"]


def test_gg102_detaches_the_state_where_it_is_bound_after_the_backward():
    # truncated BPTT: the hidden state of the next split is bound after the backward (and
    # is None before the first split), so the detach goes after that binding
    src = ("import torch\n"
           "import torch.nn as nn\n"
           "rnn = nn.GRU(3, 4, batch_first=True)\n"
           "opt = torch.optim.SGD(rnn.parameters(), lr=0.1)\n"
           "x = torch.randn(2, 12, 3)\n"
           "hidden = None\n"
           "for i in range(0, 12, 4):\n"
           "    out, new_hidden = rnn(x[:, i:i + 4], hidden)\n"
           "    loss = out.pow(2).mean()\n"
           "    opt.zero_grad()\n"
           "    loss.backward()\n"
           "    opt.step()\n"
           "    hidden = new_hidden\n")
    f = _only(src, "GG102")
    fixed = apply_edits(src, f.preferred_fix.edits)
    assert fixed.endswith("    hidden = new_hidden\n    hidden = hidden.detach()\n")
    assert analyze(fixed).findings == ()
    # a compound statement after the backward (a logging branch) is passed over
    logged = src + "    if i % 8 == 0:\n        print(loss.item())\n"
    f = _only(logged, "GG102")
    assert "    hidden = new_hidden\n    hidden = hidden.detach()\n    if i % 8" in \
        apply_edits(logged, f.preferred_fix.edits)


def test_gg102_state_computed_from_its_old_value_is_still_detached():
    # self.cached = self.cached * 0.9 + ...: state, not a cache
    src = MODULE_WITH_CACHE.replace(
        "        return x * self.cached\n",
        "        self.cached = 0.9 * self.cached + 0.1 * torch.exp(self.w)\n"
        "        return x * self.cached\n")
    f = _only(src, "GG102")
    fixed = apply_edits(src, f.preferred_fix.edits)
    assert "    if net.scale.cached is not None:\n" \
           "        net.scale.cached = net.scale.cached.detach()\n" in fixed
    assert analyze(fixed).findings == ()


GAN_FAKE_KEPT_FROM_THE_D_LOOP = """import torch
import torch.nn as nn

netG = nn.Sequential(nn.Linear(4, 4), nn.Tanh(), nn.Linear(4, 4))
netD = nn.Linear(4, 1)
optD = torch.optim.Adam(netD.parameters())
optG = torch.optim.Adam(netG.parameters())
for epoch in range(2):
    for j in range(2):
        noise = torch.randn(2, 4)
        fake = netG(noise)
        errD = netD(fake.detach()).mean()
        optD.zero_grad()
        errD.backward()
        optD.step()
    for j in range(3):
        optG.zero_grad()
        errG = -netD(fake).mean()
        errG.backward(retain_graph=True)
        optG.step()
"""


def test_gg201_a_fake_from_the_discriminator_loop_is_recomputed_in_the_generator_loop():
    # the generator loop reuses the last fake of the loop before it: after its first
    # step the fake's graph holds outdated generator weights. That fake comes from a loop
    # that has ended, not from an earlier iteration of this one: recomputing it here works
    f = _only(GAN_FAKE_KEPT_FROM_THE_D_LOOP, "GG201")
    assert f.preferred_fix.title.render() == (
        "Recompute `fake, errG` after the parameter update, so this backward uses the "
        "updated parameters")
    fixed = apply_edits(GAN_FAKE_KEPT_FROM_THE_D_LOOP, f.preferred_fix.edits)
    assert fixed.splitlines()[17:21] == [
        "        errG = -netD(fake).mean()", "        fake = netG(noise)",
        "        errG = -netD(fake).mean()", "        errG.backward(retain_graph=True)"]
    assert [x.code for x in analyze(fixed).findings] == []


def test_the_second_iteration_starts_from_where_the_first_ended():
    # state is built before the loop and replaced by a detached value at the end of each
    # iteration: the second iteration never sees the first graph (no GG103)
    src = """import torch
net = torch.nn.Linear(4, 4)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
state = net(torch.randn(1, 4))
for t in range(3):
    loss = net(state).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    state = net(torch.randn(1, 4)).detach()
"""
    assert analyze(src).findings == ()


FIXED_PREPROCESSING = """import torch
import torch.nn as nn


def train(model, data, steps=3):
    opt = torch.optim.Adam(model.parameters())
    for step in range(steps):
        loss = model(data[step % 4]).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


def main():
    to_channels = nn.Conv1d(1, 4, kernel_size=1)
    data = to_channels(torch.randn(4, 1, 8))
    train(nn.Conv1d(4, 4, 1), data)


main()
"""


def test_gg103_a_graph_no_optimizer_trains_is_detached_where_it_is_built():
    # the conversion's Conv1d is given to no optimizer: cutting its graph where it is
    # built keeps every optimizer training (the model's is reached through the model)
    f = _only(FIXED_PREPROCESSING, "GG103")
    assert f.preferred_fix.title.render() == (
        "Detach `data` where it is built on line 16: no optimizer trains what computed it, "
        "and each iteration's backward then stops there")
    fixed = apply_edits(FIXED_PREPROCESSING, f.preferred_fix.edits)
    assert "    data = to_channels(torch.randn(4, 1, 8)).detach()\n" in fixed
    assert analyze(fixed).findings == ()
    # given to the optimizer too, the conversion is trained: no detach
    trained = FIXED_PREPROCESSING.replace(
        "    train(nn.Conv1d(4, 4, 1), data)",
        "    train(nn.Sequential(to_channels, nn.Conv1d(4, 4, 1)), data)")
    assert not any("Detach" in x.title.render() for f in analyze(trained).findings
                   for x in f.fixes)


TWO_INPLACE_NORMALIZATIONS = """import torch
import torch.nn as nn


class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(4, 4)
        self.b = nn.Linear(4, 4)

    def forward(self, x):
        u = self.a(x)
        v = self.b(x)
        u /= torch.linalg.norm(u, dim=-1, keepdim=True)
        v /= torch.linalg.norm(v, dim=-1, keepdim=True)
        return (u * v).sum()


head = Head()
head(torch.randn(2, 4)).backward()
"""


def test_gg202_the_fix_undoes_every_inplace_change_the_same_call_made():
    # two normalizations in place in one forward: fixing one alone leaves the backward
    # failing on the other, so each finding's fix rewrites both
    found = [f for f in analyze(TWO_INPLACE_NORMALIZATIONS).findings if f.code == "GG202"]
    assert [f.span.start.line for f in found] == [14, 15]
    for f in found:
        assert f.preferred_fix.title.render() == (
            "Stop changing `u, v` in place where this backward needs them")
        fixed = apply_edits(TWO_INPLACE_NORMALIZATIONS, f.preferred_fix.edits)
        assert fixed.splitlines()[13:15] == [
            "        u = u / torch.linalg.norm(u, dim=-1, keepdim=True)",
            "        v = v / torch.linalg.norm(v, dim=-1, keepdim=True)"]
        assert analyze(fixed).findings == ()


DEEP_TUPLE_STATE = 'import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n\n\nclass Cell(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.gates = nn.Linear(8, 16)\n\n    def forward(self, x, h, c):\n        i, f, o, g = self.gates(torch.cat([x, h], 1)).chunk(4, 1)\n        c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)\n        h = torch.sigmoid(o) * torch.tanh(c)\n        return h, c\n\n\nclass Seq(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.cell = Cell()\n        self.state = None\n\n    def forward(self, frames):\n        if self.state is None:\n            zeros = torch.zeros(2, 4)\n            self.state = (zeros, zeros)\n        h, c = self.state\n        for step in range(3):\n            h, c = self.cell(frames[:, step], h, c)\n        self.state = (h, c)\n        return h\n\n\nclass Outer(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.seq = Seq()\n\n    def forward(self, x):\n        return self.seq(x)\n\n\nmodel = Outer()\nopt = torch.optim.Adam(model.parameters())\nfor it in range(3):\n    loss = model(torch.rand(2, 3, 4)).sum()\n    opt.zero_grad()\n    loss.backward(retain_graph=True)\n    opt.step()\n'


def test_gg302_a_submodule_tuple_state_set_to_none_first_is_detached_element_wise():
    # self.state is None, then an (h, c) tuple: joined with None it keeps its elements
    # (tensors), so the fix detaches each of them; the fixed program is clean
    [f] = [x for x in analyze(DEEP_TUPLE_STATE).findings if x.code == "GG302"]
    fixed = apply_edits(DEEP_TUPLE_STATE, f.preferred_fix.edits)
    assert fixed.splitlines()[48:50] == [
        "    loss.backward()", "    model.seq.state = tuple(t.detach() for t in model.seq.state)"]
    assert analyze(fixed).findings == ()


def test_gg101_detaches_at_the_call_not_inside_the_callee_every_caller_runs():
    # the critic's forward views its input first; detaching there would cut the
    # generator loss too: the fix detaches the argument of the discriminator step's call
    f = _only(CRITIC_OF_THIS_FILE, "GG101")
    assert f.preferred_fix.title.render() == (
        "Detach `fake` on line 21: that loss must not backpropagate into the graph that built it")
    fixed = apply_edits(CRITIC_OF_THIS_FILE, f.preferred_fix.edits)
    assert fixed.splitlines()[20] == "    d_loss = D(fake.detach()).mean() - D(torch.randn(5, 4)).mean()"
    assert analyze(fixed).findings == ()


def test_gg201_recomputes_every_part_that_saved_the_stepped_parameters():
    f = _only(TWO_STALE_OUTPUTS, "GG201")
    assert f.preferred_fix.title.render() == (
        "Recompute `d_real, d_fake, g_loss` after the parameter update, so this backward "
        "uses the updated parameters")
    fixed = apply_edits(TWO_STALE_OUTPUTS, f.preferred_fix.edits)
    assert fixed.splitlines()[17:21] == [
        "    d_real = D(torch.randn(5, 4))", "    d_fake = D(fake)",
        "    g_loss = d_real.mean() - d_fake.mean()", "    g_loss.backward()"]
    assert analyze(fixed).findings == ()


def test_gg201_recomputes_before_a_statement_that_uses_what_it_rebinds():
    # the losses dict is recomputed before the generator's loss is put into it, not
    # between that and the backward (which would drop the key just set)
    src = ("import torch\n"
           "import torch.nn as nn\n"
           "\n"
           "G = nn.Linear(2, 4)\n"
           "D = nn.Linear(4, 1)\n"
           "opt_g = torch.optim.Adam(G.parameters())\n"
           "opt_d = torch.optim.Adam(D.parameters())\n"
           "\n"
           "\n"
           "def step(z):\n"
           "    fake = G(z)\n"
           "    return {\"d\": D(fake.detach()).mean(), \"adv\": -D(fake).mean()}\n"
           "\n"
           "\n"
           "for it in range(3):\n"
           "    z = torch.randn(5, 2)\n"
           "    losses = step(z)\n"
           "    opt_d.zero_grad()\n"
           "    losses[\"d\"].backward()\n"
           "    opt_d.step()\n"
           "    opt_g.zero_grad()\n"
           "    losses[\"g\"] = losses[\"adv\"] * 0.5\n"
           "    losses[\"g\"].backward()\n"
           "    opt_g.step()\n")
    f = _only(src, "GG201")
    fixed = apply_edits(src, f.preferred_fix.edits)
    assert fixed.splitlines()[20:24] == [
        "    opt_g.zero_grad()", "    losses = step(z)",
        "    losses[\"g\"] = losses[\"adv\"] * 0.5", "    losses[\"g\"].backward()"]
    assert analyze(fixed).findings == ()


def test_gg201_does_not_recompute_a_loss_assigned_in_each_arm_of_an_if():
    # neither arm's assignment alone is what reaches the backward: no recomputation
    f = _only(LOSS_FROM_TWO_ARMS, "GG201")
    assert f.preferred_fix is None
    assert all("Recompute" not in x.title.render() for x in f.fixes)


CRITIC_OF_THIS_FILE = """import torch
import torch.nn as nn


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = nn.Sequential(nn.Linear(4, 8), nn.LeakyReLU(0.2), nn.Linear(8, 1))

    def forward(self, img):
        flat = img.view(img.shape[0], -1)
        return self.model(flat)


G = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 4))
D = Critic()
opt_g = torch.optim.Adam(G.parameters())
opt_d = torch.optim.Adam(D.parameters())
for step in range(3):
    fake = G(torch.randn(5, 2))
    d_loss = D(fake).mean() - D(torch.randn(5, 4)).mean()
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()
    g_loss = -D(fake).mean()
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()
"""

TWO_STALE_OUTPUTS = """import torch
import torch.nn as nn

G = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 4))
D = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
opt_g = torch.optim.Adam(G.parameters())
opt_d = torch.optim.Adam(D.parameters())
for step in range(3):
    fake = G(torch.randn(5, 2))
    d_real = D(torch.randn(5, 4))
    d_fake = D(fake)
    d_loss = d_fake.mean() - d_real.mean()
    opt_d.zero_grad()
    d_loss.backward(retain_graph=True)
    opt_d.step()
    g_loss = d_real.mean() - d_fake.mean()
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()
"""

LOSS_FROM_TWO_ARMS = """import torch
import torch.nn as nn

G = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 4))
D = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
opt_g = torch.optim.Adam(G.parameters())
opt_d = torch.optim.Adam(D.parameters())
wasserstein = True
for step in range(3):
    fake = G(torch.randn(5, 2))
    d_fake = D(fake)
    g_loss = -d_fake.mean()
    opt_g.zero_grad()
    g_loss.backward(retain_graph=True)
    opt_g.step()
    if wasserstein:
        d_loss = d_fake.mean() - D(torch.randn(5, 4)).mean()
    else:
        d_loss = d_fake.pow(2).mean()
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()
"""


def test_gg302_create_graph_in_a_maml_inner_loop_is_not_reported():
    # create_graph=True asks for the graph of the gradients: the inner steps chain
    # through them on purpose, the outer backward walks them once (runs clean)
    assert analyze(MAML_INNER_LOOP).findings == ()


MAML_INNER_LOOP = """import torch
import torch.nn as nn
import torch.nn.functional as F

w = nn.Parameter(torch.randn(3, 1))
meta_opt = torch.optim.Adam([w], lr=1e-3)
for it in range(3):
    fast = w
    for _ in range(2):
        loss = F.mse_loss(torch.randn(4, 3) @ fast, torch.randn(4, 1))
        (g,) = torch.autograd.grad(loss, [fast], create_graph=True)
        fast = fast - 0.01 * g
    outer = F.mse_loss(torch.randn(4, 3) @ fast, torch.randn(4, 1))
    meta_opt.zero_grad()
    outer.backward()
    meta_opt.step()
"""


def test_gg101_recomputes_the_forward_a_second_loss_shares_with_the_first():
    # the actor's backward freed the trunk both heads share, and its step changed the
    # trunk: retain_graph=True would only trade the error; a fresh forward for the
    # critic's loss runs, and both optimizers still see gradients (checked under torch)
    f = _only(SHARED_TRUNK, "GG101")
    assert f.preferred_fix.title.render() == (
        "Recompute `logits, values, value_loss` before this backward (a fresh graph)")
    fixed = apply_edits(SHARED_TRUNK, f.preferred_fix.edits)
    assert fixed.splitlines()[28:32] == [
        "    critic_opt.zero_grad()", "    logits, values = net(states)",
        "    value_loss = F.mse_loss(values, returns)", "    value_loss.backward()"]
    assert analyze(fixed).findings == ()


def test_gg101_does_not_recompute_a_list_the_graphs_were_appended_to():
    # ``losses = []`` holds the graphs, but running it again builds none
    f = _only(LIST_OF_LOSSES_SHARED, "GG101")
    assert all("Recompute" not in x.title.render() for x in f.fixes)


def test_gg103_moves_every_statement_that_built_the_loss_into_the_loop_in_order():
    f = _only(BUILT_BEFORE_THE_LOOP, "GG103")
    assert f.preferred_fix.title.render() == (
        "Compute `logits, counts, probs, loss` inside the loop (a new graph each iteration)")
    fixed = apply_edits(BUILT_BEFORE_THE_LOOP, f.preferred_fix.edits)
    assert fixed.splitlines()[9:15] == [
        "for k in range(3):", "    logits = xenc @ W", "    counts = logits.exp()",
        "    probs = counts / counts.sum(1, keepdim=True)",
        "    loss = -probs[torch.arange(8), ys].log().mean()", "    opt.zero_grad()"]
    assert analyze(fixed).findings == ()


def test_gg103_does_not_move_what_the_loop_iterates_into_the_loop():
    src = """import torch
net = torch.nn.Sequential(torch.nn.Linear(2, 4), torch.nn.Tanh(), torch.nn.Linear(4, 2))
out = net(torch.randn(3, 2))
losses, _ = {"a": out.sum(), "b": out.pow(2).sum()}, None
for name, value in losses.items():
    value.backward()
"""
    # (each value in turn: the second's backward goes through `out`, which the first freed)
    f = _only(src, "GG101")
    assert all("inside the loop" not in x.title.render() for x in f.fixes)


SHARED_TRUNK = """import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(4, 16), nn.Tanh())
        self.pi = nn.Linear(16, 2)
        self.v = nn.Linear(16, 1)

    def forward(self, s):
        h = self.trunk(s)
        return self.pi(h), self.v(h).squeeze(-1)


net = Net()
actor_opt = torch.optim.Adam(list(net.trunk.parameters()) + list(net.pi.parameters()))
critic_opt = torch.optim.Adam(net.v.parameters())
for it in range(3):
    states, returns = torch.randn(5, 4), torch.randn(5)
    logits, values = net(states)
    policy_loss = -F.log_softmax(logits, -1)[:, 0].mean()
    value_loss = F.mse_loss(values, returns)
    actor_opt.zero_grad()
    policy_loss.backward()
    actor_opt.step()
    critic_opt.zero_grad()
    value_loss.backward()
    critic_opt.step()
"""

LIST_OF_LOSSES_SHARED = """import torch
import torch.nn as nn

actor = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 2))
critics = [nn.Linear(6, 1), nn.Linear(6, 1)]
obs = torch.randn(5, 4)
if True:
    act = actor(obs)
losses = []
for critic in critics:
    losses.append(critic(torch.cat([obs, act], 1)).pow(2).mean())
losses[0].backward()
losses[1].backward()
"""

BUILT_BEFORE_THE_LOOP = """import torch

W = torch.randn(5, 5, requires_grad=True)
opt = torch.optim.SGD([W], lr=0.1)
xenc = torch.randn(8, 5)
ys = torch.randint(0, 5, (8,))
logits = xenc @ W
counts = logits.exp()
probs = counts / counts.sum(1, keepdim=True)
loss = -probs[torch.arange(8), ys].log().mean()
for k in range(3):
    opt.zero_grad()
    loss.backward()
    opt.step()
"""


@pytest.mark.parametrize("store, found", [
    ('logs["loss"] = loss', []),  # one slot, replaced each time round
    ("logs[0] = loss", []),
    ("logs[step] = loss", [("GG301", 10)]),  # a slot per step: every graph is kept
])
def test_gg301_a_dict_slot_of_a_constant_key_is_replaced_not_accumulated(store, found):
    src = ("import torch\n"
           "net = torch.nn.Linear(2, 1)\n"
           "opt = torch.optim.SGD(net.parameters(), lr=0.1)\n"
           "logs = {}\n"
           "for step in range(3):\n"
           "    loss = net(torch.randn(4, 2)).pow(2).mean()\n"
           "    opt.zero_grad()\n"
           "    loss.backward()\n"
           "    opt.step()\n"
           f"    {store}\n")
    assert [(f.code, f.span.start.line) for f in analyze(src).findings] == found


_OPTIMIZER_LOOP = ("import torch\n"
                   "G = torch.nn.Linear(3, 3)\n"
                   "D = torch.nn.Linear(3, 1)\n"
                   "opts = [torch.optim.Adam(G.parameters()), torch.optim.Adam(D.parameters())]\n"
                   "for _ in range(3):\n"
                   "    for {target} in {iterable}:\n"
                   "        fake = G(torch.randn(4, 3))\n"
                   "        loss = D({fake}).mean()\n"
                   "        opt.zero_grad()\n"
                   "        loss.backward()\n"
                   "        opt.step()\n")


@pytest.mark.parametrize("target, iterable", [("opt", "opts"), ("i, opt", "enumerate(opts)")])
def test_gg402_a_loop_over_optimizers_steps_each_in_turn(target, iterable):
    # a Lightning-style loop over configure_optimizers(): each opt.step() trains its own
    # modules, and G's never gets a gradient when its output is detached in every loss
    src = _OPTIMIZER_LOOP.format(target=target, iterable=iterable, fake="fake.detach()")
    f = _only(src, "GG402")
    assert f.span.start.line == 8
    assert f.message.render() == (
        "`fake.detach()` cuts `G` out of the loss: `opt` (line 11) steps their parameters, "
        "but no backward of this loop reaches them, so their gradients stay None and `G` "
        "does not train")
    assert analyze(_OPTIMIZER_LOOP.format(target=target, iterable=iterable,
                                          fake="fake")).findings == ()


_ACCUMULATE_EVERY_K = ("import torch\n"
                       "net = torch.nn.Linear(4, 1)\n"
                       "opt = torch.optim.SGD(net.parameters(), lr=0.1)\n"
                       "losses = []\n"
                       "for step in range(10):\n"
                       "    losses.append(net(torch.randn(5, 4)).pow(2).mean())\n"
                       "    if step % 3 == 0:\n"
                       "        sum(losses).backward()\n"
                       "        opt.step()\n"
                       "        opt.zero_grad()\n"
                       "{reset}")


def test_gg102_quiet_when_the_branch_that_frees_the_list_also_empties_it():
    # sha-rnn's gradient accumulation: the losses backpropagated are let go in the same
    # branch, so no path backpropagates a freed one (it was a false GG102)
    assert analyze(_ACCUMULATE_EVERY_K.format(reset="        losses = []\n")).findings == ()


def test_gg102_when_the_list_keeps_the_freed_losses():
    f = _only(_ACCUMULATE_EVERY_K.format(reset=""), "GG102")
    assert f.span.start.line == 8


def test_gg102_detaches_only_what_is_known_to_be_a_tensor():
    # a library's deque of embeddings (a value of a kind not known) has no .detach()
    from gradguard.analysis.values import Val
    from gradguard.rules.gg102_graph_carried_across_iterations import detach_lines
    graph = frozenset({1})
    assert detach_lines([("xbm.embeddings", Val("unknown", graph))]) is None
    assert detach_lines([("h", Val("tensor", graph))]) == ["h = h.detach()"]
    pair = Val("tuple", graph, elts=(Val("tensor", graph), Val("tensor", graph)))
    assert detach_lines([("hc", pair)]) == ["hc = tuple(t.detach() for t in hc)"]


# WGAN-GP: the critic's loss reads the attached ``fake`` twice, in the critic call and in
# the gradient penalty (a helper); the generator's loss then walks that freed graph
WGAN_GP = """import torch
gen, critic = torch.nn.Linear(4, 2), torch.nn.Linear(2, 1)
opt_g = torch.optim.Adam(gen.parameters())
opt_c = torch.optim.Adam(critic.parameters())


def penalty(critic, real, fake):
    mixed = 0.5 * real + 0.5 * fake
    return critic(mixed).pow(2).mean()


for step in range(3):
    real = torch.randn(8, 2)
    fake = gen(torch.randn(8, 4))
    loss_c = critic(fake).mean() - critic(real).mean()
    loss_c = loss_c + penalty(critic, real, fake)
    opt_c.zero_grad()
    loss_c.backward()
    opt_c.step()
    loss_g = -critic(fake).mean()
    opt_g.zero_grad()
    loss_g.backward()
    opt_g.step()
"""


def test_gg101_detaches_every_use_of_the_freed_tensor_in_the_loss_that_must_not_train_it():
    f = _only(WGAN_GP, "GG101")
    assert (f.span.start.line, f.preferred_fix.title.render()) == (
        22, "Detach `fake` where that loss reads it, on lines 15 to 16: it must not "
            "backpropagate into the graph that built it")
    fixed = apply_edits(WGAN_GP, f.preferred_fix.edits)
    assert "    loss_c = critic(fake.detach()).mean() - critic(real).mean()\n" \
        "    loss_c = loss_c + penalty(critic, real, fake.detach())\n" in fixed
    assert analyze(fixed).findings == ()


def test_gg202_clones_the_operand_a_binary_operation_saves_in_the_writing_statement():
    src = ("import torch\n"
           "w = torch.nn.Parameter(torch.tensor(0.5))\n"
           "f = torch.zeros(5)\n"
           "for i in range(1, 5):\n"
           "    f[i] = f[i - 1] * w + 1.0\n"
           "f.sum().backward()\n")
    f = _only(src, "GG202")
    assert (f.span.start.line, f.preferred_fix.title.render()) == (
        5, "Clone `f[i - 1]` where `f[i - 1] * w` saves it")
    fixed = apply_edits(src, f.preferred_fix.edits)
    assert "    f[i] = f[i - 1].clone() * w + 1.0\n" in fixed
    assert analyze(fixed).findings == ()


def test_gg202_reports_the_first_in_place_change_after_the_save():
    # autograd's error is about the change that moved the version past the saved one
    src = ("import torch\n"
           "lin = torch.nn.Linear(1, 2)\n"
           "x = torch.randn(8, 2)\n"
           "x1, x2 = x[:, :1], x[:, 1:]\n"
           "s, t = lin(x1).chunk(2, dim=1)\n"
           "x2 *= torch.exp(s)\n"
           "x2 += t\n"
           "x.sum().backward()\n")
    f = _only(src, "GG202")
    assert (f.span.start.line, f.message.render(), f.preferred_fix.title.render()) == (
        6, "In-place change of `x2`, which `lin(x1)` (line 5) saved for backward",
        "Use the out-of-place form: `x2 = x2 * torch.exp(s)`")


def test_gg202_an_in_place_method_with_no_out_of_place_form_changes_a_clone():
    # ``fill_diagonal_`` has no Tensor method without the underscore (``x.fill_diagonal``
    # raises AttributeError): the fix clones before the change
    src = ("import torch\n"
           "w = torch.randn(4, 4, requires_grad=True)\n"
           "a = torch.relu(w)\n"
           "a.fill_diagonal_(0)\n"
           "a.sum().backward()\n")
    f = _only(src, "GG202")
    assert (f.span.start.line, f.preferred_fix.title.render()) == (
        4, "Clone `a` before changing it in place")
    fixed = apply_edits(src, f.preferred_fix.edits)
    assert "a = torch.relu(w)\na = a.clone()\na.fill_diagonal_(0)\n" in fixed
    assert analyze(fixed).findings == ()
    # ``mul_`` has ``mul``: the out-of-place form
    f = _only(src.replace("a.fill_diagonal_(0)", "a.mul_(2)"), "GG202")
    assert f.preferred_fix.title.render() == "Use the out-of-place form: `a = a.mul(...)`"


RETURNED_AFTER_BACKWARD = """\
import torch
net = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(net.parameters(), lr=0.1)


def compute_loss(x):
    loss = net(x).pow(2).mean()
    loss.backward()
    return loss


for _ in range(3):
    loss = compute_loss(torch.randn(4, 3))
    loss.backward()
    opt.step()
    opt.zero_grad()
"""


def test_gg101_fix_removes_the_backward_of_a_loss_returned_to_a_caller_that_backprops_it():
    f = _only(RETURNED_AFTER_BACKWARD, "GG101")
    assert f.span.start.line == 14
    assert f.preferred_fix.title.render() == (
        "Remove the backward on line 8: the caller backpropagates the `loss` this function "
        "returns")
    fixed = apply_edits(RETURNED_AFTER_BACKWARD, f.preferred_fix.edits)
    assert fixed == RETURNED_AFTER_BACKWARD.replace("    loss.backward()\n    return", "    return")
    assert analyze(fixed).findings == ()
    # a step between the two backwards: removing the first would change what it updates
    stepped = RETURNED_AFTER_BACKWARD.replace("    loss.backward()\n    return",
                                              "    loss.backward()\n    opt.step()\n    return")
    assert "Remove the backward" not in _only(stepped, "GG101").preferred_fix.title.render()


FIXED_MODEL_TARGET = """\
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.ctx = nn.Linear(3, 3)
        self.out = nn.Linear(3, 3)

    def forward(self, x, context):
        h = x + self.ctx(context)
        return self.out(torch.relu(h))


net = Net()
x = torch.randn(2, 3)
cond = torch.randn(2, 3)
for i in range(3):
    emb = torch.zeros(2, 3)
    emb.requires_grad = True
    opt = torch.optim.Adam([emb], lr=0.01)
    pred_cond = net(x, cond)
    for j in range(2):
        pred = net(x, emb)
        loss = (pred - pred_cond).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
"""


def test_gg103_detaches_a_target_of_a_model_no_optimizer_trains_where_the_loss_reads_it():
    # only the leaf ``emb`` is optimized; ``pred_cond`` (built before the inner loop through
    # ``net``, which no optimizer trains) is cut where the loss reads it. The model's own
    # operations (``x + self.ctx(context)``) are not uses of the freed graph, and a module
    # call reads the leaf passed to it (the optimizer's tensor keeps its gradient)
    f = _only(FIXED_MODEL_TARGET, "GG103")
    assert f.span.start.line == 28
    assert f.preferred_fix.title.render() == (
        "Detach `pred_cond` on line 26: that loss must not backpropagate into the graph "
        "that built it")
    fixed = apply_edits(FIXED_MODEL_TARGET, f.preferred_fix.edits)
    assert fixed == FIXED_MODEL_TARGET.replace("(pred - pred_cond)", "(pred - pred_cond.detach())")
    assert analyze(fixed).findings == ()


ACCUMULATE_K = """        total += criterion(model(x), y)
        if i % k == 0:
            optimizer.zero_grad()
            total.backward()
            optimizer.step()
            total = 0
"""

TBPTT = """import torch


def train(model, loader, optimizer, criterion, k=4):
    total = 0
    model.train()
    for i, (x, y) in enumerate(loader):
""" + ACCUMULATE_K + """    if torch.is_tensor(total):
        total.backward()
"""

TBPTT_NESTED = """import torch


def train(model, loader, optimizer, criterion, k=4):
    total = 0
    for x, y in loader:
        model.train()
        for i in range(10):
""" + textwrap.indent(ACCUMULATE_K, "    ")


def test_a_backward_of_the_rest_after_a_loop_that_backwards_and_resets_is_quiet():
    # snntorch's TBPTT: every backward in the loop is followed by `total = 0` on its
    # branch, so after the loop `total` holds only graphs no backward freed (the loop may
    # end after any pass: what a later pass freed and let go is not freed in an earlier
    # pass's end)
    assert analyze(TBPTT).findings == ()
    assert analyze(TBPTT_NESTED).findings == ()


def test_a_loop_that_backwards_without_letting_the_sum_go_still_frees_it():
    text = TBPTT.replace("            total = 0\n", "")
    f = _only(text, "GG102")
    assert f.span.start.line == 11


REGULARIZED = """import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(12, 1)
        self.reg_loss = self.l2([self.linear.weight])

    def l2(self, weights):
        total = torch.zeros(1)
        for w in weights:
            total = total + torch.norm(w, p=2)
        return total * 1e-5

    def fit(self, x, y):
        optim = torch.optim.Adagrad(self.parameters(), lr=0.01)
        for epoch in range(2):
            loss = nn.functional.mse_loss(self.linear(x), y) + self.reg_loss
            optim.zero_grad()
            loss.backward(retain_graph=True)
            optim.step()


Model().fit(torch.randn(8, 12), torch.randn(8, 1))
"""


def test_a_regularizer_of_a_module_weight_built_once_goes_stale_at_the_step():
    # DeepCTR-Torch: torch.norm saved `self.linear.weight` (a parameter: the optimizer
    # changes it in place), and retain_graph keeps the graph for the next backward
    f = _only(REGULARIZED, "GG201")
    assert (f.span.start.line, f.message.render()) == (
        22, "`loss` backpropagates through `torch.norm(w, p=2)` as it was on line 14, but "
            "its parameters were updated in place on line 23")
    # the stale part is an attribute built in __init__: recomputing `loss` here would not
    # rebuild it, so no fix claims to
    assert f.fixes == ()


def test_a_regularizer_built_before_the_loop_is_recomputed_by_the_fix():
    text = """import torch
linear = torch.nn.Linear(12, 1)
reg = torch.norm(linear.weight, p=2) * 1e-5
optim = torch.optim.Adagrad(linear.parameters(), lr=0.01)
for epoch in range(2):
    loss = linear(torch.randn(8, 12)).pow(2).mean() + reg
    optim.zero_grad()
    loss.backward(retain_graph=True)
    optim.step()
"""
    f = _only(text, "GG201")
    assert f.span.start.line == 8
    fixed = apply_edits(text, f.preferred_fix.edits)
    assert "    reg = torch.norm(linear.weight, p=2) * 1e-5\n" \
           "    loss = linear(torch.randn(8, 12)).pow(2).mean() + reg\n" \
           "    loss.backward(retain_graph=True)\n" in fixed
    assert [x.code for x in analyze(fixed).findings] == []


_POOL = ("import random\n"
         "import torch\n"
         "G = torch.nn.Linear(4, 4)\n"
         "opt = torch.optim.SGD(G.parameters(), lr=0.1)\n"
         "pool = []\n"
         "for step in range(100):\n"
         "    fake = torch.tanh(G(torch.randn(2, 4)))\n"
         "    STORE\n"
         "    G(torch.randn(2, 4)).sum().backward()\n"
         "    opt.step()\n")


@pytest.mark.parametrize("store, leak", [
    ("pool.append(fake)", True),
    # an image pool: appends while below its capacity, then replaces an element
    ("if len(pool) < 50:\n        pool.append(fake)\n    else:\n"
     "        pool[random.randint(0, 49)] = fake", False),
])
def test_gg301_a_buffer_capped_by_its_length_does_not_grow(store, leak):
    found = [(f.code, f.span.start.line) for f in analyze(_POOL.replace("STORE", store)).findings]
    assert found == ([("GG301", 8)] if leak else [])


def test_gg401_parameters_restored_from_saved_flags_may_require_grad_again():
    # a freeze context (Dreamer's FreezeParameters) restores each flag it saved: after
    # it the modules are not known to be frozen
    src = ("import torch\n"
           "world, actor = torch.nn.Linear(4, 4), torch.nn.Linear(4, 4)\n"
           "modules = [world, actor]\n"
           "states = [[p.requires_grad for p in m.parameters()] for m in modules]\n"
           "for m in modules:\n"
           "    for p in m.parameters():\n"
           "        p.requires_grad_(False)\n"
           "RESTORE"
           "world(torch.randn(2, 4)).sum().backward()\n")
    assert [f.code for f in analyze(src.replace("RESTORE", "")).findings] == ["GG401"]
    restore = ("for m, st in zip(modules, states):\n"
               "    for p, s in zip(m.parameters(), st):\n"
               "        p.requires_grad_(s)\n")
    assert analyze(src.replace("RESTORE", restore)).findings == ()


_HELPER_UPDATES = ("import torch\n"
                   "\n"
                   "\n"
                   "def update_params(optim, loss):\n"
                   "    optim.zero_grad()\n"
                   "    loss.backward()\n"
                   "    optim.step()\n"
                   "\n"
                   "\n"
                   "q, pi = torch.nn.Linear(4, 1), torch.nn.Linear(4, 4)\n"
                   "q_opt = torch.optim.Adam(q.parameters())\n"
                   "pi_opt = torch.optim.Adam(pi.parameters())\n"
                   "s = torch.randn(8, 4)\n"
                   "q_loss = q(s).pow(2).mean()\n"
                   "pi_loss = -q(pi(s)).mean()\n"
                   "update_params(q_opt, q_loss)\n"
                   "update_params(pi_opt, pi_loss)\n")


def test_gg201_through_a_shared_helper_is_reported_at_the_call_that_fails():
    # the helper's own backward runs three times; the order of the calls is the bug
    f = _only(_HELPER_UPDATES, "GG201")
    assert (f.span.start.line, f.message.render()) == (
        17, "`pi_loss` backpropagates through `q` as it was on line 15, but its parameters "
            "were updated in place on line 7")
    fixed = apply_edits(_HELPER_UPDATES, f.preferred_fix.edits)
    assert fixed.endswith("update_params(q_opt, q_loss)\npi_loss = -q(pi(s)).mean()\n"
                          "update_params(pi_opt, pi_loss)\n")
    assert analyze(fixed).findings == ()


_FLAG_SET_LATER = ("import torch\n"
                   "import torch.nn as nn\n"
                   "import torch.nn.functional as F\n"
                   "\n"
                   "\n"
                   "class FFN(nn.Module):\n"
                   "    def __init__(self):\n"
                   "        super().__init__()\n"
                   "        self.linear1, self.linear2 = nn.Linear(4, 8), nn.Linear(8, 4)\n"
                   "        self.dropout = nn.Dropout(0.1)\n"
                   "\n"
                   "    def forward(self, x):\n"
                   "        return self.linear2(self.dropout(F.relu(self.linear1(x))))\n"
                   "\n"
                   "\n"
                   "net = FFN()\n"
                   "for m in net.modules():\n"
                   "    if isinstance(m, (nn.ReLU, nn.Dropout)):\n"
                   "        m.inplace = True\n"
                   "net(torch.randn(2, 4)).sum().backward()\n")


def test_gg202_inplace_flag_set_on_a_built_module():
    # the MVANet switch: Dropout's forward reads self.inplace, so it now overwrites the
    # output F.relu saved
    f = _only(_FLAG_SET_LATER, "GG202")
    assert (f.span.start.line, f.message.render()) == (
        13, "In-place change of `F.relu(self.linear1(x))`, which `F.relu(self.linear1(x))` "
            "(line 13) saved for backward")
    from gradguard.i18n import render
    assert render(f.preferred_fix.title, "zh_CN") == "把 `m.inplace` 设为 False"
    fixed = apply_edits(_FLAG_SET_LATER, f.preferred_fix.edits)
    assert "        m.inplace = False\n" in fixed and analyze(fixed).findings == ()
    only_relu = _FLAG_SET_LATER.replace("(nn.ReLU, nn.Dropout)", "nn.ReLU")
    assert analyze(only_relu).findings == ()


def test_gg202_module_list_of_an_empty_list_is_filled_by_append():
    # nn.ModuleList([]) then append: the branches are known, and unsqueeze_ changes in
    # place the output the branch's ReLU saved
    src = ("import torch\n"
           "import torch.nn as nn\n"
           "convs = nn.ModuleList([])\n"
           "convs.append(nn.Sequential(nn.Conv2d(4, 4, 3, padding=1), nn.ReLU()))\n"
           "for conv in convs:\n"
           "    fea = conv(torch.randn(1, 4, 8, 8)).unsqueeze_(1)\n"
           "    fea.sum().backward()\n")
    f = _only(src, "GG202")
    assert (f.span.start.line, f.message.render()) == (
        6, "In-place change of `conv(torch.randn(1, 4, 8, 8))`, which `conv(torch.randn(1, 4, "
           "8, 8))` (line 6) saved for backward")


def test_gg301_sum_kept_before_the_backward_in_a_function_called_per_epoch():
    src = ("import torch\n"
           "\n"
           "\n"
           "def train_step(model, batches, opt):\n"
           "    train_loss = 0\n"
           "    for x in batches:\n"
           "        loss = model(x).pow(2).mean()\n"
           "        train_loss += loss\n"
           "        opt.zero_grad()\n"
           "        loss.backward()\n"
           "        opt.step()\n"
           "    return float(train_loss) / len(batches)\n"
           "\n"
           "\n"
           "net = torch.nn.Linear(2, 1)\n"
           "opt = torch.optim.SGD(net.parameters(), lr=0.1)\n"
           "for epoch in range(2):\n"
           "    train_step(net, [torch.randn(4, 2) for _ in range(8)], opt)\n")
    assert [(f.code, f.span.start.line) for f in analyze(src).findings] == [("GG301", 8)]


_RECURRENT_STATE = ("import torch\n"
                    "\n"
                    "\n"
                    "def step(K, memory=None):\n"
                    "    if memory is None:\n"
                    "        Zi = K.new_zeros(K.shape)\n"
                    "    else:\n"
                    "        Zi = memory\n"
                    "    Zi += K\n"
                    "    Z = 1. / (torch.einsum('nd,nd->n', K, Zi) + 1e-6)\n"
                    "    return Z, Zi\n"
                    "\n"
                    "\n"
                    "K0 = torch.randn(2, 3, requires_grad=True)\n"
                    "state = None\n"
                    "outs = []\n"
                    "for t in range(3):\n"
                    "    Z, state = step(K0 * (t + 1), state)\n"
                    "    outs.append(Z)\n"
                    "torch.stack(outs).sum().backward()\n")


def test_gg202_running_state_returned_and_changed_in_place_next_step():
    # fast-transformers' recurrent linear attention: the memory the previous step's
    # einsum saved is the tensor the next step adds to in place (a tensor an operation
    # made is never None: ``memory is None`` is false from the second step on)
    f = _only(_RECURRENT_STATE, "GG202")
    assert (f.span.start.line, f.message.render()) == (
        9, "In-place change of `Zi`, which `torch.einsum('nd,nd->n', K, Zi)` (line 10) saved "
           "for backward")
    fixed = apply_edits(_RECURRENT_STATE, f.preferred_fix.edits)
    assert "    Zi = Zi + K\n" in fixed and analyze(fixed).findings == ()


A3C_SPLIT = """import torch
import torch.nn as nn

net = nn.LSTMCell(4, 8)
policy_head, value_head = nn.Linear(8, 2), nn.Linear(8, 1)
params = list(net.parameters()) + list(policy_head.parameters()) + list(value_head.parameters())
opt = torch.optim.Adam(params, lr=1e-3)
for update in range(3):
    h, c = torch.zeros(1, 8), torch.zeros(1, 8)
    for step in range(4):
        h, c = net(torch.randn(1, 4), (h, c))
    policy_loss = -policy_head(h).log_softmax(-1)[0, 0]
    value_loss = value_head(h).pow(2).sum()
    opt.zero_grad()
    policy_loss.backward()
    (0.5 * value_loss).backward()
    opt.step()
"""


def test_gg101_two_losses_backpropagated_in_turn_become_one_backward_of_their_sum():
    # pytorch-a3c: the policy and value losses share the recurrent trunk; no step runs
    # between their backwards, so backpropagating their sum gives the same gradients
    f = _only(A3C_SPLIT, "GG101")
    assert f.preferred_fix.title.render() == (
        "Backpropagate `policy_loss + (0.5 * value_loss)` once, instead of each on its own: "
        "the same gradients, and the shared graph is walked once")
    fixed = apply_edits(A3C_SPLIT, f.preferred_fix.edits)
    assert fixed.splitlines()[13:16] == [
        "    opt.zero_grad()", "    (policy_loss + (0.5 * value_loss)).backward()",
        "    opt.step()"]
    assert analyze(fixed).findings == ()
    # a step between the two backwards: their sum is not the same update, no such fix
    stepped = A3C_SPLIT.replace("    policy_loss.backward()\n",
                                "    policy_loss.backward()\n    opt.step()\n")
    assert not any("once" in x.title.render() for x in _only(stepped, "GG101").fixes)


# a run logger (a stand-in for wandb.init()) that keeps every row logged; the loop logs the
# loss tensor itself
LOGGED_ROWS = """import torch


class Run:
    def __init__(self):
        self.history = []

    def log(self, row):
        self.history.append(dict(row, step=len(self.history)))


def main():
    model = torch.nn.Linear(4, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    run = Run()
    for _ in range(3):
        loss = model(torch.randn(8, 4)).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        run.log({"loss": loss})


main()
"""


def test_gg301_an_accumulation_of_a_graph_handed_in_is_reported_at_the_call():
    (f,) = analyze(LOGGED_ROWS).findings
    assert (f.code, f.span.start.line, f.span.start.column) == ("GG301", 21, 8)
    assert f.message.render() == (
        "`self.history` (in `log`) accumulates `dict(row, step=len(self.history))` with the "
        "autograd graph this call hands in: every iteration's graph stays in memory")
    assert [(r.span.start.line, r.message.render()) for r in f.related] == [
        (9, "accumulated here, in `log`")]
    # a graph the function builds itself is reported where it accumulates
    own = LOGGED_ROWS.replace("        self.history.append(dict(row, step=len(self.history)))",
                              "        self.history.append(row['loss'] * 2)")
    assert [(f.code, f.span.start.line) for f in analyze(own).findings] == [("GG301", 9)]


CACHED_IN_INIT = """import torch
import torch.nn as nn
import torch.nn.functional as F


class Embedder(nn.Module):
    def __init__(self, vocab_ids):
        super().__init__()
        self.cnn = nn.Linear(4, 8)
        self.cached = self.cnn(vocab_ids)

    def forward(self, word_ids):
        return F.embedding(word_ids, self.cached)


model = Embedder(torch.randn(10, 4))
opt = torch.optim.Adam(model.parameters())
for step in range(3):
    loss = model(torch.randint(0, 10, (5,))).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""


def test_gg103_names_the_attribute_a_constructor_cached_the_graph_in():
    # the graph was built once, in __init__, and kept in self.cached: the message names
    # that attribute and where it was built, not the loss that reads it
    f = _only(CACHED_IN_INIT, "GG103")
    assert (f.span.start.line, f.message.render()) == (
        21, "`loss` uses `self.cached`, built once on line 10 before the loop; the backward "
            "on line 21 frees its graph in the first iteration, so the next iteration fails")
    assert [(r.span.start.line, r.message.render()) for r in f.related] == [
        (10, "graph of `self.cached` built here"), (21, "this backward freed it")]


ROWS_OF_ONE_OUTPUT = """import torch
import torch.nn as nn

net = nn.Linear(4, 3)
opt = torch.optim.Adam(net.parameters())
for epoch in range(2):
    logits = torch.tanh(net(torch.randn(3, 4)))
    rows = [logits[i] for i in range(3)]
    opt.zero_grad()
    for i in range(3):
        row = logits[i]
        loss = row.pow(2).sum()
        loss.backward()
    opt.step()
"""


def test_gg103_no_detach_where_built_of_what_a_trained_module_computed():
    # net's Linear runs on an input that does not require grad, so its graph saves no
    # weight; the weight still gets its gradient through it and opt trains it: detaching
    # logits would leave opt without one. Each row is recomputed in the loop instead
    f = _only(ROWS_OF_ONE_OUTPUT, "GG103")
    assert f.preferred_fix.title.render() == (
        "Compute `logits` inside the loop (a new graph each iteration)")
    assert not any("Detach" in x.title.render() for x in f.fixes)
