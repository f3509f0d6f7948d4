"""invoke: key=value coercion through the input schema, and the approval wait (MockTransport)."""

from __future__ import annotations

import json

import httpx
import pytest

from enterprise_ai.errors import UsageError
from enterprise_ai.tools._invoke import build_arguments
from tests.client.conftest import err

SCHEMA = {
    "type": "object",
    "properties": {
        "n": {"type": "integer", "minimum": 1},
        "ratio": {"type": "number"},
        "flag": {"type": "boolean"},
        "tags": {"type": "array", "items": {"type": "string"}},
        "code": {"type": "string"},
        "maybe": {"type": ["integer", "null"]},
    },
    "required": ["n"],
    "additionalProperties": False,
}
TOOL = httpx.Response(200, json={"name": "pay", "manifest": {"spec": {"input_schema": SCHEMA}}})


def test_pairs_are_coerced_by_schema_type():
    args = build_arguments(["n=3", "ratio=0.5", "flag=true", 'tags=["a","b"]', "code=007", "maybe=null"], SCHEMA)
    assert args == {"n": 3, "ratio": 0.5, "flag": True, "tags": ["a", "b"], "code": "007", "maybe": None}


def test_args_json_and_pairs_merge(tmp_path):
    f = tmp_path / "a.json"
    f.write_text('{"n": 2, "code": "x"}')
    assert build_arguments(["code=y"], SCHEMA, args_file=f) == {"n": 2, "code": "y"}
    assert build_arguments([], SCHEMA, args_json='{"n": 5}') == {"n": 5}


@pytest.mark.parametrize(
    ("pairs", "message"),
    [(["n=0"], "at /n: 0 is less than the minimum of 1"), (["n=x"], "at /n: 'x' is not of type 'integer'"),
     (["code=1"], "(arguments): 'n' is a required property"), (["n=1", "other=2"], "Additional properties"),
     (["novalue"], "'novalue' is not key=value")],
)
def test_bad_arguments_are_refused_before_sending(pairs, message):
    with pytest.raises(UsageError) as info:
        build_arguments(pairs, SCHEMA)
    assert message in info.value.message


def test_cli_invalid_arguments_send_nothing(gw, cli):
    gw.on("GET /v1/tools/pay", TOOL)
    code, _, errout = cli("tools", "invoke", "pay", "n=zero")
    assert code == 2 and "invalid arguments at /n" in errout
    assert gw.calls("POST /v1/tools/pay/invoke") == []


def test_args_json_and_args_file_are_exclusive(gw, cli, tmp_path):
    gw.on("GET /v1/tools/pay", TOOL)
    f = tmp_path / "a.json"
    f.write_text("{}")
    code, _, errout = cli("tools", "invoke", "pay", "--args-json", "{}", "--args-file", str(f))
    assert code == 2 and "not both" in errout


def _pending_then(gw, *approval_states, final=None):
    gw.on("GET /v1/tools/pay", TOOL)
    gw.on("POST /v1/tools/pay/invoke",
          httpx.Response(202, json={"status": "pending_approval", "approval_id": "ap-1"}),
          final or httpx.Response(200, json={"id": "inv-9", "status": "succeeded", "result": {"ok": True},
                                             "duration_ms": 12, "cost": {"amount": 0.5, "currency": "EUR"},
                                             "decision_id": "dec-1"}))
    gw.on("GET /v1/approvals/ap-1", *[httpx.Response(200, json={"id": "ap-1", "status": s}) for s in approval_states])


def test_pending_without_wait_prints_approval_id_and_exits_8(gw, cli):
    _pending_then(gw, "pending")
    code, out, errout = cli("tools", "invoke", "pay", "n=1")
    assert code == 8
    assert "ap-1" in errout and "eai approvals approve ap-1" in errout


def test_wait_polls_then_calls_again_with_the_approval(gw, cli, monkeypatch):
    monkeypatch.setattr("time.sleep", lambda s: None)
    _pending_then(gw, "pending", "pending", "approved")
    code, out, errout = cli("tools", "invoke", "pay", "n=1", "--wait", "30", "-o", "json")
    assert code == 0, errout
    assert json.loads(out)["status"] == "succeeded"
    assert "the call needs approval ap-1; waiting up to 30 s" in errout
    first, second = gw.calls("POST /v1/tools/pay/invoke")
    assert first.json() == {"arguments": {"n": 1}}
    assert second.json() == {"arguments": {"n": 1}, "approval_id": "ap-1"}
    assert second.headers["idempotency-key"] == first.headers["idempotency-key"] + ".ap-1"
    assert len(gw.calls("GET /v1/approvals/ap-1")) == 3


def test_table_output_shows_status_result_duration_cost_decision(gw, cli, monkeypatch):
    monkeypatch.setattr("time.sleep", lambda s: None)
    _pending_then(gw, "approved")
    code, out, _ = cli("tools", "invoke", "pay", "n=1", "--wait")
    assert code == 0
    assert "status\tsucceeded" in out and "duration_ms\t12" in out
    assert "cost\t0.5 EUR" in out and "decision_id\tdec-1" in out and 'result\t{"ok": true}' in out


def test_rejected_approval_exits_4(gw, cli, monkeypatch):
    monkeypatch.setattr("time.sleep", lambda s: None)
    gw.on("GET /v1/approvals/ap-1", httpx.Response(200, json={"id": "ap-1", "status": "rejected", "comment": "no"}))
    _pending_then(gw, "rejected")
    gw.on("GET /v1/approvals/ap-1", httpx.Response(200, json={"id": "ap-1", "status": "rejected", "comment": "no"}))
    code, _, errout = cli("tools", "invoke", "pay", "n=1", "--wait", "5")
    assert code == 4 and "approval ap-1 was rejected (no)" in errout
    assert len(gw.calls("POST /v1/tools/pay/invoke")) == 1


def test_still_pending_at_deadline_exits_8(gw, cli):
    _pending_then(gw, "pending")
    code, _, errout = cli("tools", "invoke", "pay", "n=1", "--wait", "0")
    assert code == 8 and "still pending after 0 s" in errout


def test_denied_invoke_exits_4(gw, cli):
    gw.on("GET /v1/tools/pay", TOOL)
    gw.on("POST /v1/tools/pay/invoke", err(403, "policy_denied", "blocked by policy"))
    code, _, errout = cli("tools", "invoke", "pay", "n=1")
    assert code == 4 and "403 policy_denied" in errout
