"""``eai tools scan`` as a user runs it: outputs, --out, --check, options, problems and exit codes."""

from __future__ import annotations

import json
import os

import pytest
import yaml

from enterprise_ai.cli.render import to_yaml
from enterprise_ai.errors import UsageError
from enterprise_ai.scan import files
from tests.scan.conftest import tool_module

UNICODE_TOOL = '''
from enterprise_ai.tools import tool


@tool(name="resume-text", owner="équipe@example.com")
def résumé(texte: str) -> str:
    """Résume un texte — en français."""
    return texte
'''


@pytest.fixture
def project(tree):
    """A small project: two tool modules and a helper without tools."""
    return tree({"tools/orders.py": tool_module("search_orders"), "tools/refunds.py": tool_module("issue_refund"), "tools/util.py": "X = 1\n"})


def test_default_output_is_yaml_documents_in_name_order(eai, project):
    proc = eai(["tools", "scan", "tools"], cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    docs = list(yaml.safe_load_all(proc.stdout))
    assert [d["metadata"]["name"] for d in docs] == ["issue-refund", "search-orders"]
    assert proc.stdout.count("\n---\n") == 1
    assert docs[1]["spec"]["input_schema"]["required"] == ["query"]


def test_json_output_is_an_array_of_the_same_manifests(eai, project):
    as_yaml = list(yaml.safe_load_all(eai(["tools", "scan", "tools"], cwd=project).stdout))
    proc = eai(["tools", "scan", "tools", "--format", "json"], cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == as_yaml


def test_no_tools_is_a_note_exit_0_and_empty_output(eai, tree):
    root = tree({"plain.py": "X = 1\n"})
    proc = eai(["tools", "scan", "plain.py"], cwd=root)
    assert (proc.returncode, proc.stdout) == (0, "")
    assert "no tools found" in proc.stderr
    proc = eai(["tools", "scan", "plain.py", "--format", "json"], cwd=root)
    assert (proc.returncode, proc.stdout.strip()) == (0, "[]")


def test_what_user_code_prints_never_reaches_our_output(eai, tree):
    root = tree({"noisy.py": "import os, sys\nprint('hello from import')\nprint('oops', file=sys.stderr)\n" + tool_module("ping")})
    proc = eai(["tools", "scan", "noisy.py"], cwd=root)
    assert proc.returncode == 0
    assert "hello" not in proc.stdout and "oops" not in proc.stderr
    assert yaml.safe_load(proc.stdout)["metadata"]["name"] == "ping"


def test_import_failure_is_reported_on_stderr_with_exit_1_and_other_tools_printed(eai, tree):
    root = tree({"good.py": tool_module("search_orders"), "bad.py": "import os\nraise RuntimeError('no database\\nconfigured')\n"})
    proc = eai(["tools", "scan", "."], cwd=root)
    assert proc.returncode == 1
    assert proc.stderr.strip() == "bad.py:2: error: import failed: RuntimeError: configured"
    assert yaml.safe_load(proc.stdout)["metadata"]["name"] == "search-orders"


def test_duplicate_names_fail_with_both_places(eai, tree):
    root = tree({"a.py": tool_module("search_orders"), "b.py": tool_module("search_orders")})
    proc = eai(["tools", "scan", "."], cwd=root)
    assert proc.returncode == 1
    assert "b.py:5: error: duplicate tool name 'search-orders': defined at a.py:5 and at b.py:5" in proc.stderr


@pytest.mark.parametrize(
    "args, message",
    [
        (["tools", "scan", "missing_dir/"], "missing_dir/: no such file, directory or module"),
        (["tools", "scan", "no_such_module"], "no such file, directory or module: no_such_module"),
        (["tools", "scan", "tools", "--check"], "--check needs --out"),
        (["tools", "scan", "tools", "--label", "novalue"], "--label expects KEY=VALUE, got 'novalue'"),
        (["tools", "scan", "tools", "--out", "m", "--format", "json"], "--format"),
        (["tools", "scan", "tools", "--endpoint-base-url", "tools.example.com"], "http(s) URL"),
        (["tools", "scan"], "Missing argument"),
    ],
)
def test_usage_errors_exit_2_with_nothing_on_stdout(eai, project, args, message):
    proc = eai(args, cwd=project)
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == ""
    assert message in proc.stderr


def test_metadata_and_endpoint_options_apply_to_every_manifest(eai, project):
    proc = eai(
        ["tools", "scan", "tools", "--format", "json", "--owner", "shop@example.com", "--version", "1.4.0",
         "--label", "team=commerce", "--label", "tier=gold=1", "--endpoint-base-url", "https://tools.example.com"],
        cwd=project,
    )
    assert proc.returncode == 0, proc.stderr
    for manifest in json.loads(proc.stdout):
        name = manifest["metadata"]["name"]
        assert manifest["metadata"] == {"name": name, "version": "1.4.0", "owner": "shop@example.com",
                                        "labels": {"team": "commerce", "tier": "gold=1"}}
        assert manifest["spec"]["endpoint"]["url"] == f"https://tools.example.com/tools/{name}"


def test_dotted_module_name_from_the_current_directory(eai, tree):
    root = tree({"shop/__init__.py": "", "shop/orders.py": tool_module("search_orders")})
    proc = eai(["tools", "scan", "shop.orders", "-f", "json"], cwd=root)
    assert proc.returncode == 0, proc.stderr
    assert [m["metadata"]["name"] for m in json.loads(proc.stdout)] == ["search-orders"]


def test_out_writes_one_yaml_file_per_tool_then_leaves_unchanged_files_alone(eai, tree):
    root = tree({"tools/orders.py": tool_module("search_orders"), "tools/fr.py": UNICODE_TOOL})
    proc = eai(["tools", "scan", "tools", "--out", "manifests"], cwd=root)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == ""
    assert "manifests: 2 manifests (2 created, 0 updated, 0 unchanged)" in proc.stderr
    assert sorted(os.listdir(root / "manifests")) == ["resume-text.yaml", "search-orders.yaml"]
    raw = (root / "manifests" / "resume-text.yaml").read_bytes()
    assert b"\r\n" not in raw
    manifest = yaml.safe_load(raw.decode("utf-8"))
    assert manifest["spec"]["description"] == "Résume un texte — en français."
    assert raw.decode("utf-8") == to_yaml(manifest)  # key order as the SDK gives it
    assert "équipe@example.com" in raw.decode("utf-8")  # UTF-8 kept, not escaped

    before = os.stat(root / "manifests" / "search-orders.yaml").st_mtime_ns
    proc = eai(["tools", "scan", "tools", "--out", "manifests"], cwd=root)
    assert "(0 created, 0 updated, 2 unchanged)" in proc.stderr
    assert os.stat(root / "manifests" / "search-orders.yaml").st_mtime_ns == before


def test_out_warns_about_files_without_a_tool_and_keeps_them(eai, project):
    (project / "manifests").mkdir()
    (project / "manifests" / "old-tool.yaml").write_text("kind: Tool\n", encoding="utf-8")
    proc = eai(["tools", "scan", "tools", "--out", "manifests"], cwd=project)
    assert proc.returncode == 0
    assert "warning: manifests/old-tool.yaml has no tool in the scanned code" in proc.stderr
    assert (project / "manifests" / "old-tool.yaml").exists()


def test_out_writes_nothing_when_the_scan_has_errors(eai, tree):
    root = tree({"tools/good.py": tool_module("search_orders"), "tools/bad.py": "1 / 0\n"})
    proc = eai(["tools", "scan", "tools", "--out", "manifests"], cwd=root)
    assert proc.returncode == 1
    assert "nothing written" in proc.stderr
    assert not (root / "manifests").exists()


def test_check_passes_when_the_directory_matches(eai, project):
    assert eai(["tools", "scan", "tools", "--out", "manifests"], cwd=project).returncode == 0
    proc = eai(["tools", "scan", "tools", "--out", "manifests", "--check"], cwd=project)
    assert (proc.returncode, proc.stdout) == (0, "")
    assert "2 manifests up to date" in proc.stderr


def _listing(folder):
    return {name: (folder / name).read_bytes() for name in sorted(os.listdir(folder))}


@pytest.mark.parametrize("drift", ["differs", "missing", "no tool"])
def test_check_fails_with_a_unified_diff_for_each_kind_of_drift(eai, project, drift):
    assert eai(["tools", "scan", "tools", "--out", "manifests"], cwd=project).returncode == 0
    folder = project / "manifests"
    if drift == "differs":
        path = folder / "search-orders.yaml"
        path.write_text(path.read_text(encoding="utf-8").replace("version: 0.1.0", "version: 0.0.9"), encoding="utf-8")
        expected = ["--- a/manifests/search-orders.yaml", "+++ b/manifests/search-orders.yaml", "-  version: 0.0.9", "+  version: 0.1.0"]
    elif drift == "missing":
        (folder / "issue-refund.yaml").unlink()
        expected = ["--- /dev/null", "+++ b/manifests/issue-refund.yaml", "+  name: issue-refund"]
    else:
        (folder / "renamed-tool.yaml").write_text("kind: Tool\nmetadata:\n  name: renamed-tool\n", encoding="utf-8")
        expected = ["--- a/manifests/renamed-tool.yaml", "+++ /dev/null", "-  name: renamed-tool"]
    before = _listing(folder)
    proc = eai(["tools", "scan", "tools", "--out", "manifests", "--check"], cwd=project)
    assert proc.returncode == 1
    lines = proc.stdout.splitlines()
    for line in expected:
        assert line in lines
    assert f"eai: error: manifests is out of date with the code: manifests/{'search-orders' if drift == 'differs' else 'issue-refund' if drift == 'missing' else 'renamed-tool'}.yaml {drift if drift != 'no tool' else 'has no tool'}" in proc.stderr
    assert _listing(folder) == before  # --check writes nothing


def test_check_against_a_missing_directory_reports_every_tool(eai, project):
    proc = eai(["tools", "scan", "tools", "--out", "manifests", "--check"], cwd=project)
    assert proc.returncode == 1
    assert proc.stdout.count("--- /dev/null") == 2
    assert not (project / "manifests").exists()


def test_writes_are_all_or_nothing(tmp_path, monkeypatch):
    folder = tmp_path / "out"
    folder.mkdir()
    (folder / "a.yaml").write_text("old\n", encoding="utf-8")
    real_mkstemp = files.tempfile.mkstemp
    calls = []

    def failing_mkstemp(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        return real_mkstemp(*args, **kwargs)

    monkeypatch.setattr(files.tempfile, "mkstemp", failing_mkstemp)
    with pytest.raises(UsageError, match="No space left on device"):
        files.write(str(folder), {"a.yaml": "new\n", "b.yaml": "new\n"})
    assert sorted(os.listdir(folder)) == ["a.yaml"]  # no temporary file left behind
    assert (folder / "a.yaml").read_text(encoding="utf-8") == "old\n"


def test_tool_names_that_cannot_be_file_names_are_refused():
    assert files.file_name("search-orders") == "search-orders.yaml"
    for bad in ("../x", "a/b", ".hidden", ""):
        with pytest.raises(UsageError):
            files.file_name(bad)


def test_static_flag_runs_the_static_scan_or_says_it_is_missing(eai, project):
    proc = eai(["tools", "scan", "tools", "--static", "-f", "json"], cwd=project)
    try:
        import enterprise_ai.scan.static  # noqa: F401
    except ImportError:
        assert proc.returncode == 2
        assert "static scan not available" in proc.stderr
    else:
        assert proc.returncode == 0, proc.stderr
        assert sorted(m["metadata"]["name"] for m in json.loads(proc.stdout)) == ["issue-refund", "search-orders"]
