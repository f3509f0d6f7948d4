"""The tool host: an HTTP server that runs :class:`~enterprise_ai.tools.LocalTool` objects (``eai tools serve``).

Issue 4: "a tool host that exposes every LocalTool found in PATH at ``POST /tools/<name>`` (the default
endpoint of a manifest), so a tool written with the SDK runs behind the gateway with no extra code".

Routes of :func:`create_toolhost_app`:

=========================  =====================================================================================
``POST /tools/{name}``     body: the arguments, a JSON object (an empty body means no argument). Answers 200 with
                           the tool's return value as the JSON body (what the gateway's ``http`` executor takes
                           as the result; pydantic models, dataclasses, dates... go through FastAPI's
                           ``jsonable_encoder``). Errors, all ``{"error": {"code", "message", "details"?}}``:
                           404 ``tool_not_found``; 400 ``invalid_json`` (body is not JSON);
                           422 ``invalid_arguments`` (not an object, or ``LocalTool.invoke`` raised
                           ``ToolArgumentsError``: ``details.errors`` lists each problem and the message names
                           the argument); 500 ``tool_error`` (the tool raised: ``<ExceptionType>: <message>``,
                           never a traceback). An unknown route is 404 ``not_found``, another method
                           405 ``method_not_allowed`` (with ``Allow``), in the same shape.
``GET /tools``             ``{"items": [{"name", "description", "input_schema", "is_async"}]}`` in name order.
``GET /healthz``           ``{"status": "ok", "tools": <count>}``.
=========================  =====================================================================================

Sync tools run in Starlette's threadpool (they may block); async tools are awaited on the event loop.
The gateway's ``X-EAI-Run-Id`` header is accepted and ignored by the host.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from fastapi import FastAPI

    from enterprise_ai.tools import LocalTool

__all__ = ["create_toolhost_app"]


def _arguments_error_types() -> tuple[type[BaseException], ...]:
    """The SDK's ``ToolArgumentsError`` (wherever the SDK defines it), as a tuple for ``except``."""
    import enterprise_ai.tools as sdk
    from enterprise_ai.tools import _local

    found = getattr(sdk, "ToolArgumentsError", None) or getattr(_local, "ToolArgumentsError", None)
    return (found,) if isinstance(found, type) else ()


def _error(status: int, code: str, message: str, details: dict[str, Any] | None = None) -> Any:
    from fastapi.responses import JSONResponse

    body: dict[str, Any] = {"code": code, "message": message}
    if details:
        body["details"] = details
    return JSONResponse({"error": body}, status_code=status)


def _error_items(exc: BaseException) -> list[dict[str, Any]]:
    from fastapi.encoders import jsonable_encoder

    items = []
    for item in getattr(exc, "errors", None) or []:
        items.append(jsonable_encoder(item) if isinstance(item, dict) else {"message": str(item)})
    return items


def _json_body(result: Any) -> bytes:
    try:
        return json.dumps(result, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8")
    except (TypeError, ValueError):
        from fastapi.encoders import jsonable_encoder

        return json.dumps(jsonable_encoder(result), ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def create_toolhost_app(tools: Sequence[LocalTool]) -> FastAPI:
    """A FastAPI app serving ``tools`` (see the module docstring for routes and error codes).

    Args:
        tools: the tools; names must be unique.

    Raises:
        ValueError: two tools with the same name.
    """
    from fastapi import FastAPI
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.concurrency import run_in_threadpool
    from starlette.exceptions import HTTPException as StarletteHTTPException

    by_name: dict[str, Any] = {}
    for item in tools:
        if item.name in by_name:
            raise ValueError(f"two tools are named {item.name!r}")
        by_name[item.name] = item
    argument_errors = _arguments_error_types()
    app = FastAPI(title="eai tool host", version="1", docs_url=None, redoc_url=None)

    @app.get("/healthz")
    async def healthz() -> dict[str, Any]:
        return {"status": "ok", "tools": len(by_name)}

    @app.get("/tools")
    async def list_tools() -> dict[str, Any]:
        return {"items": [
            {"name": t.name, "description": t.description, "input_schema": t.input_schema,
             "is_async": bool(getattr(t, "is_async", False))}
            for _, t in sorted(by_name.items())
        ]}

    async def call_tool(request: Request) -> Any:  # a plain Starlette route: no per-call dependency solving
        name = request.path_params["name"]
        local = by_name.get(name)
        if local is None:
            return _error(404, "tool_not_found", f"no tool named {name!r} on this host")
        raw = await request.body()
        try:
            arguments = json.loads(raw) if raw.strip() else {}
        except ValueError as exc:
            return _error(400, "invalid_json", f"the request body is not JSON: {exc}")
        if not isinstance(arguments, dict):
            return _error(422, "invalid_arguments", "the arguments must be a JSON object")
        try:
            if getattr(local, "is_async", False):
                result = local.invoke(arguments)
            else:
                result = await run_in_threadpool(local.invoke, arguments)
            if inspect.isawaitable(result):
                result = await result
        except argument_errors as exc:
            return _error(422, "invalid_arguments", str(exc), {"errors": _error_items(exc)})
        except Exception as exc:  # noqa: BLE001 - the tool's own error becomes a JSON error, not a crash
            text = " ".join(str(exc).split())
            message = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
            return _error(500, "tool_error", message)
        return Response(_json_body(result), media_type="application/json")

    app.router.add_route("/tools/{name}", call_tool, methods=["POST"], name="call_tool")

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> Any:
        """Unknown routes and methods answer in the host's error shape too, not FastAPI's ``{"detail"}``."""
        codes = {404: "not_found", 405: "method_not_allowed"}
        response = _error(exc.status_code, codes.get(exc.status_code, "http_error"), str(exc.detail))
        response.headers.update(exc.headers or {})
        return response

    return app


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback addresses (``127.0.0.0/8``, ``::1``)."""
    import ipaddress

    if host.lower() in ("localhost", "localhost."):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def bind_socket(host: str, port: int, *, allow_remote: bool = False) -> Any:
    """A listening TCP socket on ``host:port`` (``port`` 0 picks a free port; read it from ``getsockname()``).

    Raises:
        UsageError: a non-loopback ``host`` without ``allow_remote``, or an address that cannot be bound.
    """
    import socket

    from enterprise_ai.errors import UsageError

    if not allow_remote and not is_loopback(host):
        raise UsageError(f"refusing to listen on {host}: not a loopback address (pass --allow-remote to do it anyway)")
    try:
        info = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        # proto IPPROTO_TCP matters: asyncio only sets TCP_NODELAY on accepted sockets of a TCP-protocol
        # listener; without it, Nagle + delayed ACK add ~40 ms to every keep-alive response.
        sock = socket.socket(info[0], socket.SOCK_STREAM, socket.IPPROTO_TCP)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.bind(info[4])
        sock.listen(2048)
    except OSError as exc:
        raise UsageError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    sock.set_inheritable(True)
    return sock


def serve_toolhost(app: FastAPI, sock: Any) -> None:
    """Run ``app`` with uvicorn on the bound socket ``sock`` until SIGINT/SIGTERM (graceful shutdown)."""
    import uvicorn

    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off", timeout_graceful_shutdown=10)
    uvicorn.Server(config).run(sockets=[sock])
