"""``eai tools serve PATH...``: run the tool host, serving every LocalTool found in PATH over HTTP.

Core code: :mod:`enterprise_ai.gateway.toolload` (finding the tools) and
:mod:`enterprise_ai.gateway.toolhost` (the app and the server).
"""

from __future__ import annotations

from typing import List

import typer

from enterprise_ai.cli.tools import app

HELP = (
    "Serve the tools found in PATH (files, directories or module names) at POST /tools/<name>.\n\n"
    "This is the default http endpoint of a manifest (http://127.0.0.1:8000/tools/<name>), so a tool "
    "written with the SDK runs behind the gateway with no extra code. Arguments are validated against "
    "the tool's input schema (422 invalid_arguments); a tool's own exception answers 500 tool_error. "
    "The modules are imported in this process: only serve code you trust. Stop with Ctrl-C."
)


@app.command("serve", help=HELP)
def serve(
    ctx: typer.Context,
    paths: List[str] = typer.Argument(  # noqa: UP006 - Typer needs typing.List on 3.10
        ..., metavar="PATH", help="Python files, directories or module names."
    ),
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on (loopback unless --allow-remote)."),
    port: int = typer.Option(8000, "--port", min=0, max=65535, help="TCP port; 0 picks a free one."),
    allow_remote: bool = typer.Option(False, "--allow-remote", help="Allow a non-loopback --host."),
) -> None:
    """Run the tool host until interrupted."""
    from enterprise_ai.cli import render
    from enterprise_ai.cli.state import get_state
    from enterprise_ai.gateway import require_extra

    require_extra()
    from enterprise_ai.gateway.toolhost import bind_socket, create_toolhost_app, serve_toolhost
    from enterprise_ai.gateway.toolload import load_local_tools

    state = get_state(ctx)
    tools = load_local_tools(paths)
    application = create_toolhost_app(tools)
    sock = bind_socket(host, port, allow_remote=allow_remote)
    bound_host, bound_port = sock.getsockname()[:2]
    shown = f"[{bound_host}]" if ":" in bound_host else bound_host
    render.note(f"eai tool host: serving {len(tools)} tool(s) on http://{shown}:{bound_port}", state)
    for local in sorted(tools, key=lambda t: t.name):
        render.note(f"  POST http://{shown}:{bound_port}/tools/{local.name}", state)
    serve_toolhost(application, sock)
