"""Every error code of POST /v1/tools/{name}/invoke, against the real gateway process, and the chain's order."""

from __future__ import annotations

import pytest

from tests.support.gateway import manifest


def _tool(gateway, prefix: str = "chain", who: str = "dev", **spec) -> str:
    name = gateway.unique(prefix)
    response = gateway.apply(manifest(name, **spec), who=who)
    assert response.status_code == 201, response.text
    return name


def _error(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["error"]["code"] == code, body
    assert body["error"]["request_id"] == response.headers["x-request-id"]
    return body["error"]


def test_succeeds_and_returns_the_record(gateway):
    name = _tool(gateway)
    response = gateway.invoke(name, {"text": "hello"}, run_id="run-1", agent="support-bot")
    assert response.status_code == 200, response.text
    record = response.json()
    assert record["status"] == "succeeded" and record["decision"] == "allow"
    assert record["result"] == {"text": "hello"}
    assert record["tool"] == name and record["tool_version"] == "0.1.0" and record["actor"] == "agent"
    assert record["run_id"] == "run-1" and record["agent"] == "support-bot"
    assert record["cost"] == {"amount": 0.001, "currency": "EUR"}
    assert record["decision_id"].startswith("dec_") and record["duration_ms"] >= 0
    assert "Deprecation" not in response.headers


def test_unauthenticated(gateway):
    name = _tool(gateway)
    _error(gateway.invoke(name, {"text": "x"}, who=None), 401, "unauthenticated")
    response = gateway.request("POST", f"/v1/tools/{name}/invoke", None, json={"arguments": {"text": "x"}},
                               headers={"Authorization": "Bearer not-a-token"})
    _error(response, 401, "unauthenticated")


def test_tool_not_found_also_when_not_viewable(gateway):
    _error(gateway.invoke(gateway.unique("missing"), {"text": "x"}), 404, "tool_not_found")
    name = _tool(gateway)
    _error(gateway.invoke(name, {"text": "x"}, who="agent2"), 404, "tool_not_found")  # no relation at all


def test_tool_blocked(gateway):
    name = _tool(gateway)
    assert gateway.request("PATCH", f"/v1/tools/{name}", "secoff", json={"status": "blocked"}).status_code == 200
    error = _error(gateway.invoke(name, {"text": "x"}), 403, "tool_blocked")
    assert error["details"]["invocation_id"].startswith("inv_")
    record = gateway.request("GET", f"/v1/tools/invocations/{error['details']['invocation_id']}").json()
    assert record["status"] == "denied" and record["decision"] == "deny" and record["error"]["code"] == "tool_blocked"


def test_restricted_needs_an_explicit_grant(gateway):
    name = _tool(gateway)
    assert gateway.request("PATCH", f"/v1/tools/{name}", "secoff", json={"status": "restricted"}).status_code == 200
    # "agent" holds can_invoke on every tool through a wildcard grant: not explicit
    _error(gateway.invoke(name, {"text": "x"}), 403, "tool_not_granted")
    grant = gateway.request("POST", f"/v1/tools/{name}/grants", "dev", json={"principal": "agent", "relation": "can_invoke"})
    assert grant.status_code == 201, grant.text
    assert gateway.invoke(name, {"text": "x"}).status_code == 200


def test_tool_not_granted_without_can_invoke_or_invoke_role(gateway):
    name = _tool(gateway)
    viewer = gateway.request("POST", f"/v1/tools/{name}/grants", "dev", json={"principal": "agent2", "relation": "viewer"})
    assert viewer.status_code == 201
    assert gateway.request("GET", f"/v1/tools/{name}", "agent2").status_code == 200
    _error(gateway.invoke(name, {"text": "x"}, who="agent2"), 403, "tool_not_granted")
    # security_officer sees and edits every tool, but its role may not invoke
    _error(gateway.invoke(name, {"text": "x"}, who="secoff"), 403, "tool_not_granted")
    # the owner may invoke its own tool
    assert gateway.invoke(name, {"text": "x"}, who="dev").status_code == 200


def test_insufficient_scope(gateway):
    name = _tool(gateway, scopes_required=["orders:write"])
    error = _error(gateway.invoke(name, {"text": "x"}), 403, "insufficient_scope")
    assert error["details"]["missing"] == ["orders:write"]
    assert gateway.invoke(_tool(gateway, scopes_required=["orders:read"]), {"text": "x"}).status_code == 200


def test_classification_exceeded(gateway):
    name = _tool(gateway, data_classification="confidential")
    error = _error(gateway.invoke(name, {"text": "x"}), 403, "classification_exceeded")
    assert error["details"] == {"tool_classification": "confidential", "principal_classification": "internal",
                                "invocation_id": error["details"]["invocation_id"]}
    assert gateway.invoke(name, {"text": "x"}, who="dev").status_code == 200  # dev handles confidential


def test_policy_denied(gateway):
    name = _tool(gateway, action="delete", side_effects=True, idempotent=False)
    error = _error(gateway.invoke(name, {"text": "x"}), 403, "policy_denied")
    assert error["details"]["policy"] == "no-agent-deletes"
    assert gateway.invoke(name, {"text": "x"}, who="dev").status_code == 200  # the rule names agents only


@pytest.mark.parametrize(("arguments", "path"), [({}, "/text"), ({"text": 5}, "/text"), ({"text": "a", "x": 1}, "")])
def test_invalid_arguments_name_the_failing_path(gateway, arguments, path):
    name = _tool(gateway)
    error = _error(gateway.invoke(name, arguments), 422, "invalid_arguments")
    assert error["details"]["errors"][0]["path"] == path


def test_dlp_blocked_and_redacted_arguments(gateway):
    name = _tool(gateway)
    error = _error(gateway.invoke(name, {"text": "code TOPSECRET-4242"}), 403, "dlp_blocked")
    assert error["details"]["detections"] == [{"type": "secret_code", "path": "/arguments/text", "action": "block"}]
    record = gateway.request("GET", f"/v1/tools/invocations/{error['details']['invocation_id']}").json()
    assert "4242" not in str(record) and record["arguments"] == {"text": "code [REDACTED:secret_code]"}
    ok = gateway.invoke(name, {"text": "write to jane.doe@example.com"}).json()
    assert ok["status"] == "succeeded"
    assert ok["arguments"] == {"text": "write to [REDACTED:email]"}  # the tool received the redacted copy
    assert ok["result"] == {"text": "write to [REDACTED:email]"}
    assert {"type": "email", "path": "/arguments/text", "action": "redact"} in ok["dlp_detections"]


def test_rate_limited_with_retry_after(gateway):
    name = _tool(gateway)
    assert [gateway.invoke(name, {"text": "x"}, who="limited").status_code for _ in range(2)] == [200, 200]
    response = gateway.invoke(name, {"text": "x"}, who="limited")
    _error(response, 429, "rate_limited")
    assert 1 <= int(response.headers["Retry-After"]) <= 60


def test_quota_exceeded(gateway):
    name = _tool(gateway)
    assert gateway.invoke(name, {"text": "x"}, who="quota").status_code == 200
    response = gateway.invoke(name, {"text": "x"}, who="quota")
    _error(response, 429, "quota_exceeded")
    assert int(response.headers["Retry-After"]) >= 1


def test_approval_pending_then_approved_then_consumed(gateway):
    name = _tool(gateway, requires_approval=True)
    pending = gateway.invoke(name, {"text": "refund 10"})
    assert pending.status_code == 202, pending.text
    body = pending.json()
    assert body["status"] == "pending_approval" and body["decision"] == "pending"
    approval_id = body["approval_id"]
    # still pending: asking again with the id answers 202 again
    assert gateway.invoke(name, {"text": "refund 10"}, approval_id=approval_id).status_code == 202
    decided = gateway.request("POST", f"/v1/approvals/{approval_id}/approve", "admin2", json={"comment": "ok"})
    assert decided.status_code == 200 and decided.json()["status"] == "approved"
    _error(gateway.invoke(name, {"text": "refund 99"}, approval_id=approval_id), 409, "approval_mismatch")
    done = gateway.invoke(name, {"text": "refund 10"}, approval_id=approval_id)
    assert done.status_code == 200 and done.json()["status"] == "succeeded"
    assert done.json()["approval_id"] == approval_id
    _error(gateway.invoke(name, {"text": "refund 10"}, approval_id=approval_id), 409, "approval_consumed")
    assert gateway.request("GET", f"/v1/approvals/{approval_id}").json()["status"] == "consumed"


def test_approval_rejected_and_unknown(gateway):
    name = _tool(gateway, requires_approval=True)
    approval_id = gateway.invoke(name, {"text": "x"}).json()["approval_id"]
    assert gateway.request("POST", f"/v1/approvals/{approval_id}/reject", "secoff", json={"comment": "no"}).status_code == 200
    _error(gateway.invoke(name, {"text": "x"}, approval_id=approval_id), 403, "approval_rejected")
    _error(gateway.invoke(name, {"text": "x"}, approval_id="apr_nope"), 404, "approval_not_found")


def test_idempotent_replay_and_conflict(gateway):
    name = _tool(gateway)
    key = {"Idempotency-Key": gateway.unique("key")}
    first = gateway.invoke(name, {"text": "once"}, headers=key)
    again = gateway.invoke(name, {"text": "once"}, headers=key)
    assert first.status_code == again.status_code == 200
    assert again.json() == first.json()  # the same record, not a second execution
    assert again.headers.get("Idempotent-Replayed") == "true"
    _error(gateway.invoke(name, {"text": "other"}, headers=key), 409, "idempotency_conflict")
    records = gateway.request("GET", "/v1/tools/invocations", params={"tool": name}).json()["items"]
    assert [r["id"] for r in records if r["status"] == "succeeded"] == [first.json()["id"]]
    # another principal with the same key is another request
    assert gateway.invoke(name, {"text": "once"}, who="dev", headers=key).json()["id"] != first.json()["id"]


def test_deprecated_runs_with_a_deprecation_header(gateway):
    name = _tool(gateway)
    assert gateway.request("PATCH", f"/v1/tools/{name}", "secoff", json={"status": "deprecated"}).status_code == 200
    response = gateway.invoke(name, {"text": "x"})
    assert response.status_code == 200
    assert response.headers["Deprecation"].startswith("@")


def test_chain_order(gateway):
    """A call failing several steps gets the error of the earliest one, in the documented order."""
    name = _tool(gateway, scopes_required=["orders:write"], data_classification="confidential")
    _error(gateway.invoke(name, {"bad": "TOPSECRET-1"}, who="agent"), 403, "insufficient_scope")  # scopes < class.
    assert gateway.request("PATCH", f"/v1/tools/{name}", "secoff", json={"status": "blocked"}).status_code == 200
    _error(gateway.invoke(name, {"bad": "TOPSECRET-1"}, who="agent"), 403, "tool_blocked")  # status first
    other = _tool(gateway)
    _error(gateway.invoke(other, {"bad": "TOPSECRET-1"}), 422, "invalid_arguments")  # arguments before DLP
    _error(gateway.invoke(other, {"text": "TOPSECRET-1"}, who="limited"), 403, "dlp_blocked")  # DLP before limits


def test_invalid_body_shape(gateway):
    name = _tool(gateway)
    error = _error(gateway.request("POST", f"/v1/tools/{name}/invoke", json={"arguments": [1, 2]}), 422,
                   "invalid_request")
    assert error["details"]["errors"][0]["path"] == "/body/arguments"
