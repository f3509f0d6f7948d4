"""Faults injected with httpx.MockTransport, through the CLI: retries made and exit codes given.

Documented policy (enterprise_ai.tools._retry): DEFAULT_MAX_RETRIES=2 (3 attempts); connection
errors before sending retried on any request; timeouts, resets and 429/502/503/504 retried on GETs
and invokes; Retry-After honoured up to 60 s, beyond it no retry (fail fast).
"""

from __future__ import annotations

from email.utils import format_datetime
from datetime import datetime, timedelta, timezone

import httpx
import pytest

from tests.client.conftest import err

TOOLS_PAGE = httpx.Response(200, json={"items": [{"name": "echo", "status": "approved"}], "next_cursor": None})


def test_read_timeout_is_retried_then_exit_9(gw, cli, sleeps):
    gw.on("GET /v1/tools", httpx.ReadTimeout("read timed out"))
    code, out, errout = cli("tools", "list")
    assert code == 9
    assert len(gw.calls("GET /v1/tools")) == 3
    assert len(sleeps) == 2 and all(0 < s <= 8 for s in sleeps)
    assert "timed out" in errout and out == ""


def test_timeout_then_success(gw, cli, sleeps):
    gw.on("GET /v1/tools", httpx.ConnectTimeout("connect"), TOOLS_PAGE)
    code, out, _ = cli("tools", "list", "-o", "json")
    assert code == 0 and '"echo"' in out
    assert len(gw.calls("GET /v1/tools")) == 2


def test_connection_reset_on_get_is_retried(gw, cli, sleeps):
    gw.on("GET /v1/tools/echo", httpx.ReadError("[Errno 104] Connection reset by peer"),
          httpx.Response(200, json={"name": "echo", "status": "approved", "manifest": {}}))
    code, out, _ = cli("tools", "get", "echo", "-o", "json")
    assert code == 0
    assert len(gw.calls("GET /v1/tools/echo")) == 2


def test_connection_reset_on_delete_is_not_retried(gw, cli, sleeps):
    gw.on("DELETE /v1/tools/echo", httpx.ReadError("[Errno 104] Connection reset by peer"))
    code, _, errout = cli("tools", "delete", "echo", "--yes")
    assert code == 9
    assert len(gw.calls("DELETE /v1/tools/echo")) == 1 and sleeps == []
    assert "Connection reset" in errout


def test_connection_refused_is_retried_on_any_request(gw, cli, sleeps):
    gw.on("DELETE /v1/tools/echo", httpx.ConnectError("[Errno 111] Connection refused"))
    code, _, _ = cli("tools", "delete", "echo", "--yes")
    assert code == 9
    assert len(gw.calls("DELETE /v1/tools/echo")) == 3


def test_429_without_retry_after_backs_off_exponentially(gw, cli, sleeps):
    gw.on("GET /v1/tools", err(429, "rate_limited"))
    code, _, errout = cli("tools", "list")
    assert code == 7
    assert len(gw.calls("GET /v1/tools")) == 3
    # backoff base 0.5 s then 1 s, each reduced by at most 25 % jitter
    assert 0.375 <= sleeps[0] <= 0.5 and 0.75 <= sleeps[1] <= 1.0
    assert "429 rate_limited" in errout and "req-rate_limited" in errout


def test_429_with_retry_after_seconds_is_honoured(gw, cli, sleeps):
    gw.on("GET /v1/tools", err(429, "rate_limited", headers={"Retry-After": "7"}), TOOLS_PAGE)
    code, _, _ = cli("tools", "list")
    assert code == 0 and sleeps == [7.0]


def test_429_with_retry_after_http_date(gw, cli, sleeps):
    when = format_datetime(datetime.now(timezone.utc) + timedelta(seconds=20), usegmt=True)
    gw.on("GET /v1/tools", err(429, "rate_limited", headers={"Retry-After": when}), TOOLS_PAGE)
    code, _, _ = cli("tools", "list")
    assert code == 0 and len(sleeps) == 1 and 17 <= sleeps[0] <= 20


def test_retry_after_beyond_cap_fails_fast(gw, cli, sleeps):
    gw.on("GET /v1/tools", err(429, "quota_exceeded", headers={"Retry-After": "3600"}), TOOLS_PAGE)
    code, _, errout = cli("tools", "list")
    assert code == 7
    assert len(gw.calls("GET /v1/tools")) == 1 and sleeps == []
    assert "3600 s" in errout and "60 s" in errout


def test_503_is_retried_then_exit_10(gw, cli, sleeps):
    gw.on("GET /v1/tools/invocations", err(503, "unavailable"))
    code, _, errout = cli("tools", "invocations")
    assert code == 10
    assert len(gw.calls("GET /v1/tools/invocations")) == 3 and len(sleeps) == 2
    assert "503 unavailable" in errout


def test_503_on_patch_is_not_retried(gw, cli, sleeps):
    gw.on("PATCH /v1/tools/echo", err(503, "unavailable"))
    code, _, _ = cli("tools", "update", "echo", "--owner", "x@example.com")
    assert code == 10 and len(gw.calls("PATCH /v1/tools/echo")) == 1


def test_repeated_cursor_stops_with_exit_10(gw, cli, sleeps):
    gw.on("GET /v1/tools",
          httpx.Response(200, json={"items": [{"name": "a"}], "next_cursor": "c1"}),
          httpx.Response(200, json={"items": [{"name": "b"}], "next_cursor": "c2"}),
          httpx.Response(200, json={"items": [{"name": "c"}], "next_cursor": "c1"}))
    code, _, errout = cli("tools", "list")
    assert code == 10
    assert "repeated the page cursor 'c1'" in errout
    assert len(gw.calls("GET /v1/tools")) == 3


@pytest.mark.parametrize(
    ("status", "code_name", "exit_code"),
    [(400, "bad_request", 2), (401, "unauthenticated", 3), (403, "insufficient_scope", 4), (404, "tool_not_found", 5),
     (409, "approval_consumed", 6), (422, "invalid_arguments", 1), (500, "internal", 10)],
)
def test_status_errors_map_to_exit_codes(gw, cli, status, code_name, exit_code):
    gw.on("GET /v1/tools/echo", err(status, code_name, "the message"))
    code, out, errout = cli("tools", "get", "echo")
    assert code == exit_code
    assert f"eai: error: {status} {code_name}: the message (request id req-{code_name})" in errout
    assert out == ""


def test_retried_invoke_sends_same_key_and_body_bytes(gw, cli, sleeps):
    gw.on("GET /v1/tools/echo", httpx.Response(200, json={"name": "echo", "manifest": {"spec": {"input_schema": {
        "type": "object", "properties": {"n": {"type": "integer"}, "text": {"type": "string"}}}}}}))
    gw.on("POST /v1/tools/echo/invoke", err(503, "unavailable"), httpx.ReadError("reset"),
          httpx.Response(200, json={"id": "inv1", "status": "succeeded", "result": {"n": 3}, "duration_ms": 2,
                                    "cost": {"amount": 0.01, "currency": "EUR"}, "decision_id": "d1"}))
    code, out, _ = cli("tools", "invoke", "echo", "n=3", "text=hi", "-o", "json")
    assert code == 0
    calls = gw.calls("POST /v1/tools/echo/invoke")
    assert len(calls) == 3
    keys = {c.headers["idempotency-key"] for c in calls}
    assert len(keys) == 1 and len(next(iter(keys))) >= 32
    assert len({c.body for c in calls}) == 1
    assert calls[0].json() == {"arguments": {"n": 3, "text": "hi"}}


def test_given_idempotency_key_is_sent_unchanged(gw, cli, sleeps):
    gw.on("GET /v1/tools/echo", httpx.Response(200, json={"name": "echo", "manifest": {}}))
    gw.on("POST /v1/tools/echo/invoke", err(429, "rate_limited", headers={"Retry-After": "1"}),
          httpx.Response(200, json={"id": "i", "status": "succeeded"}))
    code, _, _ = cli("tools", "invoke", "echo", "--idempotency-key", "key-123", "--run-id", "run-9")
    assert code == 0 and sleeps == [1.0]
    calls = gw.calls("POST /v1/tools/echo/invoke")
    assert [c.headers["idempotency-key"] for c in calls] == ["key-123", "key-123"]
    assert calls[0].json() == {"arguments": {}, "run_id": "run-9"}


def test_failed_invocation_exits_1(gw, cli):
    gw.on("GET /v1/tools/up", httpx.Response(200, json={"name": "up", "manifest": {}}))
    gw.on("POST /v1/tools/up/invoke", httpx.Response(200, json={"id": "i", "status": "failed", "error": "upstream 500"}))
    code, out, _ = cli("tools", "invoke", "up")
    assert code == 1 and "failed" in out and "upstream 500" in out
