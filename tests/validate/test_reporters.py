"""The output formats, in process: escaping, summaries, and the shapes CI tools read."""

from __future__ import annotations

import json
from xml.etree import ElementTree as ET

import pytest

from enterprise_ai.validate import RULES, Finding
from enterprise_ai.validate.checker import FileReport, add_findings
from enterprise_ai.validate.reporters import FORMATS, get_reporter, summary_line


def reports() -> list[FileReport]:
    return [
        FileReport("ok.yaml", 2, []),
        FileReport("bad,1%.yaml", 1, [
            Finding("manifest.schema", "error", "/spec/action", "line one\nline two: 100%", "bad,1%.yaml", 3, 5),
            Finding("export.name", "warning", "/metadata/name", "dotted <name> & co", "bad,1%.yaml", 2, 3),
        ]),
    ]


def test_text():
    assert get_reporter("text")(reports()).splitlines() == [
        "bad,1%.yaml:3:5: error manifest.schema line one line two: 100% (at /spec/action)",
        "bad,1%.yaml:2:3: warning export.name dotted <name> & co (at /metadata/name)",
        "checked 2 files (3 manifests): 1 error, 1 warning",
    ]


def test_github_escapes_data_and_properties():
    lines = get_reporter("github")(reports()).splitlines()
    assert lines[0] == ("::error file=bad%2C1%25.yaml,line=3,col=5,title=manifest.schema::"
                        "line one%0Aline two: 100%25 (at /spec/action)")
    assert lines[1].startswith("::warning file=bad%2C1%25.yaml,line=2,col=3,title=export.name::")


def test_json():
    data = json.loads(get_reporter("json")(reports(), strict=True))
    assert data["valid"] is False and data["strict"] is True
    assert data["summary"] == {"files": 2, "manifests": 3, "errors": 1, "warnings": 1}
    assert [f["valid"] for f in data["files"]] == [True, False]
    assert data["files"][1]["findings"][0]["line"] == 3


def test_junit_escapes_and_counts():
    root = ET.fromstring(get_reporter("junit")(reports()))
    suite = root.find("testsuite")
    assert (suite.get("tests"), suite.get("failures")) == ("2", "1")
    failing = [c for c in suite.iter("testcase") if c.find("failure") is not None]
    assert [c.get("name") for c in failing] == ["bad,1%.yaml"]
    assert "dotted <name> & co" in failing[0].find("system-out").text


def test_sarif_shape():
    sarif = json.loads(get_reporter("sarif")(reports()))
    driver = sarif["runs"][0]["tool"]["driver"]
    assert sarif["version"] == "2.1.0" and [r["id"] for r in driver["rules"]] == list(RULES)
    first = sarif["runs"][0]["results"][0]
    assert first["ruleId"] == "manifest.schema" and first["level"] == "error"
    assert first["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": "bad%2C1%25.yaml"}, "region": {"startLine": 3, "startColumn": 5}}
    assert first["locations"][0]["logicalLocations"][0]["fullyQualifiedName"] == "/spec/action"


def test_valid_run_in_every_format():
    clean = [FileReport("ok.yaml", 1, [])]
    for name in FORMATS:
        assert get_reporter(name)(clean).endswith("\n")
    assert summary_line(clean) == "checked 1 file (1 manifest): 0 errors, 0 warnings"
    assert json.loads(get_reporter("sarif")(clean))["runs"][0]["results"] == []
    with pytest.raises(ValueError, match="unknown format"):
        get_reporter("xml")


def test_add_findings_places_and_promotes():
    items = reports()
    add_findings(items, [
        Finding("export.name", "warning", "", "x", "ok.yaml", 1, 1),
        Finding("manifest.schema", "error", "", "y", "new.yaml", 1, 1),
    ], strict=True)
    assert [f.severity for f in items[0].findings] == ["error"]
    assert items[-1].file == "new.yaml" and items[-1].failed
    assert [f.line for f in items[1].findings] == [2, 3]
