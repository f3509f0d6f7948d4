"""Review of the invoke chain order, approvals and status governance against the real gateway process.

Each order test makes two steps fail at once: the earlier step of the documented chain
(:mod:`enterprise_ai.gateway.invoke`) must answer, and nothing of a later step may happen.
"""

from __future__ import annotations

from tests.support.gateway import manifest


def _tool(gateway, prefix: str = "order", who: str = "dev", **spec) -> str:
    name = gateway.unique(prefix)
    response = gateway.apply(manifest(name, **spec), who=who)
    assert response.status_code == 201, response.text
    return name


def _code(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert error["code"] == code, error
    assert error["request_id"] == response.headers["x-request-id"]
    return error


def _status(gateway, name: str, status: str) -> None:
    response = gateway.request("PATCH", f"/v1/tools/{name}", "secoff", json={"status": status})
    assert response.status_code == 200, response.text


def _approvals(gateway, name: str) -> list[dict]:
    return gateway.request("GET", "/v1/approvals", "admin", params={"tool": name, "limit": 500}).json()["items"]


def test_unauthenticated_before_tool_not_found(gateway):
    _code(gateway.invoke(gateway.unique("missing"), {}, who=None), 401, "unauthenticated")


def test_blocked_before_grant(gateway):
    name = _tool(gateway)
    _status(gateway, name, "blocked")
    _code(gateway.invoke(name, {"text": "x"}, who="admin2"), 403, "tool_blocked")  # admin2 sees, has no can_invoke


def test_grant_before_scopes(gateway):
    name = _tool(gateway, scopes_required=["orders:write"])
    grant = {"principal": "agent2", "relation": "viewer"}
    assert gateway.request("POST", f"/v1/tools/{name}/grants", "dev", json=grant).status_code == 201
    _code(gateway.invoke(name, {"text": "x"}, who="agent2"), 403, "tool_not_granted")
    _code(gateway.invoke(name, {"text": "x"}, who="agent"), 403, "insufficient_scope")


def test_classification_before_policy_before_arguments(gateway):
    name = _tool(gateway, action="delete", side_effects=True, idempotent=False, data_classification="confidential")
    _code(gateway.invoke(name, {"wrong": 1}), 403, "classification_exceeded")
    other = _tool(gateway, action="delete", side_effects=True, idempotent=False)
    _code(gateway.invoke(other, {"wrong": 1}), 403, "policy_denied")


def test_arguments_and_dlp_come_before_opening_an_approval(gateway):
    name = _tool(gateway, requires_approval=True)
    _code(gateway.invoke(name, {"wrong": 1}), 422, "invalid_arguments")
    _code(gateway.invoke(name, {"text": "TOPSECRET-42"}), 403, "dlp_blocked")
    assert _approvals(gateway, name) == []  # neither refusal opened an approval


def test_rate_limit_before_approval(gateway):
    name = _tool(gateway, requires_approval=True)
    for _ in range(2):  # "limited" may make 2 calls a minute
        assert gateway.invoke(name, {"text": "x"}, who="limited").status_code == 202
    response = gateway.invoke(name, {"text": "x"}, who="limited")
    _code(response, 429, "rate_limited")
    assert 1 <= int(response.headers["retry-after"]) <= 60
    assert len(_approvals(gateway, name)) == 2  # the refused third call asked for nothing


def test_a_retried_pending_call_replays_its_approval_instead_of_opening_another(gateway):
    """A client retries ``invoke`` with the same Idempotency-Key after a lost 202: same approval, same answer."""
    name = _tool(gateway, requires_approval=True)
    key = {"Idempotency-Key": gateway.unique("pending-key")}
    first = gateway.invoke(name, {"text": "pay"}, headers=key)
    again = gateway.invoke(name, {"text": "pay"}, headers=key)
    assert first.status_code == again.status_code == 202
    assert again.content == first.content
    assert len(_approvals(gateway, name)) == 1
    _code(gateway.invoke(name, {"text": "other"}, headers=key), 409, "idempotency_conflict")


def test_approvals_are_bound_to_their_tool_caller_arguments_and_kind(gateway):
    guarded = _tool(gateway, requires_approval=True)
    twin = _tool(gateway, requires_approval=True)
    approval_id = gateway.invoke(guarded, {"text": "a"}).json()["approval_id"]
    _code(gateway.request("POST", f"/v1/approvals/{approval_id}/approve", "agent"), 403, "forbidden")
    assert gateway.request("POST", f"/v1/approvals/{approval_id}/approve", "secoff").status_code == 200
    assert gateway.request("GET", f"/v1/tools/{guarded}").json()["status"] == "draft"  # not a promotion
    _code(gateway.invoke(twin, {"text": "a"}, approval_id=approval_id), 409, "approval_mismatch")  # other tool
    _code(gateway.invoke(guarded, {"text": "b"}, approval_id=approval_id), 409, "approval_mismatch")  # other args
    _code(gateway.invoke(guarded, {"text": "a"}, who="admin", approval_id=approval_id), 409, "approval_mismatch")
    assert gateway.invoke(guarded, {"text": "a"}, approval_id=approval_id).json()["status"] == "succeeded"
    _code(gateway.invoke(guarded, {"text": "a"}, approval_id=approval_id), 409, "approval_consumed")
    # a promotion approval is no invocation approval
    promotion = gateway.request("PATCH", f"/v1/tools/{guarded}", "secoff", json={"status": "approved"}).json()
    assert gateway.request("POST", f"/v1/approvals/{promotion['approval_id']}/approve", "admin").status_code == 200
    _code(gateway.invoke(guarded, {"text": "a"}, approval_id=promotion["approval_id"]), 409, "approval_mismatch")
    rejected = gateway.invoke(guarded, {"text": "c"}).json()["approval_id"]
    no = gateway.request("POST", f"/v1/approvals/{rejected}/reject", "admin", json={"comment": "no"})
    assert no.status_code == 200
    _code(gateway.request("POST", f"/v1/approvals/{rejected}/approve", "admin2"), 409, "approval_not_pending")
    _code(gateway.invoke(guarded, {"text": "c"}, approval_id=rejected), 403, "approval_rejected")


def test_a_pending_promotion_does_not_survive_a_later_status_change(gateway):
    """Blocking a tool while its promotion waits must not let the old promotion unblock it."""
    name = _tool(gateway)
    promotion = gateway.request("PATCH", f"/v1/tools/{name}", "secoff", json={"status": "approved"}).json()
    _status(gateway, name, "blocked")
    assert gateway.request("GET", f"/v1/approvals/{promotion['approval_id']}").json()["status"] == "expired"
    _code(gateway.request("POST", f"/v1/approvals/{promotion['approval_id']}/approve", "admin"), 409,
          "approval_not_pending")
    assert gateway.request("GET", f"/v1/tools/{name}").json()["status"] == "blocked"


def _promote(gateway, name: str) -> None:
    promotion = gateway.request("PATCH", f"/v1/tools/{name}", "secoff", json={"status": "approved"})
    assert promotion.status_code == 202, promotion.text
    assert gateway.request("POST", f"/v1/approvals/{promotion.json()['approval_id']}/approve",
                           "admin").status_code == 200


def test_changing_the_spec_of_an_approved_tool_sends_it_back_to_draft(gateway):
    name = _tool(gateway, requires_approval=True)
    _promote(gateway, name)
    waiting = gateway.invoke(name, {"text": "x"}).json()["approval_id"]
    # metadata only (labels, version) and the description keep the approval
    doc = manifest(name, requires_approval=True)
    doc["metadata"].update(version="0.1.1", labels={"team": "ops"})
    doc["spec"]["description"] = "Reworded."
    applied = gateway.apply(doc)
    assert applied.json()["apply_status"] == "updated" and applied.json()["status"] == "approved"
    # a behavioural change (here: approval no longer required) must be approved again
    changed = gateway.apply(manifest(name, requires_approval=False))
    assert changed.status_code == 200 and changed.json()["apply_status"] == "updated"
    assert changed.json()["status"] == "draft"
    assert gateway.request("GET", f"/v1/approvals/{waiting}").json()["status"] == "expired"
    audit = gateway.request("GET", "/v1/audit", "admin", params={"tool": name, "type": "tool.apply"}).json()["items"]
    assert audit[0]["details"]["status"] == {"from": "approved", "to": "draft"}
    # blocked, restricted and deprecated tools keep their status: a re-apply never lifts a restriction
    _status(gateway, name, "blocked")
    assert gateway.apply(manifest(name, requires_approval=True)).json()["status"] == "blocked"


def test_idempotency_keys_are_scoped_per_principal_and_tool(gateway):
    one, two = _tool(gateway, "scope-a"), _tool(gateway, "scope-b")
    key = {"Idempotency-Key": gateway.unique("shared-key")}
    first = gateway.invoke(one, {"text": "a"}, headers=key).json()
    other_tool = gateway.invoke(two, {"text": "b"}, headers=key)
    other_caller = gateway.invoke(one, {"text": "c"}, who="admin", headers=key)
    assert other_tool.status_code == other_caller.status_code == 200
    assert len({first["id"], other_tool.json()["id"], other_caller.json()["id"]}) == 3
    assert other_caller.json()["result"] == {"text": "c"}


def test_concurrent_applies_of_one_tool_create_it_once(gateway):
    from concurrent.futures import ThreadPoolExecutor

    name = gateway.unique("race")
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda i: gateway.apply(manifest(name, description=f"take {i % 2}")), range(12)))
    assert all(a.status_code in (200, 201) for a in answers), [a.text for a in answers]
    assert [a.status_code for a in answers].count(201) == 1
    listed = gateway.request("GET", "/v1/tools", "dev", params={"limit": 500}).json()["items"]
    assert [t["name"] for t in listed].count(name) == 1
    audit = gateway.request("GET", "/v1/audit", "admin", params={"tool": name, "type": "tool.apply"}).json()["items"]
    assert [e["details"]["apply_status"] for e in audit].count("created") == 1


def test_a_spec_change_expires_a_pending_promotion_of_a_draft_tool(gateway):
    """The reviewer of a promotion must approve what runs: a spec applied meanwhile cancels the request."""
    name = _tool(gateway)
    promotion = gateway.request("PATCH", f"/v1/tools/{name}", "secoff", json={"status": "approved"}).json()
    endpoint = {"type": "builtin", "handler": "time.now"}
    assert gateway.apply(manifest(name, endpoint=endpoint)).json()["apply_status"] == "updated"
    _code(gateway.request("POST", f"/v1/approvals/{promotion['approval_id']}/approve", "admin"), 409,
          "approval_not_pending")
    assert gateway.request("GET", f"/v1/tools/{name}").json()["status"] == "draft"
