"""Review: the CLI and its reporters as a CI pipeline uses them (boundaries, escaping, odd file names)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

from enterprise_ai.errors import UsageError
from enterprise_ai.validate import Finding, check_manifest, iter_documents, validate_paths
from enterprise_ai.validate.checker import FileReport, expand_paths
from enterprise_ai.validate.reporters import github_report, junit_report, sarif_report
from tests.validate.conftest import BASE, BASE_YAML

ROOT = Path(__file__).resolve().parents[2]


def test_an_undecodable_file_name_is_reported_not_a_crash(eai, tmp_path):
    folder = tmp_path / "m"
    folder.mkdir()
    bad = os.path.join(os.fsencode(folder), b"caf\xe9.yaml")
    with open(bad, "wb") as handle:
        handle.write(b"kind: Tool\n")
    for fmt in ("text", "sarif"):
        proc = eai(["tools", "validate", "-f", fmt, folder])
        assert proc.returncode == 1, (fmt, proc.stderr)
        assert "internal error" not in proc.stderr and "caf" in proc.stdout, fmt


def test_a_lone_surrogate_in_json_is_a_finding_in_every_format(eai, tmp_path):
    path = tmp_path / "s.json"
    path.write_text('{"kind": "T\\ud800"}')
    for fmt in ("json",):
        proc = eai(["tools", "validate", "-f", fmt, path])
        assert proc.returncode == 1 and "load.encoding" in proc.stdout, (fmt, proc.stderr)


def test_disabling_a_loading_rule_is_a_usage_error(eai, tmp_path):
    proc = eai(["tools", "validate", "--disable", "load.syntax", tmp_path])
    assert proc.returncode == 2 and "cannot be disabled" in proc.stderr
    empty = tmp_path / "empty.yaml"
    empty.write_text("# nothing yet\n")
    assert eai(["tools", "validate", "--strict", empty]).returncode == 1
    proc = eai(["tools", "validate", "--strict", "--disable", "load.empty", empty])
    assert proc.returncode == 0, proc.stdout


def test_standard_input_twice_is_a_usage_error():
    with pytest.raises(UsageError, match="standard input"):
        expand_paths(["-", "-"])


def test_directory_walk_skips_hidden_entries_and_checks_each_file_once(tmp_path):
    for rel in ("a.yaml", "sub/b.yml", "sub/c.JSON", ".git/x.yaml", "sub/.hidden.yaml", ".gitlab-ci.yml", "n.txt"):
        target = tmp_path / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("{}")
    files = expand_paths([str(tmp_path), str(tmp_path / "a.yaml"), str(tmp_path / ".gitlab-ci.yml")])
    names = [os.path.relpath(f, tmp_path) for f in files]
    assert names == ["a.yaml", "sub/b.yml", "sub/c.JSON", ".gitlab-ci.yml"]  # an explicit hidden file is checked


@pytest.mark.parametrize("kind", ["yaml", "json"])
def test_size_cap_at_its_exact_boundary(kind):
    text = (BASE_YAML if kind == "yaml" else json.dumps(BASE)).encode()
    size = len(text)

    def rules(cap):
        return [i.rule for i in iter_documents(text, source=f"m.{kind}", max_bytes=cap) if isinstance(i, Finding)]

    assert rules(size) == []
    assert rules(size - 1) == ["load.too-large"]


@pytest.mark.parametrize("kind", ["yaml", "json"])
def test_depth_cap_at_its_exact_boundary(kind):
    def nest(levels):  # `levels` mappings, the root included
        data = {"k": 1}
        for _ in range(levels - 1):
            data = {"k": data}
        return json.dumps(data).encode()

    def rules(levels):
        return [i.rule for i in iter_documents(nest(levels), source=f"m.{kind}", kind=kind, max_depth=5)
                if isinstance(i, Finding)]

    assert rules(5) == []
    assert rules(6) == ["load.too-deep"]


def report(file: str, message: str, rule: str = "manifest.schema", severity: str = "error") -> list[FileReport]:
    finding = Finding(rule, severity, "/a~1b", message, file=file, line=3, column=5)
    return [FileReport(file, 1, [finding])]


def test_github_workflow_command_escaping():
    out = github_report(report("dir,x/a:b%c.yaml", "bad 100%\r\nvalue, here: now"))
    assert out.splitlines()[0] == (
        "::error file=dir%2Cx/a%3Ab%25c.yaml,line=3,col=5,title=manifest.schema::"
        "bad 100%25%0D%0Avalue, here: now (at /a~1b)"
    )


def test_junit_is_well_formed_with_markup_and_control_characters():
    text = junit_report(report('a<&"\'>.yaml', 'key "x\x01<&>" \x00 \ud800 unknown'))
    root = ET.fromstring(text.encode("utf-8"))
    failure = root.find("testsuite/testcase/failure")
    assert failure is not None and '"x' in failure.get("message") and "<&>" in failure.get("message")
    assert root.find("testsuite/testcase").get("name") == 'a<&"\'>.yaml'


def test_sarif_structure_and_relative_uris(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    absolute = str(tmp_path / "dir with space" / "m#1.yaml")
    sarif = json.loads(sarif_report(report(absolute, "x") + report("rel/m.yaml", "y", "export.name", "warning")))
    assert sarif["version"] == "2.1.0" and sarif["$schema"].endswith("sarif-2.1.0.json")
    run = sarif["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert all(set(r) >= {"id", "shortDescription", "defaultConfiguration"} for r in rules)
    uris = [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in run["results"]]
    assert uris == ["dir%20with%20space/m%231.yaml", "rel/m.yaml"]
    for result in run["results"]:
        assert result["level"] in ("error", "warning", "note", "none")
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        region = result["locations"][0]["physicalLocation"]["region"]
        assert region == {"startLine": 3, "startColumn": 5}
        assert result["message"]["text"]


def test_check_manifest_and_the_cli_agree(eai, tmp_path):
    doc = json.loads(json.dumps(BASE))
    doc["metadata"]["owner"] = None
    doc["spec"]["risk_level"] = "high"
    doc["spec"]["endpoint"]["url"] = "ftp://x"
    path = tmp_path / "m.json"
    path.write_text(json.dumps(doc))
    proc = eai(["tools", "validate", "-f", "json", path])
    cli = [(f["rule"], f["pointer"], f["message"]) for f in json.loads(proc.stdout)["files"][0]["findings"]]
    local = [(f.rule, f.pointer, f.message) for f in check_manifest(doc)]
    assert sorted(cli) == sorted(local) and len(local) >= 3


def test_one_bad_file_never_stops_the_others(tmp_path):
    good = tmp_path / "z.yaml"
    good.write_text(BASE_YAML)
    (tmp_path / "a.yaml").write_bytes(b"\xff\xfea\x00")
    (tmp_path / "b.yaml").write_text("1: x\n")
    (tmp_path / "c.json").write_text('{"a": "\\udc00"}')
    (tmp_path / "d.yaml").write_text("a: 1\x00\n")
    reports, documents = validate_paths([str(tmp_path)])
    assert [Path(r.file).name for r in reports] == ["a.yaml", "b.yaml", "c.json", "d.yaml", "z.yaml"]
    assert [r.failed for r in reports] == [True, True, True, True, False]
    assert len(documents) == 1


def _positions(text: str, name: str) -> list[tuple[str, str, int | None, int | None]]:
    reports, _ = validate_paths(["-"], stdin=_Bytes(text.encode()))
    return [(f.rule, f.pointer, f.line, f.column) for f in reports[0].findings]


class _Bytes:
    def __init__(self, data: bytes) -> None:
        self.data = data

    def read(self, size: int = -1) -> bytes:
        return self.data


def test_positions_in_yaml_flow_style_and_one_line_json():
    flow = ('{apiVersion: enterprise-ai.io/v1, kind: Tol, metadata: {name: a, version: 1.0, owner: o}, '
            'spec: {description: d, action: read, input_schema: {type: object}, endpoint: {type: builtin, handler: x}}}')
    found = _positions(flow, "flow")
    assert ("manifest.schema", "/kind", 1, flow.index("kind") + 1) in found
    assert ("manifest.quote-string", "/metadata/version", 1, flow.index("version") + 1) in found
    assert ("endpoint.builtin-handler", "/spec/endpoint/handler", 1, flow.index("handler") + 1) in found
    one_line = json.dumps({**BASE, "kind": "Tol", "metadata": {**BASE["metadata"], "version": 3}})
    found = _positions(one_line, "json")
    assert ("manifest.schema", "/kind", 1, one_line.index('"kind"') + 1) in found
    assert ("manifest.quote-string", "/metadata/version", 1, one_line.index('"version"') + 1) in found


def test_pointer_escaping_of_keys_with_tilde_and_slash():
    doc = json.loads(json.dumps(BASE))
    doc["spec"]["input_schema"]["properties"]["a~b/c"] = {"type": "nope"}
    text = json.dumps(doc, indent=1)
    found = _positions(text, "json")
    line = text.splitlines().index(next(x for x in text.splitlines() if '"a~b/c"' in x)) + 1
    assert [(r, p, ln) for r, p, ln, _ in found] == [
        ("schema.meta", "/spec/input_schema/properties/a~0b~1c/type", line + 1)]


def test_control_characters_never_reach_the_terminal_raw():
    from enterprise_ai.validate.reporters import text_report

    reports = report("m\x1b.yaml", "unknown property '\\x1b[31m'")
    reports[0].findings[0].pointer = "/\x1b[31mred"
    for out in (text_report(reports), github_report(reports)):
        assert "\x1b" not in out and "\\x1b[31mred" in out, out


def test_a_control_character_in_yaml_has_a_position():
    reports, _ = validate_paths(["-"], stdin=_Bytes(b"a: 1\nb: x\x01y\n"))
    assert [(f.rule, f.line, f.column) for f in reports[0].findings] == [("load.syntax", 2, 5)]


def test_a_walk_does_not_read_a_symlink_to_a_file_outside_the_directory(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("https://user:TOKEN123@example.com\n")  # would be quoted: "'https://...' is not of type object"
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "m.yaml").write_text(BASE_YAML)
    (repo / "evil.yaml").symlink_to(secret)
    (repo / "alias.yaml").symlink_to(repo / "m.yaml")  # inside the directory: read
    reports, documents = validate_paths([str(repo)])
    by_name = {Path(r.file).name: r for r in reports}
    assert [f.rule for f in by_name["evil.yaml"].findings] == ["load.read"]
    assert "TOKEN123" not in by_name["evil.yaml"].findings[0].message and by_name["evil.yaml"].failed
    assert by_name["alias.yaml"].documents == 1 and not by_name["alias.yaml"].failed
    assert len(documents) == 2
    reports, _ = validate_paths([str(repo / "evil.yaml")])  # named explicitly: read
    assert reports[0].findings[0].rule == "manifest.schema"
    assert str(repo / "evil.yaml") not in expand_paths([str(repo)])  # register's walk leaves it out
