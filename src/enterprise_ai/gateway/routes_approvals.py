"""``/v1/approvals`` (API.md, ext): list, get, approve, reject, with four eyes.

* Who sees approvals: ``tenant_admin`` and ``security_officer`` see all; anyone else their own requests.
* Who decides: ``tenant_admin`` or ``security_officer`` (``403 forbidden`` otherwise), never the principal
  that asked (``403 self_approval_forbidden``); only a ``pending`` approval can be decided
  (``409 approval_not_pending``). Approving a promotion sets the tool's status to ``approved``.
  Every decision is audited as ``approval.decide``.
"""

from __future__ import annotations

from typing import Any, Optional

from fastapi import APIRouter, Body, Depends, Path, Query

from enterprise_ai.gateway.auth import APPROVER_ROLES, SEE_ALL_ROLES, Principal
from enterprise_ai.gateway.context import Gateway, gateway, principal
from enterprise_ai.gateway.errors import ApiError, json_response
from enterprise_ai.gateway.models import Approval, ApprovalList, ApprovalStatus, Decision
from enterprise_ai.gateway.responses import errors_for
from enterprise_ai.gateway.routes_tools import read_cursor, page_limit, require_roles
from enterprise_ai.gateway.store import encode_cursor

router = APIRouter(prefix="/v1/approvals", tags=["approvals"])
ApprovalPath = Path(..., min_length=1, max_length=128)


def _visible(gw: Gateway, caller: Principal, approval_id: str) -> dict[str, Any]:
    approval = gw.store.get_approval(approval_id)
    if approval is None or (caller.roles.isdisjoint(SEE_ALL_ROLES) and approval["requested_by"] != caller.id):
        raise ApiError(404, "approval_not_found", f"no approval {approval_id!r}", {"approval_id": approval_id})
    return approval


@router.get("", response_model=ApprovalList, operation_id="list_approvals", responses=errors_for(401))
async def list_approvals(
    status: Optional[ApprovalStatus] = Query(None), tool: Optional[str] = Query(None, max_length=253),  # noqa: B008
    limit: int = Depends(page_limit), cursor: Optional[str] = Query(None, max_length=512),  # noqa: B008
    caller: Principal = Depends(principal), gw: Gateway = Depends(gateway),  # noqa: B008
) -> Any:
    """Approvals, newest first, cursor-paged."""
    after = read_cursor(cursor, int)
    mine = None if not caller.roles.isdisjoint(SEE_ALL_ROLES) else caller.id
    items, last = gw.store.list_approvals(status=status, tool=tool, requested_by=mine, after_seq=after, limit=limit)
    return json_response({"items": items, "next_cursor": encode_cursor(last) if last is not None else None})


@router.get("/{approval_id}", response_model=Approval, operation_id="get_approval", responses=errors_for(401, 404))
async def get_approval(approval_id: str = ApprovalPath, caller: Principal = Depends(principal),  # noqa: B008
                       gw: Gateway = Depends(gateway)) -> Any:  # noqa: B008
    """One approval: kind, tool, requested_by, redacted arguments, status, decided_by, comment."""
    return json_response(_visible(gw, caller, approval_id))


def _decide(gw: Gateway, caller: Principal, approval_id: str, decision: Decision | None, status: str) -> Any:
    approval = _visible(gw, caller, approval_id)
    require_roles(caller, APPROVER_ROLES, "deciding an approval")
    if approval["requested_by"] == caller.id:
        raise ApiError(403, "self_approval_forbidden", "four eyes: nobody decides their own request",
                       {"approval_id": approval_id, "requested_by": caller.id})
    comment = gw.redact_text(decision.comment) if decision else None  # stored (and audited) redacted
    if not gw.store.decide_approval(approval_id, status, caller.id, comment):
        current = gw.store.get_approval(approval_id) or approval
        raise ApiError(409, "approval_not_pending", f"approval {approval_id!r} is {current['status']}, not pending",
                       {"approval_id": approval_id, "status": current["status"]})
    if status == "approved" and approval["kind"] == "promotion" and gw.registry.get(approval["tool"]) is not None:
        gw.registry.update(approval["tool"], status=approval["target_status"] or "approved")
    gw.store.add_audit("approval.decide", caller.id, tool=approval["tool"], approval_id=approval_id,
                       details={"decision": status, "kind": approval["kind"], "comment": comment})
    return json_response(gw.store.get_approval(approval_id))


_DECIDE_ERRORS = errors_for(401, 403, 404, 409)


@router.post("/{approval_id}/approve", response_model=Approval, operation_id="approve", responses=_DECIDE_ERRORS)
async def approve(approval_id: str = ApprovalPath, decision: Optional[Decision] = Body(None),  # noqa: B008
                  caller: Principal = Depends(principal), gw: Gateway = Depends(gateway)) -> Any:  # noqa: B008
    """Approve a pending request (four eyes). A promotion's tool becomes ``approved``."""
    return _decide(gw, caller, approval_id, decision, "approved")


@router.post("/{approval_id}/reject", response_model=Approval, operation_id="reject", responses=_DECIDE_ERRORS)
async def reject(approval_id: str = ApprovalPath, decision: Optional[Decision] = Body(None),  # noqa: B008
                 caller: Principal = Depends(principal), gw: Gateway = Depends(gateway)) -> Any:  # noqa: B008
    """Reject a pending request (four eyes)."""
    return _decide(gw, caller, approval_id, decision, "rejected")
