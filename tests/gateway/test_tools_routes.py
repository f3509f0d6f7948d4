"""/v1/tools routes: apply statuses and digests, manifest checks, contracts, lists, the role/relation matrix."""

from __future__ import annotations

import copy

import pytest

from tests.support.gateway import manifest


def _code(response) -> str | None:
    return response.json()["error"]["code"] if response.status_code >= 400 else None


def test_created_updated_unchanged_keep_the_digest(gateway):
    name = gateway.unique("apply")
    doc = manifest(name)
    created = gateway.apply(doc)
    assert created.status_code == 201 and created.json()["apply_status"] == "created"
    digest = created.json()["digest"]
    assert digest.startswith("sha256:") and created.json()["status"] == "draft"
    same = gateway.apply(copy.deepcopy(doc))
    assert same.status_code == 200 and same.json()["apply_status"] == "unchanged" and same.json()["digest"] == digest
    reordered = {"spec": doc["spec"], "metadata": doc["metadata"], "kind": "Tool", "apiVersion": doc["apiVersion"]}
    assert gateway.apply(reordered).json()["apply_status"] == "unchanged"
    doc["spec"]["description"] = "A better description."
    doc["metadata"]["version"] = "0.2.0"
    updated = gateway.apply(doc)
    assert updated.status_code == 200 and updated.json()["apply_status"] == "updated"
    assert updated.json()["digest"] != digest and updated.json()["version"] == "0.2.0"
    got = gateway.request("GET", f"/v1/tools/{name}", "dev").json()
    assert got["digest"] == updated.json()["digest"] and got["manifest"] == doc and got["created_by"] == "dev"
    events = gateway.request("GET", "/v1/audit", "secoff", params={"tool": name}).json()["items"]
    assert [(e["type"], e["details"]["apply_status"]) for e in events] == [("tool.apply", "updated"),
                                                                           ("tool.apply", "created")]


@pytest.mark.parametrize(
    ("change", "pointer"),
    [
        ({"risk_level": "unacceptable"}, "/spec/risk_level"),
        ({"endpoint": {"type": "builtin", "handler": "shell"}}, "/spec/endpoint/handler"),
        ({"endpoint": {"type": "http", "url": "https://example.com/tools/x"}}, "/spec/endpoint/url"),
        ({"endpoint": {"type": "http", "url": "ftp://127.0.0.1/x"}}, "/spec/endpoint/url"),
        ({"endpoint": {"type": "mcp"}}, "/spec/endpoint"),
        ({"input_schema": {"type": "object", "properties": {"a": {"type": "nope"}}}}, "/spec/input_schema"),
    ],
)
def test_invalid_manifest_points_at_each_problem(gateway, change, pointer):
    name = gateway.unique("bad")
    response = gateway.apply(manifest(name, **change))
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["code"] == "invalid_manifest"
    paths = [e["path"] for e in error["details"]["errors"]]
    assert any(p.startswith(pointer) for p in paths), paths
    assert gateway.request("GET", f"/v1/tools/{name}").status_code == 404  # nothing stored


def test_invalid_manifest_reports_every_problem_and_non_objects(gateway):
    doc = manifest(gateway.unique("bad"), risk_level="unacceptable", endpoint={"type": "builtin", "handler": "x"})
    paths = {e["path"] for e in gateway.apply(doc).json()["error"]["details"]["errors"]}
    assert {"/spec/risk_level", "/spec/endpoint/handler"} <= paths
    for body in ([], "text", None):
        response = gateway.request("POST", "/v1/tools", "dev", json=body)
        assert response.status_code == 422 and _code(response) == "invalid_manifest"


def test_reserved_name(gateway):
    response = gateway.apply(manifest("invocations"))
    assert _code(response) == "invalid_manifest"
    assert response.json()["error"]["details"]["errors"][0]["path"] == "/metadata/name"


def test_contract_validate_stores_nothing(gateway):
    name = gateway.unique("contract")
    ok = gateway.request("POST", "/v1/contracts/tool-manifest/validate", "agent", json=manifest(name))
    assert ok.status_code == 200 and ok.json() == {"contract": "tool-manifest", "valid": True, "errors": [],
                                                   "warnings": ok.json()["warnings"]}
    bad = gateway.request("POST", "/v1/contracts/tool-manifest/validate", "agent",
                          json=manifest(name, risk_level="unacceptable"))
    assert bad.status_code == 200 and bad.json()["valid"] is False
    assert "/spec/risk_level" in [e["path"] for e in bad.json()["errors"]]
    assert gateway.request("GET", f"/v1/tools/{name}").status_code == 404
    unknown = gateway.request("POST", "/v1/contracts/nope/validate", "agent", json={})
    assert unknown.status_code == 404 and _code(unknown) == "unknown_contract"


def test_list_is_visible_tools_in_name_order_with_cursor(gateway):
    prefix = gateway.unique("list")
    names = [f"{prefix}-{i}" for i in range(3)]
    for name in reversed(names):
        assert gateway.apply(manifest(name), who="dev2").status_code == 201
    seen, cursor = [], None
    while True:
        params = {"limit": 2, **({"cursor": cursor} if cursor else {})}
        page = gateway.request("GET", "/v1/tools", "dev2", params=params).json()
        seen += [t["name"] for t in page["items"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    mine = [n for n in seen if n.startswith(prefix)]
    assert mine == names and seen == sorted(seen)
    assert not any(n.startswith(prefix) for n in
                   [t["name"] for t in gateway.request("GET", "/v1/tools", "dev", params={"limit": 500}).json()["items"]])
    draft = gateway.request("GET", "/v1/tools", "admin", params={"status": "approved", "limit": 500}).json()["items"]
    assert all(t["status"] == "approved" for t in draft)
    for bad in ({"limit": 0}, {"limit": 501}, {"cursor": "!!"}):
        response = gateway.request("GET", "/v1/tools", "dev", params=bad)
        assert response.status_code == 422 and _code(response) == "invalid_request"


def test_role_and_relation_matrix(gateway):
    name = gateway.unique("matrix")
    doc = manifest(name)
    # apply: tenant_admin, developer, application_owner; not security_officer nor agent
    assert _code(gateway.apply(doc, who="secoff")) == "forbidden"
    assert _code(gateway.apply(doc, who="agent")) == "forbidden"
    assert gateway.apply(doc, who="dev").status_code == 201  # dev becomes owner
    assert gateway.apply(manifest(gateway.unique("m")), who="appowner").status_code == 201
    changed = manifest(name, description="changed")
    assert _code(gateway.apply(changed, who="dev2")) == "forbidden"  # no editor relation
    assert gateway.apply(changed, who="admin").json()["apply_status"] == "updated"  # owner of every tool
    # view: owner, wildcard grants, tenant_admin and security_officer roles; nobody else
    for who, status in [("dev", 200), ("admin2", 200), ("secoff", 200), ("agent", 200), ("dev2", 404), ("agent2", 404)]:
        assert gateway.request("GET", f"/v1/tools/{name}", who).status_code == status, who
    # PATCH owner/description: apply roles + editor
    assert gateway.request("PATCH", f"/v1/tools/{name}", "dev", json={"description": "by dev"}).status_code == 200
    assert _code(gateway.request("PATCH", f"/v1/tools/{name}", "agent", json={"description": "x"})) == "forbidden"
    assert _code(gateway.request("PATCH", f"/v1/tools/{name}", "admin2", json={"owner": "x@example.com"})) == "forbidden"
    assert _code(gateway.request("PATCH", f"/v1/tools/{name}", "dev2", json={"description": "x"})) == "tool_not_found"
    # PATCH status: tenant_admin or security_officer + editor
    assert _code(gateway.request("PATCH", f"/v1/tools/{name}", "dev", json={"status": "deprecated"})) == "forbidden"
    assert _code(gateway.request("PATCH", f"/v1/tools/{name}", "admin2", json={"status": "deprecated"})) == "forbidden"
    patched = gateway.request("PATCH", f"/v1/tools/{name}", "secoff", json={"status": "deprecated", "owner": None})
    assert patched.status_code == 200 and patched.json()["status"] == "deprecated"
    assert gateway.request("PATCH", f"/v1/tools/{name}", "dev", json={"owner": "new@example.com"}).json()["owner"] == \
        "new@example.com"
    bad = gateway.request("PATCH", f"/v1/tools/{name}", "admin", json={"status": "retired"})
    assert _code(bad) == "invalid_request"
    # DELETE: tenant_admin + owner
    assert _code(gateway.request("DELETE", f"/v1/tools/{name}", "dev")) == "forbidden"
    assert _code(gateway.request("DELETE", f"/v1/tools/{name}", "admin2")) == "forbidden"
    assert _code(gateway.request("DELETE", f"/v1/tools/{name}", "dev2")) == "tool_not_found"
    deleted = gateway.request("DELETE", f"/v1/tools/{name}", "admin")
    assert deleted.status_code == 204 and deleted.content == b""
    assert _code(gateway.request("GET", f"/v1/tools/{name}", "admin")) == "tool_not_found"
    assert _code(gateway.request("DELETE", f"/v1/tools/{name}", "admin")) == "tool_not_found"
    types = [e["type"] for e in gateway.request("GET", "/v1/audit", "admin", params={"tool": name}).json()["items"]]
    assert types[0] == "tool.delete" and "tool.update" in types and "tool.apply" in types
    assert _code(gateway.request("GET", "/v1/audit", "dev")) == "forbidden"


def test_grants_need_owner(gateway):
    name = gateway.unique("grants")
    assert gateway.apply(manifest(name), who="dev").status_code == 201
    body = {"principal": "agent2", "relation": "can_invoke"}
    assert _code(gateway.request("POST", f"/v1/tools/{name}/grants", "secoff", json=body)) == "forbidden"
    assert gateway.request("POST", f"/v1/tools/{name}/grants", "dev", json=body).status_code == 201
    items = gateway.request("GET", f"/v1/tools/{name}/grants", "dev").json()["items"]
    assert {"principal": "agent2", "relation": "can_invoke"} in items and {"principal": "dev", "relation": "owner"} in items
    assert gateway.invoke(name, {"text": "x"}, who="agent2").status_code == 200
    unknown = gateway.request("POST", f"/v1/tools/{name}/grants", "dev", json={"principal": "ghost", "relation": "viewer"})
    assert _code(unknown) == "invalid_request"
    assert gateway.request("DELETE", f"/v1/tools/{name}/grants/agent2/can_invoke", "dev").status_code == 204
    assert _code(gateway.invoke(name, {"text": "x"}, who="agent2")) == "tool_not_found"
    assert _code(gateway.request("DELETE", f"/v1/tools/{name}/grants/agent2/can_invoke", "dev")) == "grant_not_found"
