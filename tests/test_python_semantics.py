"""The engine handles whatever Python parses: no internal error, and the autograd facts
still flow through names bound to several callables, generators, ``match``, decorators,
``*args``/``**kwargs``, walrus, ``async``, nested classes, ``global``/``nonlocal``."""

import textwrap

import pytest

from gradguard.analysis import analyze
from gradguard.fixes import apply_edits


def _found(text):
    result = analyze(textwrap.dedent(text))
    assert result.errors == ()
    return [(f.code, f.span.start.line, f.message.render()) for f in result.findings]


def test_a_name_bound_to_one_of_two_torch_callables_is_called():
    # torch.cuda.FloatTensor if cuda else torch.FloatTensor: raised AttributeError
    # ('NoneType' object has no attribute 'split') and the whole function was skipped
    assert _found("""\
        import torch
        import torch.nn as nn

        def train(cuda, last, data, model, opt):
            Tensor = torch.cuda.FloatTensor if cuda else torch.FloatTensor
            act = nn.ReLU if last else nn.Tanh
            for x in data:
                valid = Tensor(x.size(0), 1).fill_(1.0)
                loss = act()(model(x)).sum() * valid.sum()
                opt.zero_grad()
                loss.backward()
                opt.step()
        """) == []


def test_a_call_of_a_lambda_chosen_in_a_branch_runs_each_lambda():
    assert _found("""\
        def step(flag, net, x, y):
            loss_fn = (lambda a, b: ((a - b) ** 2).mean()) if flag else (lambda a, b: (a - b).abs().mean())
            net.zero_grad()
            out = net(x)
            loss = loss_fn(out, y)
            loss.backward()
            loss_fn(out, y).backward()
        """) == [("GG101", 7, "`loss_fn(out, y)` is backpropagated through the graph of `out` "
                             "(built on line 4), which the backward on line 6 already freed")]


def test_a_fallback_import_is_one_of_two_modules():
    assert _found("""\
        try:
            from apex import amp
        except ImportError:
            amp = None

        def backward(loss, opt):
            if amp is not None:
                with amp.scale_loss(loss, opt) as scaled:
                    scaled.backward()
            else:
                loss.backward()
        """) == []


def test_a_generator_builds_a_new_graph_for_each_element_it_yields():
    # its body runs lazily, once per element the caller takes
    assert _found("""\
        def batches(model, data):
            for x in data:
                yield model(x)

        def run(model, data):
            for out in batches(model, data):
                out.mean().backward()
        """) == []


def test_a_generator_that_yields_one_graph_again_and_again():
    assert _found("""\
        def repeat(t, n):
            for _ in range(n):
                yield t

        def run(model, x):
            model.train()
            h = model(x)
            for t in repeat(h, 3):
                t.sum().backward()
        """) == [("GG103", 9, "`t.sum()` uses `h`, built once on line 7 before the loop; the "
                             "backward on line 9 frees its graph in the first iteration, so the "
                             "next iteration fails")]


def test_match_binds_its_captures_and_an_irrefutable_case_leaves_no_path_around_it():
    assert _found("""\
        import torch

        def run(model, batches):
            for batch in batches:
                match batch:
                    case torch.Tensor() as x if (n := x.numel()) > 0:
                        loss = model(x).sum()
                    case [x, *rest]:
                        loss = model(x).sum()
                    case {"input": x, **rest}:
                        loss = model(x).sum()
                    case _:
                        loss = model(batch).mean()
                loss.backward()
        """) == []
    assert _found("""\
        def run(model, batches):
            model.train()
            for batch in batches:
                match batch:
                    case (x, y):
                        out = model(x)
                    case {"input": x}:
                        out = model(x)
                    case _:
                        continue
                out.sum().backward()
                out.mean().backward()
        """) == [("GG101", 12, "`out.mean()` is backpropagated through the graph of `out` (built on "
                              "line 6), which the backward on line 11 already freed")]


def test_decorators_star_args_async_nested_classes_global_nonlocal():
    assert _found("""\
        import functools
        import torch
        import torch.nn as nn

        counter = 0

        def deco(f):
            @functools.wraps(f)
            def wrapper(*args, **kwargs):
                return f(*args, **kwargs)
            return wrapper

        class Outer(nn.Module):
            class Inner(nn.Module):
                def forward(self, x):
                    return x * 2

            def __init__(self):
                super().__init__()
                self.inner = Outer.Inner()
                self.lin = nn.Linear(3, 3)

            @deco
            def forward(self, x, *rest, scale=1, **opts):
                return self.inner(self.lin(x)) * scale

        async def produce(model, data):
            async for x in data:
                yield model(x)

        async def run(data):
            global counter
            m = Outer()
            opt = torch.optim.Adam(m.parameters())

            def reset():
                nonlocal opt
                opt = None

            async with torch.autocast("cpu"):
                async for out in produce(m, data):
                    loss = out.sum()
                    loss.backward()
                    opt.step()
                    counter += 1
            return [y async for y in produce(m, data)]
        """) == []


def test_a_callable_parameter_is_a_model_only_where_the_function_uses_it_as_one():
    # split_f is a data transform handed in as a parameter: its result has no graph
    assert _found("""\
        def train_batch(net, features, labels, loss, split_f):
            X_shards, y_shards = split_f(features, labels)
            for X, y in zip(X_shards, y_shards):
                l = loss(net(X), y)
                l.backward()
        """) == []
    # the same function that also calls a method only an nn.Module has on split_f
    assert _found("""\
        def train_batch(net, features, labels, loss, split_f):
            split_f.train()
            X_shards, y_shards = split_f(features, labels)
            for X, y in zip(X_shards, y_shards):
                l = loss(net(X), y)
                l.backward()
        """) == [("GG103", 6, "`l` uses `X_shards`, built once on line 3 before the loop; the "
                             "backward on line 6 frees its graph in the first iteration, so the "
                             "next iteration fails")]


def test_the_body_of_a_one_line_compound_statement_runs():
    assert _found("""\
        def train(model, data, opt):
            model.train()
            hidden = None
            for x in data:
                if hidden is None: hidden = model.init(x)
                out, hidden = model(x, hidden)
                out.sum().backward()
        """) == [("GG102", 7, "`out.sum()` reaches the previous iteration's graph through "
                             "`hidden`, which the backward on line 7 freed in that iteration")]


def test_an_object_is_taken_for_a_list_only_by_a_list_method():
    # update() is as often a metric's or a logger's (it reads the value, keeps no graph)
    assert _found("""\
        def train(model, data, opt, meter):
            model.train()
            for x in data:
                loss = model(x).sum()
                loss.backward()
                meter.update(loss)
                meter.update(loss=loss)
                meter[0] = loss
        """) == []
    assert _found("""\
        def train(model, data, opt, history):
            model.train()
            for x in data:
                loss = model(x).sum()
                loss.backward()
                history.append(loss)
        """) == [("GG301", 6, "`history` accumulates `loss` with its autograd graph: every "
                             "iteration's graph stays in memory")]


def test_a_returned_sum_of_live_chunk_losses_is_the_callers_to_backpropagate():
    # the chunks' graphs are summed for the caller's backward: not a leak
    assert _found("""\
        import torch

        def chunked_loss(model, batch, chunks, with_backward):
            model.train()
            losses = []
            for part in batch.split(chunks):
                loss = model(part).sum()
                if with_backward:
                    loss.backward()
                    loss = loss.detach()
                losses.append(loss)
            return torch.stack(losses).sum()
        """) == []
    # losses already backpropagated: returning their sum keeps every graph alive
    assert [c for c, *_ in _found("""\
        import torch

        def train_epoch(model, data, opt):
            model.train()
            losses = []
            for x in data:
                loss = model(x).sum()
                loss.backward()
                opt.step()
                losses.append(loss)
            return torch.stack(losses).mean()
        """)] == ["GG301"]


DATACLASS_CONFIG = """from dataclasses import dataclass

import torch
import torch.nn as nn


@dataclass
class Config:
    cache: bool = True
    dim: int = 4


class Net(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.lin = nn.Linear(cfg.dim, cfg.dim)
        self.cache = cfg.cache
        self.cached = None

    def forward(self, x):
        if self.cache and self.cached is not None:
            return self.cached
        out = self.lin(x)
        if self.cache:
            self.cached = out
        return out


net = Net(Config(ARG))
opt = torch.optim.SGD(net.parameters(), lr=0.1)
x = torch.randn(2, 4)
for _ in range(2):
    loss = net(x).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""


def test_a_dataclass_field_keeps_its_default_unless_the_call_sets_it():
    # Config() caches the output (its graph freed by the first backward); the others do not
    assert [(c, line) for c, line, _ in _found(DATACLASS_CONFIG.replace("ARG", ""))] == \
        [("GG102", 35)]
    for arg in ("cache=False", "False"):
        assert _found(DATACLASS_CONFIG.replace("ARG", arg)) == [], arg


ZIPPED_MODULE_LIST = """import torch
import torch.nn as nn


class Neck(nn.Module):
    def __init__(self):
        super().__init__()
        self.convs = nn.ModuleList(nn.Sequential(nn.Linear(4, 4), nn.ReLU()) for _ in range(3))

    def forward(self, xs):
        outs = [conv(x) for x, conv in zip(xs, self.convs)]
        STMT
        return outs[0]


net = Neck()
net([torch.randn(2, 4) for _ in range(3)]).sum().backward()
"""


def test_zip_and_enumerate_give_tuples_of_elements_and_a_comprehension_of_modules_is_a_module_list():
    assert _found(ZIPPED_MODULE_LIST.replace("STMT", "outs[0] += outs[1]")) == [(
        "GG202", 12, "In-place change of `outs[0]`, which `conv(x)` (line 11) saved for backward")]
    assert _found(ZIPPED_MODULE_LIST.replace("STMT", "outs[0] = outs[0] + outs[1]")) == []
    enumerated = ZIPPED_MODULE_LIST.replace("for x, conv in zip(xs, self.convs)",
                                            "for i, conv in enumerate(self.convs)").replace(
        "conv(x)", "conv(xs[i])")
    assert [c for c, _, _ in _found(enumerated.replace("STMT", "outs[0] += outs[1]"))] == ["GG202"]


REPACKAGE = """import torch
import torch.nn as nn


def repackage(h):
    if isinstance(h, tuple):
        return tuple(repackage(v) for v in h)
    return h.detach()


rnn = nn.GRU(4, 4)
opt = torch.optim.SGD(rnn.parameters(), lr=0.1)
h = None
for _ in range(3):
    out, h = rnn(torch.randn(5, 1, 4), h)
    h = repackage(h)
    opt.zero_grad()
    out.sum().backward()
    opt.step()
"""


def test_a_tensor_is_no_tuple():
    # the repackage helper of every RNN example: its tuple branch never runs on a tensor
    assert _found(REPACKAGE) == []
    assert [c for c, _, _ in _found(REPACKAGE.replace("    h = repackage(h)\n", ""))] == ["GG102"]


def test_super_runs_the_method_of_the_next_class():
    assert _found(SUPER_FORWARD) == [(
        "GG202", 17, "In-place change of `out`, which `out.pow(2)` (line 17) saved for backward")]


def test_a_call_whose_every_branch_returns_leaves_the_caller_its_names():
    # both arms of the callee's ``if`` return: the caller goes on with its own names
    # (``rnn``, ``hidden``) as they were, not with an empty state
    assert _found(BOTH_ARMS_RETURN) == [(
        "GG102", 18, "`out.sum()` reaches the previous iteration's graph through `hidden`, "
                     "which the backward on line 18 freed in that iteration")]


def test_a_function_calling_itself_is_not_taken_to_return_its_argument_graph():
    # repackage(v) inside repackage: what it returns is not known there; the detach
    # of its base case is what the program runs
    assert _found(RECURSIVE_REPACKAGE) == []


def test_an_element_of_a_list_of_per_iteration_graphs_frees_only_its_own():
    # losses[0] and losses[1] were appended by different iterations: the first backward
    # frees only the first element's graph (the actor ran under no_grad)
    assert _found(LIST_OF_LOSSES) == []
    shared = LIST_OF_LOSSES.replace("with torch.no_grad():", "if True:")
    assert _found(shared) == [(
        "GG101", 13, "`losses[1]` is backpropagated through the graph of `act` (built on "
                     "line 8), which the backward on line 12 already freed")]


SUPER_FORWARD = """import torch
import torch.nn as nn


class Embed(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        return self.fc(x)


class EmbedL2(Embed):
    def forward(self, x):
        out = super().forward(x)
        out /= out.pow(2).sum(1, keepdim=True).sqrt()
        return out


net = EmbedL2()
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for _ in range(2):
    loss = net(torch.randn(3, 4)).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""

BOTH_ARMS_RETURN = """import torch
import torch.nn as nn


def prepare(x):
    if x.dim() == 3:
        return x
    else:
        return x.unsqueeze(1)


def train(steps):
    rnn = nn.RNN(3, 4)
    hidden = None
    for i in range(steps):
        x = prepare(torch.randn(5, 1, 3))
        out, hidden = rnn(x, hidden)
        out.sum().backward()


train(3)
"""

RECURSIVE_REPACKAGE = """import torch
import torch.nn as nn


def repackage(h):
    if type(h) == torch.Tensor:
        return h.detach()
    return tuple(repackage(v) for v in h)


def train(steps):
    lstm = nn.LSTM(3, 4)
    hidden = (torch.zeros(1, 1, 4), torch.zeros(1, 1, 4))
    for i in range(steps):
        hidden = repackage(hidden)
        out, hidden = lstm(torch.randn(5, 1, 3), hidden)
        out.sum().backward()


train(3)
"""

LIST_OF_LOSSES = """import torch
import torch.nn as nn

actor = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 2))
critics = [nn.Linear(6, 1), nn.Linear(6, 1)]
obs = torch.randn(5, 4)
with torch.no_grad():
    act = actor(obs)
losses = []
for critic in critics:
    losses.append(critic(torch.cat([obs, act], 1)).pow(2).mean())
losses[0].backward()
losses[1].backward()
"""


def test_a_dict_is_a_mapping_for_isinstance():
    # the recursive detach of a dict of states takes the Mapping branch: nothing carried
    assert _found(DICT_OF_STATES) == []


def test_a_comparison_of_two_known_strings_is_a_known_bool():
    # activate == "relu" with the default "relu": the ReLU, whose output the residual
    # add then changes in place; with "linear" the Identity, which saves nothing
    assert _found(STRING_FLAG) == [(
        "GG202", 13, "In-place change of `out`, which `self.act(self.fc(x))` (line 12) "
                     "saved for backward")]
    assert _found(STRING_FLAG.replace('activate="relu"):', 'activate="linear"):')) == []


def test_a_dict_literal_keeps_each_keys_value():
    # out["log"] holds a float from .item(): appending it keeps no graph
    assert _found(DICT_OF_RESULTS) == []


DICT_OF_STATES = """import torch
import torch.nn as nn
from collections.abc import Mapping


def detach_states(states):
    if isinstance(states, torch.Tensor):
        return states.detach()
    if isinstance(states, Mapping):
        return {k: detach_states(v) for k, v in states.items()}
    return states


cell = nn.GRUCell(3, 4)
opt = torch.optim.SGD(cell.parameters(), lr=0.1)
states = {"h": torch.zeros(2, 4)}
for step in range(3):
    states = detach_states(states)
    h = cell(torch.randn(2, 3), states["h"])
    states = {"h": h}
    loss = h.pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""

STRING_FLAG = """import torch
import torch.nn as nn


class Unit(nn.Module):
    def __init__(self, d, activate="relu"):
        super().__init__()
        self.fc = nn.Linear(d, d)
        self.act = nn.ReLU() if activate == "relu" else nn.Identity()

    def forward(self, x):
        out = self.act(self.fc(x))
        out += x
        return out


net = nn.Sequential(nn.Linear(4, 4), Unit(4))
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for _ in range(2):
    loss = net(torch.randn(3, 4)).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""

DICT_OF_RESULTS = """import torch
import torch.nn as nn

net = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
opt = torch.optim.SGD(net.parameters(), lr=0.1)


def training_step(x):
    loss = net(x).pow(2).mean()
    return {"loss": loss, "log": {"loss": loss.item()}}


logged = []
for step in range(3):
    out = training_step(torch.randn(5, 4))
    opt.zero_grad()
    out["loss"].backward()
    opt.step()
    logged.append(out["log"])
"""


_SUM_OVER = """\
    import torch
    import torch.nn.functional as F

    net = torch.nn.Linear(4, 6)
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    for _ in range(3):
        out = net(torch.randn(2, 4))
        preds = (out[:, :3], out[:, 3:])
        loss = 0.0
        for {target} in {iterable}:
            loss = loss + F.mse_loss(torch.tensor(p), torch.randn(2, 3))
        opt.zero_grad()
        loss.backward()
        opt.step()
    """

_NO_GRAPH = ("GG401", 13, "`loss` has no graph: `torch.tensor(p)` on line 11 makes a tensor "
             "that does not require grad, and nothing on its way to this backward requires "
             "grad, so it raises \"element 0 of tensors does not require grad and does not "
             "have a grad_fn\"")


def test_a_loop_over_known_elements_runs_its_body_so_the_float_start_is_replaced():
    # ``loss = 0.0`` then a loop that surely runs: the backward sees only the loop's
    # losses (each cut by torch.tensor(p)), not the float of zero iterations
    for target, iterable in [("p", "preds"), ("p", "[out, out]"), ("i, p", "enumerate(preds)"),
                             ("p, q", "zip(preds, preds)")]:
        assert _found(_SUM_OVER.format(target=target, iterable=iterable)) == [_NO_GRAPH], \
            iterable


def test_a_loop_that_never_runs_leaves_a_float_and_one_that_may_not_run_a_cut_loss():
    # ``zip(range(0), preds)`` is empty: ``loss`` is the float 0.0, whose backward() raises
    # AttributeError (no graph is walked, and no step follows)
    assert _found(_SUM_OVER.format(target="i, p", iterable="zip(range(0), preds)")) == []
    # a list of unknown length: the float where the loop did not run (AttributeError),
    # else losses cut by torch.tensor(p); on no path does a backward reach ``net``
    assert _found(_SUM_OVER.format(target="p", iterable="list_of_unknown_length")) == [
        ("GG402", 14, "`opt` steps the parameters of `net`, but no backward of this loop "
                      "reaches them (their way to the loss is cut, or the loss is built from "
                      "other modules), so their gradients stay None and `net` does not train")]


def test_a_dict_returned_from_two_branches_keeps_each_keys_value():
    # {"loss": loss, "log": {...}} from each branch of a training_step: out["log"] holds
    # floats logged with .item(), not the loss (a false GG301 on logs.update(out["log"]))
    assert _found("""\
        import torch

        def training_step(net, x, idx):
            loss = net(x).pow(2).mean()
            if idx == 0:
                return {"loss": loss, "log": {"g": loss.item()}}
            return {"loss": 2 * loss, "log": {"d": loss.item()}}

        net = torch.nn.Linear(3, 1)
        opts = [torch.optim.SGD(net.parameters(), lr=0.1)]
        logs = {}
        for step in range(3):
            for idx, opt in enumerate(opts):
                out = training_step(net, torch.randn(4, 3), idx)
                opt.zero_grad()
                out["loss"].backward()
                opt.step()
                logs.update(out["log"])
        """) == []


_MAKEMORE = """\
    import torch
    import torch.nn.functional as F

    X = torch.randint(0, 27, (50, 3))
    Y = torch.randint(0, 27, (50,))
    C = torch.randn((27, 10))
    W = torch.randn((30, 27))
    parameters = [C, W]
    for p in parameters:
        p.requires_grad = True
    opt = torch.optim.SGD(parameters, lr=0.1)
    {before}
    for i in range(5):
        ix = torch.randint(0, 50, (8,))
        {inside}
        loss = F.cross_entropy(emb[ix].view(-1, 30) @ W, Y[ix])
        opt.zero_grad()
        loss.backward()
        opt.step()
    """


def test_requires_grad_set_through_a_loop_variable_reaches_the_listed_tensors():
    # a false GG401 ("loss has no graph") on makemore: p.requires_grad = True changes the
    # tensor objects C and W, whatever name holds them
    assert _found(_MAKEMORE.format(before="", inside="emb = C[X]")) == []


def test_an_advanced_index_built_before_the_loop_is_freed_by_the_first_backward():
    # C[X] (a tensor index) saves its indices: the second backward through the lookup
    # made before the loop raises (torch: IndexBackward0)
    assert _found(_MAKEMORE.format(before="emb = C[X]", inside="pass")) == [
        ("GG103", 18, "`loss` uses `emb`, built once on line 12 before the loop; the backward "
                      "on line 18 frees its graph in the first iteration, so the next iteration "
                      "fails")]


def test_a_list_of_appended_tuples_unpacks_into_its_parts():
    # minimalRL's REINFORCE: data.append((r, prob[a])), then for r, prob in data[::-1]:
    # r is the float reward, not the probability's graph (a false GG103 on R), and a
    # slice of a list is a list, not one element
    assert _found("""\
        import torch

        class Policy(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.data = []
                self.fc = torch.nn.Linear(4, 2)
                self.optimizer = torch.optim.Adam(self.parameters(), lr=0.01)

            def forward(self, x):
                return torch.softmax(self.fc(x), dim=0)

            def train_net(self):
                R = 0
                self.optimizer.zero_grad()
                for r, prob in self.data[::-1]:
                    R = r + 0.98 * R
                    loss = -torch.log(prob) * R
                    loss.backward()
                self.optimizer.step()
                self.data = []

        pi = Policy()
        for episode in range(3):
            for t in range(5):
                prob = pi(torch.randn(4))
                a = torch.multinomial(prob, 1).item()
                pi.data.append((1.0, prob[a]))
            pi.train_net()
        """) == []


def test_functools_partial_calls_the_function_with_its_arguments_first():
    # mmdetection-style losses configured with partial: the in-place clamp_ on the
    # sigmoid's saved output inside the loss is found through the partial
    found = _found("""\
        from functools import partial
        import torch

        def focal(pred, target, gamma=2.0, eps=1e-4):
            p = pred.sigmoid()
            p.clamp_(min=eps, max=1.0 - eps)
            return (-(target * p.log()) * (1 - p).pow(gamma)).sum()

        net = torch.nn.Linear(3, 4)
        opt = torch.optim.SGD(net.parameters(), lr=0.1)
        loss_fn = partial(focal, gamma=1.5)
        for _ in range(2):
            loss = loss_fn(net(torch.randn(2, 3)), torch.ones(2, 4))
            opt.zero_grad()
            loss.backward()
            opt.step()
        """)
    assert [(code, line) for code, line, _ in found] == [("GG202", 6)]
    assert found[0][2] == ("In-place change of `p`, which `pred.sigmoid()` (line 5) saved for "
                           "backward")


def test_a_forward_hook_given_through_partial_runs_with_its_bound_arguments():
    assert _found("""\
        from functools import partial
        import torch

        feats = {}

        def keep(name, module, inp, out):
            feats[name] = out

        net = torch.nn.Linear(3, 3)
        net.register_forward_hook(partial(keep, "fc"))
        opt = torch.optim.SGD(net.parameters(), lr=0.1)
        net(torch.randn(2, 3))
        anchor = feats["fc"]
        for _ in range(3):
            loss = (net(torch.randn(2, 3)) - anchor).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        """)[0][:2] == ("GG103", 17)


def test_a_test_taken_twice_takes_the_same_branch_both_times():
    # torch-ac's PPO: ``if self.acmodel.recurrent:`` sets the memory, and tested again
    # inside the sub-batch loop, uses it: the path that keeps the last batch's memory
    # (first test false) never reaches the use (second test true)
    program = textwrap.dedent("""\
        import torch
        import torch.nn as nn


        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.cell = nn.GRUCell(4, 8)
                self.head = nn.Linear(8, 1)

            def forward(self, x, h):
                h = self.cell(x, h)
                return self.head(h), h


        def train(net, batches, recurrent, reset):
            opt = torch.optim.SGD(net.parameters(), lr=0.1)
            for xs in batches:
                if recurrent:
                    memory = torch.zeros(2, 8)
                for x in xs:
                    if recurrent:
                        out, memory = net(x, memory)
                    else:
                        out, _ = net(x, torch.zeros(2, 8))
                opt.zero_grad()
                out.sum().backward()
                opt.step()


        train(Net(), [[torch.randn(2, 4)] * 3] * 3, True, False)
        """)
    assert _found(program) == []
    # a different test sets the memory: a batch that does not reset it carries the
    # last one's graph, which its backward freed (torch raises)
    assert _found(program.replace("if recurrent:\n            memory = torch.zeros(2, 8)",
                                  "if reset:\n            memory = torch.zeros(2, 8)")
                  .replace("opt = torch.optim.SGD(net.parameters(), lr=0.1)\n",
                           "opt = torch.optim.SGD(net.parameters(), lr=0.1)\n"
                           "    memory = torch.zeros(2, 8)\n")) == [
        ("GG102", 28, "`out.sum()` reaches the previous iteration's graph through `memory`, "
                      "which the backward on line 28 freed in that iteration")]


def test_a_loop_that_ends_when_its_learning_branch_runs_does_not_run_after_the_backward():
    # REINFORCE agents: ``while not self.done: ... if self.time_to_learn(): learn()``,
    # where time_to_learn() returns self.done: the pass after the backward (and the
    # optimizer step) never runs, so the episode's log-probs are never walked again
    program = """\
        import torch
        import torch.nn as nn
        from torch.distributions import Categorical
        from nets import build_policy


        class Agent:
            def __init__(self, env):
                self.env = env
                self.policy = build_policy(4, 2)
                self.optimizer = torch.optim.Adam(self.policy.parameters())
                self.log_probs = []

            def reset(self):
                self.log_probs = []
                self.done = False

            def run_episode(self):
                while not self.done:
                    self.act()
                    if self.time_to_learn():
                        self.learn()

            def act(self):
                dist = Categorical(logits=self.policy(torch.randn(1, 4)))
                action = dist.sample()
                self.log_probs.append(dist.log_prob(action))
                self.done = self.env.step(action.item())

            def learn(self):
                loss = -torch.cat(self.log_probs).sum()
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()

            def time_to_learn(self):
                return self.done
        """
    assert _found(program) == []
    assert _found(program.replace("return self.done", "return len(self.log_probs) % 2 == 0")) == [
        ("GG102", 33, "`loss` reaches the previous iteration's graph through `self.log_probs`, "
                      "which the backward on line 33 freed in that iteration")]


def test_a_loop_whose_result_is_read_after_it_is_relied_on_to_run():
    # torchdiffeq's latent ODE: ``out`` is bound only in the inner loop and read after
    # it; were the loop empty the first iteration would raise NameError, so ``out`` is
    # never the last iteration's
    program = """\
        import torch
        import torch.nn as nn


        def train(rec, dec, trajs, opt, niters):
            for itr in range(niters):
                opt.zero_grad()
                h = torch.zeros(1, 8)
                for t in reversed(range(trajs.size(1))):
                    out, h = rec(trajs[:, t, :], h)
                z0 = out[:, :4] + torch.randn(1, 4) * out[:, 4:]
                loss = dec(z0).pow(2).mean()
                loss.backward()
                opt.step()


        class Rec(nn.Module):
            def __init__(self):
                super().__init__()
                self.i2h = nn.Linear(3 + 8, 8)
                self.h2o = nn.Linear(8, 8)

            def forward(self, x, h):
                h = torch.tanh(self.i2h(torch.cat((x, h), dim=1)))
                return self.h2o(h), h


        rec, dec = Rec(), nn.Linear(4, 3)
        train(rec, dec, torch.randn(1, 5, 3), torch.optim.Adam(list(rec.parameters()) + list(dec.parameters())), 3)
        """
    assert _found(program) == []



def test_ints_of_known_value_decide_loops_and_list_slots():
    # MAML (dragen1860/MAML-Pytorch#40): with update_step == 1 the list has two slots,
    # the inner loop ``range(1, 1)`` never runs, so the meta-loss losses_q[-1] is the
    # one accumulated under no_grad (torch: "element 0 of tensors does not require grad")
    program = textwrap.dedent("""\
        from dataclasses import dataclass

        import torch
        import torch.nn.functional as F


        @dataclass
        class Config:
            update_step: int = 1
            update_lr: float = 0.4
            task_num: int = 2


        def meta_step(cfg, w, opt, tasks):
            losses_q = [0 for _ in range(cfg.update_step + 1)]
            for i in range(cfg.task_num):
                x, y = tasks[i]
                grad, = torch.autograd.grad(F.mse_loss(x @ w, y), w, create_graph=True)
                fast = w - cfg.update_lr * grad
                with torch.no_grad():
                    losses_q[1] += F.mse_loss(x @ fast, y)
                for k in range(1, cfg.update_step):
                    fast = fast - cfg.update_lr * torch.autograd.grad(F.mse_loss(x @ fast, y), fast, create_graph=True)[0]
                    losses_q[k + 1] += F.mse_loss(x @ fast, y)
            opt.zero_grad()
            losses_q[-1].backward()
            opt.step()


        w = torch.randn(3, 1, requires_grad=True)
        meta_step(Config(), w, torch.optim.SGD([w], lr=0.1), [(torch.randn(4, 3), torch.randn(4, 1))] * 2)
        """)
    assert _found(program) == [
        ("GG401", 26, "`losses_q[-1]` has no graph: it was computed under `torch.no_grad()` "
                      "(line 20), so this backward raises \"element 0 of tensors does not "
                      "require grad and does not have a grad_fn\"")]
    # two inner steps: the last slot is recomputed with its graph
    assert _found(program.replace("update_step: int = 1", "update_step: int = 2")) == []


def test_an_if_elif_chain_every_branch_of_which_binds_the_loss_is_relied_on():
    # Beta-VAE's solver (realrepos4): ``if self.objective == 'H': loss = ...`` ``elif
    # ... == 'B': loss = ...`` with no else; taking neither would raise UnboundLocalError
    # on the first batch, so no earlier batch's loss reaches this backward
    program = textwrap.dedent("""\
        import torch
        from torch import nn


        class Solver:
            def __init__(self, objective):
                self.objective = objective
                self.net = nn.Linear(4, 4)
                self.optim = torch.optim.Adam(self.net.parameters())

            def train(self):
                for epoch in range(2):
                    for x in [torch.randn(8, 4) for _ in range(5)]:
                        y = self.net(x)
                        if self.objective == 'H':
                            loss = y.pow(2).mean()
                        elif self.objective == 'B':
                            loss = y.abs().mean()
                        self.optim.zero_grad()
                        loss.backward()
                        self.optim.step()
        """)
    assert _found(program) == []
    # bound before the loop too: taking neither branch backpropagates the last loss again
    assert _found(program.replace("        for epoch in range(2):",
                                  "        loss = self.net(torch.randn(8, 4)).sum()\n"
                                  "        for epoch in range(2):")) == [
        ("GG103", 21, "`loss` uses `loss`, built once on line 12 before the loop; the "
                      "backward on line 21 frees its graph in the first iteration, so the next "
                      "iteration fails")]



# vq-vae-2's codebook (realrepos4): a matmul saves ``self.embed``, whose distances pick
# the nearest code; the codebook is then moved in place
_CODEBOOK = textwrap.dedent("""\
    import torch
    from torch import nn
    import torch.nn.functional as F


    class Quantize(nn.Module):
        def __init__(self, dim, n_embed):
            super().__init__()
            self.register_buffer("embed", torch.randn(dim, n_embed))

        def forward(self, input):
            dist = -2 * input @ self.embed + self.embed.pow(2).sum(0, keepdim=True)
            _, embed_ind = (-dist).max(1)
            quantize = F.embedding(embed_ind, self.embed.transpose(0, 1))
            if self.training:
                self.embed.data.copy_(0.99 * self.embed + 0.01 * torch.randn_like(self.embed))
            return input + (quantize - input).detach()


    enc = nn.Linear(4, 3)
    q = Quantize(3, 8)
    opt = torch.optim.Adam(enc.parameters())
    for step in range(5):
        out = q(enc(torch.randn(16, 4)))
        loss = out.pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    """)


def test_in_place_changes_through_data_are_not_seen_by_autograd():
    # the distances also in the loss: ``.data`` has a version counter of its own, so the
    # backward raises nothing (torch), and through ``self.embed`` itself it does
    program = _CODEBOOK.replace("(quantize - input).detach()\n",
                                "(quantize - input).detach() + dist.mean()\n")
    assert _found(program) == []
    assert _found(program.replace("self.embed.data.copy_(", "self.embed.copy_(")) == [
        ("GG202", 16, "In-place change of `self.embed`, which `-2 * input @ self.embed` "
                      "(line 12) saved for backward")]


def test_an_in_place_change_of_what_a_dropped_node_saved_is_no_hazard():
    # the distances used only for ``max(1)``'s indices: no backward walks the matmul that
    # saved ``self.embed``, so changing it raises nothing (torch)
    assert _found(_CODEBOOK.replace("self.embed.data.copy_(", "self.embed.copy_(")) == []


def test_an_in_place_add_of_a_graph_through_data_gives_the_buffer_no_graph():
    # an EMA of a batch statistic folded in through ``buf.data.mul_().add_()``: the alias
    # gets the grad_fn, the buffer keeps none (torch: embed_avg.grad_fn is None)
    program = textwrap.dedent("""\
        import torch
        from torch import nn


        class EMAStats(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.register_buffer("embed_avg", torch.zeros(dim))

            def forward(self, x):
                if self.training:
                    embed_sum = x.sum(0)
                    self.embed_avg.data.mul_(0.99).add_(embed_sum, alpha=0.01)
                return x


        model = nn.Sequential(nn.Linear(4, 4), EMAStats(4))
        opt = torch.optim.Adam(model.parameters())
        for step in range(5):
            loss = model(torch.randn(8, 4)).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        """)
    assert _found(program) == []
    assert [f[:2] for f in _found(program.replace("self.embed_avg.data.mul_(0.99)",
                                                  "self.embed_avg.mul_(0.99)"))] == [("GG301", 13)]



def test_a_dict_slot_of_a_known_key_is_replaced_each_step():
    # powerful-benchmarker's trainers keep ``self.losses = {}`` and assign each loss to
    # its key every batch: the dict holds this batch's graphs only (torch runs it)
    program = textwrap.dedent("""\
        import torch
        import torch.nn as nn
        import torch.nn.functional as F


        class Trainer:
            def __init__(self):
                self.trunk = nn.Linear(8, 4)
                self.head = nn.Linear(4, 3)
                self.optimizer = torch.optim.Adam(list(self.trunk.parameters()) + list(self.head.parameters()))
                self.losses = {}

            def calculate_loss(self, data, labels):
                emb = self.trunk(data)
                self.losses["metric_loss"] = emb.pow(2).mean()
                self.losses["classifier_loss"] = F.cross_entropy(self.head(emb), labels)

            def train_step(self, data, labels):
                self.calculate_loss(data, labels)
                total = self.losses["metric_loss"] + 0.5 * self.losses["classifier_loss"]
                self.optimizer.zero_grad()
                total.backward()
                self.optimizer.step()
                return {k: v.item() for k, v in self.losses.items()}


        trainer = Trainer()
        for it in range(3):
            print(trainer.train_step(torch.randn(6, 8), torch.randint(0, 3, (6,))))
        """)
    assert _found(program) == []


# random.Random(seed) has the random module's functions as methods; sample() gives
# elements of its population: log-probs kept across episodes are walked again
REPLAY = """import random
import torch

policy = torch.nn.Linear(4, 2)
opt = torch.optim.Adam(policy.parameters(), lr=1e-2)
rng = random.Random(0)
memory = []
for episode in range(3):
    for _ in range(4):
        memory.append(torch.log_softmax(policy(torch.randn(4)), -1)[0])
    batch = rng.sample(memory, 2)
    opt.zero_grad()
    loss = -torch.stack(batch).sum()
    loss.backward()
    opt.step()
"""


def test_a_replay_memory_of_graphs_sampled_with_random_is_walked_again():
    assert [(f.code, f.span.start.line) for f in analyze(REPLAY).findings] == [("GG102", 14)]


def test_a_replay_memory_emptied_each_episode_is_not():
    text = REPLAY.replace("    opt.step()\n", "    opt.step()\n    memory.clear()\n")
    assert analyze(text).findings == ()


def test_a_graph_written_into_a_new_zeros_buffer_gives_it_the_graph():
    # ``x.new_zeros`` (like ``torch.zeros``) is a tensor of its own: a value with a graph
    # written into a slice gives the buffer that graph, so its backward has one
    src = ("import torch\n"
           "lin = torch.nn.Linear(4, 4)\n"
           "x = torch.randn(2, 5, 4)\n"
           "out = x.new_zeros(2, 5, 4)\n"
           "out[:, 0] = lin(x[:, 0])\n"
           "out.sum().backward()\n")
    assert analyze(src).findings == ()
    # and without the write it has none
    no_write = src.replace("out[:, 0] = lin(x[:, 0])\n", "")
    assert [(f.code, f.span.start.line) for f in analyze(no_write).findings] == [("GG401", 5)]


def test_an_in_place_change_of_a_view_gives_its_base_the_graph():
    # autograd rebases the base on a CopySlices node: ``out`` has ``h``'s graph
    src = ("import torch\n"
           "lin = torch.nn.Linear(2, 2)\n"
           "h = lin(torch.randn(4, 2))\n"
           "out = torch.zeros(4, 4)\n"
           "right = out[:, 2:]\n"
           "right.copy_(h)\n"
           "out.sum().backward()\n")
    assert analyze(src).findings == ()
    # a tensor that shares the storage through detach() is no view autograd tracks
    detached = src.replace("right = out[:, 2:]", "right = out[:, 2:].detach()")
    assert [(f.code, f.span.start.line) for f in analyze(detached).findings] == \
        [("GG401", 7)]


# RealNVP: the coupling layers built in a loop over a known range, every other one
# flipped; each writes the second half of its input in place after its net saved the
# first half (a view of the same tensor)
FLOW = """import torch
import torch.nn as nn


class Coupling(nn.Module):
    def __init__(self, flip):
        super().__init__()
        self.flip = flip
        self.net = nn.Linear(1, 2)

    def forward(self, x):
        if self.flip:
            x = x.flip(1)
        s, t = self.net(x[:, :1]).chunk(2, dim=1)
        x[:, 1:] = x[:, 1:] * torch.exp(s) + t
        return x, s.sum(1)


class Shift(nn.Module):
    def __init__(self):
        super().__init__()
        self.loc = nn.Parameter(torch.zeros(2))

    def forward(self, x):
        return x + self.loc, self.loc.sum().expand(x.shape[0])


class Flow(nn.Module):
    def __init__(self, n_layers=3):
        super().__init__()
        layers = []
        for i in range(n_layers):
            layers += [Shift(), Coupling(flip=bool(i % 2))]
        self.layers = nn.ModuleList(layers)

    def forward(self, x):
        log_det = x.new_zeros(x.shape[0])
        for layer in self.layers:
            x, ld = layer(x)
            log_det = log_det + ld
        return x, log_det


flow = Flow()
z, log_det = flow(torch.randn(8, 2))
(z.pow(2).sum(1) - log_det).mean().backward()
"""


def test_layers_built_in_a_loop_over_a_known_range_run_each_as_itself():
    assert [(f.code, f.span.start.line, f.message.render()) for f in analyze(FLOW).findings] \
        == [("GG202", 15, "In-place change of `x`, which `self.net(x[:, :1])` (line 14) "
                          "saved for backward")]
    fixed = FLOW.replace("        x[:, 1:] = x[:, 1:] * torch.exp(s) + t\n",
                         "        x = torch.cat([x[:, :1], x[:, 1:] * torch.exp(s) + t], 1)\n")
    assert analyze(fixed).findings == ()


def test_a_running_value_rebound_to_a_sum_with_its_old_value_accumulates_graphs():
    # ``avg = 0.95 * avg + 0.05 * loss`` is ``avg += ...``: every iteration's graph joins it
    src = ("import torch\n"
           "net = torch.nn.Linear(2, 1)\n"
           "opt = torch.optim.SGD(net.parameters(), lr=0.1)\n"
           "avg = 0.0\n"
           "for step in range(3):\n"
           "    loss = net(torch.randn(4, 2)).pow(2).mean()\n"
           "    opt.zero_grad()\n"
           "    loss.backward()\n"
           "    opt.step()\n"
           "    avg = 0.95 * avg + 0.05 * loss\n")
    assert [(f.code, f.span.start.line, f.message.render(), f.preferred_fix.title.render())
            for f in analyze(src).findings] == [
        ("GG301", 10, "`avg` accumulates `0.05 * loss` with its autograd graph: every "
                      "iteration's graph stays in memory",
         "Accumulate `0.05 * loss` without its graph (.detach())")]
    # of a number, or rebound to a value that does not read its old one, nothing piles up
    assert analyze(src.replace("0.05 * loss\n", "0.05 * loss.item()\n")).findings == ()
    assert analyze(src.replace("0.95 * avg + 0.05 * loss\n", "0.05 * loss\n")).findings == ()


DEFAULT_METERS = """from collections import defaultdict

import torch


class AverageMeter:
    def __init__(self):
        self.total = 0.0
        self.count = 0

    def update(self, value, n=1):
        self.total += value * n
        self.count += n


net = torch.nn.Linear(4, 1)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
meters = defaultdict(AverageMeter)
for step in range(3):
    loss = net(torch.randn(8, 4)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    meters["loss"].update(loss)
"""


def test_a_defaultdict_of_a_class_gives_an_object_of_that_class_for_a_key():
    # ``defaultdict(AverageMeter)``: ``meters["loss"]`` is an AverageMeter, whose update
    # adds the loss with its graph to a running total kept across steps
    found = analyze(DEFAULT_METERS).findings
    assert [(f.code, f.span.start.line, f.message.render()) for f in found] == [
        ("GG301", 12, "`self.total` accumulates `value * n` with its autograd graph: every "
                      "iteration's graph stays in memory")]
    assert analyze(DEFAULT_METERS.replace('meters["loss"].update(loss)',
                                          'meters["loss"].update(loss.item())')).findings == ()


NAMESPACE_STATE = """import torch
from types import SimpleNamespace


class Trainer:
    def __init__(self):
        self.state = STATE
        self.net = torch.nn.Linear(4, 1)
        self.opt = torch.optim.SGD(self.net.parameters(), lr=0.1)

    def run(self, steps):
        for step in range(steps):
            loss = self.net(torch.randn(8, 4)).pow(2).mean()
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            self.state.running = 0.9 * self.state.running + 0.1 * loss


Trainer().run(3)
"""


@pytest.mark.parametrize("state", ['SimpleNamespace(running=0.0)', 'type("State", (), {})()'])
def test_plain_namespaces_hold_the_attributes_set_on_them(state):
    # ``SimpleNamespace(...)`` and an object of ``type(name, (), {})`` are plain objects:
    # the running loss kept on one keeps every step's graph (an ignite-like engine state)
    text = NAMESPACE_STATE.replace("STATE", state)
    if state.startswith("type"):  # (its attribute set on it before the loop)
        text = text.replace("    def run(self, steps):\n", "    def run(self, steps):\n"
                            "        self.state.running = 0.0\n")
    assert [(f.code, f.span.start.line, f.message.render()) for f in analyze(text).findings] \
        == [("GG301", 17 + state.startswith("type"), "`self.state.running` accumulates "
             "`0.1 * loss` with its autograd graph: every iteration's graph stays in memory")]


DP_TABLE = """import torch

lin = torch.nn.Linear(3, 3)


def table_loss(p):
    table = p.new_full((4, 3), -1.0)
    table[0] = p[0]
    for t in range(1, 4):
        prev = table[t - 1]
        table[t] = torch.max(prev, p[t])
    return table.sum()


table_loss(lin(torch.randn(4, 3))).backward()
"""


def test_arithmetic_of_loop_counters_is_an_int_so_indexing_with_it_gives_a_view():
    # ``t - 1`` of ``t`` from ``range()`` is an int: ``table[t - 1]`` is a view of table,
    # which torch.max saves; writing the next row bumps table's version (a forward-sum
    # aligner's dynamic-programming table)
    assert [(f.code, f.span.start.line, f.message.render()) for f in
            analyze(DP_TABLE).findings] == [
        ("GG202", 11, "In-place change of `table`, which `torch.max(prev, p[t])` (line 11) "
                      "saved for backward")]
    # a tensor index copies: nothing saved is changed
    assert analyze(DP_TABLE.replace("table[t - 1]", "table[torch.tensor(t - 1)]")
                   ).findings == ()


STACKS = """import torch
import torch.nn as nn
import torch.nn.functional as F


class Stacks(nn.Module):
    def __init__(self, num_stacks=2, num_layers=2):
        super().__init__()
        self.K, self.T = num_stacks, num_layers
        self.w = nn.ModuleList([nn.Linear(4, 4) for _ in range(self.K)])

    def forward(self, x):
        output = None
        for k in range(self.K):
            h = x
            for t in range(self.T):
                h = F.relu(self.w[k](h) + x)
            if output is None:
                output = h
            else:
                output += h
        return output / self.K


net = Stacks()
loss = net(torch.randn(3, 4)).sum()
loss.backward()
"""


def test_an_in_place_change_of_a_value_joined_from_loop_passes_changes_what_each_saved():
    # after ``for t in range(T): h = relu(...)``, h is one relu output or another on each
    # path, and every one of them was saved by its relu: ``output += h`` changes a saved
    # tensor whichever it is (DGL's ARMA stacks)
    assert [(f.code, f.span.start.line, f.message.render(), f.preferred_fix.title.render())
            for f in analyze(STACKS).findings] == [
        ("GG202", 21, "In-place change of `output`, which `F.relu(self.w[k](h) + x)` (line 17) "
                      "saved for backward",
         "Use the out-of-place form: `output = output + h`")]
    # a pass's value not saved by anything (a sum): nothing saved changes
    assert analyze(STACKS.replace("F.relu(self.w[k](h) + x)", "self.w[k](h) + x")
                   ).findings == ()


CONFIG_FREEZE = """import torch
import torch.nn as nn


class Config:
    width, epochs = 4, 3
    finetune = "backbone.pth"


cfg = Config()
net = nn.Sequential(nn.Linear(cfg.width, cfg.width), nn.Linear(cfg.width, 2))
if cfg.finetune is not None:
    for param in net.parameters():
        param.requires_grad = False
for epoch in range(cfg.epochs):
    loss = net(torch.randn(8, cfg.width)).sum()
    loss.backward()
"""


def test_class_attributes_bound_by_unpacking_and_string_defaults_are_known():
    # ``width, epochs = 4, 3`` in a class body binds both; ``finetune = "..."`` is a string,
    # so ``cfg.finetune is not None`` is True: the freeze runs and the loss has no graph
    assert [(f.code, f.span.start.line) for f in analyze(CONFIG_FREEZE).findings] == [
        ("GG401", 17)]
    # ``finetune = None``: the freeze never runs
    assert analyze(CONFIG_FREEZE.replace('finetune = "backbone.pth"', "finetune = None")
                   ).findings == ()


EMA_BY_NAME = """import torch
import torch.nn as nn


class Normalizer(nn.Module):
    def __init__(self, dim, decay=0.99):
        super().__init__()
        self.decay = decay
        self.proj = nn.Linear(dim, dim)
        self.register_buffer("running_mean", torch.zeros(dim))

    def update(self, name, new):
        old = getattr(self, name)
        setattr(self, name, self.decay * old + (1 - self.decay) * new)

    def forward(self, x):
        x = self.proj(x)
        self.update("running_mean", x.mean(0))
        return x - self.running_mean.detach()


net = Normalizer(3)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for step in range(3):
    loss = net(torch.randn(4, 3)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""


def test_setattr_of_a_known_name_assigns_that_attribute():
    # ``setattr(self, name, decay * old + ...)`` with ``name`` known and ``old`` read by
    # ``getattr(self, name)`` is ``self.running_mean = decay * self.running_mean + ...``:
    # the buffer keeps every iteration's graph (the loss reads it detached: no error)
    assert [(f.code, f.span.start.line, f.message.render(), f.preferred_fix.title.render())
            for f in analyze(EMA_BY_NAME).findings] == [
        ("GG301", 14, "`self.running_mean` accumulates `(1 - self.decay) * new` with its "
                      "autograd graph: every iteration's graph stays in memory",
         "Accumulate `(1 - self.decay) * new` without its graph (.detach())")]
    [f] = analyze(EMA_BY_NAME).findings
    fixed = apply_edits(EMA_BY_NAME, f.preferred_fix.edits)
    assert "        setattr(self, name, self.decay * old + ((1 - self.decay) * new).detach())\n" \
        in fixed
    assert analyze(fixed).findings == ()
    # the new value detached before the update: nothing piles up
    assert analyze(EMA_BY_NAME.replace('x.mean(0))', 'x.mean(0).detach())')).findings == ()
    # without the loss's own read, a graph through the buffer is walked again (GG102)
    assert [f.code for f in analyze(EMA_BY_NAME.replace(
        "self.running_mean.detach()", "self.running_mean")).findings] == ["GG102"]


def test_an_element_of_range_indexes_a_view():
    # ``t[b]`` with ``b`` from ``range()`` is a Python int: basic indexing, a view of ``t``,
    # so writing into it changes what relu saved; a tensor index copies (nothing is changed)
    src = ("import torch\n"
           "lin = torch.nn.Linear(3, 3)\n"
           "t = torch.relu(lin(torch.randn(2, 4, 3)))\n"
           "for b in range(t.size(0)):\n"
           "    t[b][0] = lin(t[b][0])\n"
           "t.sum().backward()\n")
    assert [(f.code, f.span.start.line, f.message.render(), f.fixes) for f in
            analyze(src).findings] == [
        ("GG202", 5, "In-place change of `t[b]`, which `torch.relu(lin(torch.randn(2, 4, 3)))` "
                     "(line 3) saved for backward", ())]
    copied = src.replace("range(t.size(0))", "torch.tensor([[0], [1]])")
    assert analyze(copied).findings == ()


NAMED_TUPLE = """\
from collections import namedtuple
import torch
Out = namedtuple("Out", ["y", "h"])
lin = torch.nn.Linear(2, 2)
opt = torch.optim.SGD(lin.parameters(), lr=0.1)
h = torch.zeros(1, 2)
for _ in range(3):
    y = lin(h + torch.randn(1, 2))
    o = Out(y, y.detach())
    y2, h = o
    opt.zero_grad()
    y2.sum().backward()
    opt.step()
"""
CARRIED = ("GG102", 12, "`y2.sum()` reaches the previous iteration's graph through `h`, "
                        "which the backward on line 12 freed in that iteration")


def test_a_named_tuple_holds_each_field_apart():
    # each field is an element of its own (also by name): the detached one has no graph
    assert _found(NAMED_TUPLE) == []
    assert _found(NAMED_TUPLE.replace("y2, h = o", "y2, h = o.y, o.h")) == []
    assert _found(NAMED_TUPLE.replace("Out(y, y.detach())", "Out(y, h=y.detach())")) == []
    assert _found(NAMED_TUPLE.replace('["y", "h"]', '"y h"')) == []
    typed = NAMED_TUPLE.replace("from collections import namedtuple\n",
                                "from typing import NamedTuple\n").replace(
        'Out = namedtuple("Out", ["y", "h"])\n',
        "class Out(NamedTuple):\n    y: torch.Tensor\n    h: torch.Tensor\n")
    assert _found(typed) == []
    # the field that keeps the graph carries it into the next iteration
    assert _found(NAMED_TUPLE.replace("Out(y, y.detach())", "Out(y, y)")) == [CARRIED]
    assert _found(NAMED_TUPLE.replace("Out(y, y.detach())", "Out(y, h=y)")) == [CARRIED]
    assert _found(typed.replace("Out(y, y.detach())", "Out(y, y)")) == [
        (CARRIED[0], 14, CARRIED[2].replace("line 12", "line 14"))]


def test_a_starred_tuple_passes_its_elements_in_order():
    # ``zip(layers, *memories)``: the memories tuple's two elements are two iterables
    starred = NAMED_TUPLE.replace("    y2, h = o\n", "    (y2, h), = zip(*o)\n")
    assert _found(starred.replace("Out(y, y.detach())", "Out(y[0], y[0].detach())")) == []
    assert _found(starred.replace("Out(y, y.detach())", "Out(y[0], y[0])")) == [CARRIED]


HOOKS_BY_NAME = """\
import torch
import torch.nn as nn


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.block1 = nn.Sequential(nn.Linear(8, 16), nn.Tanh())
        self.head = nn.Linear(16, 3)
        self.features = {}
        for name in ("head", "block1"):
            getattr(self, name).register_forward_hook(self._save_hook(name))

    def _save_hook(self, name):
        def hook(module, inputs, output):
            self.features[name] = output
        return hook

    def forward(self, x):
        return self.head(self.block1(x))


model = Backbone()
logits = model(torch.randn(4, 8))
feat = model.features["block1"]
feat.sub_(1.0)
(logits.sum() + feat.sum()).backward()
"""


def test_a_hook_a_factory_returns_keeps_the_variables_it_closes_over():
    # ``_save_hook(name)`` returns a closure over ``self`` and ``name``: run later, as
    # block1's forward hook, it still reads them (Python keeps them in cells); the loop over
    # the names in __init__ runs once per name and ``getattr(self, name)`` is that submodule
    assert _found(HOOKS_BY_NAME) == [
        ("GG202", 26, "In-place change of `feat`, which `self.block1(x)` (line 20) saved for "
                      "backward")]
    assert _found(HOOKS_BY_NAME.replace("feat.sub_(1.0)", "feat = feat - 1.0")) == []


LOSS_DICT = """\
import torch

net = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(net.parameters(), lr=0.1)


def compute_loss(out):
    a = out.pow(2).mean()
    b = out.abs().mean()
    return {"total": a + b, "a": a, "b": b}


def train_one_epoch():
    epoch_losses = {}
    for t in range(4):
        loss = compute_loss(net(torch.randn(4, 3)))
        opt.zero_grad()
        loss["total"].backward()
        opt.step()
        for key in loss:
            epoch_losses[key] = epoch_losses.get(key, 0) + loss[key].item()
    return epoch_losses


history = []
for epoch in range(3):
    history.append(train_one_epoch())
"""


def test_iterating_a_dict_gives_its_keys_not_its_values():
    # ``for key in loss`` binds the keys (strings), so ``epoch_losses.get(key, 0)`` holds
    # no graph and summing ``.item()``s keeps none
    assert _found(LOSS_DICT) == []
    assert _found(LOSS_DICT.replace("for key in loss:", "for key in loss.keys():")) == []
    leaking = LOSS_DICT.replace("loss[key].item()", "loss[key]")
    result = analyze(leaking)
    first = result.findings[0]
    assert (first.code, first.span.start.line, first.message.render()) == (
        "GG301", 21, "`epoch_losses` accumulates `loss[key]` with its autograd graph: every "
                     "iteration's graph stays in memory")
    assert first.preferred_fix.edits[0].new_text == "loss[key].detach()"



CLI = textwrap.dedent("""\
    import argparse

    import torch
    import torch.nn as nn


    def criterion(name, logits, target):
        if name == "hard":
            return (logits.argmax(1) != target).float().mean()
        return nn.functional.cross_entropy(logits, target)


    def main():
        parser = argparse.ArgumentParser()
        group = parser.add_argument_group("loss")
        group.add_argument("--loss", default="hard", choices=["hard", "ce"])
        parser.add_argument("--epochs", type=int, default=2)
        parser.add_argument("--no-train", action="store_true")
        args = parser.parse_args()
        net = nn.Linear(4, 3)
        opt = torch.optim.SGD(net.parameters(), lr=0.1)
        for _ in range(args.epochs):
            if args.no_train:
                return
            loss = criterion(args.loss, net(torch.randn(2, 4)), torch.tensor([0, 2]))
            opt.zero_grad()
            loss.backward()
            opt.step()


    if __name__ == "__main__":
        main()
    """)


def test_a_script_runs_with_its_command_line_options_defaults():
    # python train.py: --loss is "hard", a loss made from argmax, which has no graph
    # (argparse: the dest of --no-train is no_train, False without the flag)
    assert [f[:2] for f in _found(CLI)] == [("GG401", 27)]


@pytest.mark.parametrize("before,after", [
    # another default: the branch that runs is another
    ('default="hard", choices', 'default="ce", choices'),
    # options given on the command line in the code: not the defaults
    ("args = parser.parse_args()", "args = parser.parse_args(['--loss', 'ce'])"),
    # an option string not written as a literal: what the parser reads is not known
    ('parser.add_argument("--epochs", type=int, default=2)',
     'parser.add_argument(EPOCHS, type=int, default=2)'),
])
def test_command_line_options_not_known_are_quiet(before, after):
    text = CLI.replace(before, after)
    assert text != CLI and _found(text) == []


def test_an_element_of_a_size_is_a_python_int():
    # view(size[0], ...) of an argmax: the shape's ints carry no graph, so the loss is
    # known to have none (before, size[0] was of unknown provenance: quiet)
    assert [f[:2] for f in _found("""\
        import torch
        net = torch.nn.Conv2d(3, 2, 1)
        pred = net(torch.rand(2, 3, 8, 8))
        size = pred.size()
        mask = pred.argmax(1).view(size[0], 1, size[2], size[3]).float()
        loss = (mask - 0.5).pow(2).mean()
        loss.backward()
        """)] == [("GG401", 7)]


def test_a_copy_of_a_dict_of_unknown_contents_is_not_plain_data():
    # copy.deepcopy(self.loss_weights) of a dict filled elsewhere raised IndexError
    # (pytorch-metric-learning, neuralforecast, composer, accelerate in the real-code gate)
    assert _found("""\
        import copy
        import torch

        class Trainer:
            def __init__(self, weights=None):
                self.loss_weights = dict(weights or {})
                self.original = copy.deepcopy(self.loss_weights)
                self.shallow = copy.copy(dict())

            def step(self, net, opt, x):
                loss = net(x).sum() * self.original["a"]
                opt.zero_grad()
                loss.backward()
                opt.step()
        """) == []


# a rollout under a bare torch.set_grad_enabled(False), the update under (True): the
# thread's grad mode, set until the next call (elegantrl's train_agent)
GRAD_MODE_STATEMENTS = """\
import torch
import torch.nn as nn

actor, critic = nn.Linear(4, 4), nn.Linear(4, 1)
opt = torch.optim.Adam(critic.parameters())
buffer = torch.zeros(8, 4)
torch.set_grad_enabled(False)
for _ in range(3):
    for t in range(8):
        buffer[t] = actor(torch.randn(4))
    torch.set_grad_enabled(True)
    loss = critic(buffer).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    torch.set_grad_enabled(False)
"""


def test_a_bare_set_grad_enabled_sets_grad_mode_until_the_next():
    assert _found(GRAD_MODE_STATEMENTS) == []
    # without them the rollout writes graphs into a buffer kept across iterations
    carried = [("GG102", 12, "`loss` reaches the previous iteration's graph through "
                "`buffer`, which the backward on line 12 freed in that iteration")]
    assert _found("".join(line for line in GRAD_MODE_STATEMENTS.splitlines(True)
                          if "set_grad_enabled" not in line)) == carried
    # a grad mode set in one branch is not the other branch's
    branches = """\
import torch
import torch.nn as nn


def run(evaluate_only):
    actor, critic = nn.Linear(4, 4), nn.Linear(4, 1)
    opt = torch.optim.Adam(critic.parameters())
    if evaluate_only:
        torch.set_grad_enabled(False)
    else:
        buffer = torch.zeros(8, 4)
        for _ in range(3):
            for t in range(8):
                buffer[t] = actor(torch.randn(4))
            loss = critic(buffer).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
"""
    assert [f[:2] for f in _found(branches)] == [("GG102", 17)]


# a cache filled under ``if key not in d``: the first pass surely fills it (a key an empty
# dict literal cannot have), a later pass reads what an earlier one stored (torch raises)
CACHED_UNDER_MEMBERSHIP = """\
import torch
import torch.nn as nn


class Trainer:
    def __init__(self):
        self.cache = {}
        self.net = nn.Linear(4, 1)
        self.opt = torch.optim.SGD(self.net.parameters(), lr=0.1)

    def step(self, x):
        if "base" not in self.cache:
            self.cache["base"] = self.net(x).mean()
        loss = self.net(x).pow(2).mean() + self.cache["base"]
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()


t = Trainer()
for _ in range(3):
    t.step(torch.randn(2, 4))
"""

# a running total made on first use and kept in a dict: each step's in-place add_ chains
# that step's graph onto the total (its grad_fn grows by one AddBackward0 per step)
TOTAL_MADE_ON_FIRST_USE = """\
import torch
import torch.nn as nn


class Meter:
    def __init__(self):
        self.totals = {}

    def total(self, name):
        if name not in self.totals:
            self.totals[name] = torch.zeros(())
        return self.totals[name]


net = nn.Linear(4, 1)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
meter = Meter()
for _ in range(3):
    loss = net(torch.randn(2, 4)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    meter.total("loss").add_(loss)
"""


def test_a_key_a_dict_surely_has_or_cannot_have_decides_in():
    assert _found(CACHED_UNDER_MEMBERSHIP) == [
        ("GG102", 16, "`loss` reaches the previous iteration's graph through `t.cache`, "
                      "which the backward on line 16 freed in that iteration")]
    detached = CACHED_UNDER_MEMBERSHIP.replace(".mean()\n        loss", ".mean().detach()\n"
                                               "        loss")
    assert _found(detached) == []
    assert _found(TOTAL_MADE_ON_FIRST_USE) == [
        ("GG301", 23, "`meter.total(\"loss\")` accumulates `loss` with its autograd graph: "
                      "every iteration's graph stays in memory")]
    assert _found(TOTAL_MADE_ON_FIRST_USE.replace(".add_(loss)", ".add_(loss.item())")) == []


# a reward computed from a string (str.strip, str.count): Python numbers, so rl_loss is a
# number cut from the graph by .item(), and torch.tensor(..., requires_grad=True) makes a
# new leaf: the backward runs, but net gets no gradient
REWARD_FROM_A_STRING = """\
import torch
import torch.nn as nn
import torch.nn.functional as F

TOKENS = ['<', '>', 'C', 'N']


def sample():
    s = '<'
    for _ in range(3):
        s += TOKENS[torch.randint(0, 4, (1,)).item()]
    return s


def get_reward(smiles):
    body = smiles.strip('<>')
    if len(body) == 0:
        return 0.0
    return 1.0 + body.count('N')


net = nn.Linear(4, 3)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for _ in range(3):
    rl_loss = 0
    opt.zero_grad()
    for _ in range(4):
        reward = get_reward(sample())
        for p in range(3):
            log_probs = F.log_softmax(net(torch.randn(1, 4)), dim=1)
            rl_loss -= log_probs[0, 1].item() * reward
    rl_loss = rl_loss / 4
    rl_loss = torch.tensor(rl_loss, requires_grad=True)
    rl_loss.backward()
    opt.step()
"""

# an optimizer over a list grown by ``params += list(m.parameters())``: the step changes
# att's weight in place, which the retained graph still needs (raises)
OPTIMIZER_OVER_A_GROWN_LIST = """\
import torch
import torch.nn as nn

att = nn.Linear(4, 1)
dim = nn.Linear(4, 4)
cls = nn.Linear(4, 2)
head = nn.Linear(4, 2)
params = []
params += list(att.parameters())
params += list(cls.parameters())
params += list(dim.parameters())
opt0 = torch.optim.Adam(params)
opt1 = torch.optim.Adam(head.parameters())
for _ in range(2):
    feats = []
    x = dim(torch.randn(5, 4))
    a = torch.softmax(att(x).t(), dim=1)
    f = (a @ x)
    feats.append(f)
    loss0 = cls(f).sum()
    pseudo = torch.cat(feats, dim=0)
    opt0.zero_grad()
    loss0.backward(retain_graph=True)
    opt0.step()
    loss1 = head(pseudo).sum()
    opt1.zero_grad()
    loss1.backward()
    opt1.step()
"""


def test_methods_of_a_python_string_return_python_values():
    assert _found(REWARD_FROM_A_STRING) == [
        ("GG402", 33, "`opt` steps the parameters of `net`, but `torch.tensor(rl_loss, "
                      "requires_grad=T...` makes a tensor that has no graph a new leaf: the "
                      "backward on line 34 runs and stops there, so their gradients stay "
                      "None and `net` does not train")]


def test_a_list_grown_by_plus_equals_keeps_the_parameters_it_was_given():
    assert _found(OPTIMIZER_OVER_A_GROWN_LIST) == [
        ("GG201", 27, "`loss1` backpropagates through `att` as it was on line 17, but its "
                      "parameters were updated in place on line 24")]
    assert _found(OPTIMIZER_OVER_A_GROWN_LIST.replace("params += list(att.parameters())\n",
                                                      "")) == []


def test_a_sorted_tensor_written_back_into_its_source_is_not_a_saved_one():
    # torch_geometric's coalesce: sort's backward keeps only the indices (runs clean)
    written_back = """\
import torch

w = torch.rand(5, requires_grad=True)
x = w * 1
x[1:], perm = x[1:].sort()
x.sum().backward()
"""
    assert _found(written_back) == []
    # exp saves its result: the same write-back of exp's output raises
    assert [f[:2] for f in _found(written_back.replace(
        "x[1:], perm = x[1:].sort()", "y = x.exp()\ny.mul_(2)\nx = y"))] == [("GG202", 6)]


# sbi's training loop: the base class's _get_losses is abstract (a subclass returns the
# density estimator's losses, which have a graph); its stub body is not what it returns
ABSTRACT_LOSSES = """\
from abc import ABC, abstractmethod

import torch
from torch import nn


class Trainer(ABC):
    def __init__(self, net: nn.Module):
        self.net = net
        self.optimizer = torch.optim.Adam(net.parameters())

    @abstractmethod
    def _get_losses(self, batch) -> torch.Tensor:
        \"\"\"Return per-sample losses (implemented by subclasses).\"\"\"
        ...

    def train_epoch(self, loader):
        for batch in loader:
            self.optimizer.zero_grad()
            loss = torch.mean(self._get_losses(batch))
            loss.backward()
            self.optimizer.step()
"""


def test_an_abstract_or_stub_method_returns_what_an_override_returns():
    assert _found(ABSTRACT_LOSSES) == []
    for body in ("pass", "raise NotImplementedError", "raise NotImplementedError('subclass')"):
        stub = ABSTRACT_LOSSES.replace("    @abstractmethod\n", "").replace("        ...\n",
                                                                           f"        {body}\n")
        assert _found(stub) == [], body
    # a method with a body is what it returns: a tensor made without a graph, whose
    # mean raises at the backward (line 20 once the decorator's line is gone)
    plain = ABSTRACT_LOSSES.replace("    @abstractmethod\n", "").replace(
        "        ...\n", "        return torch.zeros(len(batch))\n")
    assert [f[:2] for f in _found(plain)] == [("GG401", 20)]


# a class-level cache: one list for the class and every instance; each iteration's
# output stays in it, and the next loss reads the freed graphs (raises)
CLASS_LEVEL_CACHE = """\
import torch
import torch.nn as nn


class Memory:
    cache = []

    @classmethod
    def push(cls, x):
        cls.cache.append(x)


net = nn.Linear(4, 1)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for _ in range(3):
    out = net(torch.randn(2, 4))
    Memory.push(out)
    loss = out.sum() + 0.1 * torch.cat(Memory.cache).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""


def test_a_class_attribute_is_one_object_for_the_class_and_its_instances():
    carried = ("GG102", 20, "`loss` reaches the previous iteration's graph through "
                            "`Memory.cache`, which the backward on line 20 freed in that "
                            "iteration")
    assert _found(CLASS_LEVEL_CACHE) == [carried]
    # through an instance (a plain method filling self.cache, which is the class's)
    through_self = CLASS_LEVEL_CACHE.replace("    @classmethod\n    def push(cls, x):\n"
                                             "        cls.cache", "    def push(self, x):\n"
                                             "        self.cache").replace(
        "    Memory.push(out)", "    Memory().push(out)")
    assert _found(through_self) == [("GG102", 19, carried[2].replace("20", "19"))]
    # each stored detached (runs clean)
    assert _found(CLASS_LEVEL_CACHE.replace("append(x)", "append(x.detach())")) == []
    # an instance that has its own list (set in __init__) does not fill the class's
    own = through_self.replace("    cache = []\n", "    cache = []\n\n    def __init__(self):\n"
                                                   "        self.cache = []\n")
    assert _found(own) == []


# forward hooks registered by name over ``sorted(set(STYLE + CONTENT))``: the names of
# two lists of known strings, concatenated, once each, sorted; the targets captured
# before the loop keep the graph the first backward frees (raises)
HOOKS_OVER_SORTED_NAMES = """\
import torch
import torch.nn as nn

STYLE = ["conv1", "conv2"]
CONTENT = ["conv2"]


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 4, 3, padding=1)
        self.conv2 = nn.Conv2d(4, 4, 3, padding=1)

    def forward(self, x):
        return self.conv2(torch.relu(self.conv1(x)))


class Recorder:
    def __init__(self, model, names):
        self.acts = {}
        for name in names:
            getattr(model, name).register_forward_hook(self._hook(name))

    def _hook(self, name):
        def hook(module, inputs, output):
            self.acts[name] = output
        return hook


cnn = Net()
rec = Recorder(cnn, sorted(set(STYLE + CONTENT)))
cnn(torch.rand(1, 3, 8, 8))
targets = {n: rec.acts[n] for n in STYLE}
img = torch.rand(1, 3, 8, 8, requires_grad=True)
opt = torch.optim.Adam([img], lr=0.05)
for step in range(3):
    opt.zero_grad()
    cnn(img)
    loss = sum((rec.acts[n] - targets[n]).pow(2).mean() for n in STYLE)
    loss.backward()
    opt.step()
"""


def test_concatenated_and_sorted_lists_of_known_strings_keep_their_elements():
    assert _found(HOOKS_OVER_SORTED_NAMES) == [
        ("GG103", 40, "`loss` uses `targets`, built once on line 33 before the loop; the "
                      "backward on line 40 frees its graph in the first iteration, so the "
                      "next iteration fails")]
    detached = HOOKS_OVER_SORTED_NAMES.replace("rec.acts[n] for n in STYLE}",
                                               "rec.acts[n].detach() for n in STYLE}")
    assert _found(detached) == []


def test_optimizers_made_by_a_generator_over_known_modules_train_each_its_own():
    # SAC (pg-is-all-you-need#30): one optimizer per network, unpacked from a generator;
    # the critic's step changes weights the actor's retained graph still needs (raises)
    sac = """\
import torch
import torch.nn as nn
import torch.optim as optim

actor, q1 = nn.Linear(3, 1), nn.Sequential(nn.Linear(1, 4), nn.Tanh(), nn.Linear(4, 1))
actor_opt, q1_opt = (optim.Adam(m.parameters(), lr=3e-4) for m in (actor, q1))
for _ in range(2):
    q = q1(actor(torch.randn(8, 3)))
    q1_opt.zero_grad()
    q.pow(2).mean().backward(retain_graph=True)
    q1_opt.step()
    actor_opt.zero_grad()
    (-q.mean()).backward()
    actor_opt.step()
"""
    assert _found(sac) == [
        ("GG201", 13, "`(-q.mean())` backpropagates through `q1` as it was on line 8, but "
                      "its parameters were updated in place on line 11")]
    # the critic stepped after the actor's backward (runs clean)
    assert _found(sac.replace("    q1_opt.step()\n", "").replace(
        "    actor_opt.step()\n", "    actor_opt.step()\n    q1_opt.step()\n")) == []


def test_a_class_used_as_a_namespace_gives_its_constants():
    # ``class cfg: class train: iters = 3``: cfg.network.bins is 16 and the loss built
    # from argmax indices has no graph (CDPN#4: raises at the backward)
    cdpn = """\
import torch
import torch.nn as nn


class cfg:
    class network:
        bins = 16


head = nn.Conv2d(3, cfg.network.bins, 1)
opt = torch.optim.Adam(head.parameters())
for _ in range(2):
    coords = torch.argmax(head(torch.randn(2, 3, 4, 4)), dim=1).float()
    loss = (2.0 * coords / (cfg.network.bins - 1) - 1.0).abs().mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""
    assert [f[:2] for f in _found(cdpn)] == [("GG401", 16)]


AGENTS = """\
import torch
import torch.nn as nn
import torch.optim as optim


class Actor(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.pi = nn.Linear(4, 2)
        self.optimizer = optim.Adam(self.parameters(), lr=0.1)

    def forward(self, state):
        return torch.softmax(self.pi(self.fc(state)), dim=1)


class Agent:
    def __init__(self, i):
        self.actor = Actor()


{agents}
mu = torch.cat([agent.actor(torch.randn(2, 4)) for agent in agents], dim=1)
for agent in agents:
    loss = -torch.mean(mu)
    agent.actor.optimizer.zero_grad()
    loss.backward(retain_graph=True)
    agent.actor.optimizer.step()
"""


@pytest.mark.parametrize("agents", [
    "agents = [Agent(0), Agent(1), Agent(2)]",
    "agents = (Agent(0), Agent(1))",
    "agents = [Agent(i) for i in range(3)]",
    "n_agents = 2\nagents = [Agent(i) for i in range(n_agents)]"])
def test_a_loop_over_a_list_of_known_objects_runs_each_element_as_itself(agents):
    # MADDPG (1710): the first agent's step changes weights that the joint actions built
    # before the loop saved; the next agent's backward raises. Each pass of the
    # comprehension builds an Agent of its own
    src = AGENTS.format(agents=agents)
    line = src.splitlines().index("    loss.backward(retain_graph=True)") + 1
    assert _found(src) == [
        ("GG201", line, f"`loss` backpropagates through `self.pi` as it was on line 14, "
                        f"but its parameters were updated in place on line {line + 1}")]
    # each agent's joint actions built in its own pass: runs clean
    rebuilt = src.replace("    loss = -torch.mean(mu)", "    mu = torch.cat([a.actor(torch.randn("
                          "2, 4)) for a in agents], dim=1)\n    loss = -torch.mean(mu)")
    assert _found(rebuilt) == []


def test_load_state_dict_overwrites_the_parameters_a_graph_saved():
    # torch/nn/modules/module.py: param.copy_(input_param) under no_grad; a backward
    # through a forward of the target network from before the copy raises
    src = """\
import torch
import torch.nn as nn

net = nn.Sequential(nn.Linear(4, 4), nn.Linear(4, 1))
target = nn.Sequential(nn.Linear(4, 4), nn.Linear(4, 1))
for target_net, source in ((target, net),):
    pass
for step in range(3):
    y = target(torch.randn(2, 4))
    target.load_state_dict(net.state_dict())
    y.sum().backward()
"""
    assert _found(src) == [
        ("GG201", 11, "`y.sum()` backpropagates through `target` as it was on line 9, "
                      "but its parameters were updated in place on line 10")]
    assert _found(src.replace("    y.sum().backward()\n", "").replace(
        "    target.load_state_dict", "    y.sum().backward()\n    target.load_state_dict")) == []


COMPRESSION = """\
import torch
import torch.nn as nn


class Attn(nn.Module):
    def __init__(self):
        super().__init__()
        self.q = nn.Linear(4, 4)
        self.compress = nn.Linear(4, 4)

    def forward(self, x):
        return self.q(x), self.compress(x.detach()).sum()


class Net(nn.Module):
    def __init__(self, depth):
        super().__init__()
        self.layers = nn.ModuleList([Attn() for _ in range(depth)])

    def compression_parameters(self):
        return [p for layer in self.layers for p in layer.compress.parameters()]

    def forward(self, x):
        for layer in self.layers:
            x, aux = layer(x)
        return x


net = Net(2)
opt = torch.optim.Adam(PARAMS)
for _ in range(3):
    loss = net(torch.randn(2, 4)).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""


@pytest.mark.parametrize("params", ["net.compression_parameters()",
                                    "net.layers[0].compress.parameters()"])
def test_the_attribute_of_one_of_several_known_modules_is_each_ones(params):
    # compressive-transformer (1712): the auxiliary loss is dropped, so the compression
    # networks of both layers (each built by its own pass) never get a gradient
    assert _found(COMPRESSION.replace("PARAMS", params)) == [
        ("GG402", 35, f"`opt` steps the parameters of `{params.removesuffix('.parameters()')}`, "
                      "but no backward of this loop reaches them (their way to the loss is "
                      "cut, or the loss is built from other modules), so their gradients "
                      f"stay None and `{params.removesuffix('.parameters()')}` does not train")]
    used = COMPRESSION.replace("PARAMS", params).replace(
        "loss = net(torch.randn(2, 4)).sum()", "loss = net(torch.randn(2, 4)).sum() + sum("
        "layer(torch.randn(2, 4))[1] for layer in net.layers)")
    assert _found(used) == []


def test_a_class_defined_twice_is_analysed_in_both_definitions():
    # tsai's layers.py defines RevIN twice: the methods of the first definition are
    # roots too, and reading its bases there (no frame runs) raised IndexError
    src = """\
import torch
import torch.nn as nn


class Head(nn.Sequential):
    def __init__(self):
        super().__init__(nn.Linear(4, 4), nn.Sigmoid())

    def fit(self):
        out = torch.sigmoid(torch.randn(3, requires_grad=True))
        out.mul_(2)
        out.sum().backward()


class Head(nn.Module):
    def forward(self, x):
        return x
"""
    assert _found(src) == [
        ("GG202", 11, "In-place change of `out`, which `torch.sigmoid(torch.randn(3, "
                      "requires...` (line 10) saved for backward")]


def test_parameters_of_two_modules_joined_by_plus_are_frozen_together():
    # sem-pcyc's frozen feature extractors: ``for p in list(a.parameters()) +
    # list(b.parameters()): p.requires_grad = False``; features from them have no graph,
    # so two heads' backwards over them run (torch: no error)
    src = """\
import torch
import torch.nn as nn

a = nn.Linear(4, 4)
b = nn.Linear(4, 4)
for p in FROZEN:
    p.requires_grad = False
head = nn.Linear(4, 1)
feat = a(torch.randn(2, 4))
head(feat).sum().backward()
(head(feat) * 2).sum().backward()
"""
    assert _found(src.replace("FROZEN", "list(a.parameters()) + list(b.parameters())")) == []
    assert _found(src.replace("FROZEN", "list(b.parameters()) + [torch.zeros(1)]")) == [
        ("GG101", 11, "`(head(feat) * 2).sum()` is backpropagated through the graph of `feat` "
                      "(built on line 9), which the backward on line 10 already freed")]


# a block whose activation is chosen by a string: nn.ReLU(True) runs in place on the
# output of the ReLU before it, which that ReLU saved (autograd raises at the backward)
_ACT_BLOCKS = """\
    import math
    import numpy as np
    import torch
    import torch.nn as nn

    class Act(nn.Module):
        def __init__(self, act_type="relu"):
            super().__init__()
            act_type = act_type.lower()
            if act_type == "relu":
                self.func = nn.ReLU(True)
            else:
                self.func = nn.Tanh()

        def forward(self, x):
            return self.func(x)

    class Net(nn.Module):
        def __init__(self, size=32, act_type="tanh"):
            super().__init__()
            layers = [nn.Linear(4, 4), nn.ReLU()]
            for _ in range(STEPS):
                layers.append(Act(ARGS))
            self.body = nn.Sequential(*layers)

        def forward(self, x):
            return self.body(x)

    net = Net(act_type="RELU")
    for _ in range(2):
        net(torch.randn(2, 4)).sum().backward()
    """

_ACT_FINDING = ("GG202", 16, "In-place change of `x`, which `self.body(x)` (line 27) saved for "
                "backward")


@pytest.mark.parametrize("steps, args, found", [
    # a str method of a string of known value gives the string Python computes
    ("1", "act_type", True),
    # ``**d`` of a dict literal of string keys passes those keywords
    ("1", "**{'act_type': act_type}", True),
    # numbers of known value through int(), math and numpy functions
    ("int(np.log2(size // 16))", "act_type", True),
    ("max(1, math.floor(math.sqrt(size // 16)))", "act_type", True),
    # keywords not known: the parameter is not known either (not its default "relu")
    ("1", "**cfg", False),
])
def test_known_values_through_str_methods_keywords_and_numeric_functions(steps, args, found):
    src = _ACT_BLOCKS.replace("STEPS", steps).replace("ARGS", args)
    if args == "**cfg":
        src = src.replace("        layers = [", "        cfg = load_config()\n        layers = [")
    assert _found(src) == ([_ACT_FINDING] if found else [])


def test_a_method_assigned_on_the_class_from_outside_replaces_the_classs_own():
    # a script patches a library's class before building the model (the maintainer's
    # fix for an identity norm: return a new tensor), so the in-place ReLU changes a copy
    src = _ACT_BLOCKS.replace("STEPS", "1").replace("ARGS", "act_type")
    assert _found(src) == [_ACT_FINDING]
    patched = src.replace("    net = Net(", "    def copying_forward(self, x):\n"
                          "        return self.func(x * 1.0)\n\n"
                          "    Act.forward = copying_forward\n    net = Net(")
    assert _found(patched) == []


@pytest.mark.parametrize("scale, found", [
    ("", False),  # the default: None
    (", 2", True),
    (", 2 if flag else None", True),  # None or 2: either branch may run
])
def test_is_none_of_none_or_of_a_known_number_is_known(scale, found):
    src = f"""\
        import sys
        import torch

        def step(net, x, scale=None):
            loss = net(x).sum()
            loss.backward()
            if scale is not None:
                (loss * scale).backward()

        flag = len(sys.argv) > 1
        step(torch.nn.Linear(2, 1), torch.randn(3, 2){scale})
        """
    assert [c for c, *_ in _found(src)] == (["GG101"] if found else [])


def test_star_args_of_a_list_of_known_elements_pass_them():
    # tntorch's optimize(tensors, loss_function): loss_function(*tensors) over [t]
    assert _found("""\
        import torch

        class Cores:
            def __init__(self):
                self.a = torch.randn(3, 3, requires_grad=True)

            def full(self):
                return self.a @ self.a

        def optimize(tensors, loss_function, max_iter=10):
            history = []
            for _ in range(max_iter):
                loss = loss_function(*tensors)
                loss.backward()
                history.append(loss)
            return history

        t = Cores()
        optimize([t], lambda c, scale=2.0: c.full().sum() * scale)
        """) == [("GG301", 15, "`history` accumulates `loss` with its autograd graph: every "
                              "iteration's graph stays in memory")]


@pytest.mark.parametrize("callbacks, found", [("[log]", True), ("[add_kl]", False),
                                              ("[log, add_kl]", False)])
def test_a_dict_changed_by_a_helper_it_was_given_is_changed_for_the_caller(callbacks, found):
    # torchbearer's Trial: state = {LOSS: ...} keyed by a module-level constant; the hooks
    # add the loss terms to state[LOSS] in place; with none, the loss is a constant
    src = f"""\
        import torch

        LOSS, X = "loss", "x"
        net = torch.nn.Linear(4, 1)

        def add_kl(state):
            return net(state[X]).pow(2).mean()

        def log(state):
            print(state[X].shape)

        def call_hooks(hooks, state):
            for hook in hooks:
                extra = hook(state)
                if extra is not None:
                    state[LOSS] = state[LOSS] + extra

        def step(hooks):
            state = {{X: torch.randn(2, 4), LOSS: torch.zeros(1)}}
            call_hooks(hooks, state)
            state[LOSS].backward()

        step({callbacks})
        """
    assert [(c, line) for c, line, _ in _found(src)] == ([("GG401", 21)] if found else [])


@pytest.mark.parametrize("guard", ["if state:", "if state is not None:"])
def test_isinstance_false_of_a_tuple_leaves_none(guard):
    # a recursive detach helper over an LSTM's (h, c): isinstance(state, (list, tuple))
    # false means state is None there, so ``return state`` returns no graph
    src = f"""\
        import torch
        import torch.nn as nn

        def detach_states(state):
            if isinstance(state, torch.Tensor):
                return state.detach()
            if isinstance(state, (list, tuple)):
                return type(state)(detach_states(s) for s in state)
            return state

        lstm = nn.LSTM(4, 4)
        state = None
        for step in range(3):
            {guard}
                state = detach_states(state)
            out, state = lstm(torch.randn(2, 1, 4), state)
            out.sum().backward()
        """
    assert _found(src) == []
    assert [c for c, *_ in _found(src.replace("                state = detach_states(state)\n",
                                              "                pass\n"))] == ["GG102"]


def test_isinstance_of_a_name_bound_to_one_of_several_classes():
    # imitation's _strip_wrappers: ``for cls in (A, B): if isinstance(net, cls)`` raised
    # AttributeError ('Alts' object has no attribute 'key') and lost the module body
    assert _found("""\
        import torch

        class A(torch.nn.Linear):
            pass

        class B(torch.nn.Linear):
            pass

        net = A(2, 1)
        for cls in [A, B]:
            if isinstance(net, cls):
                print(cls.__name__)
        net(torch.randn(4, 2)).sum().backward()
        """) == []


def test_a_loop_invariant_test_takes_the_same_branch_in_every_iteration():
    # torch_rechub's multi-task trainer: ``loss`` is set under ``if self.method ==
    # "uwl"`` or in the ``else`` of ``if self.method is not None``; the loop never changes
    # self.method, so no iteration keeps a loss an earlier iteration built
    program = textwrap.dedent("""\
        import torch


        class Trainer:
            def __init__(self, method):
                self.method = method
                self.model = torch.nn.Linear(2, 2)

            def train_one_epoch(self, batches):
                for x in batches:
                    out = self.model(x)
                    parts = [out[:, 0].mean(), out[:, 1].mean()]
                    if self.method is not None:
                        if self.method == "uwl":
                            loss = 0
                            for p in parts:
                                loss += 2 * p
                    else:
                        loss = sum(parts)
                    loss = loss + 0.0
                    loss.backward()
        """)
    assert _found(program) == []
    # a flag the loop itself clears: later iterations take the other branch, and
    # backpropagate the first iteration's freed graph again (torch raises)
    assert _found(textwrap.dedent("""\
        import torch


        def train(batches):
            model = torch.nn.Linear(2, 1)
            first = True
            for x in batches:
                out = model(x)
                if first:
                    loss = out.mean()
                    first = False
                loss.backward()
        """)) == [("GG102", 12, "`loss` reaches the previous iteration's graph through `out`, "
                                "which the backward on line 12 freed in that iteration")]


def test_a_tuple_unpacked_from_a_model_of_unknown_class_holds_the_output_first():
    # flair's trainer: ``loss, count = self.ddp_model(batch)`` of a model whose class is not
    # known; the count is a Python int, and summing it keeps no graph
    program = textwrap.dedent("""\
        import torch
        from somelib import Net


        def train(batches):
            model = Net()
            opt = torch.optim.SGD(model.parameters(), lr=0.1)
            total = 0
            for batch in batches:
                loss, count = model(batch)
                total += count
                opt.zero_grad()
                loss.backward()
                opt.step()
            print(total)
        """)
    assert _found(program) == []
    # the first part is the model's output: summed with its graph, it is a leak (GG301)
    assert _found(program.replace("total += count", "total += loss")) == [
        ("GG301", 11, "`total` accumulates `loss` with its autograd graph: every "
                      "iteration's graph stays in memory")]


def test_an_object_whose_class_defines_iter_is_iterated_through_it():
    # a data loader class whose __iter__ yields batches of labels built from weights that
    # require grad (the labels' graph is made once, before the loop: GG103)
    assert _found("""\
        import torch

        true_w = torch.randn(2, 1, requires_grad=True)
        X = torch.randn(40, 2)
        Y = X @ true_w


        class Loader:
            def __init__(self, X, Y):
                self.X, self.Y = X, Y

            def __iter__(self):
                for i in range(0, 40, 10):
                    yield self.X[i:i + 10], self.Y[i:i + 10]


        w = torch.zeros(2, 1, requires_grad=True)
        opt = torch.optim.SGD([w], lr=0.1)
        for x, y in Loader(X, Y):
            loss = ((x @ w - y) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        """) == [("GG103", 22, "`loss` uses `Y`, built once on line 5 before the loop; the "
                               "backward on line 22 frees its graph in the first iteration, "
                               "so the next iteration fails")]


def test_dict_keywords_get_sum_and_reduction_dims_keep_a_known_history():
    # mmdetection's shape: losses in dict(...), a config read with .get, the losses
    # summed by sum() over items(); the head and backbone frozen: no graph (GG401)
    program = textwrap.dedent("""\
        import torch
        import torch.nn as nn
        import torch.nn.functional as F


        class Detector(nn.Module):
            def __init__(self, cfg=None):
                super().__init__()
                self.backbone = nn.Conv2d(3, 8, 3)
                self.head = nn.Conv2d(8, 2, 1)
                self.cfg = cfg or {}
                for p in self.backbone.parameters():
                    p.requires_grad = False
                if self.cfg.get("freeze_head", False):
                    for p in self.head.parameters():
                        p.requires_grad = False

            def forward(self, img):
                out = self.head(self.backbone(img))
                dims = (0,) + tuple(range(2, out.ndimension()))
                return dict(loss_a=out.sum(dims).mean(), loss_b=F.relu(out).mean())


        model = Detector(dict(freeze_head=True))
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        for _ in range(2):
            losses = model(torch.randn(2, 3, 8, 8))
            loss = sum(v for k, v in losses.items() if k.startswith("loss"))
            opt.zero_grad()
            loss.backward()
            opt.step()
        """)
    assert _found(program) == [
        ("GG401", 30, '`loss` has no graph: `self.backbone(img)` on line 19 runs a module none '
                      'of whose parameters requires grad on inputs that do not either, so this '
                      'backward raises "element 0 of tensors does not require grad and does not '
                      'have a grad_fn"')]
    assert _found(program.replace("dict(freeze_head=True)", "dict(freeze_head=False)")) == []
    # a flag that is not known: whether the head requires grad is not known either
    assert _found(program.replace("model = Detector(dict(freeze_head=True))",
                                  "import sys\nmodel = Detector(dict(freeze_head=sys.argv))")
                  ) == []


def test_a_loop_over_classes_builds_a_model_of_each_and_a_reset_after_the_optimizer_is_found():
    # pytorch issue 14467: reset() builds the layers anew after Adam took the old ones
    program = textwrap.dedent("""\
        import torch
        import torch.nn as nn


        class Base(nn.Module):
            def __init__(self):
                super().__init__()
                self.reset()

            def reset(self):
                self.fc = nn.Linear(3, 1)

            def forward(self, x):
                return self.fc(x)


        class Other(Base):
            pass


        for cls in (Base, Other):
            model = cls()
            optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
            for repeat in range(2):
                model.reset()
                loss = model(torch.randn(4, 3)).pow(2).mean()
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
        """)
    result = analyze(program)
    assert [(f.code, f.span.start.line, f.message.render()) for f in result.findings] == [
        ("GG402", 25, "`model.reset()` builds layers of `model` again, after `optimizer` took "
                      "their parameters (line 23): the backward reaches the new layers, the "
                      "optimizer steps the old ones, so they do not train. Build the optimizer "
                      "after this line")]
    (fix,) = result.findings[0].fixes
    assert fix.title.render() == "Build `optimizer` after line 25, once `model` is built again"


def test_a_forward_hook_that_makes_the_output_require_grad_and_train_mode_are_followed():
    # LoRA with reentrant checkpointing: a frozen embedding's output needs grad for the
    # checkpointed blocks to build a graph; the hook PEFT's enable_input_require_grads
    # registers gives it that
    program = textwrap.dedent("""\
        import torch
        import torch.nn as nn
        from torch.utils.checkpoint import checkpoint


        class LM(nn.Module):
            def __init__(self):
                super().__init__()
                self.wte = nn.Embedding(10, 4)
                self.block = nn.Linear(4, 4)
                self.wte.requires_grad_(False)
                self.ckpt = True

            def enable_input_require_grads(self):
                def hook(module, inputs, output):
                    output.requires_grad_(True)
                self.wte.register_forward_hook(hook)

            def forward(self, idx):
                x = self.wte(idx)
                if self.ckpt and self.training:
                    x = checkpoint(self.block, x, use_reentrant=True)
                else:
                    x = self.block(x)
                return x.sum()


        model = LM()
        model.train()
        loss = model(torch.randint(0, 10, (3,)))
        loss.backward()
        """)
    assert [(c, line) for c, line, _ in _found(program)] == [("GG401", 31)]
    assert _found(program.replace("model.train()", "model.enable_input_require_grads()\n"
                                                   "model.train()")) == []
    # in eval mode the block runs plainly: its parameters give the loss a graph
    assert _found(program.replace("model.train()", "model.eval()")) == []


def test_what_a_loop_rebinds_at_the_top_of_each_iteration_accumulates_nothing():
    # dive-into-graphs: a mask rebuilt from a parameter every iteration, flipped with
    # ``mask = 1 - mask``; a list made anew every iteration and filled
    program = textwrap.dedent("""\
        import torch

        model = torch.nn.Linear(5, 1)
        weights = torch.nn.Parameter(torch.rand(5))
        opt = torch.optim.Adam([weights] + list(model.parameters()), lr=0.1)
        for epoch in range(3):
            mask = weights.sigmoid()
            masks = []
            if epoch > 1:
                mask = 1 - mask
            masks.append(mask)
            loss = model(torch.randn(3, 5)).sum() + masks[0].sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
        """)
    assert _found(program) == []
    # made once before the loop: every iteration's graph stays in the list (GG301)
    assert _found(program.replace("    masks = []\n", "").replace(
        "for epoch in range(3):", "masks = []\nfor epoch in range(3):").replace(
        " + masks[0].sum()", "")) == [
        ("GG301", 11, "`masks` accumulates `mask` with its autograd graph: every iteration's "
                      "graph stays in memory")]


def test_while_true_ends_only_at_a_break():
    # simpletransformers' retry loop: the loss is computed anew at the top of each pass
    # and the loop is left only by a break before its backward
    assert _found("""\
        import torch

        net = torch.nn.Linear(2, 1)
        opt = torch.optim.SGD(net.parameters(), lr=0.1)
        for x in [torch.randn(4, 2)] * 3:
            repeats = 0
            while True:
                loss = net(x).pow(2).mean()
                if loss.item() < 1.0 or repeats > 2:
                    break
                repeats += 1
                loss.backward()
                opt.step()
                opt.zero_grad()
            loss.backward()
            opt.step()
        """) == []


def test_a_masked_fill_keeps_its_mask_not_its_input_and_a_frozen_parameter_needs_no_grad():
    # derivatives.yaml: masked_fill saves only ``mask``; the receiver may change after
    assert _found("""\
        import torch

        q = torch.randn(3, 4, requires_grad=True)
        score = q @ q.t() + 1
        out = score.masked_fill(torch.zeros(3, 3, dtype=torch.bool), -1e4)
        score += 1
        out.sum().backward()
        """) == []
    # labml's path-length penalty: a step counter kept as nn.Parameter(requires_grad=False)
    assert _found("""\
        import torch
        import torch.nn as nn


        class Penalty(nn.Module):
            def __init__(self):
                super().__init__()
                self.steps = nn.Parameter(torch.tensor(0.), requires_grad=False)

            def forward(self, x):
                loss = (x * 0.99 ** self.steps).pow(2).mean()
                self.steps.add_(1.)
                return loss


        net, pen = nn.Linear(4, 4), Penalty()
        for _ in range(2):
            pen(net(torch.randn(8, 4))).backward()
        """) == []


def test_numpy_results_and_values_made_before_an_inner_loop_accumulate_no_graph():
    # JT-VAE: metrics of a model of unknown class summed in a NumPy array; FlowX: a mask
    # rebuilt every epoch, normalised and flipped, appended once per layer to a list made
    # in that epoch
    assert _found("""\
        import numpy as np
        import torch
        from somelib import JTNN, gumbel


        def train(batches, num_layers, flip):
            model = JTNN()
            weights = torch.nn.Parameter(torch.rand(5))
            opt = torch.optim.Adam(list(model.parameters()) + [weights], lr=1e-3)
            meters = np.zeros(2)
            for batch in batches:
                loss, kl_div, wacc = model(batch)
                meters = meters + np.array([kl_div, wacc * 100])
                mask = weights.sigmoid()
                mask = mask / (mask.max() + 1e-6)
                if flip:
                    mask = 1 - mask
                edge_masks = []
                for _ in range(num_layers):
                    edge_masks.append(mask)
                loss = loss + gumbel(edge_masks)
                opt.zero_grad()
                loss.backward()
                opt.step()
            print(meters)
        """) == []


def test_gradients_through_forwarded_keywords_may_have_a_graph():
    # tianshou's natural gradient: create_graph=True reaches autograd.grad through
    # ``**kwargs``; the Hessian-vector product's backward has a graph
    program = textwrap.dedent("""\
        import torch

        net = torch.nn.Linear(3, 1)


        def flat_grad(y, model, **kwargs):
            grads = torch.autograd.grad(y, model.parameters(), **kwargs)
            return torch.cat([g.reshape(-1) for g in grads])


        kl = net(torch.randn(4, 3)).pow(2).mean()
        g = flat_grad(kl, net, create_graph=True)
        kl_v = (g * torch.randn(4)).sum()
        flat_grad(kl_v, net, retain_graph=True)
        kl_v.backward()
        """)
    assert _found(program) == []
    # named, no create_graph: the gradients have no graph (GG401)
    assert [c for c, _, _ in _found(program.replace(
        "torch.autograd.grad(y, model.parameters(), **kwargs)",
        "torch.autograd.grad(y, model.parameters(), retain_graph=True)"))] == ["GG401", "GG401"]


def test_a_global_declared_but_only_annotated_reads_as_unknown():
    # mbrl's diagnostics: ``env__: gym.Env`` at module level, bound by another function
    result = analyze("x: int\n\n\ndef f():\n    global x\n    return x.step()\n")
    assert result.errors == () and result.findings == ()


def test_a_join_of_joined_storages_stays_flat():
    # deepspeed's stage_1_and_2.py: a tensor joined with itself pass after pass nested
    # ("join", a, ("join", a, ...)) ever deeper (a 9 MB key after a minute)
    from gradguard.analysis.values import Val, join, store_parts
    a, b, c = (Val("tensor", store=("t", i)) for i in (1, 2, 3))
    v = a
    for other in (b, a, c, b, a) * 50:
        v = join(v, other)
    assert v.store == ("join", ("t", 1), ("t", 2), ("t", 3))
    assert store_parts(v.store) == {("t", 1), ("t", 2), ("t", 3)}
    assert join(a, a).store == ("t", 1)


# stats kept per name in a dict filled on first sight (pytracking's LTR trainer): the
# meters it makes persist across batches and accumulate the losses with their graphs
METERS = """import torch
from collections import OrderedDict


class AverageMeter:
    def __init__(self):
        self.sum = 0

    def update(self, val, n=1):
        self.sum += val * n


class Trainer:
    def __init__(self, net, opt):
        self.net, self.opt = net, opt
        self.stats = OrderedDict()

    def update_stats(self, new_stats, bs):
        for name, val in new_stats.items():
            if name not in self.stats:
                self.stats[name] = AverageMeter()
            self.stats[name].update(val, bs)

    def cycle(self, loader):
        for x in loader:
            loss = self.net(x).pow(2).mean()
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            self.update_stats({"Loss/total": loss}, 4)


net = torch.nn.Linear(3, 1)
Trainer(net, torch.optim.SGD(net.parameters(), lr=0.1)).cycle([torch.randn(4, 3)] * 3)
"""


@pytest.mark.parametrize("empty", ["OrderedDict()", "dict()", "{}"])
def test_an_empty_dict_call_is_an_empty_dict(empty):
    text = METERS.replace("self.stats = OrderedDict()", f"self.stats = {empty}")
    assert [f[:2] for f in _found(text)] == [("GG301", 10)]
    assert _found(text.replace("{\"Loss/total\": loss}", "{\"Loss/total\": loss.item()}")) == []


# a trainer that forwards its keywords to its base class (``super().__init__(model,
# **kwargs)``) and evaluates the metric functions it was given on each batch's output
FORWARDED = """import torch
from collections import defaultdict


class Base:
    def __init__(self, model, funcs=None):
        self.model = model
        self.funcs = funcs

    def fit(self, data):
        res = defaultdict(list)
        for x in data:
            y_hat = self.step(x)
            if self.funcs is not None:
                for metr, func in self.funcs.items():
                    res[metr].append(func(y_hat, x))


class Child(Base):
    def __init__(self, model, lr, *args, **kwargs):
        super().__init__(model, *args, **kwargs)
        self.opt = torch.optim.SGD(self.model.parameters(), lr=lr)

    def step(self, x):
        y_hat = self.model(x)
        loss = y_hat.sum()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return y_hat


fs = {"acc": lambda y_hat, y: (y_hat.argmax(1) == y.argmax(1)).float().mean()}
Child(torch.nn.Linear(2, 2), 0.1, funcs=fs).fit([torch.randn(3, 2)] * 3)
"""


@pytest.mark.parametrize("call", ["Child(torch.nn.Linear(2, 2), 0.1, funcs=fs)",
                                  "Child(torch.nn.Linear(2, 2), 0.1, fs)"])
def test_star_parameters_hold_the_arguments_no_other_parameter_took(call):
    text = FORWARDED.replace("Child(torch.nn.Linear(2, 2), 0.1, funcs=fs)", call)
    assert _found(text) == []
    # a metric that keeps the output's graph is still found through them
    kept = text.replace("(y_hat.argmax(1) == y.argmax(1)).float().mean()", "(y_hat - y).abs().mean()")
    assert [f[:2] for f in _found(kept)] == [("GG301", 16)]


def test_requires_grad_of_a_parameter_is_known_true():
    # optiland's material caches its index only when it is not optimised
    text = """import torch
import torch.nn as nn


class Material(nn.Module):
    def __init__(self):
        super().__init__()
        self.n_d = nn.Parameter(torch.tensor(1.5))
        self._cache = {}

    def n(self, w):
        use_cache = not (torch.is_grad_enabled() and self.n_d.requires_grad)
        if use_cache and w in self._cache:
            return self._cache[w]
        value = self.n_d * (1.0 + 0.01 / w)
        if use_cache:
            self._cache[w] = value
        return value


mat = Material()
opt = torch.optim.Adam(mat.parameters())
for _ in range(3):
    loss = (mat.n(0.5) - 1.6) ** 2
    opt.zero_grad()
    loss.backward()
    opt.step()
"""
    assert _found(text) == []
    # a cache kept whatever the flag: the second pass reads the first one's freed graph
    assert [f[:2] for f in _found(text.replace("use_cache = not (", "use_cache = True or ("))] \
        == [("GG102", 26)]


def test_type_of_an_object_of_a_users_class_is_that_class():
    # a classifier wrapper that clones itself with type(self)(...): the clone trains a copy
    # of the model with the optimizer of the original
    text = """import copy
import torch


class Clf:
    def __init__(self, model, opt):
        self._model, self._opt = model, opt

    def fit(self, x):
        for _ in range(2):
            self._opt.zero_grad()
            loss = self._model(x).sum()
            loss.backward()
            self._opt.step()

    def clone(self):
        return type(self)(copy.deepcopy(self._model), self._opt)


net = torch.nn.Linear(2, 1)
clf = Clf(net, torch.optim.SGD(net.parameters(), lr=0.1))
clf.clone().fit(torch.randn(3, 2))
"""
    assert [f[:2] for f in _found(text)] == [("GG402", 14)]
    assert _found(text.replace("copy.deepcopy(self._model)", "self._model")) == []


def test_a_function_or_a_bound_method_is_not_none():
    # ``if self.backward_fn is not None:`` of an attribute set to ``runner.backward``
    from gradguard.analysis.frames import FuncRef
    from gradguard.analysis.values import NONE, UNKNOWN, Val, join, surely_not_none
    func = Val("func", ref=FuncRef(None, "G"))
    assert surely_not_none(func)
    assert not surely_not_none(join(func, NONE))
    assert not surely_not_none(UNKNOWN)


FLAG_IN_A_NAME = """import torch
import torch.nn as nn

cnn, head = nn.Linear(4, 8), nn.Linear(8, 2)
freeze = True
flag = not freeze if False else False
for p in cnn.parameters():
    p.requires_grad_(flag)
opt = torch.optim.Adam([p for p in [*cnn.parameters(), *head.parameters()] if p.requires_grad])
for step in range(3):
    loss = head(cnn(torch.randn(5, 4))).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""


def test_requires_grad_given_a_name_that_holds_a_bool_sets_that_flag():
    # ``p.requires_grad_(flag)`` with ``flag`` known False freezes cnn as the literal does:
    # its output needs no graph and nothing is missing from the optimizer (a frozen embedder
    # whose cached vectors replace it: ELMo's freeze_cached_embedder)
    from gradguard.analysis.values import Val
    from gradguard.analysis.frames import arg_truth
    assert arg_truth((Val("scalar", ref=False), None)) is False
    assert arg_truth((Val("scalar"), None)) is None
    assert analyze(FLAG_IN_A_NAME).findings == ()


POSE_BUFFER = """import torch
import torch.nn as nn


class Poses(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("poses", torch.randn(6, 3, 4))
        self.dT = nn.Parameter(torch.zeros(6, 3))

    def forward(self, idx):
        poses = self.poses[idx]
        poses[..., 3] += self.dT[idx]
        return poses.pow(2).mean()


model = Poses()
opt = torch.optim.Adam(model.parameters())
for step in range(3):
    loss = model(torch.randint(0, 6, (2,)))
    opt.zero_grad()
    loss.backward()
    opt.step()
"""


def test_advanced_indexing_of_a_tensor_without_grad_copies_it():
    # ``self.poses[idx]`` with a tensor of indices is a copy: the in-place ``+=`` of a
    # parameter's rows changes the copy, never the buffer (torch 2.13 runs it clean)
    assert analyze(POSE_BUFFER).findings == ()


RUNNING_STAT = """import torch
import torch.nn as nn


class Statistic:
    def __init__(self):
        self.total = None
        self.count = 0

    def update(self, fn):
        new, n = fn()
        self.total = new if self.total is None else self.total + new
        self.count += n

    def __call__(self):
        return self.total / self.count


class Recording(nn.Linear):
    def __init__(self, d_in, d_out):
        super().__init__(d_in, d_out)
        self.stat = Statistic()

    def forward(self, x):
        self.stat.update(lambda: (x.t() @ x, x.shape[0]))
        return super().forward(x)


def main():
    first = nn.Linear(10, 16)
    second = Recording(16, 3)
    model = nn.Sequential(first, nn.ReLU(), second)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(2):
        for _ in range(3):
            loss = model(torch.randn(8, 10)).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(second.stat().trace().item())


main()
"""


def test_a_running_statistic_started_by_a_conditional_expression_accumulates():
    # ``total = new if total is None else total + new`` adds to the old value on every
    # pass but the first: the statistic keeps every batch's graph. A subclass of
    # nn.Linear is a module (its call runs its forward), and ``__call__`` returning the
    # statistic hands the leak on: it is not a sum returned for its caller's backward
    assert _found(RUNNING_STAT) == [
        ("GG301", 25, "`self.total` (in `update`) accumulates `new` with the autograd graph "
                      "this call hands in: every iteration's graph stays in memory")]
    assert _found(RUNNING_STAT.replace("(x.t() @ x,", "(x.t().detach() @ x.detach(),")) == []


def test_a_subclass_of_a_torch_module_class_is_a_module():
    # ``class Grow(nn.Linear)`` without a forward of its own: nn.Sequential holds it as a
    # child, so the optimizer over the Sequential trains the Linear before it
    src = ("import torch\nimport torch.nn as nn\n\n\nclass Grow(nn.Linear):\n"
           "    def __init__(self):\n        super().__init__(16, 3)\n\n\n"
           "first = nn.Linear(16, 16)\nmodel = nn.Sequential(first, Grow())\n"
           "opt = torch.optim.SGD(model.parameters(), lr=0.05)\nfor _ in range(3):\n"
           "    loss = first(torch.randn(4, 16)).sum()\n    opt.zero_grad()\n"
           "    loss.backward()\n    opt.step()\n")
    assert _found(src) == []
    assert [f[0] for f in _found(src.replace("first = nn.Linear(16, 16)\n",
                                             "first = nn.Linear(16, 16)\nother = nn.Linear(16, 16)\n")
                                 .replace("first(torch", "other(torch"))] == ["GG402"]


CACHED_NORMALIZER = """import torch
import torch.nn as nn


class Kernel(nn.Module):
    def __init__(self):
        super().__init__()
        self.raw_lengthscale = nn.Parameter(torch.zeros(3))
        self._cache = None

    @property
    def lengthscale(self):
        return nn.functional.softplus(self.raw_lengthscale) + 1e-3

    @lengthscale.setter
    def lengthscale(self, value):
        self.raw_lengthscale.data = value

    def normalizer(self):
        if self._cache is not None and not self.training:
            return self._cache
        norm = self.lengthscale.sum()
        if not self.training:
            self._cache = norm
        return norm

    def forward(self, x):
        return (x / self.normalizer()).sum()


def optimize(model):
    model.eval()
    x = torch.rand(4, 3).requires_grad_(True)
    opt = torch.optim.Adam([x], lr=0.1)
    for _ in range(3):
        opt.zero_grad()
        y = model(x)
        (-y).backward()
        opt.step()


optimize(Kernel())
"""


def test_reading_a_property_runs_its_getter():
    # ``self.lengthscale`` runs the getter (defined before its setter): the normalizer
    # cached in evaluation mode holds the parameter's graph, freed by the first backward
    assert [f[:2] for f in _found(CACHED_NORMALIZER)] == [("GG102", 38)]
    # the cache kept without its graph: nothing is walked again
    assert _found(CACHED_NORMALIZER.replace("self._cache = norm",
                                            "self._cache = norm.detach()")) == []
    # ``@functools.cached_property`` keeps the first value: the first iteration's graph,
    # read again in the next
    cached = ("import functools\nimport torch\nimport torch.nn as nn\n\n\n"
              "class Model(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
              "        self.w = nn.Parameter(torch.ones(3))\n\n"
              "    @functools.cached_property\n    def scale(self):\n"
              "        return self.w.exp()\n\n\n"
              "m = Model()\nfor _ in range(2):\n    loss = (m.scale * 2).sum()\n"
              "    loss.backward()\n")
    assert [f[:2] for f in _found(cached)] == [("GG102", 19)]
    assert _found(cached.replace("@functools.cached_property", "@property")) == []


def test_an_element_of_tolist_indexes_a_view():
    # ``cy, cx = clicks[b]`` of ``clicks = t.tolist()``: Python ints (a float index would
    # raise), so ``feat[b, :, cy, cx]`` is basic indexing, a view of ``feat``, saved by
    # the product and then written through
    src = ("import torch\n"
           "conv = torch.nn.Conv2d(3, 4, 3, padding=1)\n"
           "gain = torch.randn(2, 4, requires_grad=True)\n"
           "clicks = torch.randint(0, 8, (2, 2)).tolist()\n"
           "feat = conv(torch.randn(2, 3, 8, 8))\n"
           "for b in range(2):\n"
           "    cy, cx = clicks[b]\n"
           "    feat[b, :, cy, cx] = feat[b, :, cy, cx] * gain[b]\n"
           "feat.sum().backward()\n")
    assert [f[:2] for f in _found(src)] == [("GG202", 8)]
    # rows of three indices each (tensors: advanced indexing copies): nothing saved is
    # changed
    assert _found(src.replace("(2, 2)).tolist()", "(2, 2, 3))").replace(
        "(2, 4, requires_grad", "(2, 4, 1, requires_grad")) == []


def test_a_dict_slot_written_through_a_key_variable_is_read_back_through_it():
    # round-robin multi-task training: each task's loss is stored under the task's key
    # and backpropagated at once; ``losses[task]`` is this pass's loss, not the first
    # task's whose graph the previous backward freed
    src = ("import torch\n"
           "net = torch.nn.Linear(3, 2)\n"
           "opt = torch.optim.SGD(net.parameters(), lr=0.1)\n"
           "for step in range(2):\n"
           "    losses = {}\n"
           "    for task in ('a', 'b'):\n"
           "        losses[task] = net(torch.randn(4, 3)).pow(2).mean()\n"
           "        opt.zero_grad()\n"
           "        losses[task].backward()\n"
           "        opt.step()\n")
    assert _found(src) == []
    # the key changed in between: the slot read is the first task's, from the previous
    # pass, whose graph that pass's backward freed
    assert [f[0] for f in _found(src.replace(
        "        opt.zero_grad()\n", "        opt.zero_grad()\n        task = 'a'\n"))] == ["GG102"]
    # a loss per training step, kept: every step's graph piles up (not so for the two
    # tasks above, whose loop walks two known keys)
    assert [f[0] for f in _found(src.replace("for task in ('a', 'b')", "for task in range(50)"))
            ] == ["GG301"]


def test_the_sum_of_python_numbers_is_a_number():
    # ``DIM = sum(SIZES)`` is an int: ``grads.view(-1, DIM)`` is a view of gradients
    # returned without create_graph, which have no graph, so the penalty's backward raises
    src = ("import torch\n"
           "SIZES = [2, 2]\n"
           "DIM = sum(SIZES)\n"
           "D = torch.nn.Linear(4, 1)\n"
           "x = torch.randn(8, 4, requires_grad=True)\n"
           "scores = D(x)\n"
           "grads = torch.autograd.grad(scores, x, torch.ones_like(scores))[0]\n"
           "gp = ((grads.view(-1, DIM).norm(2, dim=1) - 1) ** 2).mean()\n"
           "gp.backward()\n")
    assert [f[:2] for f in _found(src)] == [("GG401", 9)]
    assert _found(src.replace("torch.ones_like(scores))", "torch.ones_like(scores), "
                              "create_graph=True)")) == []


def test_appending_to_one_entry_of_a_dict_of_known_keys_changes_that_entry_only():
    # an episode record: observations (no graph) and actions (with the acting graph);
    # the learner reads only the observations, so its backward walks no stored graph
    src = ("import torch\n"
           "net = torch.nn.Linear(3, 2)\n"
           "opt = torch.optim.SGD(net.parameters(), lr=0.1)\n"
           "episodes = []\n"
           "for it in range(3):\n"
           "    ep = {\"obs\": [], \"act\": []}\n"
           "    obs = torch.randn(3)\n"
           "    ep[\"obs\"].append(obs)\n"
           "    ep[\"act\"].append(net(obs))\n"
           "    episodes.append({k: torch.stack(v) for k, v in ep.items()})\n"
           "    loss = 0.0\n"
           "    for e in episodes:\n"
           "        loss = loss + net(e[\"obs\"]).pow(2).mean()\n"
           "    opt.zero_grad()\n"
           "    loss.backward()\n"
           "    opt.step()\n")
    # the stored actions keep every iteration's graph (a leak), nothing raises
    assert [f[:2] for f in _found(src)] == [("GG301", 10)]
    # reading the actions walks the first iteration's freed graph again
    assert [f[0] for f in _found(src.replace('net(e["obs"])', 'e["act"]'))] == ["GG102"]


FIRST_ORDER_MAML = """from collections import OrderedDict
import torch
import torch.nn as nn
import torch.nn.functional as F


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(3, 4)

    def forward(self, x, params=None):
        p = params if params is not None else OrderedDict(self.named_parameters())
        return F.linear(x, p["l1.weight"], p["l1.bias"])


def update(loss, params, first_order):
    grads = torch.autograd.grad(loss, params.values(), create_graph=not first_order)
    return OrderedDict((n, p - 0.1 * g) for (n, p), g in zip(params.items(), grads))


model = MLP()
x = torch.randn(6, 3)
params = OrderedDict(model.named_parameters())
logits = model(x, params)
support, query = logits[:3], logits[3:]
params = update(support.pow(2).mean(), params, first_order=True)
outer = model(x, params).pow(2).mean() + query.pow(2).mean()
outer.backward()
"""


def test_an_ordered_dict_of_named_parameters_and_a_flag_negated():
    # OrderedDict(pairs) is a dict of those pairs; ``create_graph=not first_order`` with
    # first_order=True is False: the inner gradient frees the batched forward's graph,
    # and the query half of its logits is backpropagated again
    assert [f[:2] for f in _found(FIRST_ORDER_MAML)] == [("GG101", 29)]
    assert _found(FIRST_ORDER_MAML.replace("first_order=True)", "first_order=False)")) == []


def test_the_parts_of_a_shape_are_python_ints():
    # ``b, c, h, w = f.shape`` are ints: the Gram matrix of a detached feature map is
    # known to have no graph, so its loss's backward raises
    src = ("import torch\n"
           "conv = torch.nn.Conv2d(3, 4, 3)\n"
           "\n"
           "\n"
           "def gram(f):\n"
           "    b, c, h, w = f.shape\n"
           "    f = f.view(b, c, h * w)\n"
           "    return f @ f.transpose(1, 2) / (c * h * w)\n"
           "\n"
           "\n"
           "feats = conv(torch.rand(2, 3, 8, 8)).detach()\n"
           "loss = gram(feats).sum()\n"
           "loss.backward()\n")
    assert [f[:2] for f in _found(src)] == [("GG401", 13)]
    assert _found(src.replace(").detach()", ")")) == []


LORA_INJECTED = """import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint


class LoRA(nn.Module):
    def __init__(self, base):
        super().__init__()
        self.base = base
        self.A = nn.Parameter(torch.randn(2, 4))
        self.B = nn.Parameter(torch.zeros(4, 2))

    def forward(self, x):
        return self.base(x) + x @ self.A.t() @ self.B.t()


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.q, self.v = nn.Linear(4, 4), nn.Linear(4, 4)

    def forward(self, x):
        return self.q(x) + self.v(x)


class LM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(10, 4)
        self.block = Block()
        self.use_reentrant = False

    def forward(self, idx):
        return checkpoint(self.block, self.embed(idx), use_reentrant=self.use_reentrant).sum()


def inject(model, targets):
    for p in model.parameters():
        p.requires_grad_(False)
    for name in targets:
        setattr(model.block, name, LoRA(getattr(model.block, name)))
    return [model.block.q.A, model.block.q.B, model.block.v.A, model.block.v.B]


model = LM()
opt = torch.optim.AdamW(inject(model, ("q", "v")), lr=1e-3)
for _ in range(2):
    loss = model(torch.randint(0, 10, (3, 5)))
    opt.zero_grad()
    loss.backward()
    opt.step()
"""


def test_a_loop_over_attribute_names_runs_with_each_name():
    # ``setattr(block, name, LoRA(...))`` for each of "q" and "v": both projections get
    # adapters that require grad, so the frozen model's loss has a graph
    assert _found(LORA_INJECTED) == []
    # a reentrant checkpoint (``use_reentrant`` read from the attribute) of the frozen
    # embedding's output runs as under no_grad: the loss has no graph
    assert [f[:2] for f in _found(LORA_INJECTED.replace("self.use_reentrant = False",
                                                        "self.use_reentrant = True"))] == \
        [("GG401", 50)]


def test_an_ema_of_loss_tensors_in_a_dict_started_by_a_conditional_expression():
    # ``ema[t] = loss if prev is None else beta * prev + (1 - beta) * loss`` with ``prev =
    # ema[t]``: each step's loss graph joins the moving average kept across steps
    src = ("import torch\n"
           "net = torch.nn.Linear(3, 2)\n"
           "opt = torch.optim.SGD(net.parameters(), lr=0.1)\n"
           "ema = {\"a\": None, \"b\": None}\n"
           "for step in range(3):\n"
           "    out = net(torch.randn(4, 3))\n"
           "    losses = {\"a\": out[:, 0].pow(2).mean(), \"b\": out[:, 1].abs().mean()}\n"
           "    for t, loss in losses.items():\n"
           "        prev = ema[t]\n"
           "        ema[t] = loss if prev is None else 0.9 * prev + (1 - 0.9) * loss\n"
           "    opt.zero_grad()\n"
           "    sum(losses.values()).backward()\n"
           "    opt.step()\n")
    assert [f[:2] for f in _found(src)] == [("GG301", 10)]
    assert _found(src.replace("(1 - 0.9) * loss\n", "(1 - 0.9) * loss.item()\n").replace(
        "loss if prev", "loss.item() if prev")) == []
