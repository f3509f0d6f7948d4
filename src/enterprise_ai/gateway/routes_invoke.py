"""``POST /v1/tools/{name}/invoke`` (the chain of :mod:`.invoke`) and the invocation records.

Who sees which records: ``tenant_admin`` and ``security_officer`` see all; anyone else sees their own
calls and the calls of tools they own or edit.
"""

from __future__ import annotations

from typing import Any, Optional

from fastapi import APIRouter, Depends, Header, Path, Query, Request

from enterprise_ai.gateway.auth import SEE_ALL_ROLES, Principal
from enterprise_ai.gateway.context import Gateway, gateway, principal
from enterprise_ai.gateway.errors import ApiError, json_response, request_id
from enterprise_ai.gateway.invoke import InvokeChain
from enterprise_ai.gateway.models import Invocation, InvocationList, InvokeBody
from enterprise_ai.gateway.responses import errors_for
from enterprise_ai.gateway.routes_tools import read_cursor, page_limit
from enterprise_ai.gateway.store import encode_cursor

router = APIRouter(prefix="/v1/tools", tags=["invocations"])


def _scope(gw: Gateway, caller: Principal) -> tuple[str, list[str]] | None:
    if not caller.roles.isdisjoint(SEE_ALL_ROLES):
        return None
    tools = [name for name in gw.registry.names() if "editor" in gw.authz.relations(caller, name)]
    return caller.id, tools


@router.get("/invocations", response_model=InvocationList, operation_id="list_invocations",
            responses=errors_for(401))
async def list_invocations(
    tool: Optional[str] = Query(None, max_length=253), run_id: Optional[str] = Query(None, max_length=256),
    limit: int = Depends(page_limit), cursor: Optional[str] = Query(None, max_length=512),  # noqa: B008
    caller: Principal = Depends(principal), gw: Gateway = Depends(gateway),  # noqa: B008
) -> Any:
    """Invocation records, newest first, cursor-paged; arguments and results are redacted copies."""
    after = read_cursor(cursor, int)
    # run ids are stored redacted (see the invoke chain): filter on the caller's value redacted the same way
    items, last = gw.store.list_invocations(tool=tool, run_id=gw.redact_text(run_id),
                                            actors_or_tools=_scope(gw, caller), after_seq=after, limit=limit)
    return json_response({"items": items, "next_cursor": encode_cursor(last) if last is not None else None})


@router.get("/invocations/{invocation_id}", response_model=Invocation, operation_id="get_invocation",
            responses=errors_for(401, 404))
async def get_invocation(invocation_id: str = Path(..., max_length=128),  # noqa: B008
                         caller: Principal = Depends(principal), gw: Gateway = Depends(gateway)) -> Any:  # noqa: B008
    """(ext) One invocation record, e.g. to follow a sandbox execution from ``running`` to its end state."""
    record = gw.store.get_invocation(invocation_id)
    scope = _scope(gw, caller)
    if record is None or (scope is not None and record["actor"] != scope[0] and record["tool"] not in scope[1]):
        raise ApiError(404, "invocation_not_found", f"no invocation {invocation_id!r}")
    return json_response(record)


@router.post("/{name}/invoke", response_model=Invocation, operation_id="invoke_tool",
             responses={202: {"model": Invocation,
                              "description": "pending_approval (with approval_id), or a sandbox execution running"},
                        **errors_for(401, 403, 404, 409, 429)})
async def invoke_tool(
    request: Request, body: InvokeBody, name: str = Path(..., min_length=1, max_length=253),  # noqa: B008
    idempotency_key: Optional[str] = Header(None, alias="Idempotency-Key", max_length=255),  # noqa: B008
    caller: Principal = Depends(principal), gw: Gateway = Depends(gateway),  # noqa: B008
) -> Any:
    """Run the gateway chain (documented in :mod:`enterprise_ai.gateway.invoke`) and return the record:
    200 when executed (also when the upstream failed: see ``status`` and ``error``), 202 when pending
    approval or running in the sandbox."""
    outcome = await InvokeChain(gw, caller, name, body, idempotency_key, request_id(request)).run()
    return json_response(outcome.body, outcome.status, outcome.headers)
