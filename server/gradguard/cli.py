"""The ``gradguard`` command: ``check``, ``rule`` and ``lsp``.

A thin adapter: it parses arguments and calls :mod:`gradguard.config`,
:mod:`gradguard.files`, :mod:`gradguard.cache`, :mod:`gradguard.checker`,
:mod:`gradguard.output` and :mod:`gradguard.fixes`. Exit status of ``check``: 0 clean,
1 findings (or files that could not be checked), 2 usage, configuration or internal
error (a bug in GradGuard, including one that cost only one function's findings), or
nothing checked.
"""

from __future__ import annotations

import argparse
import gettext
import importlib
import importlib.util
import os
import sys
from typing import Iterator, Sequence

from gradguard import __version__, output
from gradguard.analysis.model import Message
from gradguard.cache import ResultCache
from gradguard.checker import FileReport, Task, iter_reports
from gradguard.config import ConfigError, SettingsResolver, resolve_selector
from gradguard.files import Problem, Source, discover, write_atomic
from gradguard.i18n import default_locale, translator
from gradguard.rules import N_, all_rules, rule_for


def _locale_arg(argv: Sequence[str]) -> str | None:
    """The value of ``--locale`` in ``argv``, read before the full parse (help texts
    are translated into it)."""
    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument("--locale")
    known, _ = pre.parse_known_args(argv)
    return known.locale


def build_parser(tr: gettext.NullTranslations) -> argparse.ArgumentParser:
    """The argument parser, its help texts translated with ``tr``."""
    _ = tr.gettext

    def selectors(value: str) -> list[str]:
        codes = []
        for token in filter(None, (t.strip() for t in value.split(","))):
            code = resolve_selector(token)
            if code is None:
                raise argparse.ArgumentTypeError(
                    _("unknown rule, code or prefix '{value}'").format(value=token))
            codes.append(code)
        return codes

    def positive(value: str) -> int:
        if not value.isdigit() or int(value) < 1:
            raise argparse.ArgumentTypeError(
                _("expected a positive integer, not '{value}'").format(value=value))
        return int(value)

    parser = argparse.ArgumentParser(
        prog="gradguard",
        description=_("Finds PyTorch autograd hazards in Python source, without running it."))
    parser.add_argument("--version", action="version", version=f"gradguard {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    check = commands.add_parser("check", help=_("check Python files and folders"))
    check.add_argument("paths", nargs="*", default=["."], metavar="PATH",
                       help=_("files or folders to check (default: the current folder)"))
    check.add_argument("--format", choices=output.FORMATS, default="text",
                       help=_("output format (default: text)"))
    check.add_argument("--select", type=selectors, action="extend", metavar="CODES",
                       help=_("comma-separated codes, prefixes or names of the rules to "
                              "report; replaces the configured selection"))
    check.add_argument("--ignore", type=selectors, action="extend", default=[],
                       metavar="CODES",
                       help=_("comma-separated codes, prefixes or names of rules not to report"))
    check.add_argument("--fix", action="store_true",
                       help=_("apply the preferred fix of each finding to the files"))
    check.add_argument("--diff", action="store_true",
                       help=_("print the changes --fix would make as a unified diff, "
                              "without writing them"))
    check.add_argument("--statistics", action="store_true",
                       help=_("print the number of findings per rule instead of the findings"))
    check.add_argument("-q", "--quiet", action="store_true",
                       help=_("print only findings and errors, no summary"))
    check.add_argument("-j", "--jobs", type=positive, metavar="N",
                       help=_("number of worker processes (default: the CPU count)"))
    check.add_argument("--no-cache", action="store_true",
                       help=_("analyse every file, without reading or writing the cache of "
                              "results (default folder: the user cache folder, or "
                              "$GRADGUARD_CACHE_DIR)"))
    check.add_argument("--locale", help=_("language of the messages (default: "
                                          "[tool.gradguard] locale, else LANG)"))
    check.set_defaults(run=_run_check)

    rule = commands.add_parser("rule", help=_("show the documentation of a rule"))
    rule.add_argument("rule", nargs="?", metavar="CODE|NAME", help=_("a rule's code or name"))
    rule.add_argument("--all", action="store_true", help=_("list every rule"))
    rule.add_argument("--locale", help=_("language of the text (default: LANG)"))
    rule.set_defaults(run=_run_rule)

    lsp = commands.add_parser("lsp", help=_("run the language server"))
    transport = lsp.add_mutually_exclusive_group()
    transport.add_argument("--tcp", action="store_true",
                           help=_("serve over TCP instead of standard input/output"))
    transport.add_argument("--ws", action="store_true",
                           help=_("serve over WebSockets instead of standard input/output"))
    lsp.add_argument("--host", default="127.0.0.1",
                     help=_("address to bind with --tcp/--ws (default: 127.0.0.1)"))
    lsp.add_argument("--port", type=positive, default=2087,
                     help=_("port to bind with --tcp/--ws (default: 2087)"))
    lsp.set_defaults(run=_run_lsp)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default ``sys.argv[1:]``); returns the exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    tr = translator(_locale_arg(argv) or default_locale())
    parser = build_parser(tr)
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        return args.run(args, tr)
    except BrokenPipeError:
        # the reader (``| head``) went away: stop quietly, as other command-line tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def _error(tr: gettext.NullTranslations, message: str) -> None:
    print(tr.gettext(N_("error: {message}")).format(message=message), file=sys.stderr)


def _run_check(args: argparse.Namespace, tr: gettext.NullTranslations) -> int:
    if args.fix and args.diff:
        _error(tr, tr.gettext(N_("--fix and --diff cannot be used together")))
        return 2
    resolver = SettingsResolver(select=args.select, ignore=tuple(args.ignore),
                                locale=args.locale)
    try:
        tr = translator(resolver.for_path(args.paths[0]).locale or default_locale())
        found = list(discover(args.paths, resolver.for_path))
        cache = None if args.no_cache else ResultCache.open()
        tasks = [Task(p, resolver.for_path(p), fix=args.fix or args.diff, cache=cache)
                 for p in found if isinstance(p, str)]
    except ConfigError as e:
        for message in e.messages:
            _error(tr, message.render(tr.gettext))
        return 2
    if not found:
        _error(tr, tr.gettext(N_("no Python files found")))
        return 2
    reports = list(_progress(iter_reports(tasks, args.jobs), len(tasks), quiet=args.quiet))
    problems = [p for p in found if isinstance(p, Problem)]
    problems += [r.problem for r in reports if r.problem is not None]
    diagnostics = [d for r in reports for d in r.diagnostics]
    errors = [e for r in reports for e in r.errors]  # (internal: part of a file unchecked)
    changed = [r for r in reports if r.fixed_text is not None]

    if args.diff:
        sys.stdout.write("".join(output.unified_diff(r.path, r.source.text, r.fixed_text)
                                 for r in changed))
        sys.stderr.write(output.problem_lines(problems + errors, tr))
        return _exit_status(reports, problems + errors, findings=bool(changed))
    if args.fix:
        fixed = []
        for r in changed:
            try:
                write_atomic(r.path, Source(r.fixed_text, r.source.encoding))
            except (OSError, UnicodeError) as e:
                problems.append(Problem(r.path, None, Message(
                    N_("error: cannot write the fixed file: {reason}"),
                    {"reason": getattr(e, "strerror", None) or str(e)})))
                continue
            fixed.append((r.path, r.fixed))
        if not args.quiet:
            info = sys.stdout if args.format == "text" else sys.stderr
            info.write(output.fixed_lines(fixed, tr))

    if args.statistics:
        sys.stdout.write(output.statistics_report(diagnostics, as_json=args.format == "json"))
        sys.stderr.write(output.problem_lines(problems + errors, tr))
    elif args.format == "text":
        color = sys.stdout.isatty() and not os.environ.get("NO_COLOR")
        sys.stdout.write(output.text_report(diagnostics, problems + errors, tr, color=color))
        if not args.quiet:
            sys.stdout.write(output.summary(diagnostics, problems, tr, errors))
    elif args.format == "github":
        sys.stdout.write(output.github_report(diagnostics, problems + errors, tr))
    else:
        report = (output.json_report(diagnostics, tr, errors + [p for p in problems if p.syntax])
                  if args.format == "json"
                  else output.sarif_report(diagnostics, problems + errors, tr))
        sys.stdout.write(report)
        sys.stderr.write(output.problem_lines(problems + errors, tr))
    return _exit_status(reports, problems + errors, findings=bool(diagnostics))


PROGRESS_MIN_FILES = 50
"""A progress bar is shown (on a terminal) for at least this many files."""


def _progress(reports: Iterator[FileReport], total: int, quiet: bool) -> Iterator[FileReport]:
    """``reports``, drawing a progress bar (counts and times, no words) on standard
    error while they come, when it is a terminal, ``total`` >= PROGRESS_MIN_FILES and
    not ``quiet``. The bar is erased when done; standard output is never touched."""
    if quiet or total < PROGRESS_MIN_FILES or not sys.stderr.isatty():
        return reports
    from tqdm import tqdm

    return tqdm(reports, total=total, file=sys.stderr, leave=False, dynamic_ncols=True,
                bar_format="{percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} "
                           "[{elapsed}<{remaining}]")


def _exit_status(reports: list[FileReport], problems: list[Problem], findings: bool) -> int:
    """2 for an internal error (``problems`` holds the engine's internal errors too) or
    when no file could be checked, 1 for findings or files that could not be checked,
    else 0."""
    if any(p.internal for p in problems) or not any(r.problem is None for r in reports):
        return 2
    return 1 if findings or problems else 0


def _run_rule(args: argparse.Namespace, tr: gettext.NullTranslations) -> int:
    _ = tr.gettext
    if args.all:
        for r in all_rules():
            print(f"{r.code}  {r.name}  ({_(r.severity)})  {_(r.summary)}")
        return 0
    if args.rule is None:
        _error(tr, _(N_("name a rule (GG101 or backward-through-freed-graph) or use --all")))
        return 2
    r = rule_for(args.rule)
    if r is None:
        _error(tr, _(N_("unknown rule '{rule}'")).format(rule=args.rule))
        return 2
    print(f"{r.code} {r.name} ({_(r.severity)})\n\n{_(r.summary)}\n\n{_(r.docs)}\n\n{r.url}")
    return 0


def _run_lsp(args: argparse.Namespace, tr: gettext.NullTranslations) -> int:
    if (importlib.util.find_spec("gradguard.lsp") is None
            or importlib.util.find_spec("gradguard.lsp.server") is None):
        _error(tr, tr.gettext(N_("the language server is not installed "
                                 "(module gradguard.lsp.server is missing)")))
        return 2
    server = importlib.import_module("gradguard.lsp.server")
    return server.main(args) or 0
