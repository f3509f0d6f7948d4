"""Shell completions: generated from the CLI, committed in completions/, and never stale."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from enterprise_ai.cli.completion import command_tree, render_script
from tests.static.helpers import REPO

FILES = {"bash": "eai.bash", "zsh": "_eai", "fish": "eai.fish"}


@pytest.fixture(scope="module")
def tree():
    return command_tree()


@pytest.mark.parametrize("shell", sorted(FILES))
def test_committed_completion_scripts_are_up_to_date(tree, shell):
    committed = (REPO / "completions" / FILES[shell]).read_text(encoding="utf-8")
    assert committed == render_script(shell, tree), "stale: run `python scripts/gen_completions.py`"


def test_gen_completions_check_mode_agrees(tmp_path):
    proc = subprocess.run(["python", str(REPO / "scripts" / "gen_completions.py"), "--check"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr


def test_eai_completion_prints_the_committed_script(eai):
    proc = eai(["completion", "bash"])
    assert proc.returncode == 0
    assert proc.stdout == (REPO / "completions" / "eai.bash").read_text(encoding="utf-8")
    assert eai(["completion", "tcsh"]).returncode == 2


def _complete(words: list[str]) -> list[str]:
    script = REPO / "completions" / "eai.bash"
    quoted = " ".join(f"'{w}'" for w in words)
    code = f'source "{script}"; COMP_WORDS=({quoted}); COMP_CWORD={len(words) - 1}; _eai; printf "%s\\n" "${{COMPREPLY[@]}}"'
    proc = subprocess.run(["bash", "-c", code], capture_output=True, text=True, timeout=30, check=True)
    return [line for line in proc.stdout.splitlines() if line]


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        (["eai", "to"], ["tools"]),
        (["eai", "tools", "ex"], ["export"]),
        (["eai", "--debug", "tools", "export", "x.yaml", "--to", ""], ["openai", "anthropic", "mcp"]),
        (["eai", "tools", "scan", "--format", "y"], ["yaml"]),
        (["eai", "tools", "scan", "--st"], ["--static", "--strict"]),
        (["eai", "completion", ""], ["bash", "zsh", "fish"]),
        (["eai", "tools", "scan", "--out", "/nonexistent-dir/"], []),
    ],
)
def test_bash_completion_completes_commands_options_and_choices(words, expected):
    assert sorted(_complete(words)) == sorted(expected)


def test_scripts_are_valid_shell_syntax(tree):
    assert subprocess.run(["bash", "-n", str(REPO / "completions" / "eai.bash")], timeout=30).returncode == 0
    if shutil.which("zsh"):
        assert subprocess.run(["zsh", "-n", str(REPO / "completions" / "_eai")], timeout=30).returncode == 0
    if shutil.which("fish"):
        assert subprocess.run(["fish", "-n", str(REPO / "completions" / "eai.fish")], timeout=30).returncode == 0
    fish = render_script("fish", tree)
    assert "complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from export' -l to -x -a 'openai anthropic mcp'" in fish
