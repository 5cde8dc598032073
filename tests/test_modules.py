"""Modules as composed objects: what torch.nn modules, Sequential children, custom
autograd.Functions and views save, and the in-place changes that break their backward.
Each buggy program here raises under torch 2.13; each look-alike runs."""

import textwrap

from gradguard import i18n
from gradguard.analysis import analyze
from gradguard.fixes import apply_edits


def src_line(src, line):
    return src.splitlines()[line - 1].strip()


def _only(src, code):
    findings = [f for f in analyze(src).findings if f.code == code]
    assert len(findings) == 1, analyze(src).findings
    return findings[0]


RELU_THEN_ADD = """import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.{norm} = nn.{module}()

    def forward(self, x):
        out = self.{norm}(self.lin(x))
        out += x
        return out


net = Block()
net(torch.randn(2, 4)).sum().backward()
"""


def test_activation_module_saves_its_output():
    src = RELU_THEN_ADD.format(norm="act", module="ReLU")
    f = _only(src, "GG202")
    assert (f.span.start.line, f.span.start.column) == (13, 8)
    assert f.message.render() == ("In-place change of `out`, which `self.act(self.lin(x))` "
                                  "(line 12) saved for backward")
    fixed = apply_edits(src, f.preferred_fix.edits)
    assert fixed.splitlines()[12] == "        out = out + x"
    assert analyze(fixed).findings == ()


def test_modules_that_do_not_save_their_output_stay_quiet():
    for module in ("Dropout", "GELU", "Identity", "Hardswish", "Tanhshrink"):
        assert analyze(RELU_THEN_ADD.format(norm="m", module=module)).findings == (), module


SEQUENTIAL_TAIL = """import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(4, 4), {tail})

    def forward(self, x):
        out = self.body(x)
        out += x
        return out


net = Block()
net(torch.randn(2, 4)).sum().backward()
"""


def test_sequential_runs_its_children_and_inplace_relu_saves_its_result():
    src = SEQUENTIAL_TAIL.format(tail="nn.ReLU(inplace=True)")
    f = _only(src, "GG202")
    assert (f.span.start.line, f.span.start.column) == (12, 8)
    assert f.message.render() == ("In-place change of `out`, which `self.body(x)` (line 11) "
                                  "saved for backward")
    fixed = apply_edits(src, f.preferred_fix.edits)
    assert fixed.splitlines()[11] == "        out = out + x"


def test_sequential_ending_in_a_module_that_saves_its_input_is_quiet():
    for tail in ("nn.Linear(4, 4)", "nn.ReLU6(inplace=True)", "nn.Dropout(0.1)",
                 "nn.BatchNorm1d(4)"):
        assert analyze(SEQUENTIAL_TAIL.format(tail=tail)).findings == (), tail


def test_sequential_inlines_a_module_of_this_file():
    src = """import torch
import torch.nn as nn


class Act(nn.Module):
    def forward(self, x):
        return torch.sigmoid(x)


net = nn.Sequential(nn.Linear(4, 4), Act())
y = net(torch.randn(2, 4))
y.mul_(2)
y.sum().backward()
"""
    f = _only(src, "GG202")
    assert (f.span.start.line, f.message.render()) == (
        12, "In-place change of `y`, which `torch.sigmoid(x)` (line 7) saved for backward")


def test_optimizer_step_reaches_parameters_of_sequential_children():
    src = """import torch
import torch.nn as nn
body = nn.Linear(3, 3)
net = nn.Sequential(body, nn.ReLU())
opt = torch.optim.SGD(net.parameters(), lr=0.1)
out = net(torch.randn(2, 3, requires_grad=True))
out.sum().backward(retain_graph=True)
opt.step()
out.mean().backward()
"""
    f = _only(src, "GG201")
    assert f.span.start.line == 9
    assert f.message.render() == ("`out.mean()` backpropagates through `net` as it was on line 6, "
                                  "but its parameters were updated in place on line 8")


FUNCTION = """import torch


class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, w):
        ctx.save_for_backward({saved})
        return x * w

    @staticmethod
    def backward(ctx, g):
        {unpack}, = ctx.saved_tensors
        return g, g


w = torch.ones(3, requires_grad=True)
x = torch.randn(3) * w
y = Scale.apply(x, w)
x.mul_(0.5)
y.sum().backward()
"""


def test_custom_function_saved_tensor_changed_in_place():
    src = FUNCTION.format(saved="x, w", unpack="x, w")
    f = _only(src, "GG202")
    assert (f.span.start.line, f.span.start.column) == (19, 0)
    assert f.message.render() == ("In-place change of `x`, which `Scale.apply(x, w)` (line 18) "
                                  "saved for backward")
    assert [r.span.start.line for r in f.related] == [18, 20]
    fixed = apply_edits(src, f.preferred_fix.edits)
    assert fixed.splitlines()[18] == "x = x.mul(0.5)"
    assert analyze(fixed).findings == ()


def test_custom_function_that_saved_something_else_or_never_unpacks_is_quiet():
    assert analyze(FUNCTION.format(saved="w", unpack="w")).findings == ()
    # without ctx.saved_tensors in backward, nothing checks the versions
    assert analyze(FUNCTION.format(saved="x, w", unpack="_")
                   .replace("_, = ctx.saved_tensors", "pass")).findings == ()


VIEW = """import torch
lin = torch.nn.Linear(4, 4)
cache = torch.zeros(3, 4)
cache[0] = lin(torch.randn(4))
keys = cache[{index}].t()
score = {left} @ keys
cache[1] = lin(torch.randn(4))
score.sum().backward()
"""


def test_slice_of_a_buffer_is_a_view_its_later_write_breaks_the_matmul():
    src = VIEW.format(index=":1", left="lin(torch.randn(2, 4))")
    f = _only(src, "GG202")
    assert (f.span.start.line, f.span.start.column) == (7, 0)
    assert f.message.render() == ("In-place change of `cache`, which "
                                  "`lin(torch.randn(2, 4)) @ keys` (line 6) saved for backward")
    fixed = apply_edits(src, f.preferred_fix.edits)
    assert fixed.splitlines()[6:8] == ["cache = cache.clone()", "cache[1] = lin(torch.randn(4))"]


def test_tensor_index_copies_and_matmul_saves_only_what_a_gradient_needs():
    # a tensor index copies; an operand that needs no gradient is not saved
    assert analyze(VIEW.format(index="torch.tensor([0])", left="lin(torch.randn(2, 4))")
                   ).findings == ()
    assert analyze(VIEW.format(index=":1", left="torch.randn(2, 4)")).findings == ()


CLIP = """import torch
import torch.nn as nn
critic = nn.Sequential(nn.Linear(4, 8), nn.LeakyReLU(0.2), nn.Linear(8, 1))
loss = critic(torch.randn(2, 4)).mean()
with torch.no_grad():
    for p in critic.parameters():
        p.clamp_(-0.01, 0.01)
{backward}
"""


def test_parameters_of_a_sequential_are_its_childrens():
    f = _only(CLIP.format(backward="loss.backward()"), "GG201")
    assert (f.span.start.line, f.message.render()) == (
        8, "`loss` backpropagates through `critic` as it was on line 4, but its parameters "
           "were updated in place on line 7")
    # the loss recomputed after the clipping is fine
    assert analyze(CLIP.format(backward="critic(torch.randn(2, 4)).mean().backward()")
                   ).findings == ()


FROZEN_TEACHER = """import torch
import torch.nn as nn


class Teacher(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 4))

    def forward(self, x):
        return self.body(x)


teacher = Teacher()
FREEZE
student = nn.Linear(4, 4)
opt = torch.optim.SGD(student.parameters(), lr=0.1)
target = teacher(torch.randn(2, 4))
for _ in range(3):
    loss = ((student(torch.randn(2, 4)) - target) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""


def test_a_frozen_network_builds_no_graph():
    # targets made once by a teacher whose parameters require no grad: no graph to free
    for freeze in ("teacher.requires_grad_(False)",
                   "for p in teacher.parameters():\n    p.requires_grad_(False)",
                   "for p in teacher.parameters():\n    p.requires_grad = False"):
        assert analyze(FROZEN_TEACHER.replace("FREEZE", freeze)).findings == (), freeze
    # eval() freezes nothing: the targets' graph is freed by the first backward
    [f] = analyze(FROZEN_TEACHER.replace("FREEZE", "teacher.eval()")).findings
    assert (f.code, f.span.start.line) == ("GG103", 22)
    # requires_grad_(True) undoes it
    [f] = analyze(FROZEN_TEACHER.replace(
        "FREEZE", "teacher.requires_grad_(False)\nteacher.requires_grad_(True)")).findings
    assert (f.code, f.span.start.line) == ("GG103", 23)


GATHERED = """import torch

w = torch.randn(4, 3, requires_grad=True)
gathered = torch.{fn}(w)
for i in range(2):
    loss = (gathered[i] * 2).sum()
    loss.backward()
"""


def test_a_torch_function_outside_the_tables_is_not_known_to_save_a_tensor():
    """``torch.distributed.nn.all_gather`` (an autograd.Function whose backward saves
    no tensor; the table describes torch.X, torch.nn.functional.X, torch.linalg.X...)
    built the graph the loop walks again: nothing is known to raise. ``torch.sigmoid``
    saves its result: the second backward raises."""
    assert analyze(GATHERED.format(fn="distributed.nn.all_gather")).findings == ()
    f = _only(GATHERED.format(fn="sigmoid"), "GG103")
    assert (f.span.start.line, f.message.render()) == (
        7, "`loss` uses `gathered`, built once on line 4 before the loop; the backward on "
           "line 7 frees its graph in the first iteration, so the next iteration fails")


# --- which modules save their parameters (table: saves_params, probed under torch) ---

def test_a_first_linear_on_data_does_not_save_its_weight():
    # addmm saves the weight only for its input's gradient: G's only Linear, on noise,
    # keeps nothing its step changes, so the second backward runs clean under torch
    assert [f.code for f in analyze(FIRST_LINEAR).findings] == []


def test_a_linear_on_a_graph_saves_its_weight():
    two = FIRST_LINEAR.replace("G = nn.Linear(4, 4)", "E = nn.Linear(4, 4)\nG = nn.Linear(4, 4)")
    two = two.replace("fake = G(z)", "fake = G(E(z))")
    f = _only(two, "GG201")
    assert (f.span.start.line, f.message.render()) == (
        18, "`d_loss` backpropagates through `G` as it was on line 11, but its parameters "
            "were updated in place on line 15")


def test_an_embedding_never_saves_its_weight():
    assert [f.code for f in analyze(EMBEDDING_STEPPED).findings] == []


def test_an_optimizer_given_a_variable_that_holds_parameters_trains_them():
    f = _only(PARAMS_IN_A_VARIABLE, "GG201")
    assert (f.span.start.line, f.message.render()) == (
        20, "`d_loss` backpropagates through `G` as it was on line 13, but its parameters "
            "were updated in place on line 17")


def test_a_module_dict_child_is_called_by_its_key():
    f = _only(MODULE_DICT, "GG202")
    assert (f.span.start.line, f.message.render()) == (
        12, 'In-place change of `out`, which `self.layers["act"](self.layers["fc"](x))` '
            '(line 11) saved for backward')
    # and its parameters are known to be reached (no GG402)
    assert [x.code for x in analyze(MODULE_DICT).findings] == ["GG202"]


FIRST_LINEAR = """import torch
import torch.nn as nn

G = nn.Linear(4, 4)
D = nn.Linear(4, 1)
opt_g = torch.optim.Adam(G.parameters())
opt_d = torch.optim.Adam(D.parameters())
for i in range(3):
    z = torch.randn(2, 4)
    fake = G(z)
    g_loss = -D(fake).mean()
    opt_g.zero_grad()
    g_loss.backward(retain_graph=True)
    opt_g.step()
    d_loss = D(fake).mean()
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()
"""

EMBEDDING_STEPPED = """import torch
import torch.nn as nn
emb = nn.Embedding(10, 4)
opt = torch.optim.SGD(emb.parameters(), lr=0.1)
out = emb(torch.tensor([1, 2, 3]))
out.pow(2).sum().backward(retain_graph=True)
opt.step()
out.pow(2).mean().backward()
"""

PARAMS_IN_A_VARIABLE = """import itertools
import torch
import torch.nn as nn

G = nn.Linear(4, 4)
D = nn.Linear(4, 1)
E = nn.Linear(4, 4)
params = itertools.chain(G.parameters(), E.parameters())
opt_g = torch.optim.Adam(params)
opt_d = torch.optim.Adam(D.parameters())
for i in range(3):
    z = torch.randn(2, 4)
    fake = G(E(z))
    g_loss = -D(fake).mean()
    opt_g.zero_grad()
    g_loss.backward(retain_graph=True)
    opt_g.step()
    d_loss = D(fake).mean()
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()
"""

MODULE_DICT = """import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleDict({"fc": nn.Linear(3, 3), "act": nn.Sigmoid()})

    def forward(self, x):
        out = self.layers["act"](self.layers["fc"](x))
        out += 1
        return out


net = Net()
opt = torch.optim.Adam(net.parameters())
for step in range(3):
    loss = net(torch.randn(2, 3)).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""


def test_a_forward_hook_runs_on_the_module_call_and_stores_its_output():
    # register_forward_hook: hook(module, inputs, output) runs after forward; the dict it
    # fills carries the graph of the iteration into the next one's loss
    f = _only(HOOK_KEEPS_OUTPUT, "GG102")
    assert (f.span.start.line, f.message.render()) == (
        26, "`loss` reaches the previous iteration's graph through `reg`, which the "
            "backward on line 26 freed in that iteration")
    assert [(r.span.start.line, r.span.start.column, r.message.render()) for r in f.related] == [
        (28, 4, "graph of `reg` built here"), (26, 4, "this backward freed it")]
    detached = HOOK_KEEPS_OUTPUT.replace('feats["fc"] = o\n', 'feats["fc"] = o.detach()\n')
    assert analyze(detached).findings == ()


HOOK_KEEPS_OUTPUT = """import torch
import torch.nn as nn

feats = {}
def hook(m, i, o):
    feats["fc"] = o

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 3)
        self.head = nn.Linear(3, 1)
    def forward(self, x):
        return self.head(torch.relu(self.fc(x)))

net = Net()
net.fc.register_forward_hook(hook)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
reg = None
for _ in range(3):
    out = net(torch.randn(2, 3))
    loss = out.mean()
    if reg is not None:
        loss = loss + reg
    opt.zero_grad()
    loss.backward()
    opt.step()
    reg = feats["fc"].pow(2).mean()
"""


def test_new_tensor_is_a_constant_that_saves_nothing_of_its_receiver():
    # batch.new_tensor(data) takes only dtype and device from batch: the in-place div_
    # of batch after it changes nothing a backward needs (runs clean under torch)
    assert analyze(NEW_TENSOR).findings == ()


def test_a_step_after_zero_grad_changes_only_what_a_backward_reached():
    # zero_grad() sets gradients to None (torch >= 2.0) and step() skips those: the
    # second head, not reached by the first backward, is unchanged (runs clean)
    assert analyze(TWO_HEADS).findings == ()
    kept = TWO_HEADS.replace("zero_grad()", "zero_grad(set_to_none=False)")
    f = _only(kept, "GG201")
    assert (f.span.start.line, f.message.render()) == (
        30, "`qf2_loss` backpropagates through `self.linear4` as it was on line 16, but its "
            "parameters were updated in place on line 28")


def test_grad_scaler_step_steps_its_optimizer():
    f = _only(GRAD_SCALER, "GG201")
    assert (f.span.start.line, f.message.render()) == (
        17, "`scaler.scale(d_loss)` backpropagates through `G` as it was on line 10, but its "
            "parameters were updated in place on line 14")


NEW_TENSOR = """import torch
import torch.nn as nn

conv = nn.Conv2d(3, 3, 3)
opt = torch.optim.SGD(conv.parameters(), lr=0.1)
for _ in range(2):
    batch = conv(torch.randn(1, 3, 8, 8))
    mean = batch.new_tensor([0.485, 0.456, 0.406]).view(-1, 1, 1)
    batch.div_(255.0)
    loss = (batch - mean).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""

TWO_HEADS = """import torch
import torch.nn as nn
import torch.nn.functional as F


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear1 = nn.Linear(4, 8)
        self.linear2 = nn.Linear(8, 1)
        self.linear3 = nn.Linear(4, 8)
        self.linear4 = nn.Linear(8, 1)

    def forward(self, x):
        q1 = self.linear2(F.relu(self.linear1(x)))
        q2 = self.linear4(F.relu(self.linear3(x)))
        return q1, q2


critic = Critic()
critic_optim = torch.optim.Adam(critic.parameters())
for step in range(3):
    q1, q2 = critic(torch.randn(5, 4))
    qf1_loss = q1.pow(2).mean()
    qf2_loss = q2.pow(2).mean()
    critic_optim.zero_grad()
    qf1_loss.backward()
    critic_optim.step()
    critic_optim.zero_grad()
    qf2_loss.backward()
    critic_optim.step()
"""

GRAD_SCALER = """import torch
import torch.nn as nn

G = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 4))
D = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
opt_g = torch.optim.Adam(G.parameters())
opt_d = torch.optim.Adam(D.parameters())
scaler = torch.amp.GradScaler("cpu")
for step in range(2):
    fake = G(torch.randn(5, 2))
    g_loss = -D(fake).mean()
    opt_g.zero_grad()
    scaler.scale(g_loss).backward(retain_graph=True)
    scaler.step(opt_g)
    d_loss = D(fake).mean() - D(torch.randn(5, 4)).mean()
    opt_d.zero_grad()
    scaler.scale(d_loss).backward()
    scaler.step(opt_d)
    scaler.update()
"""


def test_two_models_that_build_their_layers_in_one_helper_hold_two_sets_of_parameters():
    # qf1 and qf2 each call mlp() from the same line of __init__: their layers were one
    # abstract object, so stepping qf1's optimizer "updated" what qf2's loss had saved
    # (a false GG201 on a SAC update that runs clean under torch)
    src = textwrap.dedent("""\
        import torch
        import torch.nn as nn

        def mlp(i, o):
            return nn.Sequential(nn.Linear(i, 8), nn.ReLU(), nn.Linear(8, o))

        class Q(nn.Module):
            def __init__(self):
                super().__init__()
                self.net = mlp(4, 1)

            def forward(self, x):
                return self.net(x)

        qf1, qf2 = Q(), Q()
        opt1 = torch.optim.Adam(qf1.parameters())
        opt2 = torch.optim.Adam(qf2.parameters())
        for _ in range(3):
            x = torch.randn(5, 4)
            loss1 = qf1(x).pow(2).mean()
            loss2 = qf2(x).pow(2).mean()
            opt1.zero_grad()
            loss1.backward()
            opt1.step()
            opt2.zero_grad()
            loss2.backward()
            opt2.step()
        """)
    assert analyze(src).findings == ()
    # the same model twice is one set of parameters: stepping it before the second
    # backward is the hazard
    shared = src.replace("qf1, qf2 = Q(), Q()", "qf1 = Q(); qf2 = qf1")
    assert [(f.code, f.span.start.line) for f in analyze(shared).findings] == [("GG201", 26)]


def test_a_block_chosen_by_a_config_string_and_stacked_with_a_starred_comprehension():
    # YOLOv4's CSPDarknet with activate="relu": the activation is picked from a dict by a
    # string known from the config dict, the blocks are nn.Sequential(*[... for _ in ...]),
    # and the residual `out += x` changes the ReLU's saved output
    src = textwrap.dedent("""\
        import torch
        import torch.nn as nn

        ACTS = {"relu": nn.ReLU, "leaky": lambda: nn.LeakyReLU(0.1)}

        class Block(nn.Module):
            def __init__(self, activate=None):
                super().__init__()
                self.conv = nn.Linear(4, 4)
                self.act = ACTS[activate]() if activate else nn.Identity()

            def forward(self, x):
                out = self.act(self.conv(x))
                out += x
                return out

        def train(cfg):
            model = nn.Sequential(*[Block(cfg["activate"]) for _ in range(2)])
            opt = torch.optim.SGD(model.parameters(), lr=0.1)
            for _ in range(2):
                loss = model(torch.randn(2, 4)).sum()
                opt.zero_grad()
                loss.backward()
                opt.step()

        train({"activate": "relu"})
        """)
    assert [(f.code, f.span.start.line, f.message.render()) for f in analyze(src).findings] \
        == [("GG202", 14, "In-place change of `out`, which `self.act(self.conv(x))` (line 13) "
                          "saved for backward")]
    # with no activation (an empty string is false) the block is linear: nothing saved
    assert analyze(src.replace('"activate": "relu"', '"activate": ""')).findings == ()


def test_an_in_place_write_into_a_tensor_of_a_dict_comprehension():
    src = textwrap.dedent("""\
        import torch
        import torch.nn as nn

        class Head(nn.Module):
            def __init__(self):
                super().__init__()
                self.neck = nn.Sequential(nn.Linear(4, 4), nn.ReLU())
                self.heads = nn.ModuleDict({"obj": nn.Linear(4, 1), "cls": nn.Linear(4, 3)})

            def forward(self, x):
                feats = self.neck(x)
                scores = {name: torch.sigmoid(head(feats)) for name, head in self.heads.items()}
                scores["obj"][x[:, :1] > 0] = 0.0
                return scores

        model = Head()
        opt = torch.optim.Adam(model.parameters())
        for _ in range(2):
            scores = model(torch.randn(5, 4))
            loss = scores["obj"].sum() + scores["cls"].sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
        """)
    assert [(f.code, f.span.start.line) for f in analyze(src).findings] == [("GG202", 13)]


def test_the_children_of_an_nn_module_dict_are_its_items():
    # ModuleDict.items() / values() / keys(): its children in order, so head(x) on the
    # raw input is a module call whose sigmoid output is saved
    src = textwrap.dedent("""\
        import torch
        import torch.nn as nn

        heads = nn.ModuleDict({"obj": nn.Linear(4, 1), "cls": nn.Linear(4, 3)})
        opt = torch.optim.Adam(heads.parameters())
        for _ in range(2):
            x = torch.randn(5, 4)
            scores = {name: torch.sigmoid(head(x)) for name, head in heads.items()}
            scores["obj"][x[:, :1] > 0] = 0.0
            loss = sum(s.sum() for s in scores.values())
            opt.zero_grad()
            loss.backward()
            opt.step()
        """)
    assert [(f.code, f.span.start.line) for f in analyze(src).findings] == [("GG202", 9)]
    for call in ("heads.values()", "list(heads.values())"):
        other = src.replace("{name: torch.sigmoid(head(x)) for name, head in heads.items()}",
                            "{'obj': torch.sigmoid(h(x)) for h in " + call + "}")
        assert [(f.code, f.span.start.line) for f in analyze(other).findings] == \
            [("GG202", 9)], call



# the answer classifier of the bottom-up top-down VQA baseline (BierOne/bottom-up-
# attention-vqa#6): weight-normed Linear, ReLU, then an in-place Dropout in one Sequential
_VQA_CLASSIFIER = textwrap.dedent("""\
    import torch
    import torch.nn as nn
    from torch.nn.utils import weight_norm


    class Classifier(nn.Module):
        def __init__(self, in_dim, hid_dim, out_dim, dropout):
            super().__init__()
            layers = [
                weight_norm(nn.Linear(in_dim, hid_dim), dim=None),
                nn.ReLU(),
                nn.Dropout(dropout, inplace=True),
                weight_norm(nn.Linear(hid_dim, out_dim), dim=None),
            ]
            self.main = nn.Sequential(*layers)

        def forward(self, x):
            return self.main(x)


    model = Classifier(8, 16, 3, 0.5)
    opt = torch.optim.Adamax(model.parameters())
    for v in [torch.randn(4, 8), torch.randn(4, 8)]:
        model(v).logsumexp(1).mean().backward()
        opt.step()
        opt.zero_grad()
    """)


def test_an_in_place_module_in_a_sequential_is_reported_where_it_is_built():
    # weight_norm returns the Linear it is given (torch_ops.json module_wrappers), so the
    # Sequential's children are known; Dropout(inplace=True) overwrites the ReLU output
    # that ReLU's backward needs (torch raises in train mode)
    f = _only(_VQA_CLASSIFIER, "GG202")
    assert (f.span.start.line, f.span.start.column, f.message.render(),
            [(r.span.start.line, r.message.render()) for r in f.related]) == (
        12, 12, "`nn.Dropout(dropout, inplace=True)` runs inside `self.main(x)` and changes "
                "in place the output of the layer before it, which that layer saved for backward",
        [(18, "it happens here")])
    assert i18n.render(f.message, "zh_CN") == (
        "`nn.Dropout(dropout, inplace=True)` 在 `self.main(x)` 里运行，原地修改了前一层的输出，"
        "而前一层已经把这个输出保存下来供反向传播使用")
    fixed = apply_edits(_VQA_CLASSIFIER, f.preferred_fix.edits)
    assert "nn.Dropout(dropout, inplace=False)," in fixed
    assert [x for x in analyze(fixed).findings if x.code == "GG202"] == []



def test_two_in_place_modules_of_one_sequential_are_fixed_together():
    # the GAN tutorial's discriminator: LeakyReLU(inplace) then Dropout(inplace), twice;
    # each Dropout overwrites what its LeakyReLU saved. One preferred fix builds both
    # with inplace=False (fixing one leaves the backward failing on the other)
    program = _VQA_CLASSIFIER.replace(
        "nn.Dropout(dropout, inplace=True),\n",
        "nn.Dropout(dropout, inplace=True),\n"
        "                nn.Linear(hid_dim, hid_dim),\n"
        "                nn.ReLU(),\n"
        "                nn.Dropout(p=0.3, inplace=True),\n")
    found = [f for f in analyze(program).findings if f.code == "GG202"]
    assert [f.span.start.line for f in found] == [12, 15]
    for f in found:
        fixed = apply_edits(program, f.preferred_fix.edits)
        assert "nn.Dropout(dropout, inplace=False)," in fixed
        assert "nn.Dropout(p=0.3, inplace=False)," in fixed
        assert [x for x in analyze(fixed).findings if x.code == "GG202"] == []


def test_of_two_in_place_modules_in_one_sequential_the_one_that_changed_the_saved_tensor():
    # pytorch-vqvae's ResBlock (realrepos5): ReLU(True), Conv, ReLU(True), Conv; the first
    # changes the encoder's ReLU output, which that ReLU saved (torch raises); the second
    # changes a conv output no node saved. The fix edits the first
    program = textwrap.dedent("""\
        import torch
        import torch.nn as nn


        class ResBlock(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.block = nn.Sequential(
                    nn.ReLU(True),
                    nn.Conv2d(dim, dim, 3, 1, 1),
                    nn.ReLU(True),
                    nn.Conv2d(dim, dim, 1)
                )

            def forward(self, x):
                return x + self.block(x)


        encoder = nn.Sequential(nn.Conv2d(3, 8, 4, 2, 1), nn.ReLU(True), ResBlock(8))
        opt = torch.optim.Adam(encoder.parameters())
        for step in range(2):
            loss = encoder(torch.randn(2, 3, 8, 8)).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        """)
    f = _only(program, "GG202")
    assert (f.span.start.line, src_line(program, f.span.start.line)) == (9, "nn.ReLU(True),")
    fixed = apply_edits(program, f.preferred_fix.edits)
    assert fixed.splitlines()[8:11] == [
        "            nn.ReLU(False),", "            nn.Conv2d(dim, dim, 3, 1, 1),",
        "            nn.ReLU(True),"]
    assert analyze(fixed).findings == ()


# a loop over an nn.Sequential's layers runs each layer as itself: a frozen extractor's
# convolutions build no graph from targets computed once (the style-transfer recipe)
FROZEN_FEATURES = """import torch
from torch import nn
import torch.nn.functional as F


class Features(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.Sequential(nn.Conv2d(3, 4, 3), nn.ReLU(), nn.Conv2d(4, 4, 3))

    def forward(self, x):
        outs = []
        for i, layer in enumerate(self.layers):
            x = layer(x)
            if i != 1:
                outs.append(x)
        return outs


net = Features()
net.requires_grad_(False)
targets = net(torch.rand(1, 3, 9, 9))
image = torch.rand(1, 3, 9, 9, requires_grad=True)
opt = torch.optim.Adam([image], lr=0.1)
for _ in range(3):
    opt.zero_grad()
    loss = sum(F.mse_loss(a, b) for a, b in zip(net(image), targets))
    loss.backward()
    opt.step()
"""


def test_a_loop_over_a_frozen_sequentials_layers_builds_no_graph():
    assert analyze(FROZEN_FEATURES).findings == ()


def test_a_loop_over_a_trained_sequentials_layers_builds_one():
    text = FROZEN_FEATURES.replace("net.requires_grad_(False)\n", "")
    assert [(f.code, f.span.start.line) for f in analyze(text).findings] == [("GG103", 27)]


# copy.deepcopy(net): a module of the same class with parameters of its own
MAML_COPY = """import copy
import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(1, 8), nn.ReLU(), nn.Linear(8, 1))
meta_opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for _ in range(2):
    learner = copy.deepcopy(model)
    x, y = torch.randn(5, 1), torch.randn(5, 1)
    inner = ((learner(x) - y) ** 2).mean()
    grads = torch.autograd.grad(inner, learner.parameters())
    for p, g in zip(learner.parameters(), grads):
        p.data -= 0.01 * g
    meta_loss = ((learner(x) - y) ** 2).mean()
    meta_opt.zero_grad()
    meta_loss.backward()
    meta_opt.step()
"""


def test_a_deep_copy_trains_apart_from_the_model_it_copies():
    # the meta-loss goes through the copy's own leaves: the meta-optimizer gets nothing
    assert [(f.code, f.span.start.line) for f in analyze(MAML_COPY).findings] == [
        ("GG402", 17)]


def test_a_target_network_copied_and_used_without_grad_is_quiet():
    text = """import copy
import torch
import torch.nn as nn

q = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2))
target = copy.deepcopy(q)
opt = torch.optim.Adam(q.parameters(), lr=1e-3)
for step in range(3):
    s, s2 = torch.randn(8, 4), torch.randn(8, 4)
    with torch.no_grad():
        y = 1.0 + 0.9 * target(s2).max(1).values
    loss = ((q(s).max(1).values - y) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 2 == 0:
        target.load_state_dict(q.state_dict())
"""
    assert analyze(text).findings == ()


def test_parameters_of_one_of_two_models_change_in_place():
    # an EMA teacher that is either a copy of the student or a new net: its update
    # between the teacher's forward and the backward through it changes what it saved
    text = """import copy
import sys
import torch
import torch.nn as nn

student = nn.Sequential(nn.Linear(4, 4), nn.Tanh(), nn.Linear(4, 4))
teacher = copy.deepcopy(student) if len(sys.argv) > 1 else nn.Sequential(
    nn.Linear(4, 4), nn.Tanh(), nn.Linear(4, 4))
opt = torch.optim.SGD(student.parameters(), lr=0.1)
for _ in range(2):
    x = torch.randn(2, 4)
    loss = ((student(x) - teacher(x)) ** 2).mean()
    opt.zero_grad()
    with torch.no_grad():
        for t, s in zip(teacher.parameters(), student.parameters()):
            t.mul_(0.9).add_(s, alpha=0.1)
    loss.backward()
    opt.step()
"""
    assert [(f.code, f.span.start.line) for f in analyze(text).findings] == [("GG201", 17)]


LEVELS_APPENDED = """\
import torch
import torch.nn as nn


class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.levels = nn.ModuleList()
        for i in range(3):
            convs = nn.Sequential(nn.Conv2d(4, 4, 3, padding=1), nn.ReLU(inplace=True))
            self.levels.append(convs)

    def forward(self, inputs):
        total = self.levels[0](inputs[0])
        for i in range(1, len(inputs)):
            total += self.levels[i](inputs[i])
        return total


head = Head()
feats = [torch.randn(1, 4, 8, 8) for _ in range(3)]
head(feats).sum().backward()
"""


def test_module_containers_filled_by_append_and_add_module_run_their_children():
    # nn.ModuleList() / nn.Sequential() filled later hold those children in that order:
    # level 0 ends in ReLU(inplace=True), which saves its result, and ``+=`` changes it
    f = _only(LEVELS_APPENDED, "GG202")
    assert (f.span.start.line, f.message.render()) == (
        16, "In-place change of `total`, which `self.levels[0](inputs[0])` (line 14) saved "
            "for backward")
    fixed = apply_edits(LEVELS_APPENDED, f.preferred_fix.edits)
    assert "            total = total + self.levels[i](inputs[i])\n" in fixed
    assert analyze(fixed).findings == ()
    added = LEVELS_APPENDED.replace(
        "            convs = nn.Sequential(nn.Conv2d(4, 4, 3, padding=1), nn.ReLU(inplace=True))\n",
        "            convs = nn.Sequential()\n"
        "            convs.add_module('conv', nn.Conv2d(4, 4, 3, padding=1))\n"
        "            convs.add_module('act', nn.ReLU(inplace=True))\n")
    assert [(f.code, f.span.start.line) for f in analyze(added).findings] == [("GG202", 18)]
    # a level that ends in batch norm saves its input, not the result ``+=`` changes
    assert analyze(LEVELS_APPENDED.replace("nn.ReLU(inplace=True))",
                                           "nn.BatchNorm2d(4))")).findings == ()
    # children not known (a helper builds them): not known what level 0 saves
    unknown = LEVELS_APPENDED.replace("self.levels.append(convs)",
                                      "self.levels.append(make_level())")
    assert analyze(unknown).findings == ()


# an activation penalty collected by forward hooks registered over named_modules(),
# filtered by isinstance against torch.nn classes, into a defaultdict(list) that is never
# emptied: step 2's penalty reaches step 1's freed graph (raises under torch 2.13)
HOOKS_OVER_NAMED_MODULES = """from collections import defaultdict

import torch
import torch.nn as nn


class Recorder:
    def __init__(self, model, kinds=(nn.ReLU,)):
        self.acts = defaultdict(list)
        for name, module in model.named_modules():
            if isinstance(module, kinds):
                module.register_forward_hook(self.hook(name))

    def hook(self, name):
        def fn(module, inputs, output):
            self.acts[name].append(output)
        return fn

    def penalty(self):
        return sum(torch.cat(a).abs().mean() for a in self.acts.values())


model = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 2))
recorder = Recorder(model)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    loss = model(torch.randn(4, 8)).pow(2).mean() + 1e-3 * recorder.penalty()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""


def test_hooks_registered_over_named_modules_fill_the_lists_of_a_dict():
    f = _only(HOOKS_OVER_NAMED_MODULES, "GG102")
    assert (f.span.start.line, f.message.render()) == (
        29, "`loss` reaches the previous iteration's graph through `recorder.acts`, which "
            "the backward on line 29 freed in that iteration")
    # each of these runs clean under torch: the lists emptied after use (each one, or
    # the slots reset), or no module of the model is of the hooked kinds
    penalty = "        return sum(torch.cat(a).abs().mean() for a in self.acts.values())\n"
    for emptied in ("        for a in self.acts.values():\n            a.clear()\n",
                    "        for k in list(self.acts):\n            self.acts[k] = []\n",
                    "        self.acts.clear()\n"):
        text = HOOKS_OVER_NAMED_MODULES.replace(penalty, penalty.replace("return", "out =")
                                                + emptied + "        return out\n")
        assert analyze(text).findings == (), emptied
    other_kinds = HOOKS_OVER_NAMED_MODULES.replace("(nn.ReLU,)", "(nn.Conv2d, nn.Tanh)")
    assert analyze(other_kinds).findings == ()
    # torch.nn's own class hierarchy, from the table: a ReLU6 is a Hardtanh (raises),
    # not a ReLU (runs clean)
    relu6 = HOOKS_OVER_NAMED_MODULES.replace("nn.ReLU()", "nn.ReLU6()")
    assert analyze(relu6).findings == ()
    f = _only(relu6.replace("(nn.ReLU,)", "(nn.Hardtanh,)"), "GG102")
    assert f.span.start.line == 29


# an output of one of the list's modules, picked by index in a loop: whichever ran last
# made x, and x.pow(2) saved it; the in-place divide then breaks the backward (raises)
INDEXED_LAYERS_THEN_INPLACE = """\
import torch
import torch.nn as nn

layers = nn.ModuleList([nn.Linear(4, 4), nn.Linear(4, 4)])
opt = torch.optim.SGD(layers.parameters(), lr=0.1)
for _ in range(2):
    x = torch.randn(2, 4)
    for k in range(len(layers)):
        x = layers[k](x)
    norm = x.pow(2).sum()
    x /= norm
    opt.zero_grad()
    x.sum().backward()
    opt.step()
"""

# the same list built by ``layers += [...]`` in a helper, as VGG-style builders do
LAYERS_ADDED_BY_PLUS_EQUALS = """\
import torch
import torch.nn as nn


def make(cfg):
    layers = []
    for v in cfg:
        if v == 'M':
            layers += [nn.MaxPool1d(1)]
        else:
            layers += [nn.Linear(4, 4), nn.ReLU()]
    return layers


layers = nn.ModuleList(make([4, 'M', 4]))
opt = torch.optim.SGD(layers.parameters(), lr=0.1)
for _ in range(2):
    x = torch.randn(2, 4)
    for k in range(len(layers)):
        x = layers[k](x)
    norm = x.pow(2).sum()
    x /= norm
    opt.zero_grad()
    x.sum().backward()
    opt.step()
"""


def test_a_module_picked_by_index_in_a_loop_makes_the_output_an_inplace_op_breaks():
    f = _only(INDEXED_LAYERS_THEN_INPLACE, "GG202")
    assert (f.span.start.line, f.message.render()) == (
        11, "In-place change of `x`, which `x.pow(2)` (line 10) saved for backward")
    f = _only(LAYERS_ADDED_BY_PLUS_EQUALS, "GG202")
    assert (f.span.start.line, f.message.render()) == (
        22, "In-place change of `x`, which `x.pow(2)` (line 21) saved for backward")
    assert analyze(INDEXED_LAYERS_THEN_INPLACE.replace("x /= norm", "x = x / norm")).findings == ()


def test_one_of_a_list_of_modules_mixing_inplace_activations_is_quiet():
    # layers[k] stands for a Linear, a MaxPool1d or a ReLU(inplace=True): which one
    # changes its input in place, after which one saved it, is not known here (this
    # program runs clean under torch: each ReLU follows a Linear, which saves no output)
    mixed = LAYERS_ADDED_BY_PLUS_EQUALS.replace("nn.ReLU()", "nn.ReLU(inplace=True)").replace(
        "    norm = x.pow(2).sum()\n    x /= norm\n", "")
    assert analyze(mixed).findings == ()


# nn.Sequential(OrderedDict([...])) (torchvision's style): its children in the order
# given, each also its attribute by name; the in-place ReLU changes the sigmoid's output,
# which the sigmoid saved (raises)
SEQUENTIAL_OF_NAMED_LAYERS = """\
from collections import OrderedDict

import torch
import torch.nn as nn

net = nn.Sequential(OrderedDict([
    ("fc", nn.Linear(4, 4)),
    ("sig", nn.Sigmoid()),
    ("act", nn.ReLU(inplace=True)),
    ("out", nn.Linear(4, 1)),
]))
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for _ in range(2):
    loss = net(torch.randn(2, 4)).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""

# the same layers in an nn.ModuleDict, run in order by a loop over its items()
MODULE_DICT_OF_NAMED_LAYERS = """\
from collections import OrderedDict

import torch
import torch.nn as nn

net = nn.ModuleDict(OrderedDict([
    ("fc", nn.Linear(4, 4)),
    ("sig", nn.Sigmoid()),
    ("act", nn.ReLU(inplace=True)),
    ("out", nn.Linear(4, 1)),
]))
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for _ in range(2):
    h = torch.randn(2, 4)
    for name, layer in net.items():
        h = layer(h)
    loss = h.sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""


def test_layers_named_in_an_ordered_dict_run_in_their_order():
    f = _only(SEQUENTIAL_OF_NAMED_LAYERS, "GG202")
    assert (f.span.start.line, f.message.render()) == (
        9, "`nn.ReLU(inplace=True)` runs inside `net(torch.randn(2, 4))` and changes in "
           "place the output of the layer before it, which that layer saved for backward")
    f = _only(MODULE_DICT_OF_NAMED_LAYERS, "GG202")
    assert (f.span.start.line, f.message.render()) == (
        16, "In-place change of `h`, which `layer(h)` (line 16) saved for backward")
    for text in (SEQUENTIAL_OF_NAMED_LAYERS, MODULE_DICT_OF_NAMED_LAYERS):
        assert analyze(text.replace("nn.ReLU(inplace=True)", "nn.ReLU()")).findings == ()
    # dict(pairs) is the same dict as OrderedDict(pairs)
    as_dict = SEQUENTIAL_OF_NAMED_LAYERS.replace("nn.Sequential(OrderedDict(", "nn.Sequential(dict(")
    assert _only(as_dict, "GG202").span.start.line == 9


SUBCLASSED_CONTAINER = """import torch
import torch.nn as nn


class Head(nn.Sequential):
    def __init__(self, d):
        super().__init__(*[nn.Linear(d, d), nn.Sigmoid()])


class Critic(Head):
    def forward(self, s, a):
        return super().forward(torch.cat((s, a), dim=-1))


class Stack(nn.ModuleList):
    def __init__(self, d):
        super().__init__([nn.Linear(d, d), nn.Sigmoid()])

    def forward(self, x):
        for layer in self:
            x = layer(x)
        return x


x = torch.randn(2, 4)
out = {call}
out.mul_(2)
out.sum().backward()
"""


def test_a_subclass_of_sequential_runs_the_children_its_init_gave_to_super():
    # torch/nn/modules/container.py: Sequential.__init__(*args) adds each as a child and
    # Sequential.forward runs them in order; Sigmoid's backward needs its result
    for call, saver, line in (("Head(4)(x)", "Head(4)(x)", 26),
                              ("Critic(4)(x[:, :2], x[:, 2:])",
                               "super().forward(torch.cat((s, a), dim...", 12),
                              ("Stack(4)(x)", "layer(x)", 21)):
        f = _only(SUBCLASSED_CONTAINER.format(call=call), "GG202")
        assert f.span.start.line == 27
        assert f.message.render() == (
            f"In-place change of `out`, which `{saver}` (line {line}) saved for backward")


def test_a_subclass_of_sequential_ending_in_a_module_that_saves_its_input_is_quiet():
    src = SUBCLASSED_CONTAINER.replace("nn.Sigmoid()", "nn.Tanhshrink()")
    for call in ("Head(4)(x)", "Critic(4)(x[:, :2], x[:, 2:])", "Stack(4)(x)"):
        assert analyze(src.format(call=call)).findings == (), call


def test_an_in_place_change_in_a_module_method_that_runs_the_backward_there_is_found():
    # the method keeps its graph to itself, but its own backward walks the changed node
    src = """import torch
import torch.nn as nn


class Head(nn.Module):
    def fit(self):
        out = torch.exp(torch.randn(3, requires_grad=True))
        out.mul_(2)
        BACKWARD


Head().fit()
"""
    f = _only(src.replace("BACKWARD", "out.sum().backward()"), "GG202")
    assert (f.span.start.line, f.message.render()) == (
        8, "In-place change of `out`, which `torch.exp(torch.randn(3, requires_gra...` (line 7) "
           "saved for backward")
    assert analyze(src.replace("BACKWARD", "print(out)")).findings == ()


def test_a_module_added_under_a_name_not_known_is_a_submodule():
    # TQC's Mlp: ``self.add_module(f"fc{i}", fc)`` registers fc, so the critic's optimizer
    # steps it; the actor loss built before that step then backpropagates through
    # weights changed in place (torch: "modified by an inplace operation")
    src = """import torch
import torch.nn as nn


class Mlp(nn.Module):
    def __init__(self, sizes):
        super().__init__()
        self.fcs = []
        for i in range(len(sizes) - 1):
            fc = nn.Linear(sizes[i], sizes[i + 1])
            self.add_module(NAME, fc)
            self.fcs.append(fc)

    def forward(self, h):
        for fc in self.fcs:
            h = torch.relu(fc(h))
        return h


critic = Mlp([4, 8, 1])
opt = torch.optim.Adam(critic.parameters())
actor_loss = critic(torch.randn(2, 4, requires_grad=True)).mean()
critic_loss = critic(torch.randn(2, 4)).pow(2).mean()
opt.zero_grad()
critic_loss.backward()
opt.step()
actor_loss.backward()
"""
    for name in ('f"fc{i}"', '"fc" + str(i)'):
        f = _only(src.replace("NAME", name), "GG201")
        assert (f.span.start.line, f.message.render()) == (
            27, "`actor_loss` backpropagates through `fc` as it was on line 16, but its "
                "parameters were updated in place on line 26")


TWO_STAGE = """import torch
import torch.nn as nn
import torch.nn.functional as F

first, second = nn.Linear(16, 8), nn.Embedding(8, 4)
first_opt = torch.optim.Adam(first.parameters())
second_opt = torch.optim.Adam(second.parameters())
for it in range(3):
    x, y = torch.randn(32, 16), torch.randn(32, 4)
    first_opt.zero_grad()
    second_opt.zero_grad()
    idx = PICK
    loss = F.mse_loss(second(idx), y)
    loss.backward()
    first_opt.step()
    second_opt.step()
"""


def test_the_indices_an_op_returns_beside_its_values_carry_no_graph():
    # native_functions.yaml: max.dim returns (values, indices), sort/topk too; indices are
    # integers and never carry a graph (pytorch#1339: the first model never trains)
    for pick in ("torch.max(first(x), 1)[1]", "first(x).max(dim=1).indices",
                 "first(x).topk(1)[1][:, 0]", "torch.sort(first(x), 1)[1][:, 0]"):
        f = _only(TWO_STAGE.replace("PICK", pick), "GG402")
        assert (f.span.start.line, f.message.render()) == (15, (
            "`first_opt` steps the parameters of `first`, but no backward of this loop "
            "reaches them (their way to the loss is cut, or the loss is built from other "
            "modules), so their gradients stay None and `first` does not train")), pick
    # the values keep the graph; max of two tensors is one tensor
    src = TWO_STAGE.replace("idx = PICK", "z = torch.max(first(x), 1)[0]").replace(
        "F.mse_loss(second(idx), y)", "F.mse_loss(z[:, None].expand(32, 4), y) + "
        "F.mse_loss(torch.max(second.weight[:4], torch.zeros(4, 4)), y[:4])")
    assert analyze(src).findings == ()


# weight decay for every parameter but biases and norms' weights: the two groups are
# picked by name out of named_parameters() ("0.weight", "1.weight", ...)
DECAY_GROUPS = """import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(4, 8), nn.LayerNorm(8), nn.Linear(8, 1))
no_decay = ["bias", "1.weight"]
groups = [
    {"params": [p for n, p in model.named_parameters() if not any(nd in n for nd in no_decay)],
     "weight_decay": 0.01},
    {"params": [p for n, p in model.named_parameters() if any(nd in n for nd in no_decay)],
     "weight_decay": 0.0},
]
opt = torch.optim.AdamW(groups, lr=1e-3)
for _ in range(3):
    out = model(torch.randn(2, 4))
    loss1 = out.pow(2).mean()
    loss2 = out.abs().mean()
    opt.zero_grad()
    loss1.backward(retain_graph=True)
    opt.step()
    loss2.backward()
    opt.step()
"""


def test_parameters_picked_by_name_are_those_the_names_pass():
    # every parameter is in one group, so the first step changes what the forward saved
    f = _only(DECAY_GROUPS, "GG201")
    assert (f.span.start.line, f.message.render()) == (
        20, "`loss2` backpropagates through `model` as it was on line 14, but its parameters "
            "were updated in place on line 19")
    # a name test the engine cannot decide (a name from outside): which parameters the
    # step changes is not known, so nothing is said
    undecided = DECAY_GROUPS.replace('no_decay = ["bias", "1.weight"]',
                                     "no_decay = load_names()")
    assert analyze(undecided).findings == ()
    # only the decayed weights stepped: part of each Linear's parameters, and the engine
    # tells modules apart, not their parameters: quiet
    only_decay = DECAY_GROUPS.replace(
        '''    {"params": [p for n, p in model.named_parameters() if any(nd in n for nd in no_decay)],
     "weight_decay": 0.0},
''', "")
    assert [f.code for f in analyze(only_decay).findings] == []


# an embedding table with max_norm, read whole by a classifier before the lookups
MAX_NORM_TABLE = """import torch
import torch.nn as nn

ent = nn.Embedding(20, 8, max_norm=1.0)
type_head = nn.Linear(8, 3)
opt = torch.optim.SGD([*ent.parameters(), *type_head.parameters()], lr=0.1)
for _ in range(2):
    type_logits = type_head(ent.weight)
    h = ent(torch.randint(0, 20, (5,)))
    loss = type_logits.pow(2).mean() + h.pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""


def test_an_embedding_with_max_norm_changes_its_weight_in_place_when_called():
    # torch's docs for nn.Embedding: with max_norm its forward renormalises the weight in
    # place, so an op that saved the weight before the lookup fails; clone it there
    f = _only(MAX_NORM_TABLE, "GG202")
    assert (f.span.start.line, f.message.render()) == (
        9, "`ent` renormalises its weight in place when called (its max_norm), and "
           "`type_head(ent.weight)` (line 8) saved that weight for backward")
    assert f.preferred_fix.title.render() == \
        "Clone `ent.weight` where `type_head(ent.weight)` saves it"
    fixed = apply_edits(MAX_NORM_TABLE, f.preferred_fix.edits)
    assert "    type_logits = type_head(ent.weight.clone())\n" in fixed
    assert analyze(fixed).findings == ()
    # without max_norm the lookup leaves the weight alone
    assert analyze(MAX_NORM_TABLE.replace(", max_norm=1.0", "")).findings == ()
    assert analyze(MAX_NORM_TABLE.replace("max_norm=1.0", "max_norm=None")).findings == ()
