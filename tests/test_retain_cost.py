"""What retain_graph=True costs in the program at hand: the titles of retain_graph fixes,
GG302's message and the hover's "Why not retain_graph=True" text name the graph that
stays in memory (where it was built, the calls it runs through) and what the later
backwards then run through, in English and Chinese."""

from __future__ import annotations

from gradguard import explain, i18n
from gradguard.analysis import analyze
from gradguard.fixes import apply_edits
from gradguard.rules.gg101_backward_through_freed_graph import RULE as GG101

# netG's `fake` backpropagated through netD twice, without an optimizer step
GAN = GG101.invalid[1]

TRUNK = """import torch
trunk = torch.nn.Linear(2, 4)
z = torch.tanh(trunk(torch.randn(8, 2)))
policy_loss = z.mean()
value_loss = (z * z).sum()
policy_loss.backward()
value_loss.backward()
"""

LM = """import torch
import torch.nn as nn
import torch.nn.functional as F


class LM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(10, 8)
        self.lstm = nn.LSTM(8, 16)
        self.head = nn.Linear(16, 10)

    def forward(self, x, hidden):
        out, hidden = self.lstm(self.embed(x), hidden)
        return self.head(out), hidden


model = LM()
hidden = None
for step in range(3):
    x, y = torch.randint(0, 10, (5, 2)), torch.randint(0, 10, (5, 2))
    logits, hidden = model(x, hidden)
    loss = F.cross_entropy(logits.view(-1, 10), y.view(-1))
    loss.backward()
"""

# the same model trained: each step changes the parameters the kept graph saved
LM_TRAINED = LM.replace("model = LM()\n", "model = LM()\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
                        ).replace("    loss.backward()\n", "    opt.zero_grad()\n    loss.backward()\n"
                                  "    opt.step()\n")

REUSED = """import torch
net = torch.nn.Linear(2, 1)
states = torch.randn(5, 2)
values = net(states)
for t in range(3):
    values[t].sum().backward()
"""

OPERATORS = """import torch
w = torch.randn(4, 4, requires_grad=True)
h = torch.zeros(4)
for t in range(3):
    h = w @ h + 1
    loss = (h * h).sum()
    loss.backward()
"""


def _only(src: str, code: str):
    findings = [f for f in analyze(src).findings if f.code == code]
    assert len(findings) == 1, analyze(src).findings
    return findings[0]


def _retain(finding):
    (fix,) = [f for f in finding.fixes if "retain_graph" in f.title.msgid]
    return fix


def _why_not(finding, locale: str) -> str:
    """The "Why not retain_graph=True" paragraph of the finding's hover."""
    parts = [p for p in explain.explain_finding(finding, locale).split("\n\n")
             if p.startswith(("**Why not", "**为什么不用"))]
    assert len(parts) == 1, parts
    return parts[0]


def _says(finding, title: dict, why: dict) -> None:
    """The finding's retain_graph=True fix is an alternative, titled ``title`` (per
    locale), and its hover's "Why not retain_graph=True" paragraph is ``why``."""
    fix = _retain(finding)
    assert not fix.preferred and fix.applicability == "unsafe"
    for locale, text in title.items():
        assert i18n.render(fix.title, locale) == text
    for locale, text in why.items():
        assert _why_not(finding, locale) == text


def test_gg101_same_pass_double_backward():
    f = _only(GAN, "GG101")
    _says(f, {
        "en": "Silence with retain_graph=True on line 5, which hides the bug: the graph of "
              "`fake` (built on line 3, through `netG`) stays in memory until the backward on "
              "line 7 runs through it a second time",
        "zh_CN": "在第 5 行加上 retain_graph=True 压掉报错，这只是掩盖了 bug：`fake` 的计算图（在第 "
                 "3 行构建，经过 `netG`）会一直留在内存里，直到第 7 行的反向传播第二次穿过它",
    }, {
        "en": "**Why not retain_graph=True:** retain_graph=True on line 5 would silence the "
              "error, not fix it: the graph of `fake` (built on line 3, through `netG`) would "
              "stay in memory until the backward on line 7 runs through it a second time.",
        "zh_CN": "**为什么不用 retain_graph=True：** 在第 5 行加上 retain_graph=True 只能压掉报错，"
                 "并不能修好它：`fake` 的计算图（在第 3 行构建，经过 `netG`）会一直留在内存里，"
                 "直到第 7 行的反向传播第二次穿过它。",
    })
    fixed = apply_edits(GAN, _retain(f).edits)
    assert fixed.splitlines()[4] == "g_loss.backward(retain_graph=True)"


def test_gg101_two_losses_on_one_trunk_keep_the_graph_as_the_preferred_fix():
    f = _only(TRUNK, "GG101")
    fix = f.preferred_fix
    assert fix.title.render() == (
        "Keep the graph for the later backward: retain_graph=True on line 6; the graph of `z` "
        "(built on line 3, through `trunk`, `torch.tanh`) stays in memory until the backward "
        "on line 7")
    assert i18n.render(fix.title, "zh_CN") == (
        "为后面的反向传播保留计算图：在第 6 行加上 retain_graph=True；`z` 的计算图（在第 3 行构建，"
        "经过 `trunk`, `torch.tanh`）会一直留在内存里，直到第 7 行的反向传播")
    # it is the fix, not an alternative: the hover says nothing against it
    assert "Why not" not in explain.explain_finding(f, "en")
    assert "为什么不用" not in explain.explain_finding(f, "zh_CN")
    fixed = apply_edits(TRUNK, fix.edits)
    assert fixed.splitlines()[5] == "policy_loss.backward(retain_graph=True)"
    assert analyze(fixed).findings == ()


def test_gg102_carried_rnn_hidden_state():
    _says(_only(LM, "GG102"), {
        "en": "Silence with retain_graph=True on line 24, which hides the bug: the graph of "
              "`hidden` (built on line 22, through `self.embed`, `self.lstm`) and every "
              "iteration's graph chained to it stay in memory, and each backward also runs "
              "through all earlier iterations' graphs, so time and memory grow with every step",
        "zh_CN": "在第 24 行加上 retain_graph=True 压掉报错，这只是掩盖了 bug：`hidden` 的计算图（在"
                 "第 22 行构建，经过 `self.embed`, `self.lstm`）以及与它串在一起的每次迭代的计算图"
                 "都会留在内存里，每次反向传播还要穿过之前所有迭代的计算图，耗时和内存随步数不断"
                 "增长",
    }, {
        "en": "**Why not retain_graph=True:** retain_graph=True on line 24 would silence the "
              "error, not fix it: the graph of `hidden` (built on line 22, through "
              "`self.embed`, `self.lstm`) and every iteration's graph chained to it would stay "
              "in memory, and each backward would also run through all earlier iterations' "
              "graphs, so time and memory grow with every step.",
        "zh_CN": "**为什么不用 retain_graph=True：** 在第 24 行加上 retain_graph=True 只能压掉报错，"
                 "并不能修好它：`hidden` 的计算图（在第 22 行构建，经过 `self.embed`, "
                 "`self.lstm`）以及与它串在一起的每次迭代的计算图都会留在内存里，每次反向传播还要"
                 "穿过之前所有迭代的计算图，耗时和内存随步数不断增长。",
    })


def test_gg102_with_an_optimizer_step_retain_graph_trades_the_error_for_another():
    f = _only(LM_TRAINED, "GG102")
    _says(f, {
        "en": "Silence with retain_graph=True on line 26, which only trades this error for "
              "another: the graph of `hidden` (built on line 23, through `self.embed`, "
              "`self.lstm`) stays in memory, but `opt.step()` on line 27 changes the parameters "
              "it saved, so the backward on line 26 then fails with \"modified by an inplace "
              "operation\"",
        "zh_CN": "在第 26 行加上 retain_graph=True 压掉报错，只是把这个错误换成另一个：`hidden` 的"
                 "计算图（在第 23 行构建，经过 `self.embed`, `self.lstm`）会留在内存里，但第 27 行"
                 "的 `opt.step()` 会原地修改它保存的参数，于是第 26 行的反向传播随后会报 "
                 "\"modified by an inplace operation\"",
    }, {
        "en": "**Why not retain_graph=True:** retain_graph=True on line 26 would only trade "
              "this error for another: the graph of `hidden` (built on line 23, through "
              "`self.embed`, `self.lstm`) would stay in memory, but `opt.step()` on line 27 "
              "changes the parameters it saved, so the backward on line 26 would fail with "
              "\"one of the variables needed for gradient computation has been modified by an "
              "inplace operation\".",
        "zh_CN": "**为什么不用 retain_graph=True：** 在第 26 行加上 retain_graph=True 只会把这个错误"
                 "换成另一个：`hidden` 的计算图（在第 23 行构建，经过 `self.embed`, `self.lstm`）"
                 "会留在内存里，但第 27 行的 `opt.step()` 会原地修改它保存的参数，于是第 26 行的"
                 "反向传播会报 \"one of the variables needed for gradient computation has been "
                 "modified by an inplace operation\"。",
    })
    # what the title says happens: with it, the engine reports that error (GG201)
    retained = analyze(apply_edits(LM_TRAINED, _retain(f).edits)).findings
    assert [(g.code, g.span.start.line) for g in retained] == [("GG201", 26), ("GG302", 26)]


def test_gg102_graph_of_operators_names_no_call():
    _says(_only(OPERATORS, "GG102"), {
        "en": "Silence with retain_graph=True on line 7, which hides the bug: the graph of `h` "
              "(built on line 5) and every iteration's graph chained to it stay in memory, and "
              "each backward also runs through all earlier iterations' graphs, so time and "
              "memory grow with every step",
        "zh_CN": "在第 7 行加上 retain_graph=True 压掉报错，这只是掩盖了 bug：`h` 的计算图（在第 5 "
                 "行构建）以及与它串在一起的每次迭代的计算图都会留在内存里，每次反向传播还要穿过"
                 "之前所有迭代的计算图，耗时和内存随步数不断增长",
    }, {})


def test_gg103_graph_built_before_the_loop():
    _says(_only(REUSED, "GG103"), {
        "en": "Silence with retain_graph=True on line 6, which hides the bug: the graph of "
              "`values` (built once before the loop on line 4, through `net`) stays in memory "
              "for the whole loop, and every iteration's backward runs through that same graph "
              "again, computed before the loop",
        "zh_CN": "在第 6 行加上 retain_graph=True 压掉报错，这只是掩盖了 bug：`values` 的计算图（在"
                 "循环之前的第 4 行只构建了一次，经过 `net`）会在整个循环期间留在内存里，每次迭代"
                 "的反向传播都要再次穿过这张在循环之前算出的计算图",
    }, {
        "en": "**Why not retain_graph=True:** retain_graph=True on line 6 would silence the "
              "error, not fix it: the graph of `values` (built once before the loop on line 4, "
              "through `net`) would stay in memory for the whole loop, and every iteration's "
              "backward would run through that same graph again, computed before the loop.",
        "zh_CN": "**为什么不用 retain_graph=True：** 在第 6 行加上 retain_graph=True 只能压掉报错，"
                 "并不能修好它：`values` 的计算图（在循环之前的第 4 行只构建了一次，经过 `net`）"
                 "会在整个循环期间留在内存里，每次迭代的反向传播都要再次穿过这张在循环之前算出的"
                 "计算图。",
    })


def test_gg302_retain_graph_hiding_a_carried_graph():
    src = LM.replace("    loss.backward()\n", "    loss.backward(retain_graph=True)\n")
    f = _only(src, "GG302")
    assert f.message.render() == (
        "retain_graph=True hides that `loss` reaches the previous iteration's graph through "
        "`hidden`: the graph of `hidden` (built on line 22, through `self.embed`, `self.lstm`) "
        "and every iteration's graph chained to it stay in memory, and each backward runs "
        "through all of them, so time and memory grow with every step")
    assert i18n.render(f.message, "zh_CN") == (
        "retain_graph=True 掩盖了一个问题：`loss` 通过 `hidden` 连到了上一次迭代的计算图；`hidden` "
        "的计算图（在第 22 行构建，经过 `self.embed`, `self.lstm`）以及与它串在一起的每次迭代的"
        "计算图都会留在内存里，每次反向传播都要穿过它们全部，耗时和内存随步数不断增长")
    # its fix drops the keyword: no retain_graph alternative, no "Why not" paragraph
    assert "Why not" not in explain.explain_finding(f, "en")


def test_gg302_graph_of_operators_names_no_call():
    src = OPERATORS.replace("loss.backward()", "loss.backward(retain_graph=True)")
    assert _only(src, "GG302").message.render() == (
        "retain_graph=True hides that `loss` reaches the previous iteration's graph through "
        "`h`: the graph of `h` (built on line 5) and every iteration's graph chained to it "
        "stay in memory, and each backward runs through all of them, so time and memory grow "
        "with every step")
