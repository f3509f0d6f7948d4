"""``eai tools validate`` and ``eai schema`` run as a user would (child processes)."""

from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

from enterprise_ai.validate import manifest_schema
from tests.validate.conftest import BASE_YAML

ROOT = Path(__file__).resolve().parents[2]
INVALID = ROOT / "manifests-examples" / "invalid"
VALID = ROOT / "manifests-examples" / "valid"
EXPECT = re.compile(r"^(?:# )?expect: (\S+) line (\d+)$", re.M)


def expectations() -> dict[str, set[tuple[str, int]]]:
    """{file name: {(rule, line)}} from `# expect:` header lines, or from a `<file>.expect` sidecar."""
    table = {}
    for path in sorted(INVALID.iterdir()):
        if path.suffix == ".expect":
            continue
        sidecar = path.with_name(path.name + ".expect")
        text = sidecar.read_text() if sidecar.exists() else path.read_bytes().decode("latin-1")
        table[path.name] = {(rule, int(line)) for rule, line in EXPECT.findall(text)}
    return table


def test_invalid_examples_give_their_declared_findings(eai):
    expected = expectations()
    assert len(expected) >= 30 and all(expected.values()), expected
    proc = eai(["tools", "validate", "--format", "json", INVALID], cwd=ROOT)
    assert proc.returncode == 1, proc.stderr
    report = json.loads(proc.stdout)
    found = {Path(f["file"]).name: {(x["rule"], x["line"]) for x in f["findings"]} for f in report["files"]}
    assert found == expected
    # Every rule of the catalogue that is on by default has an example, except reading errors.
    from enterprise_ai.validate import RULES

    covered = {rule for pairs in expected.values() for rule, _ in pairs}
    missing = {r.id for r in RULES.values() if r.default} - covered - {"load.read", "load.too-large", "load.empty"}
    assert missing == set()


def test_valid_examples_pass(eai):
    proc = eai(["tools", "validate", VALID, ROOT / "manifests-examples" / "manifests"])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.strip().splitlines()[-1].endswith(": 0 errors, 0 warnings")


def test_one_bad_file_does_not_stop_the_others(eai, tmp_path):
    (tmp_path / "a-bad.yaml").write_bytes("owner: ren\u00e9\n".encode("latin-1"))
    (tmp_path / "b-bomb.yaml").write_text((INVALID / "alias-bomb.yaml").read_text())
    (tmp_path / "c-big.yaml").write_text("# " + "x" * (2 * 1024 * 1024))
    (tmp_path / "d-deep.json").write_text('{"a": ' + "[" * 10_000 + "]" * 10_000 + "}")
    (tmp_path / "e-good.yaml").write_text(BASE_YAML)
    (tmp_path / "f-version.yaml").write_text(BASE_YAML.replace("version: 0.1.0", "version: 3.10"))
    (tmp_path / "notes.txt").write_text("not a manifest")
    proc = eai(["tools", "validate", tmp_path], cwd=tmp_path)
    assert proc.returncode == 1
    lines = proc.stdout.splitlines()
    assert [line.split(" ")[0] + " " + line.split(" ")[2] for line in lines[:-1]] == [
        f"{tmp_path}/a-bad.yaml:1:11: load.encoding",
        f"{tmp_path}/b-bomb.yaml:3:4: load.alias",
        f"{tmp_path}/c-big.yaml:1:1: load.too-large",
        f"{tmp_path}/d-deep.json:1:1: load.too-deep",
        f"{tmp_path}/f-version.yaml:5:3: manifest.quote-string",
    ]
    assert 'quote it ("3.10")' in lines[-2]
    assert lines[-1] == "checked 6 files (2 manifests): 5 errors, 0 warnings"
    big = eai(["tools", "validate", "--max-bytes", str(3 * 1024 * 1024), tmp_path / "c-big.yaml"])
    assert "load.empty" in big.stdout and big.returncode == 0


def test_stdin_and_text_format(eai):
    proc = eai(["tools", "validate", "-"], input=BASE_YAML.replace("side_effects: false", "side_effects: true"))
    assert proc.returncode == 0
    assert proc.stdout.splitlines() == [
        "<stdin>:16:3: warning governance.read-side-effects action 'read' with side_effects: true is contradictory: "
        "use action 'write' if the tool changes something, else set side_effects: false (at /spec/side_effects)",
        "checked 1 file (1 manifest): 0 errors, 1 warning",
    ]
    strict = eai(["tools", "validate", "--strict", "-"], input=BASE_YAML.replace("side_effects: false", "side_effects: true"))
    assert strict.returncode == 1 and "error governance.read-side-effects" in strict.stdout
    disabled = eai(["tools", "validate", "--strict", "--disable", "governance.read-side-effects", "-"],
                   input=BASE_YAML.replace("side_effects: false", "side_effects: true"))
    assert disabled.returncode == 0, disabled.stdout


def test_github_format_is_the_default_on_actions(eai):
    proc = eai(["tools", "validate", "manifests-examples/invalid/bad-action.yaml"], env={"GITHUB_ACTIONS": "true"}, cwd=ROOT)
    assert proc.returncode == 1
    assert proc.stdout.splitlines()[0] == (
        "::error file=manifests-examples/invalid/bad-action.yaml,line=11,col=3,title=manifest.schema::"
        "'remove' is not allowed: use one of read, write, delete, execute (at /spec/action)"
    )
    text = eai(["tools", "validate", "-f", "text", "manifests-examples/invalid/bad-action.yaml"],
               env={"GITHUB_ACTIONS": "true"}, cwd=ROOT)
    assert text.stdout.startswith("manifests-examples/invalid/bad-action.yaml:11:3: error manifest.schema ")


def test_junit_and_sarif(eai):
    files = [INVALID / "bad-action.yaml", INVALID / "export-name.yaml", VALID / "bom.yaml"]
    junit = eai(["tools", "validate", "-f", "junit", *files])
    assert junit.returncode == 1
    suite = ET.fromstring(junit.stdout).find("testsuite")
    assert (suite.get("tests"), suite.get("failures")) == ("3", "1")
    cases = {Path(c.get("name")).name: c for c in suite.iter("testcase")}
    assert cases["bad-action.yaml"].find("failure").get("type") == "manifest.schema"
    assert cases["export-name.yaml"].find("failure") is None
    assert "export.name" in cases["export-name.yaml"].find("system-out").text

    sarif = json.loads(eai(["tools", "validate", "-f", "sarif", *files]).stdout)
    assert sarif["version"] == "2.1.0"
    run = sarif["runs"][0]
    rule_ids = [r["id"] for r in run["tool"]["driver"]["rules"]]
    assert "manifest.schema" in rule_ids and "export.name" in rule_ids
    results = {(r["ruleId"], r["level"], r["locations"][0]["physicalLocation"]["region"]["startLine"]) for r in run["results"]}
    assert results == {("manifest.schema", "error", 11), ("export.name", "warning", 6)}
    assert all(rule_ids[r["ruleIndex"]] == r["ruleId"] for r in run["results"])


def test_usage_errors_exit_2(eai, tmp_path):
    proc = eai(["tools", "validate", tmp_path / "nope.yaml"])
    assert proc.returncode == 2 and "nope.yaml: no such file or directory" in proc.stderr
    proc = eai(["tools", "validate", "--disable", "no.such-rule", VALID])
    assert proc.returncode == 2 and "unknown rule id 'no.such-rule'" in proc.stderr
    proc = eai(["tools", "validate", "--format", "xml", VALID])
    assert proc.returncode == 2
    proc = eai(["tools", "validate"])
    assert proc.returncode == 2


def test_list_rules(eai):
    proc = eai(["tools", "validate", "--list-rules"])
    assert proc.returncode == 0
    assert "schema.open-object\twarning\toff" in proc.stdout


def test_schema_command_prints_the_shipped_schema(eai):
    proc = eai(["schema"])
    assert proc.returncode == 0
    assert json.loads(proc.stdout) == manifest_schema()


def _single_document_examples() -> list[Path]:
    """Shipped examples that both tools can read: one document per file, no load.* problem."""
    paths = []
    for path in sorted([*INVALID.glob("*.yaml"), *INVALID.glob("*.json"), *VALID.iterdir(),
                        *(ROOT / "manifests-examples" / "manifests").glob("*.yaml")]):
        text = path.read_bytes().decode("utf-8", "replace")
        rules = {r for r, _ in EXPECT.findall(text)}
        sidecar = path.with_name(path.name + ".expect")
        if sidecar.exists():
            rules |= {r for r, _ in EXPECT.findall(sidecar.read_text())}
        if any(r.startswith("load.") for r in rules) or "\n---\n" in text or text.lstrip("\ufeff").startswith("["):
            continue
        paths.append(path)
    return paths


@pytest.mark.slow
def test_schema_verdicts_agree_with_check_jsonschema(eai, tmp_path):
    tool = shutil.which("check-jsonschema") or str(Path(sys.executable).with_name("check-jsonschema"))
    if not Path(tool).exists():
        pytest.skip("check-jsonschema is not installed")
    schema = tmp_path / "tool-manifest.schema.json"
    schema.write_text(eai(["schema"]).stdout)
    paths = _single_document_examples()
    assert len(paths) >= 30
    import subprocess

    proc = subprocess.run([tool, "--schemafile", str(schema), "-o", "json", *map(str, paths)],
                          capture_output=True, text=True, timeout=120)
    theirs = {Path(e["filename"]).name for e in json.loads(proc.stdout)["errors"]}
    ours_report = json.loads(eai(["tools", "validate", "-f", "json", *paths]).stdout)
    ours = {Path(f["file"]).name for f in ours_report["files"]
            if any(x["rule"] in ("manifest.schema", "manifest.quote-string") for x in f["findings"])}
    assert ours == theirs
    assert {"bad-action.yaml", "unquoted-version.yaml", "yes-is-a-string.yaml", "missing-endpoint.yaml"} <= ours


def test_remote_findings_are_reported_in_the_same_formats(monkeypatch, capsys, tmp_path):
    """--remote hands the loaded documents to the client's remote_findings and prints its findings."""
    remote = pytest.importorskip("enterprise_ai.tools._remote")
    from enterprise_ai.cli.main import main
    from enterprise_ai.validate import Finding

    path = tmp_path / "m.yaml"
    path.write_text(BASE_YAML)
    calls = []

    def fake(documents, *, contract, ctx_state):
        calls.append((len(documents), contract))
        doc = documents[0]
        line, column = doc.position("/spec/action")
        return [Finding("manifest.schema", "error", "/spec/action", "refused by the gateway", doc.source, line, column)]

    monkeypatch.setattr(remote, "remote_findings", fake)
    code = main(["tools", "validate", "--remote", "--contract", "tool-manifest", "-f", "github", str(path)])
    out = capsys.readouterr().out
    assert code == 1 and calls == [(1, "tool-manifest")]
    assert out.splitlines()[0] == f"::error file={path},line=9,col=3,title=manifest.schema::refused by the gateway (at /spec/action)"
