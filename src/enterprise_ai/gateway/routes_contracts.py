"""``POST /v1/contracts/{name}/validate`` and ``GET /v1/audit`` (ext).

Contracts: ``tool-manifest`` runs exactly the checks of ``POST /v1/tools`` (the validator of
``eai tools validate`` plus the gateway's egress allow-list) and stores nothing. Open to any
authenticated caller; an unknown contract is ``404 unknown_contract``.

Audit (ext): ``tool.apply``, ``tool.update``, ``tool.delete``, ``approval.decide`` (and ``tool.grant``,
``tool.revoke``), newest first, for ``tenant_admin`` and ``security_officer``.
"""

from __future__ import annotations

from typing import Any, Optional

from fastapi import APIRouter, Body, Depends, Path, Query

from enterprise_ai.gateway.auth import SEE_ALL_ROLES, Principal
from enterprise_ai.gateway.context import Gateway, gateway, principal
from enterprise_ai.gateway.errors import ApiError, json_response
from enterprise_ai.gateway.models import AuditList, ContractResult
from enterprise_ai.gateway.responses import errors_for
from enterprise_ai.gateway.routes_tools import read_cursor, page_limit, require_roles
from enterprise_ai.gateway.store import encode_cursor

router = APIRouter(prefix="/v1")
CONTRACTS = ("tool-manifest",)


@router.post("/contracts/{name}/validate", response_model=ContractResult, operation_id="validate_contract",
             tags=["contracts"], responses=errors_for(401, 404))
async def validate_contract(
    name: str = Path(..., max_length=64), document: Any = Body(..., description="The document to check."),  # noqa: B008
    caller: Principal = Depends(principal), gw: Gateway = Depends(gateway),  # noqa: B008
) -> Any:
    """Check a document against a contract (formats included), storing nothing."""
    if name not in CONTRACTS:
        raise ApiError(404, "unknown_contract", f"unknown contract {name!r} (known: {', '.join(CONTRACTS)})",
                       {"contracts": list(CONTRACTS)})
    errors, warnings = gw.registry.check(document)
    return json_response({"contract": name, "valid": not errors, "errors": errors, "warnings": warnings})


@router.get("/audit", response_model=AuditList, operation_id="list_audit", tags=["audit"],
            responses=errors_for(401, 403))
async def list_audit(
    type: Optional[str] = Query(None, max_length=64), tool: Optional[str] = Query(None, max_length=253),  # noqa: A002
    limit: int = Depends(page_limit), cursor: Optional[str] = Query(None, max_length=512),  # noqa: B008
    caller: Principal = Depends(principal), gw: Gateway = Depends(gateway),  # noqa: B008
) -> Any:
    """(ext) Audit events, newest first, cursor-paged; tenant_admin or security_officer."""
    require_roles(caller, tuple(sorted(SEE_ALL_ROLES)), "reading the audit log")
    after = read_cursor(cursor, int)
    items, last = gw.store.list_audit(type_=type, tool=tool, after_seq=after, limit=limit)
    return json_response({"items": items, "next_cursor": encode_cursor(last) if last is not None else None})
