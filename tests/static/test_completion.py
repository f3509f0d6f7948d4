"""Shell completion: Typer's stubs in completions/ (never stale), and candidates computed by eai at TAB time.

Each shell test sources the committed script in the real shell and completes through an ``eai`` on PATH
(a shim running this interpreter), so the whole path stub -> ``eai`` -> Typer is exercised.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import pytest

from enterprise_ai.cli.completion import render_script
from tests.static.helpers import REPO
from tests.support.cli import clean_env

FILES = {"bash": "eai.bash", "zsh": "_eai", "fish": "eai.fish"}

# (words typed, the last one being completed) -> candidates that must be offered
CASES = [
    (["eai", "to"], ["tools"]),
    (["eai", "tools", "sc"], ["scan"]),
    (["eai", "tools", "scan", "--fo"], ["--format"]),
    (["eai", "tools", "validate", "--format", ""], ["text", "json", "github", "junit", "sarif"]),
]


@pytest.fixture(scope="module")
def shell_env(tmp_path_factory):
    """Environment with an ``eai`` shim first on PATH (the stubs call ``eai`` by name)."""
    bin_dir = tmp_path_factory.mktemp("bin")
    shim = bin_dir / "eai"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m enterprise_ai.cli "$@"\n', encoding="utf-8")
    shim.chmod(0o755)
    return clean_env({"PATH": os.pathsep.join([str(bin_dir), os.environ.get("PATH", "")])})


def _run(shell: str, code: str, env: dict[str, str]) -> str:
    return subprocess.run([shell, "-c", code], capture_output=True, text=True, timeout=60, env=env, check=True).stdout


@pytest.mark.parametrize("shell", sorted(FILES))
def test_committed_completion_scripts_are_up_to_date(shell):
    committed = (REPO / "completions" / FILES[shell]).read_text(encoding="utf-8")
    assert committed == render_script(shell), "stale: run `python scripts/gen_completions.py`"
    assert "_EAI_COMPLETE=complete_" + shell in committed


def test_gen_completions_check_mode_agrees():
    # sys.executable, not "python": the interpreter running the tests has eai installed, PATH may not
    proc = subprocess.run([sys.executable, str(REPO / "scripts" / "gen_completions.py"), "--check"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr


def test_eai_completion_prints_the_committed_script(eai):
    proc = eai(["completion", "fish"])
    assert proc.returncode == 0
    assert proc.stdout == (REPO / "completions" / "eai.fish").read_text(encoding="utf-8")
    assert eai(["completion", "tcsh"]).returncode == 2
    assert "--install-completion" not in eai(["--help"]).stdout


@pytest.mark.parametrize(("words", "expected"), CASES)
def test_eai_prints_candidates_under_the_completion_variables(eai, words, expected):
    env = {"_EAI_COMPLETE": "complete_bash", "COMP_WORDS": " ".join(words), "COMP_CWORD": str(len(words) - 1)}
    proc = eai([], env=env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == expected


def test_bash_completion_through_the_sourced_script(shell_env):
    script = REPO / "completions" / "eai.bash"
    code = [f'source "{script}"']
    for words, _ in CASES:
        quoted = " ".join(f"'{w}'" for w in words)
        code.append(f'COMP_WORDS=({quoted}); COMP_CWORD={len(words) - 1}; _eai_completion eai; printf "%s\\n" "${{COMPREPLY[@]}}"; echo @@')
    out = _run("bash", "\n".join(code), shell_env).split("@@\n")
    assert [block.split() for block in out[: len(CASES)]] == [expected for _, expected in CASES]


@pytest.mark.skipif(shutil.which("zsh") is None, reason="zsh is not installed")
def test_zsh_completion_through_the_sourced_script(shell_env):
    script = REPO / "completions" / "_eai"
    code = [
        "compdef() { : }",  # compsys is not loaded in `zsh -c`: stand-ins print what the stub hands to it
        '_arguments() { print -r -- "$@" }',
        "_files() { print -- @files }",
        f'source "{script}"',
    ]
    for words, _ in CASES:
        quoted = " ".join(f"'{w}'" for w in words)
        code.append(f"words=({quoted}); CURRENT={len(words)}; _eai_completion; print -- @@")
    out = _run("zsh", "\n".join(code), shell_env).split("@@\n")
    # the stub evals: _arguments '*: :(("value":"help" "value2" ...))'
    values = [re.findall(r'(?:\(\(| )"([^"]*)"', block) for block in out[: len(CASES)]]
    assert values == [expected for _, expected in CASES]


@pytest.mark.skipif(shutil.which("fish") is None, reason="fish is not installed")
def test_fish_completion_through_the_sourced_script(shell_env):
    script = REPO / "completions" / "eai.fish"
    code = [f'source "{script}"']
    for words, _ in CASES:
        code.append(f"complete -C {' '.join(words)!r}; echo @@")
    out = _run("fish", "; ".join(code), shell_env).split("@@\n")
    values = [[line.split("\t")[0] for line in block.splitlines()] for block in out[: len(CASES)]]
    assert values == [sorted(expected) for _, expected in CASES]  # fish sorts the candidates
    assert out[1].startswith("scan\t")  # with its help line
