"""``eai auth login|status|logout``, and the ``--profile`` option and client factory the remote commands share.

A token is never a command-line value (it would land in shell history and ``ps``): ``login`` reads it
from stdin with ``--token-stdin``, or from a hidden prompt on a terminal. Core: :mod:`enterprise_ai.auth`.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, Optional

import typer

from enterprise_ai.cli import render
from enterprise_ai.cli.state import get_state

if TYPE_CHECKING:  # pragma: no cover
    from enterprise_ai.tools._client import ToolsClient

app = typer.Typer(no_args_is_help=True)

PROFILE_HELP = "Profile to use (default: EAI_PROFILE, then the config's default profile)."
OUTPUT_HELP = "Output format: table (a table on a terminal, tab-separated text otherwise), json or yaml."


def profile_option() -> Any:
    """The ``--profile`` option shared by every command that talks to the gateway."""
    return typer.Option(None, "--profile", "-p", help=PROFILE_HELP, show_default=False)


def output_option() -> Any:
    """The ``-o/--output`` option shared by every command that prints data."""
    return typer.Option(render.OutputFormat.table, "--output", "-o", help=OUTPUT_HELP, case_sensitive=False)


def client_for(profile: Optional[str]) -> ToolsClient:  # noqa: UP007
    """A ToolsClient for the active profile (token from EAI_API_KEY, the keyring or the insecure file)."""
    from enterprise_ai.auth import open_client

    return open_client(profile, on_retry=lambda message: render.note(message))


def _read_token(from_stdin: bool) -> str:
    from enterprise_ai.errors import UsageError

    if from_stdin:
        return sys.stdin.readline().strip()
    if not sys.stdin.isatty():
        raise UsageError("no terminal to ask for the token", hint="pipe it in: ... | eai auth login --token-stdin")
    import getpass

    return getpass.getpass("Token (hidden): ").strip()


@app.command("login")
def login(
    ctx: typer.Context,
    profile: Optional[str] = profile_option(),  # noqa: UP007
    base_url: Optional[str] = typer.Option(  # noqa: UP007
        None, "--base-url", help="Gateway URL (default: the profile's, EAI_BASE_URL, http://127.0.0.1:8700).",
    ),
    token_stdin: bool = typer.Option(False, "--token-stdin", help="Read the token from the first line of stdin."),
    insecure_storage: bool = typer.Option(
        False, "--insecure-storage", help="Without a usable OS keyring, keep the token in a file (mode 0600)."
    ),
    output: render.OutputFormat = output_option(),
) -> None:
    """Check a token against the gateway and store it in the OS keyring for a profile."""
    from enterprise_ai import auth

    state = get_state(ctx)
    token = _read_token(token_stdin)
    result = auth.login(
        token,
        profile=profile,
        base_url=base_url,
        insecure_storage=insecure_storage,
        warn=lambda msg: render.warn(msg, state),
    )
    render.note(f"logged in to {result['base_url']} as profile {result['profile']!r} "
                f"(token ...{result['token_last4']} in {result['token_storage']})", state)
    render.emit(result, output, state=state)


@app.command("status")
def status(
    ctx: typer.Context,
    profile: Optional[str] = profile_option(),  # noqa: UP007
    output: render.OutputFormat = output_option(),
) -> None:
    """Show the active profile, gateway URL, where the token comes from and its last 4 characters."""
    from enterprise_ai import auth

    render.emit(auth.status(profile), output, state=get_state(ctx))


@app.command("logout")
def logout(
    ctx: typer.Context,
    profile: Optional[str] = profile_option(),  # noqa: UP007
    output: render.OutputFormat = output_option(),
) -> None:
    """Remove the stored token of a profile (the profile's URL is kept)."""
    from enterprise_ai import auth

    state = get_state(ctx)
    result = auth.logout(profile)
    if not result["removed"]:
        render.note(f"no stored token for profile {result['profile']!r}", state)
    render.emit(result, output, state=state)
