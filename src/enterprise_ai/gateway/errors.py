"""One error shape for every response of the gateway, and ``X-Request-Id`` on every response.

Error body (API.md, ext)::

    {"error": {"code": "tool_not_found", "message": "...", "request_id": "req_...", "details": {...}}}

* :class:`ApiError` - raised by routes and the invoke chain (status, code, message, details, headers);
* :func:`install` - registers the exception handlers (``ApiError``; request validation -> ``422
  invalid_request``; unknown route -> ``404 not_found``; wrong method -> ``405 method_not_allowed``;
  anything else -> ``500 internal``, logged) and the request-id middleware.

The middleware also refuses, in that shape, a request body that is not JSON or has no ``Content-Type``
(``415 unsupported_media_type``; a bodiless POST needs none), or is over :data:`MAX_BODY_BYTES` (``413
payload_too_large``).

The request id is ``req_`` + 16 hex characters, or the caller's own ``X-Request-Id`` when it is a
short token (1-128 of ``[A-Za-z0-9._-]``).
"""

from __future__ import annotations

import json
import logging
import re
import secrets
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger("enterprise_ai.gateway")

_CALLER_ID = re.compile(r"^[A-Za-z0-9._-]{1,128}$")
_STATUS_CODES = {400: "invalid_request", 401: "unauthenticated", 403: "forbidden", 404: "not_found",
                 405: "method_not_allowed", 409: "conflict", 413: "payload_too_large",
                 415: "unsupported_media_type", 422: "invalid_request",
                 429: "rate_limited"}


class ApiError(Exception):
    """An error answered with the one error shape.

    Args:
        status: HTTP status code (4xx/5xx).
        code: stable machine code, e.g. ``tool_not_found`` (API.md lists them per route).
        message: one human-readable line.
        details: optional JSON object with more data (e.g. ``errors: [{path, message}]``).
        headers: extra response headers (e.g. ``Retry-After``).
    """

    def __init__(self, status: int, code: str, message: str, details: dict[str, Any] | None = None,
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.details = details or {}
        self.headers = headers or {}


def request_id(request: Request) -> str:
    """The id of the current request (set by the middleware)."""
    return request.scope.get("eai.request_id") or "req_unknown"


def json_response(body: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    """A JSON response (compact UTF-8), bypassing response-model validation (the routes build valid data)."""
    return Response(json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8"), status_code=status,
                    headers=headers, media_type="application/json")


def error_response(request: Request, status: int, code: str, message: str, details: dict[str, Any] | None = None,
                   headers: dict[str, str] | None = None) -> Response:
    body = {"error": {"code": code, "message": message, "request_id": request_id(request), "details": details or {}}}
    return json_response(body, status, headers)


class RequestIdMiddleware:
    """Pure ASGI middleware: gives each HTTP request an id and adds ``X-Request-Id`` to its response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        rid = None
        content_type = None
        length = 0
        chunked = False
        for name, value in scope.get("headers", ()):
            if name == b"x-request-id":
                text = value.decode("latin-1")
                rid = text if _CALLER_ID.match(text) else None
            elif name == b"content-type":
                content_type = value.decode("latin-1")
            elif name == b"content-length" and value.isdigit():
                length = int(value)
            elif name == b"transfer-encoding":
                chunked = True
        rid = rid or f"req_{secrets.token_hex(8)}"
        scope["eai.request_id"] = rid
        header = (b"x-request-id", rid.encode("latin-1"))
        has_body = length > 0 or chunked
        if scope["method"] in _BODY_METHODS and (content_type is not None or has_body) and not _is_json(
                content_type or ""):
            # no Content-Type with a body: FastAPI would hand the raw bytes to a ``Body(Any)`` parameter
            message = (f"request bodies are JSON (Content-Type: application/json), not {content_type}"
                       if content_type is not None else "a request body needs Content-Type: application/json")
            body = {"error": {"code": "unsupported_media_type", "message": message, "request_id": rid, "details": {}}}
            response = json_response(body, 415, {"X-Request-Id": rid})
            await response(scope, receive, send)
            return
        if length > MAX_BODY_BYTES:
            body = {"error": {"code": "payload_too_large", "message": _TOO_LARGE, "request_id": rid, "details": {}}}
            await json_response(body, 413, {"X-Request-Id": rid})(scope, receive, send)
            return
        if scope["method"] in _BODY_METHODS:
            receive = _capped(receive)

        async def send_with_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                if not any(name.lower() == b"x-request-id" for name, _ in headers):
                    headers.append(header)
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_id)


_BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})
MAX_BODY_BYTES = 4 * 1024 * 1024
"""Largest request body accepted (4 MiB); more is ``413 payload_too_large``."""
_TOO_LARGE = f"request bodies are limited to {MAX_BODY_BYTES} bytes"


def _capped(receive: Receive) -> Receive:
    """``receive`` that raises 413 once a (chunked) body goes over :data:`MAX_BODY_BYTES`."""
    seen = 0

    async def wrapped() -> Message:
        nonlocal seen
        message = await receive()
        if message["type"] == "http.request":
            seen += len(message.get("body", b""))
            if seen > MAX_BODY_BYTES:
                raise StarletteHTTPException(413, _TOO_LARGE)
        return message

    return wrapped


def _is_json(content_type: str) -> bool:
    media = content_type.split(";", 1)[0].strip().lower()
    return media == "application/json" or (media.startswith("application/") and media.endswith("+json"))


def _pointer(loc: tuple[Any, ...] | list[Any]) -> str:
    parts = [str(p).replace("~", "~0").replace("/", "~1") for p in loc]
    return "/" + "/".join(parts) if parts else ""


def _allowed_methods(request: Request) -> list[str]:
    """Every method the OpenAPI document lists for the request's path (Starlette names only one route's)."""
    path = request.url.path
    methods: set[str] = set()
    for template, item in request.app.openapi().get("paths", {}).items():
        if re.fullmatch(re.sub(r"\\\{[^/]+?\\\}", "[^/]+", re.escape(template)), path):
            methods |= {m.upper() for m in item}
    return sorted(methods)


def install(app: FastAPI) -> None:
    """Register the handlers and the middleware on ``app`` (see the module docstring)."""

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError) -> Response:
        return error_response(request, exc.status, exc.code, exc.message, exc.details, exc.headers)

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError) -> Response:
        errors = [{"path": _pointer(list(e.get("loc", ()))), "message": str(e.get("msg", "invalid"))}
                  for e in exc.errors()]
        first = errors[0] if errors else {"path": "", "message": "invalid request"}
        return error_response(request, 422, "invalid_request", f"{first['path'] or 'request'}: {first['message']}",
                              {"errors": errors})

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> Response:
        code = _STATUS_CODES.get(exc.status_code, "error")
        if exc.status_code == 400:  # FastAPI: a body that is not JSON
            return error_response(request, 400, "invalid_request", "the request body is not valid JSON")
        message = exc.detail if isinstance(exc.detail, str) else code.replace("_", " ")
        headers = dict(getattr(exc, "headers", None) or {})
        if exc.status_code == 405:
            headers["Allow"] = ", ".join(_allowed_methods(request))
        return error_response(request, exc.status_code, code, message, headers=headers)

    @app.exception_handler(Exception)
    async def _internal(request: Request, exc: Exception) -> Response:
        log.exception("internal error on %s %s", request.method, request.url.path)
        return error_response(request, 500, "internal", "internal error (see the gateway log)",
                              headers={"X-Request-Id": request_id(request)})

    app.add_middleware(RequestIdMiddleware)
