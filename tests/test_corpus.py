"""Scores on ../shared/cases (labelled by running them under torch): they must not drop.

Runs ../shared/tools/score.py, which calls `gradguard check --format json` and, with
--fixes, runs each preferred fix under torch. Skips when ../shared is absent.
"""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parent.parent.parent / "shared"
SCORE = SHARED / "tools" / "score.py"

pytestmark = pytest.mark.skipif(not SCORE.exists(), reason="../shared (labelled cases) is absent")


def _score(*args, corpus=SHARED / "cases"):
    exe = shutil.which("gradguard") or f"{sys.executable} -m gradguard"
    out = subprocess.run([sys.executable, str(SCORE), str(corpus), "--cmd", exe, *args],
                         capture_output=True, text=True, timeout=1800, cwd=corpus)
    last = out.stdout.strip().splitlines()[-1]
    nums = {k: (int(a), int(b)) for k, a, b in re.findall(
        r"(recall|false alarms|fixed by preferred fix) (\d+)/(\d+)", last)}
    return nums, out.stdout


# Floors: the scores measured on ../shared/cases (139 programs, 15 of them several
# modules each, followed across files since imports of the user's modules are); they
# must not drop. The target of the open issue for fixes is higher (>= 95 %): raise
# these as the engine reaches it.
def test_graph_freed_cases_found_and_fixed():
    nums, report = _score("--fixes", "--runtime", "backward-twice")
    tp, failing = nums["recall"]
    fa, clean = nums["false alarms"]
    fixed, need = nums["fixed by preferred fix"]
    assert tp / failing >= 33 / 33, report
    assert fa == 0, report
    assert fixed / need >= 31 / 33, report


def test_all_rules_found_and_fixed():
    nums, report = _score("--fixes")
    tp, failing = nums["recall"]
    fa, clean = nums["false alarms"]
    fixed, need = nums["fixed by preferred fix"]
    assert tp / failing >= 61 / 61, report
    assert fa / clean <= 0.02, report
    assert fixed / need >= 53 / 55, report


# tests/report_cases: 1,591 programs (558 failing, 1,033 clean) written from other public
# reports and from the idioms of real training libraries by writers who did not see the
# engine, labelled by running them under torch, in batches: 501-829 (A-D), then 901-923
# (E), 1001-1024 (F), 1101-1124 (G), 1201-1246 (H), 1301-1348 (I), 1401-1448 (J),
# 1601-1615 (M), 1701-1717 (N), 1801-1815 (O), 1901-1920 (Q), 2001-2030 (R), 2101-2130
# (S), 2201-2230 (T), 2301-2330 (U), 2401-2430 (V), 2501-2530 (W), 2601-2630 (X),
# 2701-2730 (Y), 2801-2830 (Z), 2901-2930 (AA), 3001-3030 (AB), 3101-3130 (AC), 3201-3230
# (AD), 3301-3330 (AE), 3401-3430 (AF) and 3501-3530 (AG), each scored before any change
# made for it (A-D: 39/46 found,
# 9/93 false alarms; E: 9/12, 0/23; F: 11/14, 3/24; G: 11/14, 0/24; H: 11/18, 0/28; I:
# 14/20, 1/28; J: 12/20, 1/28; M: 8/12, 0/9; N: 9/12, 1/17; O: 10/10, 1/15; Q: 8/12,
# 0/18; R: 9/12, 0/30; S: 10/12, 0/30; T: 6/12, 2/30; U: 11/20, 2/30; V: 14/20, 2/30; W:
# 12/17, 0/33; X: 10/20, 5/35; Y: 9/15, 1/35; Z: 23/30, 0/53; AA: 20/30, 5/60; AB: 16/30,
# 2/60; AC: 21/30, 2/60; AD: 17/30, 2/60; AE: 20/30, 9/60; AF: 22/30, 0/60; AG: 19/30,
# 1/60).
# The figures below are floors. The false alarms left: 2212's fixed twin (its reset
# detaches every buffer of ``self.buffers()``, which the engine does not enumerate), 2423
# (retain_graph=True on purpose over a dialogue's few turns: GG302's growth, bounded by the
# dialogue) and 2711's look-alike (``range(0, n - 1, n)`` runs once: the decoder state is
# carried into no second chunk, which the engine cannot tell from its bounds), 3015's
# look-alike (``{**output, **eval_output}`` with a model's output of keys not known: it may
# replace the detached mean the loop logs), 3305's look-alike (list elements written in
# place at ``i + 1`` after the one at ``i`` was saved: the engine holds one element for
# all) and 3326's twins (a propagator cache keyed on a parameter's ``_version``, which the
# engine does not model: it cannot tell the cache is emptied after each step).
REPORT_CASES = Path(__file__).resolve().parent / "report_cases"


def test_report_cases_found_and_fixed():
    nums, report = _score("--fixes", corpus=REPORT_CASES)
    tp, failing = nums["recall"]
    fa, clean = nums["false alarms"]
    fixed, need = nums["fixed by preferred fix"]
    assert failing == 558 and clean == 1033, report
    assert tp >= 499, report
    assert fa <= 7, report
    assert fixed >= 255, report
