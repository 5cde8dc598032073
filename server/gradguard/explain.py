"""Hover explanations: what a piece of training code does to the autograd graph.

Pure functions from source text, a position and the findings of that text to a Markdown
string (or ``None`` when there is nothing to say). Three kinds of hover:

* on a finding: its rule, the fix, why (the related locations: where the graph was
  built, which call freed it), what happens at run time in one line, and, where
  ``retain_graph=True`` is offered as an alternative, why it is not the fix: what it would
  keep in memory and run through in this program (not the diagnostic's message: editors
  show it above);
* on an autograd token (``.backward(``, ``autograd.grad(``, ``retain_graph=``,
  ``create_graph=``, ``.detach(``, ``torch.no_grad``, ``inference_mode``, ``.item(``):
  what it does to the graph;
* on a suppression comment (``# noqa: GG101``, ``# gradguard: ignore[GG101]``): the
  rule's documentation.

Every sentence is an English msgid marked with ``N_()`` and rendered in the requested
locale by :mod:`gradguard.i18n`. No LSP types here: positions are
:class:`~gradguard.analysis.model.Pos` (1-based line, 0-based column in code points).
"""

from __future__ import annotations

import io
import re
import tokenize
from typing import Sequence

from gradguard import i18n
from gradguard.analysis.model import Finding, Message, Pos, fix_sites
from gradguard.notebooks import CellMap
from gradguard.rules import N_, Rule, rule_for
from gradguard.rules.retain_costs import RETAIN_WHY_NOT
from gradguard.suppression import suppressions

# What happens when the program runs, in one line: by rule code, else by rule family
# (the code's first digit)
_AT_RUN_TIME = {
    "GG1": N_("Raises `RuntimeError: Trying to backward through the graph a second time (or "
              "directly access saved tensors after they have already been freed)`."),
    "GG2": N_("Raises `RuntimeError: one of the variables needed for gradient computation "
              "has been modified by an inplace operation`."),
    "GG3": N_("Nothing fails, but every iteration's graph stays alive: memory grows with "
              "each step until the process runs out of it."),
    "GG401": N_("Raises `RuntimeError: element 0 of tensors does not require grad and does "
                "not have a grad_fn`."),
    "GG402": N_("Nothing fails, but the parameters this optimizer steps get no gradient: "
                "that network does not train."),
    "GG403": N_("Nothing fails, but no optimizer updates this module: its gradients are "
                "computed and dropped, and it keeps its initial weights."),
}

# Headings of the parts of a hover (with their colon: it differs between languages).
_RULE_DOCS = N_("Rule documentation")
_AT_RUN_TIME_HEADING = N_("At run time:")
_WHY = N_("Why:")
_FIX = N_("Fix:")
_WHY_NOT_RETAIN = N_("Why not retain_graph=True:")
# TRANSLATORS: one location in the "Why:" list of a hover, e.g. "line 12: graph built here"
_RELATED = N_("line {line}: {message}")

_TOKENS = {
    "backward": N_(
        "`.backward()` computes the gradient of this tensor with respect to every leaf "
        "that requires grad (parameters, tensors created with `requires_grad=True`) and "
        "adds it to their `.grad`. It walks the autograd graph from this tensor and then "
        "frees the tensors the graph saved for the backward pass, unless "
        "`retain_graph=True`: a second backward through any part of this graph raises "
        "`RuntimeError: Trying to backward through the graph a second time`."),
    "grad": N_(
        "`torch.autograd.grad(outputs, inputs)` returns the gradients of `outputs` with "
        "respect to `inputs` instead of adding them to `.grad`. Like `.backward()` it "
        "frees the graph it walked unless `retain_graph=True`; with `create_graph=True` "
        "the returned gradients carry a graph of their own, for higher-order derivatives "
        "such as a gradient penalty."),
    "retain_graph": N_(
        "`retain_graph=True` keeps the tensors the walked graph saved, so that the same "
        "graph can be backpropagated through again. Use it only when two backwards "
        "really share a graph (two losses on one trunk, backpropagated one after the "
        "other). Used to silence the error on state carried across iterations, it keeps "
        "every iteration's graph alive: each step backpropagates through all earlier "
        "steps, and time and memory grow with every iteration."),
    "create_graph": N_(
        "`create_graph=True` records the backward pass itself as a graph, so that the "
        "gradients can be differentiated again (higher-order derivatives, gradient "
        "penalties). It implies `retain_graph=True` unless `retain_graph=False` is "
        "passed, and costs the memory of the extra graph."),
    "detach": N_(
        "`.detach()` returns a tensor that shares this one's storage but has no "
        "`grad_fn`: computations on it do not reach this graph, and no gradient flows "
        "back through it. It does not change the tensor it is called on: assign the "
        "result (`h = h.detach()`), or use `.detach_()` to detach in place."),
    "no_grad": N_(
        "Inside `torch.no_grad()` operations record no graph: their results have no "
        "`grad_fn` and `requires_grad=False`. Use it for evaluation, for targets, and "
        "for updates done by hand; no backward can run through what is computed inside."),
    "inference_mode": N_(
        "`torch.inference_mode()` is a stricter, faster `torch.no_grad()`: no graph is "
        "recorded, and the tensors created inside are inference tensors, which can "
        "never take part in autograd later, not even after the block ends."),
    "item": N_(
        "`.item()` returns the value of a one-element tensor as a Python number, "
        "without a graph: accumulating it for logging (`total += loss.item()`) does not "
        "keep each iteration's graph alive, unlike `total += loss`."),
}

# A token under the cursor explains itself only in this context: (previous tokens,
# token, next token); None matches anything.
_CONTEXTS = (
    ((".",), "backward", "("),
    (("autograd", "."), "grad", "("),
    ((), "retain_graph", "="),
    ((), "create_graph", "="),
    ((".",), "detach", "("),
    ((".",), "detach_", "("),
    ((), "no_grad", None),
    ((), "inference_mode", None),
    ((".",), "item", "("),
)

def _tr(locale: str | None):
    return i18n.translator(locale).gettext


def _heading(rule: Rule | None, code: str) -> str:
    return f"**{code}** `{rule.name}`" if rule else f"**{code}**"


def explain_rule(code_or_name: str, locale: str | None) -> str | None:
    """The documentation of a rule as Markdown, in ``locale``: heading, summary, docs
    and a link to its page. ``None`` for an unknown code or name."""
    rule = rule_for(code_or_name)
    if rule is None:
        return None
    _ = _tr(locale)
    return "\n\n".join((
        _heading(rule, rule.code),
        _(rule.summary),
        _(rule.docs),
        f"[{_(_RULE_DOCS)}]({rule.url})",
    ))


def explain_finding(finding: Finding, locale: str | None, cells: CellMap | None = None) -> str:
    """A finding as Markdown, in ``locale``, the fix first: a title line (rule code and
    name), the preferred fix (or the first one), why (each related location with its
    line), what happens at run time in one line, when a ``retain_graph=True`` alternative
    is offered why it is not the fix (what it would cost, from that fix's own arguments),
    and the link to the rule's page. The diagnostic's message is not repeated: editors
    show it above the hover. In a notebook (``cells``: the finding's positions are in the
    program of its code cells) line numbers are counted in cells, as
    :meth:`~gradguard.notebooks.CellMap.message` counts them."""
    _ = _tr(locale)
    home = cells.cell_of(finding.span.start.line) if cells is not None else 0

    def local(message: Message) -> Message:
        return cells.message(message, home) if cells is not None else message

    def render(message: Message) -> str:
        return i18n.render(local(message), locale)

    rule = rule_for(finding.code)
    parts = [_heading(rule, finding.code)]
    fix = finding.preferred_fix or (finding.fixes[0] if finding.fixes else None)
    if fix is not None:
        parts.append(f"**{_(_FIX)}** {render(fix.title)}")
    if finding.related:
        why = [f"**{_(_WHY)}**"]
        for r in finding.related:  # (a line in an imported module is not a cell's)
            item = Message(_RELATED, {"line": r.span.start.line, "message": local(r.message)})
            why.append("- " + i18n.render(local(item) if r.span.path is None else item, locale))
        parts.append("\n".join(why))
    at_run_time = _AT_RUN_TIME.get(finding.code) or _AT_RUN_TIME.get(finding.code[:3])
    if at_run_time is not None:
        parts.append(f"**{_(_AT_RUN_TIME_HEADING)}** {_(at_run_time)}")
    retain = next((f for f in finding.fixes if f.title.msgid in RETAIN_WHY_NOT), None)
    if retain is not None:
        why = Message(RETAIN_WHY_NOT[retain.title.msgid], retain.title.args)
        parts.append(f"**{_(_WHY_NOT_RETAIN)}** {render(why)}")
    if rule is not None:
        parts.append(f"[{_(_RULE_DOCS)}]({rule.url})")
    return "\n\n".join(parts)


def _line_tokens(line: str) -> list[tokenize.TokenInfo]:
    """The tokens of one line (tokens up to a tokenizer error, e.g. an open bracket)."""
    out = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(line).readline):
            out.append(tok)
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass
    return out


def _token_explanation(tokens: list[tokenize.TokenInfo], index: int) -> str | None:
    tok = tokens[index]
    significant = [t for t in tokens if t.type not in (tokenize.NL, tokenize.NEWLINE,
                                                       tokenize.COMMENT, tokenize.INDENT,
                                                       tokenize.DEDENT)]
    at = significant.index(tok)
    for before, name, after in _CONTEXTS:
        if tok.string != name:
            continue
        prev = tuple(t.string for t in significant[max(at - len(before), 0):at])
        nxt = significant[at + 1].string if at + 1 < len(significant) else None
        if prev == before and (after is None or nxt == after):
            return _TOKENS[name.rstrip("_")]
    return None


def explain_suppression(line: str, column: int, locale: str | None) -> str | None:
    """The documentation of the rule that the suppression comment on ``line`` names at
    ``column`` (0-based), or of every GradGuard rule it names when the cursor is on
    another word; ``None`` when the line has no suppression comment naming a rule. The
    comment grammar is :mod:`gradguard.suppression`'s."""
    named = suppressions(line).get(1)
    if not named:
        return None
    under = next((rule_for(m.group()) for m in re.finditer(r"[\w-]+", line)
                  if m.start() <= column <= m.end()), None)
    codes = [under.code] if under is not None and under.code in named else sorted(named)
    docs = [d for code in codes if (d := explain_rule(code, locale)) is not None]
    return "\n\n---\n\n".join(docs) or None


def explain_token(text: str, pos: Pos, locale: str | None) -> str | None:
    """What the autograd token or suppression comment at ``pos`` does, as Markdown in
    ``locale``; ``None`` when ``pos`` is on anything else (including a string)."""
    lines = re.split(r"\r\n|\r|\n", text)
    if not 1 <= pos.line <= len(lines):
        return None
    tokens = _line_tokens(lines[pos.line - 1] + "\n")
    for index, tok in enumerate(tokens):
        if not tok.start[1] <= pos.column <= tok.end[1] or tok.start[0] != 1:
            continue
        if tok.type == tokenize.COMMENT:
            return explain_suppression(lines[pos.line - 1], pos.column, locale)
        if tok.type == tokenize.NAME and (found := _token_explanation(tokens, index)):
            return _tr(locale)(found)
    return None


def _contains(finding: Finding, pos: Pos, lines: Sequence[str]) -> bool:
    return any(span.start <= pos <= span.end
               for span in (finding.span,) + fix_sites(finding, lines))


def hover_markdown(text: str, pos: Pos, findings: Sequence[Finding], locale: str | None,
                   cells: CellMap | None = None) -> str | None:
    """The hover at ``pos`` in ``text``: the findings whose span, or the site of whose
    preferred fix on another line (:func:`~gradguard.analysis.model.fix_sites`),
    contains ``pos`` (separated by rules), else the explanation of the token there, else
    ``None``. ``cells``: ``text`` is a notebook's program (see :func:`explain_finding`)."""
    lines = re.split(r"\r\n|\r|\n", text)
    hits = [f for f in findings if _contains(f, pos, lines)]
    if hits:
        return "\n\n---\n\n".join(explain_finding(f, locale, cells) for f in hits)
    return explain_token(text, pos, locale)

