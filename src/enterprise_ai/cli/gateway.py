"""`eai gateway ...`: run the local Tool Gateway (``serve``) and hash tokens for its config (``hash-token``).

The core lives in :mod:`enterprise_ai.gateway.server` and :mod:`enterprise_ai.gateway.app`; FastAPI,
uvicorn and pydantic are imported inside the commands so that ``eai --help`` stays light.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer

from enterprise_ai.cli import render
from enterprise_ai.cli.state import get_state

app = typer.Typer(no_args_is_help=True)

DEFAULT_DATA_DIR = ".eai-data"


@app.command("serve")
def serve(
    ctx: typer.Context,
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on (loopback unless --allow-remote)."),
    port: int = typer.Option(8700, "--port", min=0, max=65535, help="TCP port (0 = any free port)."),
    data_dir: Path = typer.Option(Path(DEFAULT_DATA_DIR), "--data-dir", help="Directory of the SQLite file.",
                                  file_okay=False),
    config: Optional[Path] = typer.Option(  # noqa: UP007 - Typer needs Optional on 3.10
        None, "--config", help="gateway.yaml: principals, grants, egress, DLP, limits, prices, MCP servers.",
        dir_okay=False),
    allow_remote: bool = typer.Option(False, "--allow-remote", help="Accept a non-loopback --host."),
) -> None:
    """Run the local Tool Gateway in the foreground until Ctrl-C or SIGTERM.

    On a first start without principals in the config, it creates the tenant and an admin and
    prints the admin token once, with the `eai auth login` command that stores it.
    """
    from enterprise_ai.gateway.server import check_host

    state = get_state(ctx)
    check_host(host, allow_remote)  # before the heavy imports: a refusal is immediate
    from enterprise_ai.gateway import require_extra

    require_extra()

    from enterprise_ai.gateway.app import create_app
    from enterprise_ai.gateway.config import load_config
    from enterprise_ai.gateway.context import build_blocks
    from enterprise_ai.gateway.server import base_url, bind, bootstrap, lock_data_dir, run

    cfg = load_config(config)
    build_blocks(cfg)  # every config error before anything is created
    sock = bind(host, port)
    try:
        lock = lock_data_dir(data_dir)  # noqa: F841 - held until the process exits
        boot = bootstrap(cfg, data_dir)  # after bind: a first-start token is never created and then lost
        application = create_app(cfg, data_dir)
        url = base_url(sock)
        if boot.admin_token:
            typer.echo(f"Created tenant {boot.tenant!r} and admin principal {boot.admin_id!r}.")
            typer.echo(f"Admin token (shown only now; store it): {boot.admin_token}")
            typer.echo("Log in with:")
            typer.echo(f"  echo '{boot.admin_token}' | eai auth login --base-url {url} --token-stdin")
            sys.stdout.flush()
        for message in boot.warnings:
            render.warn(message, state)
        render.note(f"eai gateway: tenant {boot.tenant!r}, data in {data_dir}", state)
        render.note(f"eai gateway: listening on {url} (Ctrl-C to stop)", state)
        run(application, sock)
    finally:
        sock.close()
    render.note("eai gateway: stopped", state)


@app.command("hash-token")
def hash_token_cmd() -> None:
    """Read a token on stdin and print its SHA-256, the `token_sha256` of a principal in gateway.yaml."""
    from enterprise_ai.errors import UsageError
    from enterprise_ai.gateway.config import hash_token

    token = sys.stdin.readline().strip()
    if not token:
        raise UsageError("no token on stdin (echo TOKEN | eai gateway hash-token)")
    typer.echo(hash_token(token))
