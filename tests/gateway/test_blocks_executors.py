"""Executors: builtin and http against a small in-test server on 127.0.0.1 (enterprise_ai.gateway.executors)."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import pytest

from enterprise_ai.gateway.egress import EgressPolicy
from enterprise_ai.gateway.executors import ExecutionResult, execute

EGRESS = EgressPolicy()


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: Any) -> None:  # quiet
        pass

    def _send(self, status: int, body: bytes, content_type: str = "application/json", **headers: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for key, value in headers.items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(body)

    def _reply(self, body: bytes) -> None:
        path = urlsplit(self.path).path
        if path == "/echo":
            seen = {
                "method": self.command,
                "body": json.loads(body) if body else None,
                "query": parse_qsl(urlsplit(self.path).query),
                "run_id": self.headers.get("X-EAI-Run-Id"),
                "tool": self.headers.get("X-EAI-Tool"),
                "content_type": self.headers.get("Content-Type"),
            }
            self._send(200, json.dumps(seen).encode())
        elif path == "/boom":
            self._send(500, b'{"error": {"code": "tool_error", "message": "RuntimeError: kaput"}}')
        elif path == "/text":
            self._send(200, b"plain words", "text/plain")
        elif path == "/slow":
            time.sleep(2)
            self._send(200, b"{}")
        elif path == "/redirect":
            self._send(302, b"", Location="http://evil.example/")
        elif path == "/huge":
            self._send(200, b'"' + b"x" * (11 * 1024 * 1024) + b'"')
        else:
            self._send(404, b"not here", "text/plain")

    def do_GET(self) -> None:  # noqa: N802
        self._reply(b"")

    def do_DELETE(self) -> None:  # noqa: N802
        self._reply(b"")

    def do_POST(self) -> None:  # noqa: N802
        length = int(self.headers.get("Content-Length") or 0)
        self._reply(self.rfile.read(length))


@pytest.fixture(scope="module")
def upstream() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def run(endpoint: dict[str, Any], arguments: dict[str, Any] | None = None, **kwargs: Any) -> ExecutionResult:
    async def go() -> ExecutionResult:
        import httpx

        async with httpx.AsyncClient() as client:
            return await execute(endpoint, arguments or {}, tool_name=kwargs.pop("tool_name", "demo"),
                                 run_id=kwargs.pop("run_id", None), egress=kwargs.pop("egress", EGRESS),
                                 client=client, **kwargs)

    return asyncio.run(go())


def test_builtin_echo_and_time_now() -> None:
    result = run({"type": "builtin", "handler": "echo"}, {"a": [1, 2], "b": "x"})
    assert (result.status, result.result, result.error) == ("succeeded", {"a": [1, 2], "b": "x"}, None)
    now = run({"type": "builtin", "handler": "time.now"}).result["now"]
    from datetime import datetime, timezone

    parsed = datetime.fromisoformat(now.replace("Z", "+00:00"))
    assert parsed.tzinfo is not None and parsed.utcoffset().total_seconds() == 0
    assert abs((datetime.now(timezone.utc) - parsed).total_seconds()) < 5
    bad = run({"type": "builtin", "handler": "rm"})
    assert bad.status == "failed" and "unknown builtin handler" in bad.error
    assert run({"type": "ftp"}).status == "failed"


def test_http_post_sends_json_run_id_and_tool(upstream: str) -> None:
    result = run({"type": "http", "url": f"{upstream}/echo"}, {"q": "é", "n": 2}, run_id="run-42", tool_name="search")
    assert result.status == "succeeded" and result.http_status == 200
    assert result.result == {"method": "POST", "body": {"q": "é", "n": 2}, "query": [], "run_id": "run-42",
                             "tool": "search", "content_type": "application/json"}
    assert result.usage["request_bytes"] > 0 and result.usage["response_bytes"] > 0
    assert result.duration_ms > 0


def test_http_get_and_delete_use_the_query_string(upstream: str) -> None:
    for method in ("GET", "DELETE"):
        endpoint = {"type": "http", "method": method, "url": f"{upstream}/echo"}
        result = run(endpoint, {"q": "x y", "tags": ["a", "b"], "n": 3})
        assert result.result["method"] == method
        assert result.result["body"] is None
        assert result.result["query"] == [["q", "x y"], ["tags", "a"], ["tags", "b"], ["n", "3"]]
        assert result.result["run_id"] is None


def test_http_upstream_500_is_a_failed_result(upstream: str) -> None:
    result = run({"type": "http", "url": f"{upstream}/boom"})
    assert (result.status, result.http_status, result.result) == ("failed", 500, None)
    assert result.error == "upstream answered 500 Internal Server Error: RuntimeError: kaput"


def test_http_404_text_and_non_json_success(upstream: str) -> None:
    missing = run({"type": "http", "url": f"{upstream}/nothing"})
    assert missing.status == "failed" and missing.http_status == 404 and "not here" in missing.error
    text = run({"type": "http", "url": f"{upstream}/text"})
    assert (text.status, text.result) == ("succeeded", "plain words")


def test_http_timeout_uses_the_manifest_value(upstream: str) -> None:
    started = time.perf_counter()
    result = run({"type": "http", "url": f"{upstream}/slow", "timeout_seconds": 0.3})
    assert time.perf_counter() - started < 1.5
    assert result.status == "failed" and result.http_status is None
    assert result.error.startswith("upstream timed out after 0.3s")


def test_http_connection_refused() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    result = run({"type": "http", "url": f"http://127.0.0.1:{port}/tools/x", "timeout_seconds": 5})
    assert result.status == "failed" and result.http_status is None
    assert result.error.startswith(f"upstream unreachable (POST http://127.0.0.1:{port}/tools/x)")


def test_http_egress_denied_makes_no_request(upstream: str) -> None:
    policy = EgressPolicy(["https://*.example.com"])
    result = run({"type": "http", "url": f"{upstream}/echo"}, egress=policy)
    assert result.status == "failed" and "egress" in result.error and result.usage == {}


def test_http_redirects_are_not_followed_and_huge_bodies_fail(upstream: str) -> None:
    redirect = run({"type": "http", "url": f"{upstream}/redirect"})
    assert redirect.status == "failed" and redirect.http_status == 302
    assert "not followed" in redirect.error
    huge = run({"type": "http", "url": f"{upstream}/huge"})
    assert huge.status == "failed" and "larger than" in huge.error


def test_http_default_url_and_shared_client(upstream: str) -> None:
    from enterprise_ai.gateway.executors import close_shared_clients, shared_client

    async def go() -> tuple[ExecutionResult, bool]:
        first = shared_client()
        endpoint = {"type": "http", "url": f"{upstream}/echo"}
        result = await execute(endpoint, {}, tool_name="t", run_id=None, egress=EGRESS)
        same = shared_client() is first
        await close_shared_clients()
        return result, same

    result, same = asyncio.run(go())
    assert result.status == "succeeded" and same


def test_mcp_unknown_server_and_egress() -> None:
    unknown = run({"type": "mcp", "mcp_server": "crm"}, mcp_servers={})
    assert unknown.status == "failed" and "unknown MCP server 'crm'" in unknown.error
    denied = run({"type": "mcp", "mcp_server": "crm"}, mcp_servers={"crm": {"url": "https://crm.example.com/mcp"}})
    assert denied.status == "failed" and "egress denied" in denied.error
