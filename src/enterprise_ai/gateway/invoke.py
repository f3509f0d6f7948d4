"""The invoke chain of ``POST /v1/tools/{name}/invoke``, in its one order.

Each step either lets the call go on or answers; the first step that refuses answers:

 1. **authenticate** - bearer token -> principal (:func:`.context.principal`)      401 ``unauthenticated``
 2. **find the tool** - it exists and the caller may view it                       404 ``tool_not_found``
 3. **status** - ``blocked`` refuses; ``restricted`` needs an explicit grant        403 ``tool_blocked`` /
    (``can_invoke`` or ``owner`` naming the tool); ``deprecated`` runs and the      ``tool_not_granted``
    answer carries a ``Deprecation`` header (RFC 9745); ``draft`` and ``approved`` run
 4. **grant** - a role that may invoke (tenant_admin, developer, agent) and the     403 ``tool_not_granted``
    ReBAC relation ``can_invoke`` (``owner`` implies it)
 5. **scopes** - the principal holds every ``spec.scopes_required``                 403 ``insufficient_scope``
 6. **data classification** - ``spec.data_classification`` <= the principal's      403 ``classification_exceeded``
 7. **policy** - the config's deny rules (tool, action, risk, classification, role)  403 ``policy_denied``
 8. **arguments** against ``spec.input_schema`` (JSON Schema, formats checked)       422 ``invalid_arguments``
 9. **DLP on the arguments** - ``redact`` rules replace matches (the tool receives   403 ``dlp_blocked``
    the redacted arguments); a ``block`` rule refuses the call
10. **rate limit and quota** per (principal, tool) and per principal per day        429 ``rate_limited`` /
                                                                                    ``quota_exceeded`` + Retry-After
11. **approval** (``spec.requires_approval``): without ``approval_id`` a pending     202 ``pending_approval``
    approval is created (bound to tool, caller and the SHA-256 of the arguments);
    an approved id with the same arguments goes on and is consumed by a successful
    call; a consumed one is 409 ``approval_consumed``; 404 ``approval_not_found``,
    409 ``approval_mismatch`` (other tool, caller or arguments), 403
    ``approval_rejected``, 409 ``approval_expired``
12. **idempotency** (``Idempotency-Key``): the same key and body replays the first   409 ``idempotency_conflict``
    response (a duplicate arriving while the first runs waits for it); the same key
    with another body is a conflict. Exceptions to the order, both at step 11: a retry that
    brings a consumed approval and a key whose response is stored is replayed; and a ``202
    pending_approval`` answer is stored under its key, so a retry replays it (same
    ``approval_id``) instead of opening a second approval.
13. **execute** on the endpoint (:func:`.executors.execute`); ``sandbox`` tools run in the background and the
    call answers 202 with the record (``running``), which reaches its end state later
14. **result against ``spec.output_schema``** - a mismatch makes the record ``failed`` (``invalid_result``)
15. **DLP on the result** - redacted; a ``block`` rule answers 403 ``dlp_blocked`` (record ``denied``; the
    answer is replayed for the same ``Idempotency-Key``: the tool already ran)
16. **record** - the invocation (arguments, result, error, ``run_id`` and ``agent`` redacted) with DLP
    detections, HTTP status, duration, usage and cost ``{amount, currency}``; 200 with the record (also when
    the upstream failed)

A refusal at steps 3-11 is recorded too (status ``denied``, the redacted arguments), and its error
details carry ``invocation_id``.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from datetime import datetime
from typing import Any

from enterprise_ai.gateway.auth import INVOKE_ROLES, Principal
from enterprise_ai.gateway.config import tool_matches
from enterprise_ai.gateway.context import Gateway
from enterprise_ai.gateway.errors import ApiError
from enterprise_ai.gateway.executors import ExecutionResult, execute
from enterprise_ai.gateway.limits import LimitExceeded
from enterprise_ai.gateway.models import InvokeBody
from enterprise_ai.gateway.registry import ToolEntry, canonical_json, json_problem, schema_errors
from enterprise_ai.gateway.store import new_id, now_iso

class Outcome:
    """What the route answers: HTTP status, JSON body (a record) and extra headers."""

    __slots__ = ("status", "body", "headers")

    def __init__(self, status: int, body: dict[str, Any], headers: dict[str, str]) -> None:
        self.status, self.body, self.headers = status, body, headers


def _epoch(iso: str) -> int:
    return int(datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp())


class InvokeChain:
    """One pass through the chain (see the module docstring). Create, then ``await run()``."""

    def __init__(self, gw: Gateway, caller: Principal, name: str, body: InvokeBody,
                 idempotency_key: str | None, request_id: str = "") -> None:
        self.gw, self.caller, self.name, self.body, self.key = gw, caller, name, body, idempotency_key
        self.request_id = request_id
        self.tool: ToolEntry | None = None
        self.headers: dict[str, str] = {}
        self.detections: list[dict[str, str]] = []
        self._arg_outcome: Any = None  # the DLP outcome of the arguments, once scanned

    # -- the record ---------------------------------------------------------------------------------
    def _new_record(self, status: str, decision: str) -> dict[str, Any]:
        tool, caller, body = self.tool, self.caller, self.body
        now = now_iso()
        agent = self.gw.redact_text(body.agent) if body.agent else (caller.id if "agent" in caller.roles else None)
        return {
            "id": new_id("inv"), "tool": self.name, "tool_version": tool.row["version"] if tool else None,
            "actor": caller.id, "run_id": self.gw.redact_text(body.run_id), "agent": agent, "status": status,
            "decision": decision,
            "decision_id": new_id("dec"), "approval_id": body.approval_id, "arguments": self.redacted_arguments(),
            "result": None, "dlp_detections": list(self.detections), "http_status": None, "error": None,
            "duration_ms": 0.0, "usage": {}, "cost": {"amount": 0.0, "currency": self.gw.config.prices.currency},
            "created_at": now, "updated_at": now,
        }

    def redacted_arguments(self) -> Any:
        """The arguments as they may be stored: DLP-redacted (scanned once)."""
        if self._arg_outcome is None:
            self._arg_outcome = self.gw.dlp.scan(self.body.arguments, "/arguments")
        return self._arg_outcome.value

    def _deny(self, error: ApiError) -> ApiError:
        """Record a refusal (status ``denied``) and return the error with ``details.invocation_id``."""
        record = self._new_record("denied", "deny")
        record["error"] = self._safe_error(error.code, error.message)
        self.gw.store.save_invocation(record)
        error.details = {**error.details, "invocation_id": record["id"]}
        return error

    def _safe_error(self, code: str, message: str) -> dict[str, str]:
        """An error for the record, DLP-redacted (a schema message may quote the offending value)."""
        return {"code": code, "message": self.gw.dlp.scan(message).value}

    # -- steps 2-10 ---------------------------------------------------------------------------------
    def find_tool(self) -> ToolEntry:
        tool = self.gw.registry.get(self.name)
        if tool is None or "viewer" not in self.gw.authz.relations(self.caller, self.name):
            raise ApiError(404, "tool_not_found", f"no tool named {self.name!r}", {"tool": self.name})
        return tool

    def check_access(self, tool: ToolEntry) -> None:
        """Steps 3-7: status, grant, scopes, classification, policy."""
        caller, spec, authz = self.caller, tool.spec, self.gw.authz
        status = tool.status
        if status == "blocked":
            raise ApiError(403, "tool_blocked", f"tool {self.name!r} is blocked", {"tool": self.name})
        if status == "restricted" and not authz.explicit_invoke(caller, self.name):
            raise ApiError(403, "tool_not_granted", f"tool {self.name!r} is restricted: it needs an explicit grant",
                           {"tool": self.name, "status": status})
        if status == "deprecated":
            self.headers["Deprecation"] = f"@{_epoch(tool.row['updated_at'])}"
        if not caller.has_role(*INVOKE_ROLES):
            raise ApiError(403, "tool_not_granted", f"roles {sorted(caller.roles)} may not invoke tools "
                           f"(needs one of {', '.join(INVOKE_ROLES)})", {"required_roles": list(INVOKE_ROLES)})
        if "can_invoke" not in authz.relations(caller, self.name):
            raise ApiError(403, "tool_not_granted", f"{caller.id!r} has no can_invoke grant on {self.name!r}",
                           {"tool": self.name, "relation": "can_invoke"})
        missing = caller.missing_scopes(list(spec.get("scopes_required") or []))
        if missing:
            raise ApiError(403, "insufficient_scope", f"missing scope(s): {', '.join(missing)}", {"missing": missing})
        classification = spec.get("data_classification", "internal")
        if not caller.may_handle(classification):
            raise ApiError(403, "classification_exceeded",
                           f"tool handles {classification} data; {caller.id!r} may handle up to "
                           f"{caller.classification}",
                           {"tool_classification": classification, "principal_classification": caller.classification})
        for rule in self.gw.config.policies:
            if self._matches(rule, tool):
                raise ApiError(403, "policy_denied", f"policy {rule.name!r}: {rule.message}", {"policy": rule.name})

    def _matches(self, rule: Any, tool: ToolEntry) -> bool:
        spec, caller = tool.spec, self.caller
        return (any(tool_matches(p, self.name) for p in rule.tools)
                and (rule.actions is None or tool.action in rule.actions)
                and (rule.risk_levels is None or spec.get("risk_level", "minimal") in rule.risk_levels)
                and (rule.classifications is None
                     or spec.get("data_classification", "internal") in rule.classifications)
                and (rule.roles is None or caller.has_role(*rule.roles))
                and (rule.principals is None or caller.id in rule.principals))

    def check_arguments(self, tool: ToolEntry) -> None:
        """Steps 8-10: input schema, DLP on the arguments, rate limit and quota."""
        errors = schema_errors(tool.input_validator(), self.body.arguments)
        if errors:
            first = errors[0]
            raise ApiError(422, "invalid_arguments", f"arguments{first['path']}: {first['message']}",
                           {"errors": errors})
        self.redacted_arguments()
        outcome = self._arg_outcome
        self.detections = list(outcome.detections)
        if outcome.blocked:
            types = sorted({d["type"] for d in outcome.detections if d["action"] == "block"})
            raise ApiError(403, "dlp_blocked", f"arguments carry data a DLP rule blocks: {', '.join(types)}",
                           {"detections": outcome.detections})
        try:
            self.gw.limiter.check(self.caller.id, self.name)
        except LimitExceeded as exc:
            raise ApiError(429, exc.code, exc.message, {"limit": exc.limit, "retry_after": exc.retry_after},
                           headers={"Retry-After": str(exc.retry_after)}) from None

    # -- step 11 ------------------------------------------------------------------------------------
    def _arguments_sha256(self) -> str:
        return hashlib.sha256(canonical_json(self.body.arguments)).hexdigest()

    def check_approval(self, tool: ToolEntry) -> tuple[Outcome | None, str | None]:
        """``(answer, approval id to consume)``: an answer ends the chain (202 pending, or a replay)."""
        if not tool.spec.get("requires_approval"):
            return None, None
        store = self.gw.store
        if self.body.approval_id is None:
            replay = self._stored_replay()  # a retry of a call already answered 202: the same approval
            if replay is not None:
                return replay, None
            ttl = self.gw.config.approvals.ttl_seconds
            approval_id = new_id("apr")
            store.add_approval({"id": approval_id, "kind": "invocation", "tool": self.name,
                                "requested_by": self.caller.id, "arguments": self.redacted_arguments(),
                                "arguments_sha256": self._arguments_sha256(), "created_at": now_iso(),
                                "expires_at": time.time() + ttl})
            record = self._new_record("pending_approval", "pending")
            record["approval_id"] = approval_id
            store.save_invocation(record)
            if self.key:
                store.put_idempotent(self.caller.id, self.name, self.key, self._body_sha256(), 202, record,
                                     self.headers)
            return Outcome(202, record, self.headers), None
        approval_id = self.body.approval_id
        approval = store.get_approval(approval_id)
        if approval is None:
            raise ApiError(404, "approval_not_found", f"no approval {approval_id!r}", {"approval_id": approval_id})
        if (approval["kind"] != "invocation" or approval["tool"] != self.name
                or approval["requested_by"] != self.caller.id
                or store.approval_arguments_sha256(approval_id) != self._arguments_sha256()):
            raise ApiError(409, "approval_mismatch", f"approval {approval_id!r} was given for another tool, caller "
                           "or arguments", {"approval_id": approval_id})
        status = approval["status"]
        if status == "approved":
            return None, approval_id
        if status == "pending":
            record = self._new_record("pending_approval", "pending")
            store.save_invocation(record)
            return Outcome(202, record, self.headers), None
        if status == "consumed":
            replay = self._stored_replay()
            if replay is not None:
                return replay, None
            raise ApiError(409, "approval_consumed", f"approval {approval_id!r} was already used by a successful call",
                           {"approval_id": approval_id})
        if status == "rejected":
            raise ApiError(403, "approval_rejected", f"approval {approval_id!r} was rejected",
                           {"approval_id": approval_id, "comment": approval.get("comment")})
        raise ApiError(409, "approval_expired", f"approval {approval_id!r} has expired", {"approval_id": approval_id})

    # -- step 12 ------------------------------------------------------------------------------------
    def _body_sha256(self) -> str:
        return hashlib.sha256(canonical_json(self.body.model_dump(mode="json"))).hexdigest()

    def _stored_replay(self) -> Outcome | None:
        if not self.key:
            return None
        stored = self.gw.store.get_idempotent(self.caller.id, self.name, self.key)
        if stored is None:
            return None
        if stored["body_sha256"] != self._body_sha256():
            raise ApiError(409, "idempotency_conflict", "this Idempotency-Key was used with another request body",
                           {"idempotency_key": self.key})
        return Outcome(stored["status_code"], stored["response"], {**stored["headers"], "Idempotent-Replayed": "true"})

    # -- the whole chain ----------------------------------------------------------------------------
    async def run(self) -> Outcome:
        """Steps 2-16; raises :class:`ApiError` for a refusal (already recorded from step 3 on)."""
        self.tool = tool = self.find_tool()
        try:
            self.check_access(tool)
            self.check_arguments(tool)
            answer, approval_id = self.check_approval(tool)
        except ApiError as exc:
            raise self._deny(exc) from None
        if answer is not None:
            return answer
        if not self.key:
            return await self.execute(tool, approval_id)
        slot = (self.caller.id, self.name, self.key)
        inflight = self.gw.inflight
        while slot in inflight:  # a duplicate while the first runs: wait, then replay or conflict
            await asyncio.shield(inflight[slot])
        replay = self._stored_replay()
        if replay is not None:
            return replay
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        inflight[slot] = done
        try:
            outcome = await self.execute(tool, approval_id)
            self.gw.store.put_idempotent(self.caller.id, self.name, self.key, self._body_sha256(), outcome.status,
                                         outcome.body, outcome.headers)
            return outcome
        finally:
            del inflight[slot]
            done.set_result(None)

    async def execute(self, tool: ToolEntry, approval_id: str | None) -> Outcome:
        """Steps 13-16."""
        record = self._new_record("running", "allow")
        if approval_id is not None and not self.gw.store.consume_approval(approval_id, record["id"]):
            raise self._deny(ApiError(409, "approval_consumed", f"approval {approval_id!r} was already used",
                                      {"approval_id": approval_id}))
        if tool.endpoint.get("type") == "sandbox":
            self.gw.store.save_invocation(record)
            self.gw.spawn(self._finish_async(tool, record, approval_id))
            return Outcome(202, record, {**self.headers, "Location": f"/v1/tools/invocations/{record['id']}"})
        result = await self._call(tool)
        return self._finish(tool, record, result, approval_id)

    async def _call(self, tool: ToolEntry) -> ExecutionResult:
        return await execute(tool.endpoint, self.redacted_arguments(), tool_name=self.name, run_id=self.body.run_id,
                             egress=self.gw.egress, mcp_servers=self.gw.config.mcp_servers)

    async def _finish_async(self, tool: ToolEntry, record: dict[str, Any], approval_id: str | None) -> None:
        try:
            result = await self._call(tool)
        except BaseException as exc:  # cancelled at shutdown: still leave an end state
            result = ExecutionResult("failed", None, f"execution interrupted: {type(exc).__name__}")
        self._finish(tool, record, result, approval_id)

    def _finish(self, tool: ToolEntry, record: dict[str, Any], result: ExecutionResult,
                approval_id: str | None) -> Outcome:
        """Steps 14-16 on an execution result: output schema, DLP, record, cost."""
        gw = self.gw
        status, error, value = result.status, None, result.result
        if status == "failed":
            error = {"code": "upstream_error", "message": result.error or "the tool failed"}
        elif json_problem(value) is not None:
            where, problem = json_problem(value)  # type: ignore[misc]
            status, value = "failed", None
            error = {"code": "invalid_result", "message": f"result{where}: {problem}"}
        elif tool.output_validator() is not None:
            problems = schema_errors(tool.output_validator(), value)
            if problems:
                status = "failed"
                first = problems[0]
                error = {"code": "invalid_result",
                         "message": f"result{first['path']} does not match output_schema: {first['message']}"}
        outcome = gw.dlp.scan(value, "/result")
        detections = [*self.detections, *outcome.detections]
        blocked = outcome.blocked and result.status == "succeeded"
        if blocked:
            status = "denied"
            types = sorted({d["type"] for d in outcome.detections if d["action"] == "block"})
            error = {"code": "dlp_blocked", "message": f"the result carries data a DLP rule blocks: {', '.join(types)}"}
        if approval_id is not None and result.status != "succeeded":
            gw.store.release_approval(approval_id)
        price = gw.config.price_for(self.name)
        duration = round(result.duration_ms, 3)
        usage = {**result.usage, "duration_ms": duration}
        if error is not None:
            error = self._safe_error(error["code"], error["message"])
        record.update(status=status, decision="deny" if blocked else "allow", result=outcome.value,
                      dlp_detections=detections, http_status=result.http_status, error=error, duration_ms=duration,
                      usage=usage, updated_at=now_iso(),
                      cost={"amount": round(price.per_call + price.per_second * duration / 1000.0, 6),
                            "currency": gw.config.prices.currency})
        gw.store.save_invocation(record)
        if blocked:  # an answer, not an exception: it is kept for idempotent replays like any executed call
            details = {"detections": outcome.detections, "invocation_id": record["id"]}
            body = {"error": {"code": "dlp_blocked", "message": error["message"], "request_id": self.request_id,
                              "details": details}}
            return Outcome(403, body, self.headers)
        return Outcome(200, record, self.headers)

