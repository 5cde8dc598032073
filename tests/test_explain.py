"""Hover explanations (gradguard.explain): tokens, suppression comments, findings."""

from __future__ import annotations

import pytest

from gradguard import explain
from gradguard.analysis.model import Edit, Finding, Fix, Message, Pos, Related, Span

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
    assert text.endswith("[Rule documentation](https://gradguard.dev/rules/GG101)")
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
    message=Message("`{tensor}` is backwarded through the graph of `{graph}` (built on line "
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
    assert explain.explain_finding(FINDING, "en") == "\n\n".join([
        "**GG101** `backward-through-freed-graph`",
        "`errG` is backwarded through the graph of `fake` (built on line 3), which the "
        "backward on line 8 already freed",
        "**At run time:** A backward through this graph raises `RuntimeError: Trying to "
        "backward through the graph a second time (or directly access saved tensors after "
        "they have already been freed)`: an earlier backward already freed the tensors that "
        "the graph's nodes saved for the backward pass.",
        "**Why:**\n- line 3: graph of `fake` built here\n- line 8: this backward freed it",
        "**Fix:** Detach `fake` on line 7: that loss must not backpropagate into the graph "
        "that built it",
        "**Why not retain_graph=True:** retain_graph=True on line 8 would silence the error, "
        "not fix it: the graph of `fake` (built on line 3, through `netG`) would stay in "
        "memory until the backward on line 12 runs through it a second time.",
        "[Rule documentation](https://gradguard.dev/rules/GG101)",
    ])


def test_finding_explanation_in_chinese():
    text = explain.explain_finding(FINDING, "zh-cn")
    assert text.startswith("**GG101** `backward-through-freed-graph`\n\n对 `errG` 做反向传播时")
    assert "Trying to backward through the graph a second time" in text  # as torch prints it
    assert "- 第 3 行：`fake` 的计算图在这里构建" in text
    assert ("**为什么不用 retain_graph=True：** 在第 8 行加上 retain_graph=True 只能压掉报错，并不能"
            "修好它：`fake` 的计算图（在第 3 行构建，经过 `netG`）会一直留在内存里，直到第 12 行的"
            "反向传播第二次穿过它。") in text.split("\n\n")
    assert "At run time" not in text and "Why" not in text and "Fix:" not in text


def test_hover_prefers_the_finding_over_the_token():
    text = "x\n" * 11 + "        errG.backward()\n"
    assert explain.hover_markdown(text, Pos(12, 14), [FINDING], "en") == \
        explain.explain_finding(FINDING, "en")
    assert explain.hover_markdown(text, Pos(12, 14), [], "en").startswith("`.backward()`")
    assert explain.hover_markdown(text, Pos(1, 0), [FINDING], "en") is None
