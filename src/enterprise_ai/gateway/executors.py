"""Run one tool call on its endpoint: ``builtin``, ``http``, ``mcp`` or ``sandbox`` (MANIFEST.md ``spec.endpoint``).

Public names: :class:`ExecutionResult`, :func:`execute`, :func:`run_sandbox`, :func:`shared_client`,
:func:`close_shared_clients`, :data:`BUILTIN_HANDLERS`.

Contract (issue 4, API.md): an executor never raises for a failure of the tool or of its upstream; it returns
an :class:`ExecutionResult` with ``status="failed"``, a one-line ``error`` and, for http, the upstream
``http_status``. The gateway records that and answers 200 (a failed upstream is not a 5xx of ours).

* ``builtin``: ``echo`` returns the arguments; ``time.now`` returns ``{"now": "<ISO 8601 UTC>"}``.
* ``http``: ``method`` (default POST) to ``url`` (default ``http://127.0.0.1:8000/tools/<name>``, as
  ``LocalTool.manifest`` writes it) with ``timeout_seconds`` (default 30). POST/PUT/PATCH send the arguments
  as a JSON body; GET/DELETE send them as a query string (lists repeat the key; other non-string values are
  JSON-encoded). Headers ``X-EAI-Run-Id`` (when a run id is given) and ``X-EAI-Tool``. The URL is checked
  against the :class:`~enterprise_ai.gateway.egress.EgressPolicy` first: a refused URL is a failure, and no
  request is made. Redirects are not followed (a redirect could leave the allow-list). A 2xx JSON body is the
  result (a non-JSON body is returned as text); a non-2xx answer, a timeout or a connection error is a failure.
  Responses larger than :data:`MAX_RESPONSE_BYTES` are failures.
* ``mcp``: calls ``tool`` (default: the tool name) on the MCP server named by ``mcp_server``, looked up in
  ``mcp_servers`` (``{name: {"url": "http://…/mcp", "timeout_seconds": 30}}``), with the MCP SDK's
  Streamable HTTP client (``mcp.Client``). The result is ``structuredContent`` when the server gives it,
  else the content blocks as JSON; ``isError`` is a failure. The URL goes through the egress policy too.
* ``sandbox``: :func:`run_sandbox` on ``command`` (see there).
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, Literal

from enterprise_ai.gateway.egress import EgressPolicy
from enterprise_ai.gateway.sandbox import run_sandbox

if TYPE_CHECKING:  # pragma: no cover
    import httpx

__all__ = [
    "BUILTIN_HANDLERS",
    "MAX_RESPONSE_BYTES",
    "ExecutionResult",
    "close_shared_clients",
    "execute",
    "run_sandbox",
    "shared_client",
]

MAX_RESPONSE_BYTES = 10 * 1024 * 1024
"""Largest upstream response body accepted (10 MiB)."""
DEFAULT_TIMEOUT_SECONDS = 30.0
DEFAULT_HTTP_BASE = "http://127.0.0.1:8000"
_BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})


@dataclass
class ExecutionResult:
    """The outcome of one execution.

    Attributes:
        status: ``succeeded`` or ``failed``.
        result: the tool's result (JSON-able), None when failed.
        error: one line saying what failed, None when succeeded.
        http_status: the upstream HTTP status (http endpoints), else None.
        usage: what the call used: ``request_bytes``/``response_bytes`` (http), ``exit_code`` (sandbox).
        duration_ms: wall time of the execution in milliseconds.
    """

    status: Literal["succeeded", "failed"]
    result: Any = None
    error: str | None = None
    http_status: int | None = None
    usage: dict[str, Any] = field(default_factory=dict)
    duration_ms: float = 0.0

    @property
    def ok(self) -> bool:
        return self.status == "succeeded"


def _failed(error: str, started: float, *, http_status: int | None = None, **usage: Any) -> ExecutionResult:
    return ExecutionResult("failed", None, error, http_status, usage, (time.perf_counter() - started) * 1000)


def _now_iso() -> dict[str, str]:
    return {"now": datetime.now(timezone.utc).isoformat(timespec="microseconds").replace("+00:00", "Z")}


BUILTIN_HANDLERS = {"echo": lambda arguments: arguments, "time.now": lambda arguments: _now_iso()}
"""The builtin handlers of MANIFEST.md: ``echo`` and ``time.now``."""


_clients: dict[int, httpx.AsyncClient] = {}


def shared_client() -> httpx.AsyncClient:
    """The pooled ``httpx.AsyncClient`` of the running event loop (one per loop, created on first use).

    No redirects are followed; per-request timeouts come from the manifest.
    """
    import httpx

    loop = asyncio.get_running_loop()
    client = _clients.get(id(loop))
    if client is None or client.is_closed:
        client = httpx.AsyncClient(
            follow_redirects=False,
            trust_env=False,  # never route tool calls through an ambient proxy
            limits=httpx.Limits(max_connections=200, max_keepalive_connections=50),
        )
        _clients[id(loop)] = client
    return client


async def close_shared_clients() -> None:
    """Close the pooled client of the running loop (call on gateway shutdown)."""
    client = _clients.pop(id(asyncio.get_running_loop()), None)
    if client is not None:
        await client.aclose()


def _query_params(arguments: dict[str, Any]) -> list[tuple[str, str]]:
    params: list[tuple[str, str]] = []
    for key, value in arguments.items():
        values = value if isinstance(value, list) else [value]
        for item in values:
            if isinstance(item, str):
                params.append((key, item))
            elif item is not None:
                params.append((key, json.dumps(item, separators=(",", ":"))))
    return params


def _upstream_message(body: bytes) -> str:
    text = body.decode("utf-8", "replace").strip()
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    if isinstance(data, dict):
        err = data.get("error")
        if isinstance(err, dict) and err.get("message"):
            text = str(err["message"])
        elif isinstance(err, str):
            text = err
        elif isinstance(data.get("detail"), str):
            text = data["detail"]
    text = " ".join(text.split())
    return text[:300] + ("…" if len(text) > 300 else "")


async def _execute_http(
    endpoint: dict[str, Any], arguments: dict[str, Any], tool_name: str, run_id: str | None,
    egress: EgressPolicy, client: httpx.AsyncClient | None,
) -> ExecutionResult:
    import httpx

    started = time.perf_counter()
    url = endpoint.get("url") or f"{DEFAULT_HTTP_BASE}/tools/{tool_name}"
    method = str(endpoint.get("method") or "POST").upper()
    timeout = float(endpoint.get("timeout_seconds") or DEFAULT_TIMEOUT_SECONDS)
    if not egress.allows(url):
        return _failed(f"egress denied: {url} is not on the gateway's egress allow-list", started)
    headers = {"X-EAI-Tool": tool_name, "Accept": "application/json"}
    if run_id:
        headers["X-EAI-Run-Id"] = run_id
    content: bytes | None = None
    params = None
    if method in _BODY_METHODS:
        content = json.dumps(arguments, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
        headers["Content-Type"] = "application/json"
    else:
        params = _query_params(arguments)
    http = client or shared_client()
    try:
        request = http.build_request(method, url, content=content, params=params, headers=headers, timeout=timeout)
        response = await http.send(request, stream=True)
        try:
            body = bytearray()
            async for chunk in response.aiter_bytes():
                body += chunk
                if len(body) > MAX_RESPONSE_BYTES:
                    return _failed(f"upstream response larger than {MAX_RESPONSE_BYTES} bytes", started,
                                   http_status=response.status_code)
        finally:
            await response.aclose()
    except httpx.TimeoutException:
        return _failed(f"upstream timed out after {timeout:g}s ({method} {url})", started)
    except httpx.HTTPError as exc:
        reason = str(exc) or type(exc).__name__
        return _failed(f"upstream unreachable ({method} {url}): {reason}", started)
    usage = {"request_bytes": len(content or b""), "response_bytes": len(body)}
    status = response.status_code
    if not 200 <= status < 300:
        detail = _upstream_message(bytes(body))
        reason = f"upstream answered {status} {response.reason_phrase}".rstrip()
        if 300 <= status < 400:
            reason += f" (redirect to {response.headers.get('location', '?')} not followed)"
        return _failed(f"{reason}: {detail}" if detail else reason, started, http_status=status, **usage)
    result: Any = None
    if body:
        try:
            result = json.loads(body)
        except ValueError:
            result = body.decode("utf-8", "replace")
    return ExecutionResult("succeeded", result, None, status, usage, (time.perf_counter() - started) * 1000)


def _mcp_result(call: Any) -> Any:
    structured = getattr(call, "structuredContent", None) or getattr(call, "structured_content", None)
    if structured is not None:
        return structured
    blocks = []
    for block in getattr(call, "content", None) or []:
        dump = getattr(block, "model_dump", None)
        blocks.append(dump(mode="json", exclude_none=True) if dump else block)
    if len(blocks) == 1 and blocks[0].get("type") == "text":
        text = blocks[0].get("text", "")
        try:
            return json.loads(text)
        except ValueError:
            return text
    return blocks


async def _execute_mcp(
    endpoint: dict[str, Any], arguments: dict[str, Any], tool_name: str,
    egress: EgressPolicy, mcp_servers: dict[str, dict[str, Any]] | None,
) -> ExecutionResult:
    started = time.perf_counter()
    server_name = endpoint.get("mcp_server")
    server = (mcp_servers or {}).get(server_name or "")
    if not server or not server.get("url"):
        return _failed(f"unknown MCP server {server_name!r} (not in the gateway's mcp_servers)", started)
    url = str(server["url"])
    if not egress.allows(url):
        return _failed(f"egress denied: MCP server {server_name!r} at {url} is not on the allow-list", started)
    remote_tool = endpoint.get("tool") or tool_name
    timeout = float(endpoint.get("timeout_seconds") or server.get("timeout_seconds") or DEFAULT_TIMEOUT_SECONDS)
    try:
        from mcp import Client
    except ImportError:  # pragma: no cover - mcp is a dev dependency
        return _failed("mcp endpoints need the 'mcp' package with mcp.Client (the MCP Python SDK)", started)
    async def call_tool() -> Any:
        async with Client(url) as session:
            return await session.call_tool(remote_tool, arguments)

    try:
        call = await asyncio.wait_for(call_tool(), timeout)
    except asyncio.TimeoutError:
        return _failed(f"MCP server {server_name!r} timed out after {timeout:g}s", started)
    except Exception as exc:  # noqa: BLE001 - any transport or protocol failure is a failed call
        return _failed(f"MCP call to {server_name!r} failed: {type(exc).__name__}: {exc}", started)
    result = _mcp_result(call)
    if getattr(call, "isError", False) or getattr(call, "is_error", False):
        message = result if isinstance(result, str) else json.dumps(result)[:300]
        return _failed(f"MCP tool {remote_tool!r} returned an error: {message}", started)
    return ExecutionResult("succeeded", result, None, None, {}, (time.perf_counter() - started) * 1000)


async def execute(
    endpoint: dict[str, Any],
    arguments: dict[str, Any],
    *,
    tool_name: str,
    run_id: str | None,
    egress: EgressPolicy,
    mcp_servers: dict[str, dict[str, Any]] | None = None,
    client: httpx.AsyncClient | None = None,
) -> ExecutionResult:
    """Run one call of ``tool_name`` on ``endpoint`` (the manifest's ``spec.endpoint``) and never raise.

    Args:
        endpoint: ``{"type": "http"|"builtin"|"mcp"|"sandbox", ...}`` as in MANIFEST.md.
        arguments: the (validated, DLP-redacted) arguments, a JSON object.
        tool_name: ``metadata.name``; the default http path and mcp tool name.
        run_id: sent as ``X-EAI-Run-Id`` to http upstreams; may be None.
        egress: the allow-list checked before any http or mcp request.
        mcp_servers: the named MCP servers of the gateway config.
        client: an ``httpx.AsyncClient`` to use instead of :func:`shared_client`.

    Returns:
        an :class:`ExecutionResult` (``failed`` for an unknown endpoint type or handler too).
    """
    started = time.perf_counter()
    kind = endpoint.get("type")
    try:
        if kind == "builtin":
            handler = BUILTIN_HANDLERS.get(endpoint.get("handler", ""))
            if handler is None:
                return _failed(f"unknown builtin handler {endpoint.get('handler')!r} (echo, time.now)", started)
            result = handler(arguments)
            return ExecutionResult("succeeded", result, None, None, {}, (time.perf_counter() - started) * 1000)
        if kind == "http":
            return await _execute_http(endpoint, arguments, tool_name, run_id, egress, client)
        if kind == "mcp":
            return await _execute_mcp(endpoint, arguments, tool_name, egress, mcp_servers)
        if kind == "sandbox":
            command = endpoint.get("command")
            if not isinstance(command, list) or not command or not all(isinstance(a, str) for a in command):
                return _failed("sandbox endpoint needs 'command', a non-empty list of strings", started)
            timeout = float(endpoint.get("timeout_seconds") or DEFAULT_TIMEOUT_SECONDS)
            return await run_sandbox(command, arguments, timeout_seconds=timeout)
    except Exception as exc:  # noqa: BLE001 - the executor contract: never raise for a call's failure
        return _failed(f"{kind} execution failed: {type(exc).__name__}: {exc}", started)
    return _failed(f"unknown endpoint type {kind!r} (http, mcp, builtin, sandbox)", started)
