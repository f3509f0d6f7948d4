"""``eai completion bash|zsh|fish``: Typer's shell completion, computed by ``eai`` itself at TAB time.

The printed script is Typer's small stub (:func:`typer._completion_shared.get_completion_script`). On TAB,
the shell runs ``eai`` with ``_EAI_COMPLETE=complete_<shell>`` and the words typed so far
(``COMP_WORDS``/``COMP_CWORD`` for bash, ``_TYPER_COMPLETE_ARGS`` for zsh and fish); Typer walks the live
command tree and prints the candidates (commands, options, ``Choice``/enum values, files), so completions
always match the installed version. :func:`enable` registers Typer's completion classes, which the root app
skips because it is built with ``add_completion=False`` (no ``--install-completion`` options).
``scripts/gen_completions.py`` writes the stubs into ``completions/`` for packagers.
"""

from __future__ import annotations

import enum

import typer
from typer._completion_classes import completion_init
from typer._completion_shared import get_completion_script

PROG_NAME = "eai"
COMPLETE_VAR = "_EAI_COMPLETE"  # Typer's default for prog_name "eai": f"_{PROG_NAME.upper()}_COMPLETE"

HELP = """Print a shell completion script for bash, zsh or fish.

Install it for the current user:

  bash:  eai completion bash > ~/.local/share/bash-completion/completions/eai
  zsh:   eai completion zsh > "${fpath[1]}/_eai"   (then restart zsh)
  fish:  eai completion fish > ~/.config/fish/completions/eai.fish

The script is a small stub: on TAB it asks eai for the candidates (commands, options, option values),
so completions always match the installed eai.
"""


class Shell(str, enum.Enum):
    bash = "bash"
    zsh = "zsh"
    fish = "fish"


SHELLS = tuple(shell.value for shell in Shell)


def enable() -> None:
    """Register Typer's bash/zsh/fish completion classes (idempotent; a few dict inserts, no import cost).

    Needed before the root app runs so that ``_EAI_COMPLETE=complete_bash|complete_zsh|complete_fish eai``
    prints candidates: ``add_completion=False`` on the root app skips Typer's own registration.
    """
    completion_init()


def render_script(shell: str) -> str:
    """The completion script of ``shell`` (``bash``, ``zsh`` or ``fish``), newline-terminated.

    Raises:
        enterprise_ai.errors.UsageError: an unknown shell.
    """
    if shell not in SHELLS:
        from enterprise_ai.errors import UsageError

        raise UsageError(f"unknown shell '{shell}': choose one of {', '.join(SHELLS)}")
    return get_completion_script(prog_name=PROG_NAME, complete_var=COMPLETE_VAR, shell=shell) + "\n"


def completion(shell: Shell = typer.Argument(..., help="bash, zsh or fish.")) -> None:
    """Print the completion script of ``shell`` on stdout."""
    typer.echo(render_script(shell.value), nl=False)
