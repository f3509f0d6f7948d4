"""``eai tools export``: tool entries for OpenAI, Anthropic and MCP from manifests or Python code.

Parses options, calls :func:`enterprise_ai.export.sources.collect_manifests` and
:func:`enterprise_ai.export.export_manifests`, and prints the entries (a JSON array by default).
"""

from __future__ import annotations

import enum
from typing import List

import typer

from enterprise_ai.cli.tools import app


class ExportTarget(str, enum.Enum):
    """Formats of ``eai tools export --to``."""

    openai = "openai"
    anthropic = "anthropic"
    mcp = "mcp"


class ExportFormat(str, enum.Enum):
    json = "json"
    yaml = "yaml"


HELP = """Print the tools of manifests or Python code as tool entries for a model API or MCP.

PATH is a manifest file (.yaml, .yml, .json), a .py file, a directory (both kinds, recursively) or a
dotted module name. Python code is scanned first (imported in a separate process; --static reads it
without importing it).

--to openai: Chat Completions {"type": "function", "function": {name, description, parameters}};
--to anthropic: Messages API {name, description, input_schema};
--to mcp: Model Context Protocol Tool {name, title, description, inputSchema, outputSchema, annotations}.
Model APIs accept names matching [A-Za-z0-9_-]{1,64}: '.' becomes '_'.

--strict (openai only): OpenAI strict mode (every property required, optional ones nullable,
additionalProperties false everywhere); fails naming each parameter it cannot express
(free-form mappings, fixed tuples, values of any type).

Exit codes: 0 ok, 1 a tool cannot be exported or the scan failed, 2 usage (bad path, bad manifest file).
"""


@app.command("export", help=HELP)
def export_command(
    ctx: typer.Context,
    paths: List[str] = typer.Argument(..., metavar="PATH...", help="Manifest files, .py files, directories or module names."),  # noqa: UP006
    to: ExportTarget = typer.Option(..., "--to", help="Target format: openai, anthropic or mcp."),
    strict: bool = typer.Option(False, "--strict", help="OpenAI strict-mode schemas, or fail naming what cannot be expressed."),
    static: bool = typer.Option(False, "--static", help="Scan Python code without importing it (AST only)."),
    fmt: ExportFormat = typer.Option(ExportFormat.json, "--format", "-f", help="Output on stdout: json (an array) or yaml."),
) -> None:
    from enterprise_ai.cli import render
    from enterprise_ai.cli.state import get_state
    from enterprise_ai.export import export_manifests
    from enterprise_ai.export.sources import collect_manifests

    state = get_state(ctx)
    manifests, problems = collect_manifests(paths, static=static)
    styles = {"error": "red", "warning": "yellow", "note": ""}
    for problem in problems:
        render.note(f"{problem.location()}: {problem.severity}: {problem.message}", state, style=styles.get(problem.severity))
    if any(p.severity == "error" for p in problems):
        render.note("nothing exported: fix the scan errors above first", state)
        raise typer.Exit(1)
    entries = export_manifests(manifests, to.value, strict=strict)
    render.emit(entries, fmt.value, state=state)
    if not entries:
        render.note(f"no tools found in {' '.join(paths)}", state)
