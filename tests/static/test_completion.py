"""Shell completions: generated from the CLI, committed in completions/, and never stale."""

from __future__ import annotations

import shutil
import subprocess
import sys

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
    # sys.executable, not "python": the interpreter running the tests has eai installed, PATH may not
    proc = subprocess.run([sys.executable, str(REPO / "scripts" / "gen_completions.py"), "--check"], capture_output=True, text=True, timeout=60)
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


@pytest.mark.skipif(shutil.which("zsh") is None, reason="zsh is not installed")
def test_zsh_completion_offers_the_choices_of_the_option_being_completed():
    script = REPO / "completions" / "_eai"
    code = (
        "compdef() { : }\n"
        'compadd() { [[ "$1" == "--" ]] && shift; print -l -- "$@" }\n'  # zsh's compadd filters by prefix itself
        '_files() { print -- "@files" }\n'
        f'source "{script}"\n'
        'words=(eai --debug tools export x.yaml --to ""); CURRENT=7; _eai\n'
        'print -- "--"; words=(eai tools scan --out ""); CURRENT=5; _eai\n'
    )
    out = subprocess.run(["zsh", "-c", code], capture_output=True, text=True, timeout=30, check=True).stdout.split("--\n")
    assert out[0].split() == ["openai", "anthropic", "mcp"]
    assert out[1].split() == ["@files"]


@pytest.mark.skipif(shutil.which("fish") is None, reason="fish is not installed")
def test_fish_completion_completes_commands_and_choices():
    script = REPO / "completions" / "eai.fish"
    code = f'source "{script}"; complete -C "eai tools export x --to "; echo SEP; complete -C "eai tools ex"'
    out = subprocess.run(["fish", "-c", code], capture_output=True, text=True, timeout=30, check=True).stdout.split("SEP\n")
    assert sorted(out[0].split()) == ["anthropic", "mcp", "openai"]
    assert out[1].startswith("export\tPrint the tools of manifests")
