"""``eai approvals list|get|approve|reject``: human decisions on invocations and promotions (API.md, ext).

Deciding needs ``tenant_admin`` or ``security_officer``, and never on one's own request (403
``self_approval_forbidden``, exit 4); an approval already decided gives 409 (exit 6).
"""

from __future__ import annotations

import enum
from typing import Optional

import typer

from enterprise_ai.cli import render
from enterprise_ai.cli.auth import client_for, output_option, profile_option
from enterprise_ai.cli.state import get_state

app = typer.Typer(no_args_is_help=True)

class ApprovalStatus(str, enum.Enum):
    """Choices of ``eai approvals list --status`` (API.md statuses, plus ``all``), checked before any request."""

    pending = "pending"
    approved = "approved"
    rejected = "rejected"
    expired = "expired"
    consumed = "consumed"
    all = "all"


COLUMNS = [
    ("ID", "id"),
    ("KIND", "kind"),
    ("TOOL", "tool"),
    ("STATUS", "status"),
    ("REQUESTED BY", "requested_by"),
    ("DECIDED BY", "decided_by"),
    ("CREATED", "created_at"),
    ("COMMENT", "comment"),
]


@app.command("list")
def list_(
    ctx: typer.Context,
    status: ApprovalStatus = typer.Option(
        ApprovalStatus.pending, "--status", case_sensitive=False, help="Only approvals with this status (or all).",
    ),
    tool: Optional[str] = typer.Option(None, "--tool", help="Only approvals about this tool."),  # noqa: UP007
    limit: int = typer.Option(50, "--limit", min=1, max=500, help="Most approvals shown."),
    profile: Optional[str] = profile_option(),  # noqa: UP007
    output: render.OutputFormat = output_option(),
) -> None:
    """List approvals, newest first (pending ones by default)."""
    from itertools import islice

    with client_for(profile) as client:
        wanted = None if status is ApprovalStatus.all else status.value
        items = list(islice(client.approvals.iter(status=wanted, tool=tool, limit=min(limit, 500)), limit))
    render.emit(items, output, columns=COLUMNS, state=get_state(ctx))


@app.command("get")
def get(
    ctx: typer.Context,
    approval_id: str = typer.Argument(..., help="The approval id."),
    profile: Optional[str] = profile_option(),  # noqa: UP007
    output: render.OutputFormat = output_option(),
) -> None:
    """Show one approval: kind, tool, who asked, arguments (redacted), status, decision."""
    with client_for(profile) as client:
        render.emit(client.approvals.get(approval_id), output, state=get_state(ctx))


def _decide(
    ctx: typer.Context, verb: str, approval_id: str, comment: Optional[str], profile: Optional[str],  # noqa: UP007
    output: render.OutputFormat,
) -> None:
    state = get_state(ctx)
    with client_for(profile) as client:
        result = getattr(client.approvals, verb)(approval_id, comment)
    render.note(f"approval {approval_id}: {(result or {}).get('status', verb + 'd')}", state)
    render.emit(result, output, state=state)


@app.command("approve")
def approve(
    ctx: typer.Context,
    approval_id: str = typer.Argument(..., help="The approval id."),
    comment: Optional[str] = typer.Option(None, "--comment", help="Why (kept in the audit trail)."),  # noqa: UP007
    profile: Optional[str] = profile_option(),  # noqa: UP007
    output: render.OutputFormat = output_option(),
) -> None:
    """Approve a pending request (four eyes: not your own)."""
    _decide(ctx, "approve", approval_id, comment, profile, output)


@app.command("reject")
def reject(
    ctx: typer.Context,
    approval_id: str = typer.Argument(..., help="The approval id."),
    comment: Optional[str] = typer.Option(None, "--comment", help="Why (kept in the audit trail)."),  # noqa: UP007
    profile: Optional[str] = profile_option(),  # noqa: UP007
    output: render.OutputFormat = output_option(),
) -> None:
    """Reject a pending request."""
    _decide(ctx, "reject", approval_id, comment, profile, output)
