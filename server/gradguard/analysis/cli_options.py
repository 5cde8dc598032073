"""A script's command-line options as it runs without arguments: ``argparse``.

``parser = argparse.ArgumentParser(); parser.add_argument("--act", default="swish");
args = parser.parse_args()`` gives ``args.act == "swish"`` when the script is run as
written (``python train.py``), so a branch on it (``if name == "swish"``) is the one that
runs. What argparse does (Lib/argparse.py): an option's ``dest`` is its first long
option string without the leading dashes, ``-`` replaced by ``_`` (else its first short
one; a positional's is its name); its value without that option on the command line is
``default`` (None when not given; False for ``store_true``, True for ``store_false``); a
string default goes through ``type``; ``set_defaults`` sets values; argument groups add
to their parser. A parser whose options the engine cannot read (a ``dest`` or option
string not written as a literal, ``**kwargs``, sub-commands), or ``parse_args`` given
a list, gives a namespace of unknown attributes (unknown is quiet).

The parser's options live in the state as attributes no Python code can name
(``("@", parser, "--act")``), so they join across branches and reach every root that
starts from the module body.
"""

from __future__ import annotations

import libcst as cst

from gradguard.analysis.frames import string_value
from gradguard.analysis.values import NONE, UNKNOWN, Binding, Val

_PARSERS = ("argparse.ArgumentParser",)
_OPEN = "--?"  # the key of a parser the engine cannot read completely


def _dest(pos, kw) -> str | None:
    """The ``dest`` of ``add_argument(*flags, **kw)`` (argparse's ``_get_optional_kwargs``
    / ``_get_positional_kwargs``), None when not written as literals."""
    if "dest" in kw:
        node = kw["dest"][1]
        return string_value(node) if isinstance(node, cst.SimpleString) else None
    flags = [string_value(n) if isinstance(n, cst.SimpleString) else None for _, n in pos]
    if not flags or None in flags or not all(isinstance(f, str) and f for f in flags):
        return None
    longs = [f for f in flags if f.startswith("--")]
    shorts = [f for f in flags if f.startswith("-")]
    if not shorts:
        return flags[0]  # a positional: its name
    return (longs or shorts)[0].lstrip("-").replace("-", "_")


class CliOptions:
    """Mixin of :class:`~gradguard.analysis.interp.Interpreter`: argparse."""

    def cli_call(self, call, path: str) -> Val | None:
        """``argparse.ArgumentParser(...)``: a parser with no options yet."""
        if path not in _PARSERS:
            return None
        return Val("object", ref=("argparse", id(call)))

    def cli_method(self, call, recv: Val, attr: str, pos, kw) -> Val | None:
        """A method of a parser or of one of its argument groups; None when ``recv``
        is none."""
        if recv.kind != "object" or not isinstance(recv.ref, tuple) or \
                recv.ref[0] != "argparse":
            return None
        env, ref = self.state.env, recv.ref
        if attr in ("add_argument_group", "add_mutually_exclusive_group"):
            return recv  # (its options are its parser's)
        if attr == "add_argument":
            dest = _dest(pos, kw)
            if dest is None or any(a.star for a in call.args):
                env[("@", ref, _OPEN)] = Binding(UNKNOWN, self.frame.stmt)
                return UNKNOWN
            env[("@", ref, "--" + dest)] = Binding(self._option_default(kw), self.frame.stmt)
            return UNKNOWN
        if attr == "set_defaults":
            if pos or any(a.star for a in call.args):
                env[("@", ref, _OPEN)] = Binding(UNKNOWN, self.frame.stmt)
            for name, (v, _) in kw.items():
                env[("@", ref, "--" + name)] = Binding(v, self.frame.stmt)
            return NONE
        if attr in ("parse_args", "parse_known_args", "parse_intermixed_args"):
            ns = Val("object", ref=("argparse-namespace", id(call)))
            if not pos and not kw and ("@", ref, _OPEN) not in env:
                prefix = [k for k in env if k[0] == "@" and k[1] == ref and
                          isinstance(k[2], str) and k[2].startswith("--")]
                for k in prefix:
                    env[("@", ns.ref, k[2][2:])] = Binding(env[k].val, self.frame.stmt)
            else:
                ns = UNKNOWN
            return Val("tuple", elts=(ns, UNKNOWN)) if attr == "parse_known_args" else ns
        # add_subparsers(), error(), print_help(), ...: what the parser reads is not known
        env[("@", ref, _OPEN)] = Binding(UNKNOWN, self.frame.stmt)
        return UNKNOWN

    def _option_default(self, kw) -> Val:
        """An option's value when the command line does not give it."""
        action = kw.get("action")
        act = string_value(action[1]) if action is not None and \
            isinstance(action[1], cst.SimpleString) else None
        if action is not None and act not in ("store", "store_true", "store_false"):
            return UNKNOWN  # count, append, a custom Action class
        if "default" in kw:
            val, node = kw["default"]
            if isinstance(node, cst.SimpleString) and "type" in kw and \
                    not (isinstance(kw["type"][1], cst.Name) and kw["type"][1].value == "str"):
                return UNKNOWN  # a string default goes through type(): not read here
            return val
        if act in ("store_true", "store_false"):
            return Val("scalar", ref=act == "store_false")
        return NONE

