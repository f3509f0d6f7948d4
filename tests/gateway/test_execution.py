"""Execution through the gateway: http upstreams, output schema, DLP on results, sandbox, invocation lists."""

from __future__ import annotations

import json
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tests.support.gateway import manifest


class _Upstream(BaseHTTPRequestHandler):
    seen: list[dict] = []

    def do_POST(self) -> None:  # noqa: N802 - http.server API
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"null")
        self.seen.append({"path": self.path, "run_id": self.headers.get("X-EAI-Run-Id"), "body": body})
        answers = {
            "/ok": (200, {"got": body}),
            "/fail": (500, {"error": {"message": "database down"}}),
            "/pii": (200, {"contact": "bob.smith@example.com"}),
            "/secret": (200, {"code": "TOPSECRET-90817263"}),
            "/wrong-shape": (200, {"count": "many"}),
        }
        if self.path == "/slow":
            time.sleep(3)
        if self.path == "/ok-slowly":
            time.sleep(0.5)
            self.path = "/ok"
        status, payload = answers.get(self.path, (404, {"error": "no such path"}))
        data = json.dumps(payload).encode()
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):  # the gateway gave up (timeout test)
            pass

    def log_message(self, *args) -> None:
        pass


@pytest.fixture(scope="module")
def upstream():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Upstream)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def _http_tool(gateway, upstream: str, path: str, **spec) -> str:
    name = gateway.unique("http")
    doc = manifest(name, endpoint={"type": "http", "method": "POST", "url": f"{upstream}{path}",
                                   "timeout_seconds": spec.pop("timeout", 10)}, **spec)
    assert gateway.apply(doc).status_code == 201
    return name


def test_http_posts_arguments_with_the_run_id(gateway, upstream):
    name = _http_tool(gateway, upstream, "/ok")
    response = gateway.invoke(name, {"text": "hi"}, run_id="run-http-1")
    assert response.status_code == 200, response.text
    record = response.json()
    assert record["status"] == "succeeded" and record["http_status"] == 200
    assert record["result"] == {"got": {"text": "hi"}}
    assert {"path": "/ok", "run_id": "run-http-1", "body": {"text": "hi"}} in _Upstream.seen
    assert record["usage"]["duration_ms"] >= 0 and record["cost"]["currency"] == "EUR"


def test_upstream_error_and_timeout_are_failed_records_not_5xx(gateway, upstream):
    failed = gateway.invoke(_http_tool(gateway, upstream, "/fail"), {"text": "x"})
    assert failed.status_code == 200
    assert failed.json()["status"] == "failed" and failed.json()["http_status"] == 500
    assert "database down" in failed.json()["error"]["message"]
    slow = gateway.invoke(_http_tool(gateway, upstream, "/slow", timeout=1), {"text": "x"})
    assert slow.status_code == 200 and slow.json()["status"] == "failed"
    assert "timed out" in slow.json()["error"]["message"]


def test_result_against_output_schema(gateway, upstream):
    schema = {"type": "object", "properties": {"count": {"type": "integer"}}, "required": ["count"]}
    record = gateway.invoke(_http_tool(gateway, upstream, "/wrong-shape", output_schema=schema), {"text": "x"}).json()
    assert record["status"] == "failed" and record["error"]["code"] == "invalid_result"
    assert "/count" in record["error"]["message"]


def test_dlp_on_the_result(gateway, upstream):
    record = gateway.invoke(_http_tool(gateway, upstream, "/pii"), {"text": "x"}).json()
    assert record["status"] == "succeeded" and record["result"] == {"contact": "[REDACTED:email]"}
    assert {"type": "email", "path": "/result/contact", "action": "redact"} in record["dlp_detections"]
    secret = _http_tool(gateway, upstream, "/secret")
    key = {"Idempotency-Key": gateway.unique("k")}
    blocked = gateway.invoke(secret, {"text": "x"}, headers=key)
    assert blocked.status_code == 403 and blocked.json()["error"]["code"] == "dlp_blocked"
    assert blocked.json()["error"]["request_id"] == blocked.headers["x-request-id"]
    stored = gateway.request("GET", f"/v1/tools/invocations/{blocked.json()['error']['details']['invocation_id']}")
    assert stored.json()["status"] == "denied" and "TOPSECRET-90817263" not in stored.text
    replay = gateway.invoke(secret, {"text": "x"}, headers=key)  # the tool ran: a retry replays, never re-runs
    assert replay.status_code == 403 and replay.json() == blocked.json()


def test_sandbox_runs_in_the_background(gateway):
    name = gateway.unique("sandbox")
    code = "import json,sys,time; a=json.load(sys.stdin); time.sleep(0.3); print(json.dumps({'text': a['text'].upper()}))"
    doc = manifest(name, endpoint={"type": "sandbox", "command": [sys.executable, "-c", code], "timeout_seconds": 20})
    assert gateway.apply(doc).status_code == 201, gateway.apply(doc).text
    accepted = gateway.invoke(name, {"text": "quiet"})
    assert accepted.status_code == 202, accepted.text
    record = accepted.json()
    assert record["status"] == "running" and record["id"].startswith("inv_")
    deadline = time.monotonic() + 20
    while record["status"] == "running" and time.monotonic() < deadline:
        time.sleep(0.1)
        record = gateway.request("GET", f"/v1/tools/invocations/{record['id']}", "agent").json()
    assert record["status"] == "succeeded" and record["result"] == {"text": "QUIET"}


def test_invocation_list_filters_newest_first(gateway):
    name = gateway.unique("inv")
    assert gateway.apply(manifest(name)).status_code == 201
    ids = [gateway.invoke(name, {"text": str(i)}, run_id=f"{name}-run").json()["id"] for i in range(3)]
    gateway.invoke(name, {"text": "other run"}, run_id="elsewhere")
    items = gateway.request("GET", "/v1/tools/invocations", "admin", params={"run_id": f"{name}-run"}).json()["items"]
    assert [r["id"] for r in items] == ids[::-1]
    page = gateway.request("GET", "/v1/tools/invocations", "admin", params={"tool": name, "limit": 2}).json()
    assert len(page["items"]) == 2 and page["next_cursor"]
    rest = gateway.request("GET", "/v1/tools/invocations", "admin",
                           params={"tool": name, "limit": 2, "cursor": page["next_cursor"]}).json()
    assert [r["id"] for r in rest["items"]] == [ids[1], ids[0]] and rest["next_cursor"] is None
    # agent2 made none of these calls and has no relation on the tool: it sees none of them
    assert gateway.request("GET", "/v1/tools/invocations", "agent2", params={"tool": name}).json()["items"] == []
    missing = gateway.request("GET", f"/v1/tools/invocations/{ids[0]}", "agent2")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "invocation_not_found"


def test_concurrent_duplicates_of_one_idempotency_key_execute_once(gateway, upstream):
    name = _http_tool(gateway, upstream, "/ok-slowly")
    key = {"Idempotency-Key": gateway.unique("dup")}
    before = sum(1 for seen in _Upstream.seen if seen["body"] == {"text": name})
    with ThreadPoolExecutor(3) as pool:
        responses = list(pool.map(lambda _: gateway.invoke(name, {"text": name}, headers=key), range(3)))
    assert [r.status_code for r in responses] == [200, 200, 200]
    assert len({r.json()["id"] for r in responses}) == 1  # one record, replayed to the duplicates
    assert sum(1 for seen in _Upstream.seen if seen["body"] == {"text": name}) == before + 1
