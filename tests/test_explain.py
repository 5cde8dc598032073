"""Hover explanations (gradguard.explain): tokens, suppression comments, findings."""

from __future__ import annotations

import pytest

from gradguard import explain
from gradguard.analysis.model import Edit, Finding, Fix, Message, Pos, Related, Span, fix_sites

SOURCE = (
    "import torch\n"                                     # 1
    "loss.backward(retain_graph=True)\n"                 # 2
    "with torch.no_grad():\n"                            # 3
    "    y = x.detach()  # noqa: GG101, GG102\n"         # 4
    "s = 'x.backward()'  # x.backward() in a comment\n"  # 5
    "g = torch.autograd.grad(out, [w], create_graph=True)\n"  # 6
    "with torch.inference_mode():\n"                     # 7
    "    total += loss.item()  # gradguard: ignore[GG103]\n"  # 8
    "h.detach_()\n"                                      # 9
    "backward(x); grad(y)\n"                             # 10
)


@pytest.mark.parametrize("line, column, starts", [
    (2, 5, "`.backward()` computes the gradient of this tensor"),
    (2, 13, "`.backward()` computes the gradient of this tensor"),
    (2, 14, "`retain_graph=True` keeps the tensors the walked graph saved"),
    (3, 11, "Inside `torch.no_grad()` operations record no graph"),
    (4, 10, "`.detach()` returns a tensor that shares this one's storage"),
    (6, 20, "`torch.autograd.grad(outputs, inputs)` returns the gradients"),
    (6, 36, "`create_graph=True` records the backward pass itself as a graph"),
    (7, 15, "`torch.inference_mode()` is a stricter, faster `torch.no_grad()`"),
    (8, 20, "`.item()` returns the value of a one-element tensor"),
    (9, 3, "`.detach()` returns a tensor that shares this one's storage"),
])
def test_token_explanations(line, column, starts):
    assert explain.explain_token(SOURCE, Pos(line, column), "en").startswith(starts)


def test_backward_explanation_exact_text():
    assert explain.explain_token(SOURCE, Pos(2, 6), None) == (
        "`.backward()` computes the gradient of this tensor with respect to every leaf "
        "that requires grad (parameters, tensors created with `requires_grad=True`) and "
        "adds it to their `.grad`. It walks the autograd graph from this tensor and then "
        "frees the tensors the graph saved for the backward pass, unless "
        "`retain_graph=True`: a second backward through any part of this graph raises "
        "`RuntimeError: Trying to backward through the graph a second time`.")


@pytest.mark.parametrize("line, column", [
    (1, 3),    # import
    (2, 1),    # the tensor, not the call
    (5, 9),    # inside a string
    (5, 26),   # inside an ordinary comment
    (10, 2),   # a bare backward() call is not Tensor.backward
    (10, 15),  # a bare grad() is not autograd.grad
    (99, 0),   # past the end
])
def test_nothing_to_explain(line, column):
    assert explain.explain_token(SOURCE, Pos(line, column), "en") is None


def test_suppression_comment_shows_the_rule_under_the_cursor():
    on_second = explain.explain_token(SOURCE, Pos(4, 36), "en")
    assert on_second == explain.explain_rule("GG102", "en")
    assert on_second.startswith("**GG102** `graph-carried-across-iterations`")
    both = explain.explain_token(SOURCE, Pos(4, 22), "en")
    assert both == explain.explain_rule("GG101", "en") + "\n\n---\n\n" + \
        explain.explain_rule("GG102", "en")
    assert explain.explain_token(SOURCE, Pos(8, 48), "en") == explain.explain_rule("GG103", "en")
    # a rule name works like its code; codes of other tools are not GradGuard's to explain
    foreign = "x = 1  # noqa: E501, backward-through-freed-graph\n"
    assert explain.explain_token(foreign, Pos(1, 16), "en") == explain.explain_rule("GG101", "en")
    assert explain.explain_token(foreign, Pos(1, 30), "en") == explain.explain_rule("GG101", "en")
    assert explain.explain_token("x = 1  # noqa\n", Pos(1, 10), "en") is None


def test_explain_rule():
    text = explain.explain_rule("backward-through-freed-graph", "en")
    assert text.startswith("**GG101** `backward-through-freed-graph`\n\n")
    assert text.endswith("[Rule documentation](https://github.com/gradguard/gradguard/blob/main/docs/rules/GG101.md)")
    assert explain.explain_rule("GG999", "en") is None


def test_token_explanations_are_translated():
    en = explain.explain_token(SOURCE, Pos(2, 6), "en")
    zh = explain.explain_token(SOURCE, Pos(2, 6), "zh-CN")
    assert zh.startswith("`.backward()` 计算这个张量")
    assert zh != en
    assert explain.explain_token(SOURCE, Pos(2, 6), "zh_CN.UTF-8") == zh


FINDING = Finding(
    code="GG101",
    span=Span.of(12, 8, 12, 23),
    message=Message("`{tensor}` is backpropagated through the graph of `{graph}` (built on line "
                    "{built_line}), which the backward on line {freed_line} already freed",
                    {"tensor": "errG", "graph": "fake", "built_line": 3, "freed_line": 8}),
    related=(Related(Span.of(3, 15, 3, 49), Message("graph of `{graph}` built here",
                                                    {"graph": "fake"})),
             Related(Span.of(8, 8, 8, 23), Message("this backward freed it"))),
    fixes=(Fix(Message("Silence with retain_graph=True on line {line}, which hides the bug: the "
                       "graph of `{graph}` (built on line {built_line}, through {through}) "
                       "stays in memory until the backward on line {until_line} runs through "
                       "it a second time", {"line": 8, "graph": "fake", "built_line": 3,
                                            "through": "`netG`", "until_line": 12}),
               (Edit(Span.of(8, 22, 8, 22), "retain_graph=True"),)),
           Fix(Message("Detach `{name}` on line {line}: that loss must not backpropagate into "
                       "the graph that built it", {"name": "fake", "line": 7}),
               (Edit(Span.of(7, 70, 7, 70), ".detach()"),), preferred=True)),
)


def test_finding_explanation_exact_markdown():
    # the fix first, no repeat of the diagnostic's message (editors show it above)
    assert explain.explain_finding(FINDING, "en") == "\n\n".join([
        "**GG101** `backward-through-freed-graph`",
        "**Fix:** Detach `fake` on line 7: that loss must not backpropagate into the graph "
        "that built it",
        "**Why:**\n- line 3: graph of `fake` built here\n- line 8: this backward freed it",
        "**At run time:** Raises `RuntimeError: Trying to backward through the graph a second "
        "time (or directly access saved tensors after they have already been freed)`.",
        "**Why not retain_graph=True:** retain_graph=True on line 8 would silence the error, "
        "not fix it: the graph of `fake` (built on line 3, through `netG`) would stay in "
        "memory until the backward on line 12 runs through it a second time.",
        "[Rule documentation](https://github.com/gradguard/gradguard/blob/main/docs/rules/GG101.md)",
    ])


def test_finding_explanation_in_chinese_exact_markdown():
    assert explain.explain_finding(FINDING, "zh-cn") == "\n\n".join([
        "**GG101** `backward-through-freed-graph`",
        "**修复方法：** 在第 7 行分离 `fake`（detach）：那里的损失不应该反向传播进构建 `fake` "
        "的计算图",
        "**原因：**\n- 第 3 行：`fake` 的计算图在这里构建\n- 第 8 行：这里的反向传播释放了这张图",
        "**运行时会发生什么：** 抛出 `RuntimeError: Trying to backward through the graph a "
        "second time (or directly access saved tensors after they have already been freed)`。",
        "**为什么不用 retain_graph=True：** 在第 8 行加上 retain_graph=True 只能压掉报错，并不能"
        "修好它：`fake` 的计算图（在第 3 行构建，经过 `netG`）会一直留在内存里，直到第 12 行的"
        "反向传播第二次穿过它。",
        "[规则文档](https://github.com/gradguard/gradguard/blob/main/docs/rules/GG101.md)",
    ])


@pytest.mark.parametrize("code, at_run_time", [
    ("GG202", "**At run time:** Raises `RuntimeError: one of the variables needed for "
              "gradient computation has been modified by an inplace operation`."),
    ("GG301", "**At run time:** Nothing fails, but every iteration's graph stays alive: "
              "memory grows with each step until the process runs out of it."),
    ("GG401", "**At run time:** Raises `RuntimeError: element 0 of tensors does not require "
              "grad and does not have a grad_fn`."),
    ("GG402", "**At run time:** Nothing fails, but the parameters this optimizer steps get "
              "no gradient: that network does not train."),
    ("GG403", "**At run time:** Nothing fails, but no optimizer updates this module: its "
              "gradients are computed and dropped, and it keeps its initial weights."),
])
def test_finding_explanation_says_what_happens_at_run_time_per_rule(code, at_run_time):
    finding = Finding(code, Span.of(1, 0, 1, 4), Message("x"))
    rule = explain.rule_for(code)
    assert explain.explain_finding(finding, "en") == "\n\n".join([
        f"**{code}** `{rule.name}`", at_run_time, f"[Rule documentation]({rule.url})"])


def test_hover_prefers_the_finding_over_the_token():
    text = "x\n" * 11 + "        errG.backward()\n"
    assert explain.hover_markdown(text, Pos(12, 14), [FINDING], "en") == \
        explain.explain_finding(FINDING, "en")
    assert explain.hover_markdown(text, Pos(12, 14), [], "en").startswith("`.backward()`")
    assert explain.hover_markdown(text, Pos(1, 0), [FINDING], "en") is None


def test_hover_at_the_fix_site_on_another_line_explains_the_finding():
    # the preferred fix inserts `.detach()` at line 7, column 70: after `fake`
    lines = ["x"] * 11 + ["        errG.backward()"]
    lines[6] = " " * 61 + "netD(fake), zeros)"
    text = "\n".join(lines) + "\n"
    assert fix_sites(FINDING, lines) == (Span.of(7, 66, 7, 70),)
    for column in (66, 68, 70):
        assert explain.hover_markdown(text, Pos(7, column), [FINDING], "en") == \
            explain.explain_finding(FINDING, "en")
    assert explain.hover_markdown(text, Pos(7, 64), [FINDING], "en") is None  # on `netD`


def test_fix_sites_are_the_preferred_fix_edits_on_other_lines():
    def sites(*edits):
        fix = Fix(Message("fix"), tuple(Edit(span, new) for span, new in edits), preferred=True)
        return fix_sites(Finding("GG103", Span.of(5, 4, 5, 10), Message("m"), fixes=(fix,)),
                         ["", "    out = model(x)", "", "", "    loss.backward()"])
    assert sites((Span.of(2, 0, 3, 0), ""), (Span.of(5, 0, 5, 0), "    out = model(x)\n"),
                 (Span.of(2, 4, 2, 4), "new_"), (Span.of(2, 15, 2, 15), ".module"),
                 (Span.of(3, 0, 3, 0), "pass\n")) == (
        Span.of(2, 0, 3, 0),   # a deletion as it is; the edit on the finding's line is none
        Span.of(2, 4, 2, 7),   # an insertion before a word: that word
        Span.of(2, 10, 2, 15),  # after one: the word it ends (`model`)
        Span.of(3, 0, 3, 0))   # on an empty line: empty
    assert sites((Span(Pos(2, 4), Pos(2, 7), "/other/module.py"), "m")) == ()
    assert fix_sites(Finding("GG101", Span.of(5, 4, 5, 10), Message("m")), []) == ()


def test_gg403_explanation_in_chinese():
    finding = Finding("GG403", Span.of(1, 0, 1, 4), Message("x"))
    assert explain.explain_finding(finding, "zh-cn").split("\n\n")[1] == (
        "**运行时会发生什么：** 不会报错，但没有任何优化器更新这个模块：它的梯度算出来后就被丢弃，"
        "模块一直保持初始权重。")
