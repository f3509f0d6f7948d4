"""/v1/approvals: promotions, four eyes, who may decide, visibility, audit."""

from __future__ import annotations

from tests.support.gateway import manifest


def _code(response) -> str | None:
    return response.json()["error"]["code"] if response.status_code >= 400 else None


def test_promotion_needs_a_second_person(gateway):
    name = gateway.unique("promo")
    assert gateway.apply(manifest(name), who="dev").status_code == 201
    promotion = gateway.request("PATCH", f"/v1/tools/{name}", "secoff", json={"status": "approved"})
    assert promotion.status_code == 202, promotion.text
    body = promotion.json()
    assert body["status"] == "pending_approval" and body["tool"]["status"] == "draft"
    approval_id = body["approval_id"]
    again = gateway.request("PATCH", f"/v1/tools/{name}", "admin", json={"status": "approved"})
    assert again.status_code == 202 and again.json()["approval_id"] == approval_id  # one open promotion per tool
    approval = gateway.request("GET", f"/v1/approvals/{approval_id}", "secoff").json()
    assert approval["kind"] == "promotion" and approval["tool"] == name and approval["requested_by"] == "secoff"
    assert approval["status"] == "pending" and approval["target_status"] == "approved"
    # four eyes: the requester may not decide
    self_decision = gateway.request("POST", f"/v1/approvals/{approval_id}/approve", "secoff", json={})
    assert self_decision.status_code == 403 and _code(self_decision) == "self_approval_forbidden"
    # roles: developers and agents may not decide
    assert _code(gateway.request("POST", f"/v1/approvals/{approval_id}/approve", "dev")) == "approval_not_found"
    assert gateway.request("GET", f"/v1/tools/{name}", "dev").json()["status"] == "draft"
    approved = gateway.request("POST", f"/v1/approvals/{approval_id}/approve", "admin2", json={"comment": "fine"})
    assert approved.status_code == 200
    assert approved.json()["status"] == "approved" and approved.json()["decided_by"] == "admin2"
    assert approved.json()["comment"] == "fine"
    assert gateway.request("GET", f"/v1/tools/{name}", "dev").json()["status"] == "approved"
    again = gateway.request("POST", f"/v1/approvals/{approval_id}/reject", "admin")
    assert again.status_code == 409 and _code(again) == "approval_not_pending"
    listed = gateway.request("GET", "/v1/tools", "agent", params={"status": "approved", "limit": 500}).json()["items"]
    assert name in [t["name"] for t in listed]
    decisions = gateway.request("GET", "/v1/audit", "admin", params={"type": "approval.decide", "tool": name}).json()
    assert [(e["actor"], e["details"]["decision"]) for e in decisions["items"]] == [("admin2", "approved")]


def test_developer_role_may_not_decide(gateway):
    need = gateway.unique("needs")
    assert gateway.apply(manifest(need, requires_approval=True), who="dev").status_code == 201
    approval_id = gateway.invoke(need, {"text": "x"}, who="dev").json()["approval_id"]
    assert gateway.request("GET", f"/v1/approvals/{approval_id}", "dev").status_code == 200  # its own request
    # dev sees its own request but its role may not decide anything
    assert _code(gateway.request("POST", f"/v1/approvals/{approval_id}/approve", "dev")) == "forbidden"
    assert _code(gateway.request("POST", f"/v1/approvals/{approval_id}/approve", "dev2")) == "approval_not_found"


def test_list_filters_and_visibility(gateway):
    name = gateway.unique("appr")
    assert gateway.apply(manifest(name, requires_approval=True), who="dev").status_code == 201
    first = gateway.invoke(name, {"text": "one"}).json()["approval_id"]
    second = gateway.invoke(name, {"text": "two jane@example.com"}).json()["approval_id"]
    items = gateway.request("GET", "/v1/approvals", "secoff", params={"tool": name, "status": "pending"}).json()["items"]
    assert [a["id"] for a in items] == [second, first]  # newest first
    assert items[0]["arguments"] == {"text": "two [REDACTED:email]"}
    page = gateway.request("GET", "/v1/approvals", "secoff", params={"tool": name, "limit": 1}).json()
    assert [a["id"] for a in page["items"]] == [second] and page["next_cursor"]
    rest = gateway.request("GET", "/v1/approvals", "secoff", params={"tool": name, "cursor": page["next_cursor"]})
    assert [a["id"] for a in rest.json()["items"]] == [first] and rest.json()["next_cursor"] is None
    # the requester sees its own, other non-admins see none of them
    assert {a["id"] for a in gateway.request("GET", "/v1/approvals", "agent", params={"tool": name}).json()["items"]} \
        == {first, second}
    assert gateway.request("GET", "/v1/approvals", "agent2", params={"tool": name}).json()["items"] == []
    assert _code(gateway.request("GET", f"/v1/approvals/{first}", "agent2")) == "approval_not_found"
    assert _code(gateway.request("GET", "/v1/approvals/apr_missing", "admin")) == "approval_not_found"
