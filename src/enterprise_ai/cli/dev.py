"""``eai dev PATH...``: a local gateway and tool host for your modules, registered, approved and logged in.

Core: :mod:`enterprise_ai.tools._dev`.
"""

from __future__ import annotations

from pathlib import Path
from typing import List

import typer

HELP = (
    "Start a local gateway and a tool host for the tools in PATH, register and approve them, and "
    "write a 'dev' profile; stays in the foreground until Ctrl-C stops both."
)


def dev(
    ctx: typer.Context,
    paths: List[str] = typer.Argument(  # noqa: UP006
        ..., metavar="PATH...", help="Python files, directories or module names with @tool functions.",
    ),
    port: int = typer.Option(8700, "--port", min=0, max=65535, help="Gateway port (0 = a free one)."),
    tools_port: int = typer.Option(8000, "--tools-port", min=0, max=65535, help="Tool host port (0 = a free one)."),
    data_dir: Path = typer.Option(
        Path(".eai-dev"), "--data-dir", file_okay=False, help="Gateway data directory (kept between runs).",
    ),
    profile: str = typer.Option("dev", "--profile", "-p", help="Profile written for the dev principal."),
    insecure_storage: bool = typer.Option(
        False, "--insecure-storage", help="Without a usable OS keyring, keep the token in a file (mode 0600)."
    ),
) -> None:
    """Run the development loop (see HELP)."""
    from enterprise_ai.cli import render
    from enterprise_ai.cli.state import get_state
    from enterprise_ai.tools._dev import next_steps, run_dev

    state = get_state(ctx)

    def ready(summary: dict) -> None:
        for line in next_steps(summary):
            render.note(line, state)

    run_dev(
        paths, port=port, tools_port=tools_port, data_dir=data_dir, profile=profile,
        insecure_storage=insecure_storage, note=lambda m: render.note(m, state),
        warn=lambda m: render.warn(m, state), ready=ready,
    )
    render.note("eai dev: stopped", state)
