"""The CI kit: pre-commit hooks (run with `pre-commit try-repo`) and the composite action's commands."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.static.helpers import REPO, write
from tests.support.cli import clean_env

TOOLS = '''from enterprise_ai.tools import tool


@tool(action="write", scopes=["orders:write"])
def cancel_order(order_id: str, reason: str = "customer request") -> None:
    """Cancel an order."""
'''

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is needed")


def _env(tmp_path: Path) -> dict[str, str]:
    env = clean_env({"PRE_COMMIT_HOME": str(tmp_path / "pre-commit-cache"), "HOME": str(tmp_path),
                     "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
                     "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"})
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    for key in [k for k in env if k.startswith("GIT_") and k not in ("GIT_CONFIG_NOSYSTEM",) and "AUTHOR" not in k and "COMMITTER" not in k]:
        del env[key]
    return env


def _run(args, cwd, env, check=True):
    proc = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
    if check and proc.returncode != 0:
        raise AssertionError(f"{args} failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    return proc


def _git_repo(path: Path, env) -> None:
    _run(["git", "init", "-q", "-b", "main"], path, env)
    _run(["git", "add", "-A"], path, env)
    _run(["git", "commit", "-q", "-m", "initial"], path, env)


@pytest.fixture
def project(tmp_path):
    """A hook repository (a git copy of this repo's hook definitions) and a project using it."""
    env = _env(tmp_path)
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    shutil.copy(REPO / ".pre-commit-hooks.yaml", hooks / ".pre-commit-hooks.yaml")
    _git_repo(hooks, env)
    code = tmp_path / "project"
    write(code / "src" / "shop_tools.py", TOOLS)
    _run([sys.executable, "-m", "enterprise_ai.cli", "tools", "scan", "--static", "--out", "manifests", "src"], code, env)
    assert (code / "manifests" / "cancel-order.yaml").is_file()
    _git_repo(code, env)
    return hooks, code, env


def _try_repo(hooks, code, env, hook):
    return _run(["pre-commit", "try-repo", str(hooks), hook, "--all-files"], code, env, check=False)


def test_pre_commit_scan_check_passes_then_fails_on_drift(project):
    hooks, code, env = project
    ok = _try_repo(hooks, code, env, "eai-scan-check")
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert re.search(r"eai manifests match the code.*Passed", ok.stdout)
    write(code / "src" / "shop_tools.py", TOOLS.replace("Cancel an order.", "Cancel an order now."))
    _run(["git", "add", "-A"], code, env)
    drift = _try_repo(hooks, code, env, "eai-scan-check")
    assert drift.returncode == 1
    assert "Failed" in drift.stdout
    assert "+  description: Cancel an order now." in drift.stdout
    assert "manifests is out of date with the code" in drift.stdout


def test_pre_commit_validate_passes_then_fails_on_a_bad_manifest(project):
    hooks, code, env = project
    ok = _try_repo(hooks, code, env, "eai-validate")
    assert ok.returncode == 0, ok.stdout + ok.stderr
    bad = (code / "manifests" / "cancel-order.yaml").read_text().replace("action: write", "action: explode")
    write(code / "manifests" / "broken.yaml", bad.replace("name: cancel-order", "name: broken"))
    _run(["git", "add", "-A"], code, env)
    failed = _try_repo(hooks, code, env, "eai-validate")
    assert failed.returncode == 1
    assert "manifests/broken.yaml:" in failed.stdout and "/spec/action" in failed.stdout


def _action_steps():
    action = yaml.safe_load((REPO / "action.yml").read_text())
    assert action["runs"]["using"] == "composite"
    defaults = {name: spec.get("default", "") for name, spec in action["inputs"].items()}
    return action["runs"]["steps"], defaults


def _step_env(step, inputs):
    env = {}
    for key, value in (step.get("env") or {}).items():
        match = re.fullmatch(r"\$\{\{\s*inputs\.([\w-]+)\s*\}\}", value)
        if match:
            env[key] = inputs[match.group(1)]
    return env


def test_action_installs_eai_from_its_checkout():
    steps, defaults = _action_steps()
    install = next(s for s in steps if s.get("name") == "Install eai")
    assert defaults["eai-package"] == ""
    assert "pip install" in install["run"] and '"${INPUT_EAI_PACKAGE:-$ACTION_PATH}"' in install["run"]
    assert install["env"]["ACTION_PATH"] == "${{ github.action_path }}"


def test_action_commands_validate_with_annotations_and_check_drift(project):
    _, code, env = project
    steps, defaults = _action_steps()
    inputs = {**defaults, "manifests": "manifests", "code": "src"}
    runnable = [s for s in steps if "run" in s and "eai tools" in s["run"]]
    assert [s["name"] for s in runnable] == ["Validate Tool Manifests", "Check that the manifests match the code"]

    def run_all():
        return [_run(["bash", "-eo", "pipefail", "-c", s["run"]], code, {**env, **_step_env(s, inputs)}, check=False)
                for s in runnable]

    validate, drift = run_all()
    assert (validate.returncode, drift.returncode) == (0, 0), validate.stderr + drift.stderr
    write(code / "manifests" / "broken.yaml", "apiVersion: enterprise-ai.io/v1\nkind: Tool\nmetadata: {}\n")
    write(code / "src" / "shop_tools.py", TOOLS.replace('"customer request"', '"other"'))
    validate, drift = run_all()
    assert validate.returncode == 1 and "::error file=manifests/broken.yaml,line=" in validate.stdout
    assert drift.returncode == 1 and "+        default: other" in drift.stdout
