"""``eai tools register|apply|list|get|update|delete|invoke|invocations``: a tool's life on the gateway.

Each command parses options, calls a core function (:mod:`enterprise_ai.tools._register`,
:mod:`enterprise_ai.tools._invoke`, :class:`~enterprise_ai.tools.ToolsClient`) and renders the data.
"""

from __future__ import annotations

import enum
import sys
from pathlib import Path
from typing import Any, List, Optional  # noqa: UP035 - Typer reads these annotations

import typer

from enterprise_ai.cli import render
from enterprise_ai.cli.auth import client_for, output_option, profile_option
from enterprise_ai.cli.state import get_state
from enterprise_ai.cli.tools import app

class ToolStatus(str, enum.Enum):
    """Statuses of a registered tool (API.md): the choices of ``--status``, checked before any request."""

    draft = "draft"
    approved = "approved"
    restricted = "restricted"
    deprecated = "deprecated"
    blocked = "blocked"


TOOL_COLUMNS = [
    ("NAME", "name"),
    ("STATUS", "status"),
    ("VERSION", "version"),
    ("RISK", "risk_level"),
    ("OWNER", "owner"),
    ("DESCRIPTION", "description"),
]
#: fields of a gateway tool shown by ``eai tools get`` (table) besides those of TOOL_COLUMNS
GET_EXTRA_KEYS = ("action", "data_classification", "requires_approval", "endpoint_type", "digest", "created_by",
                  "created_at", "updated_at")
REGISTER_COLUMNS = [("TOOL", "tool"), ("RESULT", "result"), ("STATUS", "status"), ("SOURCE", "source")]
#: seconds between two polls of ``eai tools invocations --follow``
FOLLOW_POLL_SECONDS = 2.0
#: invocations read by each poll of ``--follow`` (more new ones than this between two polls are not shown)
FOLLOW_PAGE_SIZE = 100
#: invocations shown by ``eai tools invocations`` without ``--limit``
DEFAULT_INVOCATIONS = 20


def _tool_row(tool: dict[str, Any]) -> dict[str, Any]:
    manifest = tool.get("manifest") or {}
    meta = manifest.get("metadata") or {}
    spec = manifest.get("spec") or {}
    return {
        "name": tool.get("name") or meta.get("name"),
        "status": tool.get("status"),
        "version": tool.get("version") or meta.get("version"),
        "risk_level": tool.get("risk_level") or spec.get("risk_level"),
        "owner": tool.get("owner") or meta.get("owner"),
        "description": tool.get("description") or spec.get("description"),
    }


def register(
    ctx: typer.Context,
    paths: List[Path] = typer.Argument(  # noqa: UP006
        ..., help="Manifest files (.yaml, .yml, .json; - for standard input), Python files or directories.",
    ),
    dry_run: bool = typer.Option(False, "--dry-run", help="Validate on the server only; write nothing."),
    diff: bool = typer.Option(False, "--diff", help="Show a unified diff against each live tool's manifest."),
    exit_code: bool = typer.Option(
        False, "--exit-code", help="Exit 1 when a tool was (or would be) created or updated.",
    ),
    profile: Optional[str] = profile_option(),  # noqa: UP007
    output: render.OutputFormat = output_option(),
) -> None:
    """Register (apply) tools: report created, updated or unchanged for each.

    Python files and directories holding .py files are scanned first (client tools without an endpoint
    are skipped); a directory without Python code is read for manifest files. Every manifest is checked
    locally before the first one is sent: one invalid manifest and nothing is registered.
    """
    from enterprise_ai.tools import _register

    state = get_state(ctx)
    collected = _register.collect(paths)
    for line in collected.notes:
        render.note(line, state)
    if not collected.candidates:
        render.note("no tool found in the given paths", state)
    with client_for(profile) as client:
        rows = _register.apply(client, collected.candidates, dry_run=dry_run, diff=diff)
    if output is render.OutputFormat.table:
        for row in rows:
            if row.get("diff"):
                sys.stdout.write(row["diff"])
        render.emit([{k: v for k, v in r.items() if k != "diff"} for r in rows], output,
                    columns=REGISTER_COLUMNS, state=state)
        for row in rows:
            for err in row.get("errors", []):
                render.note(f"{row['source']}: {err.get('path', '')}: {err.get('message', '')}", state)
    else:
        render.emit(rows, output, state=state)
    if any(r.get("result") == "invalid" for r in rows):
        raise typer.Exit(1)
    if exit_code and _register.changed(rows):
        raise typer.Exit(1)


app.command("register")(register)
app.command("apply", help="Alias of 'register'.")(register)


@app.command("list")
def list_(
    ctx: typer.Context,
    status: Optional[ToolStatus] = typer.Option(  # noqa: UP007
        None, "--status", case_sensitive=False, help="Only tools with this status.",
    ),
    limit: Optional[int] = typer.Option(  # noqa: UP007
        None, "--limit", min=1, help="Most tools shown (default: all).",
    ),
    profile: Optional[str] = profile_option(),  # noqa: UP007
    output: render.OutputFormat = output_option(),
) -> None:
    """List (discover) the tenant's tools in name order, following every page."""
    from itertools import islice

    with client_for(profile) as client:
        tools = list(islice(client.iter_tools(status=status.value if status else None, limit=min(limit or 500, 500)),
                            limit))
    data = tools if output is not render.OutputFormat.table else [_tool_row(t) for t in tools]
    render.emit(data, output, columns=TOOL_COLUMNS, state=get_state(ctx))


@app.command("get")
def get(
    ctx: typer.Context,
    name: str = typer.Argument(..., help="Tool name."),
    profile: Optional[str] = profile_option(),  # noqa: UP007
    output: render.OutputFormat = output_option(),
) -> None:
    """Show one tool: manifest, risk level, owner, status."""
    with client_for(profile) as client:
        tool = client.get(name)
    if output is render.OutputFormat.table:
        details = {k: tool[k] for k in GET_EXTRA_KEYS if tool.get(k) is not None}
        render.emit({**_tool_row(tool), **details}, output, state=get_state(ctx))
    else:
        render.emit(tool, output, state=get_state(ctx))


@app.command("update")
def update(
    ctx: typer.Context,
    name: str = typer.Argument(..., help="Tool name."),
    owner: Optional[str] = typer.Option(None, "--owner", help="New owner."),  # noqa: UP007
    description: Optional[str] = typer.Option(None, "--description", help="New description."),  # noqa: UP007
    status: Optional[ToolStatus] = typer.Option(  # noqa: UP007
        None, "--status", case_sensitive=False, help="New status (approved goes through an approval).",
    ),
    profile: Optional[str] = profile_option(),  # noqa: UP007
    output: render.OutputFormat = output_option(),
) -> None:
    """Change a tool's owner, description or status; a promotion to approved prints its approval id."""
    from enterprise_ai.errors import UsageError

    changes = {k: v for k, v in {"owner": owner, "description": description,
                                 "status": status.value if status else None}.items() if v is not None}
    if not changes:
        raise UsageError("nothing to change: give --owner, --description or --status")
    state = get_state(ctx)
    with client_for(profile) as client:
        result = client.update(name, **changes)
    if isinstance(result, dict) and result.get("approval_id"):
        render.note(f"promotion of {name!r} to approved waits for approval {result['approval_id']}", state)
        render.note(
            f"another principal (tenant_admin or security_officer, not you: four eyes) approves it with: "
            f"eai approvals approve {result['approval_id']}", state)
    data = result
    if output is render.OutputFormat.table and isinstance(result, dict):
        if isinstance(result.get("tool"), dict):  # 202: {approval_id, status, tool}
            data = {"tool": result["tool"].get("name"), "status": result.get("status"),
                    "approval_id": result.get("approval_id")}
        elif "manifest" in result:
            data = _tool_row(result)
    render.emit(data, output, state=state)


@app.command("delete")
def delete(
    ctx: typer.Context,
    name: str = typer.Argument(..., help="Tool name."),
    yes: bool = typer.Option(False, "--yes", "-y", help="Do not ask (required when stdin is not a terminal)."),
    profile: Optional[str] = profile_option(),  # noqa: UP007
) -> None:
    """Remove a tool from the registry (asks first on a terminal)."""
    from enterprise_ai.errors import UsageError

    state = get_state(ctx)
    if not yes:
        if not sys.stdin.isatty():
            raise UsageError(f"refusing to delete {name!r} without confirmation", hint="add --yes")
        if not typer.confirm(f"Delete tool {name!r}?", default=False, err=True):
            raise typer.Exit(1)
    with client_for(profile) as client:
        client.delete(name)
    render.note(f"deleted {name!r}", state)


def _split_wait(pairs: List[str], wait: bool) -> tuple[List[str], Optional[float]]:  # noqa: UP006, UP007
    """``--wait [SECONDS]``: a bare number among the words is the deadline (key=value words hold '=')."""
    from enterprise_ai.errors import UsageError
    from enterprise_ai.tools._invoke import DEFAULT_WAIT_SECONDS

    numbers = [p for p in pairs if "=" not in p and p.replace(".", "", 1).isdigit()]
    rest = [p for p in pairs if p not in numbers]
    if numbers and not wait:
        raise UsageError(f"argument {numbers[0]!r} is not key=value")
    if len(numbers) > 1:
        raise UsageError("--wait takes one number of seconds")
    if not wait:
        return rest, None
    return rest, float(numbers[0]) if numbers else DEFAULT_WAIT_SECONDS


@app.command("invoke")
def invoke(
    ctx: typer.Context,
    name: str = typer.Argument(..., metavar="NAME", help="Tool name."),
    pairs: Optional[List[str]] = typer.Argument(  # noqa: UP006, UP007
        None, metavar="KEY=VALUE", help="Arguments, each typed by the tool's input schema (a=1 is an integer).",
    ),
    args_json: Optional[str] = typer.Option(None, "--args-json", help="Arguments as one JSON object."),  # noqa: UP007
    args_file: Optional[Path] = typer.Option(  # noqa: UP007
        None, "--args-file", help="File holding the arguments as a JSON object (- for standard input).",
    ),
    run_id: Optional[str] = typer.Option(  # noqa: UP007
        None, "--run-id", help="Run this call belongs to (X-EAI-Run-Id).",
    ),
    idempotency_key: Optional[str] = typer.Option(  # noqa: UP007
        None, "--idempotency-key",
        help="Idempotency-Key (default: a new UUID); the same key replays the first response.",
    ),
    wait: bool = typer.Option(
        False, "--wait",
        help="--wait [SECONDS]: wait for a needed approval (a bare number after it; default 300 s), then call again.",
    ),
    approval_id: Optional[str] = typer.Option(  # noqa: UP007
        None, "--approval-id", help="An approved approval for these arguments (from an earlier pending call).",
    ),
    profile: Optional[str] = profile_option(),  # noqa: UP007
    output: render.OutputFormat = output_option(),
) -> None:
    """Invoke a tool through the gateway; print status, result, duration, cost and decision id.

    Exit codes: 1 the call failed, 4 denied or approval rejected, 8 still waiting for approval.
    """
    from enterprise_ai.tools import _invoke

    state = get_state(ctx)
    words, deadline = _split_wait(list(pairs or []), wait)
    _invoke.check_sources(words, args_json=args_json, args_file=args_file)  # before any request
    with client_for(profile) as client:
        schema = (((client.get(name).get("manifest") or {}).get("spec") or {}).get("input_schema"))
        arguments = _invoke.build_arguments(words, schema, args_json=args_json, args_file=args_file)
        result = _invoke.invoke_and_wait(
            client, name, arguments, run_id=run_id, idempotency_key=idempotency_key, wait=deadline,
            approval_id=approval_id, on_pending=lambda aid: render.note(
                f"the call needs approval {aid}" + (f"; waiting up to {deadline:g} s" if deadline is not None else ""),
                state),
        )
    cost = result.get("cost") or {}
    summary = {
        "status": result.get("status"),
        "result": result.get("result"),
        "error": result.get("error"),
        "duration_ms": result.get("duration_ms"),
        "cost": f"{cost.get('amount')} {cost.get('currency', '')}".strip() if cost else None,
        "decision_id": result.get("decision_id"),
        "invocation_id": result.get("id"),
    }
    render.emit(summary if output is render.OutputFormat.table else result, output, state=state)
    if result.get("status") == "failed":
        raise typer.Exit(1)


@app.command("invocations")
def invocations(
    ctx: typer.Context,
    tool: Optional[str] = typer.Option(None, "--tool", help="Only this tool's invocations."),  # noqa: UP007
    run_id: Optional[str] = typer.Option(None, "--run-id", help="Only this run's invocations."),  # noqa: UP007
    limit: Optional[int] = typer.Option(  # noqa: UP007
        None, "--limit", min=1, help="Most invocations shown (newest first; default 20). Not with --all.",
    ),
    all_: bool = typer.Option(False, "--all", help="Every invocation, streamed page by page."),
    follow: bool = typer.Option(
        False, "--follow", "-f", help="Keep polling and print new invocations (Ctrl-C stops).",
    ),
    profile: Optional[str] = profile_option(),  # noqa: UP007
    output: render.OutputFormat = output_option(),
) -> None:
    """Show invocations: time, tool, actor, status, decision, duration, cost, DLP detections, run id."""
    from itertools import islice

    from enterprise_ai.errors import UsageError
    from enterprise_ai.tools import _invoke

    if all_ and limit is not None:
        raise UsageError("--limit and --all cannot be combined: --all shows every invocation")
    if all_ and follow:
        raise UsageError("--all and --follow cannot be combined: use --follow with --limit N")
    limit = DEFAULT_INVOCATIONS if limit is None else limit
    state = get_state(ctx)
    table = output is render.OutputFormat.table
    with client_for(profile) as client:
        if all_:
            _stream(client.iter_invocations(tool=tool, run_id=run_id, limit=500), output, state)
            return
        items = list(islice(client.iter_invocations(tool=tool, run_id=run_id, limit=min(limit, 500)), limit))
        if follow:  # oldest first, then new ones as they come, like tail -f; JSON as JSON Lines
            # Everything on the first poll page already exists: only later invocations are "new".
            seen = {r.get("id") for r in items} | {r.get("id") for r in _poll(client, tool, run_id)}
            _write(list(reversed(items)), output, state, True)
            _follow(client, tool, run_id, seen, output, state)
            return
        rows = [_invoke.invocation_row(r) for r in items] if table else items
        render.emit(rows, output, columns=_invoke.INVOCATION_COLUMNS, state=state)


def _write(items: List[dict], output: render.OutputFormat, state: Any, header: bool) -> None:  # noqa: UP006
    from enterprise_ai.tools import _invoke

    if output is render.OutputFormat.table:
        render.write_table([_invoke.invocation_row(r) for r in items], _invoke.INVOCATION_COLUMNS, state=state,
                           header=header)
    elif output is render.OutputFormat.json:
        for item in items:  # JSON Lines: one record per line, constant memory
            sys.stdout.write(render.to_json(item, indent=None) + "\n")
    else:
        sys.stdout.write("".join("---\n" + render.to_yaml(item) for item in items))
    sys.stdout.flush()


def _stream(records: Any, output: render.OutputFormat, state: Any) -> None:
    """Write records page by page (at most one page held in memory)."""
    batch: List[dict] = []  # noqa: UP006
    first = True
    for record in records:
        batch.append(record)
        if len(batch) >= 500:
            _write(batch, output, state, first)
            batch, first = [], False
    if batch or first:
        _write(batch, output, state, first)


def _poll(client: Any, tool: Optional[str], run_id: Optional[str]) -> List[dict]:  # noqa: UP006, UP007
    """The newest :data:`FOLLOW_PAGE_SIZE` invocations (one page), newest first."""
    from itertools import islice

    return list(islice(client.iter_invocations(tool=tool, run_id=run_id, limit=FOLLOW_PAGE_SIZE), FOLLOW_PAGE_SIZE))


def _follow(
    client: Any, tool: Optional[str], run_id: Optional[str], seen: set,  # noqa: UP007
    output: render.OutputFormat, state: Any,
) -> None:
    import time

    while True:
        time.sleep(FOLLOW_POLL_SECONDS)
        new = [r for r in _poll(client, tool, run_id) if r.get("id") not in seen]
        seen.update(r.get("id") for r in new)
        if new:
            _write(list(reversed(new)), output, state, False)
