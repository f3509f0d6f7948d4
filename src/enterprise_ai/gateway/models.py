"""Request and response models of the gateway: they ARE the ``/openapi.json`` document.

Every route declares its success model and its error responses (all :class:`ErrorBody`), so that a
client generator or schemathesis sees every status the route may answer. Field meanings follow
API.md; the names are the JSON names.
"""

from __future__ import annotations

from typing import Any, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, field_validator

ToolStatus = Literal["draft", "approved", "restricted", "deprecated", "blocked"]
ApplyStatus = Literal["created", "updated", "unchanged"]
InvocationStatus = Literal["succeeded", "failed", "pending_approval", "running", "denied"]
ApprovalStatus = Literal["pending", "approved", "rejected", "expired", "consumed"]


class ErrorDetail(BaseModel):
    code: str = Field(description="Stable machine code, e.g. tool_not_found.")
    message: str
    request_id: str = Field(description="Same value as the X-Request-Id response header.")
    details: dict[str, Any] = Field(default_factory=dict)


class ErrorBody(BaseModel):
    """The one error shape of every non-2xx response."""

    error: ErrorDetail


class PathError(BaseModel):
    path: str = Field(description="JSON pointer (RFC 6901) of the faulty value.")
    message: str


class Tool(BaseModel):
    name: str
    version: str
    description: str
    status: ToolStatus
    owner: Optional[str] = Field(description="metadata.owner of the manifest (changed by PATCH owner).")
    action: str
    risk_level: str
    data_classification: str
    requires_approval: bool
    endpoint_type: str
    digest: str = Field(description="sha256:<hex> of the canonical JSON of the manifest.")
    manifest: dict[str, Any]
    created_by: str = Field(description="Principal that first applied the tool (its ReBAC owner).")
    created_at: str
    updated_at: str
    apply_status: Optional[ApplyStatus] = Field(default=None, description="Only in the answer of POST /v1/tools.")


class ToolList(BaseModel):
    items: list[Tool]
    next_cursor: Optional[str]


class ToolPatch(BaseModel):
    """Fields of ``PATCH /v1/tools/{name}``; absent fields are left unchanged."""

    model_config = ConfigDict(extra="forbid")
    owner: Optional[str] = Field(default=None, min_length=1, max_length=256)
    description: Optional[str] = Field(default=None, min_length=1, max_length=4096)
    status: Optional[ToolStatus] = None


class Promotion(BaseModel):
    """Answer of a PATCH asking for status ``approved``: applied once the approval is approved."""

    approval_id: str
    status: Literal["pending_approval"]
    tool: Tool


class InvokeBody(BaseModel):
    """Body of ``POST /v1/tools/{name}/invoke``; unknown extra fields are ignored."""

    model_config = ConfigDict(extra="ignore")
    arguments: dict[str, Any] = Field(default_factory=dict)
    run_id: Optional[str] = Field(default=None, max_length=256)
    approval_id: Optional[str] = Field(default=None, max_length=128)
    agent: Optional[str] = Field(default=None, max_length=256)

    @field_validator("arguments")
    @classmethod
    def _json_numbers(cls, value: dict[str, Any]) -> dict[str, Any]:
        from enterprise_ai.gateway.registry import json_problem

        problem = json_problem(value)
        if problem is not None:
            raise ValueError(f"{problem[1]} (at {problem[0] or '/'})")
        return value


class DlpDetection(BaseModel):
    type: str
    path: str
    action: Literal["redact", "block"]


class InvocationError(BaseModel):
    code: str
    message: str


class Cost(BaseModel):
    amount: float
    currency: str


class Invocation(BaseModel):
    """An invocation record; ``arguments`` and ``result`` are the redacted copies, never the originals."""

    id: str
    tool: str
    tool_version: Optional[str]
    actor: str
    run_id: Optional[str]
    agent: Optional[str]
    status: InvocationStatus
    decision: Literal["allow", "deny", "pending"]
    decision_id: str
    approval_id: Optional[str]
    arguments: Any
    result: Any
    dlp_detections: list[DlpDetection]
    http_status: Optional[int]
    error: Optional[InvocationError]
    duration_ms: float
    usage: dict[str, Any]
    cost: Cost
    created_at: str
    updated_at: str


class InvocationList(BaseModel):
    items: list[Invocation]
    next_cursor: Optional[str]


class Approval(BaseModel):
    id: str
    kind: Literal["invocation", "promotion"]
    tool: str
    requested_by: str
    arguments: Any = Field(description="Redacted arguments of the invocation asking (null for a promotion).")
    target_status: Optional[str]
    status: ApprovalStatus
    decided_by: Optional[str]
    comment: Optional[str]
    created_at: str
    decided_at: Optional[str]
    expires_at: str


class ApprovalList(BaseModel):
    items: list[Approval]
    next_cursor: Optional[str]


class Decision(BaseModel):
    model_config = ConfigDict(extra="forbid")
    comment: Optional[str] = Field(default=None, max_length=4096)


class ContractResult(BaseModel):
    contract: str
    valid: bool
    errors: list[PathError]
    warnings: list[PathError] = Field(default_factory=list)


class AuditEvent(BaseModel):
    id: str
    type: Literal["tool.apply", "tool.update", "tool.delete", "approval.decide", "tool.grant", "tool.revoke"]
    actor: str
    tool: Optional[str]
    approval_id: Optional[str]
    details: dict[str, Any]
    created_at: str


class AuditList(BaseModel):
    items: list[AuditEvent]
    next_cursor: Optional[str]


class Grant(BaseModel):
    model_config = ConfigDict(extra="forbid")
    principal: str = Field(min_length=1, max_length=128)
    relation: Literal["owner", "editor", "viewer", "can_invoke"]


class GrantList(BaseModel):
    items: list[Grant]


class Me(BaseModel):
    id: str
    tenant: str
    roles: list[str]
    scopes: list[str]
    classification: str


class Health(BaseModel):
    status: Literal["ok"]
    version: str
    schema_version: int
