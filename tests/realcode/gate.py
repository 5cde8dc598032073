"""The real-code gate: GradGuard over pinned releases of PyTorch libraries.

Downloads the distributions named in ``lock.json`` from PyPI with pip (``pip download
--no-deps``, once: they are kept in ``$GRADGUARD_REALCODE_CACHE``, default
``~/.cache/gradguard-realcode``), checks each file's name and sha256 against the lock
(a changed upload fails loudly), extracts the ``.py`` files of each (nothing of theirs
is imported or run by this script), runs ``gradguard check --format json --no-cache``
over each library and compares the findings with ``triage.json``.

By hand::

    python tests/realcode/gate.py             # download (cached), run, print a report
    python tests/realcode/gate.py --update    # also rewrite triage.json: verdicts kept,
                                              # new findings get verdict "?"
    python tests/realcode/gate.py --only captum,skorch -j 2

tests/realcode/test_realcode.py runs the same gate under pytest (part of ``pytest -q``).
Measured on a 2-core machine shared with other work (2 December 2026): 879,478 lines
in 3,272 files checked in 250 s (``-j 2``, 431 s of CPU; most files hold no
backward-like token and are skipped by the engine's prefilter, the others are analysed
with the user's modules they import); the first download of the 20 distributions
(43 MB) takes minutes (learn2learn's sdist builds Cython to prepare its metadata), then
0.1 s from the cache.

A finding is keyed by (library, path inside the distribution, line, code). An internal
error is either a ``gradguard: internal error in PATH: ...`` line on standard error or a
JSON record whose ``code`` is null and whose ``kind`` is ``"internal-error"`` (or whose
message starts with ``internal error``).

Note on sdists: pip prepares an sdist's metadata by running its build backend (its
``setup.py``), so of the pinned distributions prefer wheels; learn2learn 0.2.0 ships no
pure wheel, so it is the one sdist (see lock.json). Wheels are only unzipped.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
LOCK = HERE / "lock.json"
TRIAGE = HERE / "triage.json"
EXTRACT_VERSION = "1"  # bump when the extraction changes what it writes

_INTERNAL = re.compile(r"^gradguard: internal error in (?P<path>.+?): (?P<error>.*)$")


class GateError(RuntimeError):
    """The gate could not run (no network, a changed upload, a broken install)."""


@dataclass
class LibResult:
    name: str
    version: str
    files: int = 0
    lines: int = 0
    seconds: float = 0.0
    findings: list = field(default_factory=list)   # dicts: library, version, path, line, code, message
    internal_errors: list = field(default_factory=list)  # dicts: path, error
    syntax_errors: list = field(default_factory=list)    # dicts: path, message
    exit_status: int = 0


def cache_dir() -> Path:
    return Path(os.environ.get("GRADGUARD_REALCODE_CACHE")
                or Path.home() / ".cache" / "gradguard-realcode")


def load_lock() -> list[dict]:
    return json.loads(LOCK.read_text(encoding="utf-8"))["distributions"]


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def fetch(dist: dict, cache: Path) -> Path:
    """The archive of ``dist`` in the cache, downloaded with pip when missing; raises
    GateError when pip fails or what it got is not the locked file."""
    folder = cache / "dists"
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / dist["file"]
    if target.is_file() and sha256(target) == dist["sha256"]:
        return target
    kind = ["--only-binary", ":all:"] if dist["kind"] == "wheel" else ["--no-binary", ":all:"]
    with tempfile.TemporaryDirectory(dir=folder) as tmp:
        cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--disable-pip-version-check",
               *kind, f"{dist['name']}=={dist['version']}", "-d", tmp]
        run = subprocess.run(cmd, capture_output=True, text=True)
        if run.returncode != 0:
            raise GateError(
                f"pip could not download {dist['name']}=={dist['version']} (no network? PyPI "
                f"unreachable?); the real-code gate needs PyPI or a filled cache at {cache}.\n"
                f"$ {' '.join(cmd)}\n{run.stdout[-2000:]}{run.stderr[-3000:]}")
        got = sorted(os.listdir(tmp))
        if got != [dist["file"]]:
            raise GateError(f"pip downloaded {got} for {dist['name']}=={dist['version']}, the "
                            f"lock names {dist['file']}")
        digest = sha256(Path(tmp) / dist["file"])
        if digest != dist["sha256"]:
            raise GateError(f"{dist['file']} has sha256 {digest}, the lock says {dist['sha256']}: "
                            f"the upload changed; review it before updating lock.json")
        os.replace(Path(tmp) / dist["file"], target)
    return target


def _members(archive: Path):
    """(relative posix path, bytes) of every ``.py`` file of a wheel or an sdist; the
    sdist's top folder (``name-version/``) is dropped."""
    if archive.name.endswith(".whl") or archive.name.endswith(".zip"):
        with zipfile.ZipFile(archive) as z:
            for info in z.infolist():
                if not info.is_dir() and info.filename.endswith(".py"):
                    yield info.filename, z.read(info)
    else:
        with tarfile.open(archive) as t:
            for m in t.getmembers():
                if m.isfile() and m.name.endswith(".py"):
                    parts = PurePosixPath(m.name).parts
                    yield "/".join(parts[1:]), t.extractfile(m).read()


def extract(dist: dict, archive: Path, cache: Path) -> Path:
    """The folder holding the ``.py`` files of ``dist`` (extracted once, written as-is)."""
    root = cache / "src" / f"{dist['name']}-{dist['version']}"
    stamp = root / ".gate-extracted"
    want = f"{dist['sha256']} {EXTRACT_VERSION}"
    if stamp.is_file() and stamp.read_text() == want:
        return root
    if root.exists():
        shutil.rmtree(root)
    tmp = Path(tempfile.mkdtemp(dir=cache / "src", prefix=".extract-"))
    for name, data in _members(archive):
        rel = PurePosixPath(name)
        if rel.is_absolute() or ".." in rel.parts or not rel.parts:
            raise GateError(f"{archive.name}: unsafe member path {name!r}")
        out = tmp.joinpath(*rel.parts)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(data)
    (tmp / ".gate-extracted").write_text(want)
    os.replace(tmp, root)
    return root


def py_files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*.py") if p.is_file())


def _gradguard_cmd() -> list[str]:
    return [sys.executable, "-m", "gradguard"]


def _env() -> dict:
    env = dict(os.environ)
    server = str(REPO / "server")
    env["PYTHONPATH"] = server + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env.setdefault("LANG", "C.UTF-8")
    env.pop("GRADGUARD_LOCALE", None)
    return env


def _rel(path: str, root: Path) -> str:
    try:
        return Path(path).resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path


def parse_output(res: LibResult, dist: dict, root: Path, stdout: str, stderr: str,
                 status: int) -> None:
    """Fill ``res`` from what ``gradguard check --format json`` printed: findings from the
    JSON records with a code; internal errors from ``gradguard: internal error in PATH:``
    lines on standard error and from JSON records with a null code and ``"kind":
    "internal-error"`` (or a message starting with ``internal error``), counted once when
    both report the same one; other null-code records (syntax errors) apart."""
    try:
        records = json.loads(stdout) if stdout.strip() else []
    except json.JSONDecodeError as e:
        raise GateError(f"gradguard check printed no JSON for {dist['name']} (exit "
                        f"{status}): {e}\n{stdout[:2000]}\n{stderr[-3000:]}")
    for line in stderr.splitlines():
        m = _INTERNAL.match(line)
        if m:
            res.internal_errors.append({"path": _rel(m["path"], root), "error": m["error"]})
        elif line.startswith("gradguard:") and "internal error" in line:
            res.internal_errors.append({"path": "", "error": line})
    for r in records:
        path = _rel(r.get("filename", ""), root)
        message = r.get("message", "") or ""
        first = message.splitlines()[0] if message else ""
        if r.get("code") is None:
            if r.get("kind") == "internal-error" or first.lower().startswith("internal error"):
                res.internal_errors.append({"path": path, "error": first})
            else:
                res.syntax_errors.append({"path": path, "message": first,
                                          "line": (r.get("location") or {}).get("row")})
            continue
        res.findings.append({"library": dist["name"], "version": dist["version"], "path": path,
                             "line": r["location"]["row"], "code": r["code"], "message": first})
    # the same internal error may come both as a stderr line and as a JSON record
    seen, unique = set(), []
    for e in res.internal_errors:
        key = (e["path"], e["error"].removeprefix("internal error: "))
        if key not in seen:
            seen.add(key)
            unique.append(e)
    res.internal_errors = unique


def run_library(dist: dict, root: Path, jobs: int) -> LibResult:
    res = LibResult(dist["name"], dist["version"])
    files = py_files(root)
    res.files = len(files)
    for f in files:
        res.lines += f.read_bytes().count(b"\n")
    cmd = [*_gradguard_cmd(), "check", "--format", "json", "--no-cache", "--locale", "en",
           "-j", str(jobs), *[str(f) for f in files]]
    start = time.perf_counter()
    run = subprocess.run(cmd, capture_output=True, text=True, env=_env(), cwd=root)
    res.seconds = time.perf_counter() - start
    res.exit_status = run.returncode
    parse_output(res, dist, root, run.stdout, run.stderr, run.returncode)
    if run.returncode not in (0, 1) and not res.internal_errors:
        raise GateError(f"gradguard check exited {run.returncode} for {dist['name']} with no "
                        f"internal error reported:\n{run.stderr[-3000:]}")
    return res


def prepare(dists: list[dict], cache: Path | None = None) -> dict[str, Path]:
    """name -> extracted folder, downloading what the cache lacks."""
    cache = cache or cache_dir()
    (cache / "src").mkdir(parents=True, exist_ok=True)
    return {d["name"]: extract(d, fetch(d, cache), cache) for d in dists}


def run_gate(only: set[str] | None = None, jobs: int | None = None,
             log=None) -> list[LibResult]:
    dists = [d for d in load_lock() if not only or d["name"] in only]
    start = time.perf_counter()
    roots = prepare(dists)
    if log:
        log(f"downloads and extraction: {time.perf_counter() - start:.1f} s")
    jobs = jobs or os.cpu_count() or 1
    results = []
    for d in dists:
        r = run_library(d, roots[d["name"]], jobs)
        if log:
            log(f"{r.name:26s} {r.lines:8d} lines {r.files:5d} files {len(r.findings):4d} "
                f"findings {len(r.internal_errors):3d} internal errors {r.seconds:7.1f} s")
        results.append(r)
    return results


def finding_key(f: dict) -> tuple:
    return (f["library"], f["path"], int(f["line"]), f["code"])


def load_triage() -> list[dict]:
    if not TRIAGE.is_file():
        return []
    return json.loads(TRIAGE.read_text(encoding="utf-8"))["findings"]


def update_triage(results: list[LibResult], only: set[str] | None = None) -> tuple[int, int]:
    """Rewrite triage.json with the findings of ``results``: an entry already there keeps
    its verdict and reason; a new one gets verdict "?". Entries of libraries not run are
    kept. Returns (kept, new)."""
    old = {finding_key(e): e for e in load_triage()}
    ran = {r.name for r in results}
    entries, kept, new = [], 0, 0
    for e in old.values():
        if e["library"] not in ran:
            entries.append(e)
    for r in results:
        for f in r.findings:
            prev = old.get(finding_key(f))
            entry = dict(f)
            if prev:
                entry["verdict"] = prev.get("verdict", "?")
                entry["reason"] = prev.get("reason", "")
                kept += 1
            else:
                entry["verdict"] = "?"
                entry["reason"] = ""
                new += 1
            entries.append(entry)
    entries.sort(key=finding_key)
    TRIAGE.write_text(_dump_triage(entries), encoding="utf-8")
    return kept, new


def _dump_triage(entries: list[dict]) -> str:
    order = ["library", "version", "path", "line", "code", "message", "verdict", "reason"]
    lines = [json.dumps({k: e.get(k) for k in order}, ensure_ascii=False) for e in entries]
    return '{"findings": [\n' + ",\n".join(lines) + "\n]}\n"


def report(results: list[LibResult]) -> str:
    out = [f"{'library':26s} {'version':8s} {'lines':>8s} {'files':>5s} {'findings':>8s} "
           f"{'internal':>8s} {'syntax':>6s} {'seconds':>8s}"]
    tot = LibResult("total", "")
    for r in results:
        out.append(f"{r.name:26s} {r.version:8s} {r.lines:8d} {r.files:5d} {len(r.findings):8d} "
                   f"{len(r.internal_errors):8d} {len(r.syntax_errors):6d} {r.seconds:8.1f}")
        tot.lines += r.lines
        tot.files += r.files
        tot.seconds += r.seconds
        tot.findings += r.findings
        tot.internal_errors += r.internal_errors
        tot.syntax_errors += r.syntax_errors
    out.append(f"{'total':26s} {'':8s} {tot.lines:8d} {tot.files:5d} {len(tot.findings):8d} "
               f"{len(tot.internal_errors):8d} {len(tot.syntax_errors):6d} {tot.seconds:8.1f}")
    if tot.seconds:
        out.append(f"{tot.lines / tot.seconds:.0f} lines/s")
    return "\n".join(out)


def compare(results: list[LibResult]) -> tuple[set, set]:
    """(findings not in the triage, triage entries not found) for the libraries run."""
    ran = {r.name for r in results}
    found = {finding_key(f) for r in results for f in r.findings}
    triaged = {finding_key(e) for e in load_triage() if e["library"] in ran}
    return found - triaged, triaged - found


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--update", action="store_true", help="rewrite triage.json")
    p.add_argument("--only", help="comma-separated library names")
    p.add_argument("-j", "--jobs", type=int, help="gradguard check -j (default: CPU count)")
    p.add_argument("--json", metavar="FILE", help="write the raw results to FILE")
    args = p.parse_args(argv)
    only = set(args.only.split(",")) if args.only else None
    start = time.perf_counter()
    try:
        results = run_gate(only, args.jobs, log=lambda s: print(s, file=sys.stderr, flush=True))
    except GateError as e:
        print(f"gate: {e}", file=sys.stderr)
        return 2
    print(report(results))
    print(f"wall time (downloads cached or not, extraction, checks): "
          f"{time.perf_counter() - start:.1f} s")
    for r in results:
        for e in r.internal_errors:
            print(f"internal error: {r.name} {e['path']}: {e['error']}")
    if args.json:
        Path(args.json).write_text(json.dumps([r.__dict__ for r in results], indent=1))
    if args.update:
        kept, new = update_triage(results, only)
        print(f"triage.json: {kept} kept, {new} new (verdict \"?\")")
    extra, missing = compare(results)
    for k in sorted(extra):
        print(f"not in triage.json: {k}")
    for k in sorted(missing):
        print(f"in triage.json, not found: {k}")
    bad = sum(len(r.internal_errors) for r in results)
    return 1 if (bad or extra or missing) else 0


if __name__ == "__main__":
    sys.exit(main())
