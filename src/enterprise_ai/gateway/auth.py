"""Authentication (bearer tokens) and authorization (roles and ReBAC relations on tools).

Tokens: only their hex SHA-256 is known (config file, or the store for the first-start admin); a
request's token is hashed and looked up in a dict, nothing else.

Relations (API.md): ``owner`` ⊇ ``editor`` ⊇ ``viewer``, and ``can_invoke``. This gateway also lets
``owner`` invoke its tool, and ``can_invoke`` see (discover, get) the tool it may call. The roles
``tenant_admin`` and ``security_officer`` may view every tool of the tenant. Relations come from the
config ``grants`` (a tool name or fnmatch pattern) and from the store (the applier of a new tool
becomes its owner; ``POST /v1/tools/{name}/grants`` adds more). An *explicit* grant, which a
``restricted`` tool requires, is ``can_invoke`` or ``owner`` naming that exact tool.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from dataclasses import dataclass

from enterprise_ai.gateway.config import CLASSIFICATIONS, GatewayConfig, tool_matches
from enterprise_ai.gateway.store import Store

IMPLIED = {
    "owner": frozenset({"owner", "editor", "viewer", "can_invoke"}),
    "editor": frozenset({"editor", "viewer"}),
    "viewer": frozenset({"viewer"}),
    "can_invoke": frozenset({"can_invoke", "viewer"}),
}
SEE_ALL_ROLES = frozenset({"tenant_admin", "security_officer"})
APPLY_ROLES = ("tenant_admin", "developer", "application_owner")
STATUS_ROLES = ("tenant_admin", "security_officer")
INVOKE_ROLES = ("tenant_admin", "developer", "agent")
APPROVER_ROLES = ("tenant_admin", "security_officer")


@dataclass(frozen=True)
class Principal:
    """An authenticated caller: id, roles, scopes and highest data classification."""

    id: str
    roles: frozenset[str]
    scopes: frozenset[str]
    classification: str

    def has_role(self, *roles: str) -> bool:
        return not self.roles.isdisjoint(roles)

    def missing_scopes(self, required: list[str]) -> list[str]:
        """Scopes of ``required`` this principal lacks (``*`` covers all, ``orders:*`` covers ``orders:read``)."""
        if "*" in self.scopes:
            return []
        missing = []
        for scope in required:
            if scope in self.scopes:
                continue
            prefix = scope.split(":", 1)[0]
            if f"{prefix}:*" not in self.scopes:
                missing.append(scope)
        return missing

    def may_handle(self, classification: str) -> bool:
        """Whether data of ``classification`` is at or below this principal's highest classification."""
        return CLASSIFICATIONS.index(classification) <= CLASSIFICATIONS.index(self.classification)

    def public(self) -> dict[str, object]:
        return {"id": self.id, "roles": sorted(self.roles), "scopes": sorted(self.scopes),
                "classification": self.classification}


class Authz:
    """Principals by token hash, and the relation graph (config grants + stored relations), in memory."""

    def __init__(self, config: GatewayConfig, store: Store) -> None:
        self.config = config
        self.store = store
        self._by_hash: dict[str, Principal] = {}
        for row in store.principals():
            self._by_hash[row["token_sha256"]] = Principal(row["id"], frozenset(row["roles"]), frozenset(row["scopes"]),
                                                           row["classification"])
        for pc in config.principals:
            self._by_hash[pc.token_sha256] = Principal(pc.id, frozenset(pc.roles), frozenset(pc.scopes),
                                                       pc.classification)
        self._ids = {p.id for p in self._by_hash.values()}
        self._stored: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
        self._wildcards: dict[str, list[tuple[str, str]]] = defaultdict(list)
        for row in store.relations():
            if row["tool"] == "*":  # the first-start admin owns every tool
                self._wildcards[row["principal"]].append(("*", row["relation"]))
            else:
                self._stored[row["tool"]][row["principal"]].add(row["relation"])
        for grant in config.grants:
            self._wildcards[grant.principal].append((grant.tool, grant.relation))

    def authenticate(self, token: str) -> Principal | None:
        """The principal holding ``token``, or None."""
        return self._by_hash.get(hashlib.sha256(token.encode("utf-8")).hexdigest())

    def known(self, principal_id: str) -> bool:
        return principal_id in self._ids

    def relations(self, principal: Principal, tool: str) -> frozenset[str]:
        """Every relation ``principal`` holds on ``tool``, implications included."""
        direct: set[str] = set(self._stored.get(tool, {}).get(principal.id, ()))
        for pattern, relation in self._wildcards.get(principal.id, ()):
            if tool_matches(pattern, tool):
                direct.add(relation)
        out: set[str] = set()
        for relation in direct:
            out |= IMPLIED[relation]
        if not principal.roles.isdisjoint(SEE_ALL_ROLES):
            out.add("viewer")
        return frozenset(out)

    def explicit_invoke(self, principal: Principal, tool: str) -> bool:
        """Whether a grant naming exactly ``tool`` gives ``principal`` can_invoke (or owner)."""
        direct = set(self._stored.get(tool, {}).get(principal.id, ()))
        direct |= {rel for pattern, rel in self._wildcards.get(principal.id, ()) if pattern == tool}
        return bool(direct & {"can_invoke", "owner"})

    def grants_on(self, tool: str) -> list[dict[str, str]]:
        """Stored relations on ``tool`` (config grants are not listed), sorted."""
        return sorted(({"principal": p, "relation": r} for p, rels in self._stored.get(tool, {}).items() for r in rels),
                      key=lambda g: (g["principal"], g["relation"]))

    def grant(self, tool: str, principal_id: str, relation: str) -> None:
        self.store.add_relation(tool, principal_id, relation)
        self._stored[tool][principal_id].add(relation)

    def revoke(self, tool: str, principal_id: str, relation: str) -> bool:
        removed = self.store.remove_relation(tool, principal_id, relation) > 0
        self._stored.get(tool, {}).get(principal_id, set()).discard(relation)
        return removed

    def forget_tool(self, tool: str) -> None:
        self._stored.pop(tool, None)
