"""The mcp executor against a real MCP server (the mcp SDK's MCPServer over Streamable HTTP on 127.0.0.1)."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from enterprise_ai.gateway.egress import EgressPolicy
from enterprise_ai.gateway.executors import ExecutionResult, execute

mcp_server = pytest.importorskip("mcp.server")


@pytest.fixture(scope="module")
def servers() -> Iterator[dict[str, dict[str, Any]]]:
    import uvicorn

    server = mcp_server.MCPServer("demo")

    @server.tool()
    def add(a: int, b: int) -> int:
        """Add two numbers."""
        return a + b

    @server.tool()
    def fail(x: str) -> str:
        """Always fails."""
        raise ValueError("nope " + x)

    app = server.streamable_http_app(stateless_http=True, json_response=True)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen()
    uv = uvicorn.Server(uvicorn.Config(app, log_level="error", lifespan="on"))
    thread = threading.Thread(target=uv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not uv.started and time.monotonic() < deadline:
        time.sleep(0.05)
    try:
        yield {"demo": {"url": f"http://127.0.0.1:{sock.getsockname()[1]}/mcp", "timeout_seconds": 20}}
    finally:
        uv.should_exit = True
        thread.join(10)
        sock.close()


def call(endpoint: dict[str, Any], arguments: dict[str, Any], servers: dict[str, Any]) -> ExecutionResult:
    return asyncio.run(execute(endpoint, arguments, tool_name="sum", run_id=None, egress=EgressPolicy(),
                               mcp_servers=servers))


def test_mcp_call_returns_structured_content(servers: dict[str, Any]) -> None:
    result = call({"type": "mcp", "mcp_server": "demo", "tool": "add"}, {"a": 2, "b": 5}, servers)
    assert (result.status, result.result, result.error) == ("succeeded", {"result": 7}, None)


def test_mcp_tool_errors_are_failed_results(servers: dict[str, Any]) -> None:
    failed = call({"type": "mcp", "mcp_server": "demo", "tool": "fail"}, {"x": "y"}, servers)
    assert failed.status == "failed" and failed.error.startswith("MCP tool 'fail' returned an error")
    missing = call({"type": "mcp", "mcp_server": "demo"}, {}, servers)  # tool defaults to the tool name "sum"
    assert missing.status == "failed" and "Unknown tool: sum" in missing.error
