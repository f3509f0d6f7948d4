"""``/v1/tools`` routes: apply, discover/list, get, update (PATCH), delete, and grants (ext).

Roles and relations (reference page, ``ToolsClient`` entries; API.md):

========================  =================================================  ==================================
route                     roles                                              relation
========================  =================================================  ==================================
POST /v1/tools            tenant_admin, developer, application_owner         editor on an existing tool; the
                                                                             applier of a new tool becomes owner
GET /v1/tools[/{name}]    any                                                viewer (else hidden / 404)
PATCH (owner, descr.)     tenant_admin, developer, application_owner         editor
PATCH (status)            tenant_admin, security_officer                     editor
DELETE                    tenant_admin                                       owner
grants (ext)              any                                                viewer to list, owner to change
========================  =================================================  ==================================

Missing role or relation: ``403 forbidden`` (details ``required_roles`` or ``relation``).

Status governance: re-applying a manifest whose ``spec`` changed beyond its description sends an
``approved`` tool back to ``draft`` (:func:`enterprise_ai.gateway.registry.behaviour_digest`) and expires
the tool's pending and approved-but-unused approvals (they were given for the old behaviour); a status
set by ``PATCH`` expires a pending promotion of the tool (it must not undo, say, a ``blocked``).
"""

from __future__ import annotations

from typing import Any, Optional

from fastapi import APIRouter, Body, Depends, Path, Query, Response

from enterprise_ai.gateway.auth import APPLY_ROLES, STATUS_ROLES, Principal
from enterprise_ai.gateway.context import Gateway, gateway, principal
from enterprise_ai.gateway.errors import ApiError, json_response
from enterprise_ai.gateway.models import Grant, GrantList, Promotion, Tool, ToolList, ToolPatch, ToolStatus
from enterprise_ai.gateway.registry import ToolEntry
from enterprise_ai.gateway.responses import errors_for
from enterprise_ai.gateway.store import decode_cursor, encode_cursor, new_id, now_iso

router = APIRouter(prefix="/v1/tools", tags=["tools"])

NamePath = Path(..., min_length=1, max_length=253, description="metadata.name of the tool.")


def require_roles(caller: Principal, roles: tuple[str, ...], what: str) -> None:
    """``403 forbidden`` unless ``caller`` holds one of ``roles``."""
    if not caller.has_role(*roles):
        raise ApiError(403, "forbidden", f"{what} needs one of the roles {', '.join(roles)}",
                       {"required_roles": list(roles)})


def require_relation(gw: Gateway, caller: Principal, name: str, relation: str, what: str) -> None:
    """``403 forbidden`` unless ``caller`` holds ``relation`` on tool ``name``."""
    if relation not in gw.authz.relations(caller, name):
        raise ApiError(403, "forbidden", f"{what} needs the {relation} relation on tool {name!r}",
                       {"relation": relation, "tool": name})


def visible_tool(gw: Gateway, caller: Principal, name: str) -> ToolEntry:
    """The tool, or ``404 tool_not_found`` when it does not exist or the caller may not view it."""
    tool = gw.registry.get(name)
    if tool is None or "viewer" not in gw.authz.relations(caller, name):
        raise ApiError(404, "tool_not_found", f"no tool named {name!r}", {"tool": name})
    return tool


async def page_limit(limit: int = Query(50, ge=1, le=500, description="Items per page (1-500).")) -> int:
    return limit


def bad_cursor() -> ApiError:
    return ApiError(422, "invalid_request", "cursor: not a cursor this gateway issued",
                    {"errors": [{"path": "/query/cursor", "message": "malformed cursor"}]})


def read_cursor(cursor: str | None, kind: type) -> Any:
    """The position inside a ``cursor`` query value (None for none); 422 ``invalid_request`` if malformed."""
    try:
        return decode_cursor(cursor, kind)
    except ValueError:
        raise bad_cursor() from None


@router.post("", status_code=201, response_model=Tool, operation_id="apply_tool",
             responses={200: {"model": Tool, "description": "updated or unchanged (see apply_status)"},
                        **errors_for(401, 403, s422="invalid_manifest: details.errors [{path, message}]")})
async def apply_tool(
    manifest: Any = Body(None, description="A Tool Manifest (MANIFEST.md)."),  # noqa: B008
    caller: Principal = Depends(principal), gw: Gateway = Depends(gateway),  # noqa: B008
) -> Any:
    """Create or update a tool from its manifest; ``apply_status`` says ``created`` (201), ``updated`` or
    ``unchanged`` (200), from the canonical digest. Audited as ``tool.apply``."""
    require_roles(caller, APPLY_ROLES, "applying a manifest")
    errors, _warnings = gw.registry.check(manifest)
    if errors:
        raise ApiError(422, "invalid_manifest", f"{errors[0]['path'] or '(document)'}: {errors[0]['message']}",
                       {"errors": errors})
    name = manifest["metadata"]["name"]
    current = gw.registry.get(name)
    if current is not None:
        require_relation(gw, caller, name, "editor", "updating an existing tool")
    before = current.status if current is not None else None
    entry, apply_status, behaviour_changed = gw.registry.apply(manifest, caller.id)
    if apply_status == "created":
        gw.authz.grant(name, caller.id, "owner")
    if apply_status != "unchanged":
        details: dict[str, Any] = {"apply_status": apply_status, "digest": entry.row["digest"],
                                   "version": entry.row["version"]}
        if behaviour_changed:  # what was reviewed is gone: open and unused approvals no longer apply
            gw.store.expire_approvals(name, ("promotion", "invocation"), ("pending", "approved"))
        if before is not None and entry.status != before:
            details["status"] = {"from": before, "to": entry.status}
        gw.store.add_audit("tool.apply", caller.id, tool=name, details=details)
    return json_response(entry.public(apply_status), 201 if apply_status == "created" else 200)


@router.get("", response_model=ToolList, operation_id="list_tools", responses=errors_for(401))
async def list_tools(
    status: Optional[ToolStatus] = Query(None, description="Only tools with this status."),  # noqa: B008
    limit: int = Depends(page_limit), cursor: Optional[str] = Query(None, max_length=512),  # noqa: B008
    caller: Principal = Depends(principal), gw: Gateway = Depends(gateway),  # noqa: B008
) -> Any:
    """Tools the caller may view, in name order, one page (``next_cursor`` for the next)."""
    after = read_cursor(cursor, str)
    items: list[dict[str, Any]] = []
    next_cursor = None
    for name in gw.registry.names():
        if after is not None and name <= after:
            continue
        tool = gw.registry.tools[name]
        if status is not None and tool.status != status:
            continue
        if "viewer" not in gw.authz.relations(caller, name):
            continue
        if len(items) == limit:
            next_cursor = encode_cursor(items[-1]["name"])
            break
        items.append(tool.public())
    return json_response({"items": items, "next_cursor": next_cursor})


@router.get("/{name}", response_model=Tool, operation_id="get_tool", responses=errors_for(401, 404))
async def get_tool(name: str = NamePath, caller: Principal = Depends(principal),  # noqa: B008
                   gw: Gateway = Depends(gateway)) -> Any:  # noqa: B008
    """One tool: manifest, risk level, owner, status, digest. Needs the viewer relation."""
    return json_response(visible_tool(gw, caller, name).public())


@router.patch("/{name}", response_model=Tool, operation_id="update_tool",
              responses={202: {"model": Promotion, "description": "status approved: a promotion approval was opened"},
                         **errors_for(401, 403, 404)})
async def update_tool(patch: ToolPatch, name: str = NamePath, caller: Principal = Depends(principal),  # noqa: B008
                      gw: Gateway = Depends(gateway)) -> Any:  # noqa: B008
    """Change owner, description or status. ``approved`` opens a promotion (202 with ``approval_id``),
    applied when a second person approves it; other statuses apply at once. Audited as ``tool.update``."""
    tool = visible_tool(gw, caller, name)
    if patch.status is not None:
        require_roles(caller, STATUS_ROLES, "changing a tool's status")
    if patch.owner is not None or patch.description is not None:
        require_roles(caller, APPLY_ROLES, "changing a tool's owner or description")
    require_relation(gw, caller, name, "editor", "updating a tool")
    changes = patch.model_dump(exclude_none=True)
    promote = changes.get("status") == "approved" and tool.status != "approved"
    direct = {k: v for k, v in changes.items() if not (k == "status" and (promote or v == tool.status))}
    if direct:
        tool = gw.registry.update(name, **direct)
        if "status" in direct:  # a promotion asked for before this change must not undo it later
            gw.store.expire_approvals(name, ("promotion",), ("pending",))
        gw.store.add_audit("tool.update", caller.id, tool=name, details={"changes": direct})
    if promote:
        pending, _ = gw.store.list_approvals(status="pending", tool=name, requested_by=None, after_seq=None, limit=50)
        same = [a for a in pending if a["kind"] == "promotion"]
        if same:  # one open promotion per tool: asking again answers with it
            return json_response({"approval_id": same[0]["id"], "status": "pending_approval", "tool": tool.public()},
                                 202)
        approval_id = new_id("apr")
        gw.store.add_approval({"id": approval_id, "kind": "promotion", "tool": name, "requested_by": caller.id,
                               "target_status": "approved", "created_at": now_iso(),
                               "expires_at": _expiry(gw)})
        gw.store.add_audit("tool.update", caller.id, tool=name, approval_id=approval_id,
                           details={"changes": {"status": "approved"}, "promotion": "pending_approval"})
        return json_response({"approval_id": approval_id, "status": "pending_approval", "tool": tool.public()}, 202)
    return json_response(tool.public())


def _expiry(gw: Gateway) -> float:
    import time

    return time.time() + gw.config.approvals.ttl_seconds


@router.delete("/{name}", status_code=204, response_class=Response, operation_id="delete_tool",
               responses={204: {"description": "deleted"}, **errors_for(401, 403, 404)})
async def delete_tool(name: str = NamePath, caller: Principal = Depends(principal),  # noqa: B008
                      gw: Gateway = Depends(gateway)) -> Response:  # noqa: B008
    """Remove a tool (its invocation records stay). Needs tenant_admin and the owner relation.
    Audited as ``tool.delete``."""
    tool = visible_tool(gw, caller, name)
    require_roles(caller, ("tenant_admin",), "deleting a tool")
    require_relation(gw, caller, name, "owner", "deleting a tool")
    gw.registry.delete(name)
    gw.authz.forget_tool(name)
    gw.store.add_audit("tool.delete", caller.id, tool=name, details={"digest": tool.row["digest"]})
    return Response(status_code=204)


@router.get("/{name}/grants", response_model=GrantList, operation_id="list_grants", responses=errors_for(401, 404))
async def list_grants(name: str = NamePath, caller: Principal = Depends(principal),  # noqa: B008
                      gw: Gateway = Depends(gateway)) -> Any:  # noqa: B008
    """(ext) Relations stored on the tool (config grants are not listed). Needs viewer."""
    visible_tool(gw, caller, name)
    return json_response({"items": gw.authz.grants_on(name)})


@router.post("/{name}/grants", status_code=201, response_model=Grant, operation_id="add_grant",
             responses=errors_for(401, 403, 404))
async def add_grant(grant: Grant, name: str = NamePath, caller: Principal = Depends(principal),  # noqa: B008
                    gw: Gateway = Depends(gateway)) -> Any:  # noqa: B008
    """(ext) Give a principal a relation on the tool (e.g. ``can_invoke`` to an agent). Needs owner."""
    visible_tool(gw, caller, name)
    require_relation(gw, caller, name, "owner", "granting a relation")
    if not gw.authz.known(grant.principal):
        raise ApiError(422, "invalid_request", f"unknown principal {grant.principal!r}",
                       {"errors": [{"path": "/principal", "message": "unknown principal"}]})
    gw.authz.grant(name, grant.principal, grant.relation)
    gw.store.add_audit("tool.grant", caller.id, tool=name, details=grant.model_dump())
    return json_response(grant.model_dump(), 201)


@router.delete("/{name}/grants/{grant_principal}/{relation}", status_code=204, response_class=Response,
               operation_id="remove_grant", responses={204: {"description": "removed"}, **errors_for(401, 403, 404)})
async def remove_grant(name: str = NamePath, grant_principal: str = Path(..., max_length=128),  # noqa: B008
                       relation: str = Path(..., pattern="^(owner|editor|viewer|can_invoke)$"),  # noqa: B008
                       caller: Principal = Depends(principal),  # noqa: B008
                       gw: Gateway = Depends(gateway)) -> Response:  # noqa: B008
    """(ext) Remove a stored relation. Needs owner; ``404 grant_not_found`` when it does not exist."""
    visible_tool(gw, caller, name)
    require_relation(gw, caller, name, "owner", "removing a relation")
    if not gw.authz.revoke(name, grant_principal, relation):
        raise ApiError(404, "grant_not_found", f"{grant_principal!r} has no stored {relation} relation on {name!r}")
    gw.store.add_audit("tool.revoke", caller.id, tool=name,
                       details={"principal": grant_principal, "relation": relation})
    return Response(status_code=204)
