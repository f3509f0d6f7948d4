"""The gateway configuration file (``gateway.yaml``), parsed once at start-up.

Shape (every section optional; YAML or JSON)::

    tenant: acme                       # tenant name (default "default")
    principals:                        # who may call; tokens are never stored, only their SHA-256
      - id: alice
        token_sha256: 9f86d0...        # hex SHA-256 of the bearer token (``eai gateway hash-token``)
        roles: [tenant_admin]          # tenant_admin | developer | application_owner | security_officer | agent
        scopes: ["*"]                  # scopes the principal holds ("*" = every scope)
        classification: restricted     # highest data classification it may handle
    grants:                            # ReBAC relations on tools (API.md): owner ⊇ editor ⊇ viewer, can_invoke
      - {principal: alice, relation: owner, tool: "*"}      # tool: a name or an fnmatch pattern
    egress: {allow: ["http://127.0.0.1:*"]}   # URLs an http endpoint may reach (default: loopback only)
    dlp: {rules: [...]}                # DLP rules (see enterprise_ai.gateway.dlp); default rules when absent
    limits: {...}                      # rate limits and quotas (see enterprise_ai.gateway.limits)
    prices: {currency: EUR, default: {per_call: 0}, tools: {search-orders: {per_call: 0.002}}}
    mcp_servers: {crm: {url: http://127.0.0.1:9000/mcp}}   # named MCP servers for ``type: mcp`` endpoints
    policies:                          # deny rules of the "policy" step of the invoke chain
      - {name: no-agent-deletes, roles: [agent], actions: [delete], message: agents may not delete}
    approvals: {ttl_seconds: 86400}    # a pending approval expires after this many seconds

Errors: :class:`enterprise_ai.errors.UsageError` naming the file and the field.
"""

from __future__ import annotations

import fnmatch
import hashlib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from enterprise_ai.errors import UsageError

CLASSIFICATIONS = ("public", "internal", "confidential", "restricted")
ROLES = ("tenant_admin", "developer", "application_owner", "security_officer", "agent")
RELATIONS = ("owner", "editor", "viewer", "can_invoke")

Role = Literal["tenant_admin", "developer", "application_owner", "security_officer", "agent"]
Classification = Literal["public", "internal", "confidential", "restricted"]
Relation = Literal["owner", "editor", "viewer", "can_invoke"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class PrincipalConfig(_Model):
    """One principal: its id, the hex SHA-256 of its token, roles, scopes and highest classification."""

    id: str = Field(pattern=r"^[A-Za-z0-9_.@-]{1,128}$")
    token_sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    roles: list[Role] = Field(min_length=1)
    scopes: list[str] = []
    classification: Classification = "internal"


class GrantConfig(_Model):
    """A relation of a principal on the tools whose name matches ``tool`` (an fnmatch pattern)."""

    principal: str
    relation: Relation
    tool: str = "*"


class EgressConfig(_Model):
    """URLs an ``http`` endpoint may reach (patterns of :class:`enterprise_ai.gateway.egress.EgressPolicy`);
    ``None`` (the default) allows the loopback interface only."""

    allow: list[str] | None = None


class PolicyRule(_Model):
    """A deny rule: it matches when every given condition matches (absent = any)."""

    name: str
    effect: Literal["deny"] = "deny"
    tools: list[str] = ["*"]
    actions: list[Literal["read", "write", "delete", "execute"]] | None = None
    risk_levels: list[Literal["minimal", "limited", "high"]] | None = None
    classifications: list[Classification] | None = None
    roles: list[Role] | None = None
    principals: list[str] | None = None
    message: str = "denied by policy"


class Price(_Model):
    """Cost of one invocation: ``per_call`` plus ``per_second`` of execution time."""

    per_call: float = Field(default=0.0, ge=0)
    per_second: float = Field(default=0.0, ge=0)


class PricesConfig(_Model):
    currency: str = Field(default="EUR", pattern=r"^[A-Z]{3}$")
    default: Price = Price()
    tools: dict[str, Price] = {}


class ApprovalsConfig(_Model):
    ttl_seconds: int = Field(default=86400, ge=1)


class GatewayConfig(_Model):
    """The whole configuration; every section has a working default (see the module docstring)."""

    tenant: str = Field(default="default", pattern=r"^[A-Za-z0-9_.-]{1,64}$")
    principals: list[PrincipalConfig] = []
    grants: list[GrantConfig] = []
    egress: EgressConfig = EgressConfig()
    dlp: dict[str, Any] | None = None
    limits: dict[str, Any] | None = None
    prices: PricesConfig = PricesConfig()
    mcp_servers: dict[str, dict[str, Any]] = {}
    policies: list[PolicyRule] = []
    approvals: ApprovalsConfig = ApprovalsConfig()

    def price_for(self, tool: str) -> Price:
        """The price of ``tool`` (its own entry, else the default)."""
        return self.prices.tools.get(tool, self.prices.default)


def hash_token(token: str) -> str:
    """Hex SHA-256 of a bearer token: what the config and the store keep instead of the token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def tool_matches(pattern: str, name: str) -> bool:
    """Whether a grant or policy ``pattern`` (exact name or fnmatch pattern) covers tool ``name``."""
    return pattern == name or fnmatch.fnmatchcase(name, pattern)


def load_config(path: str | Path | None) -> GatewayConfig:
    """Read and check ``gateway.yaml``; ``None`` gives the defaults.

    Raises:
        UsageError: unreadable file, bad YAML, or a field that breaks the shape above
            (the message names the file and the dotted field path).
    """
    if path is None:
        return GatewayConfig()
    import yaml

    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise UsageError(f"{p}: cannot read the gateway config: {exc.strerror or exc}") from exc
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f":{mark.line + 1}:{mark.column + 1}" if mark is not None else ""
        raise UsageError(f"{p}{where}: invalid YAML: {getattr(exc, 'problem', None) or exc}") from exc
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise UsageError(f"{p}: the gateway config must be a mapping, not {type(data).__name__}")
    try:
        config = GatewayConfig.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(part) for part in first["loc"]) or "(root)"
        raise UsageError(f"{p}: {field}: {first['msg']}") from exc
    ids = [pr.id for pr in config.principals]
    dup = {i for i in ids if ids.count(i) > 1}
    if dup:
        raise UsageError(f"{p}: principals: duplicate id {sorted(dup)[0]!r}")
    hashes = [pr.token_sha256 for pr in config.principals]
    if len(set(hashes)) != len(hashes):
        raise UsageError(f"{p}: principals: two principals share one token")
    return config
