"""OpenAPI ``responses=`` entries for error statuses, so that every route documents what it may answer."""

from __future__ import annotations

from typing import Any

from enterprise_ai.gateway.models import ErrorBody

_DESCRIPTIONS = {
    400: "invalid_request: the body is not valid JSON",
    401: "unauthenticated: no or unknown bearer token",
    403: "denied (roles, relations, or a step of the invoke chain)",
    404: "not found (also when the caller may not view it)",
    409: "conflict",
    413: "payload_too_large: the body is over 4 MiB",
    415: "unsupported_media_type: request bodies are application/json",
    422: "invalid request, manifest or arguments (details.errors: [{path, message}])",
    429: "rate limited or over quota (Retry-After)",
}


def errors_for(*statuses: int, **descriptions: str) -> dict[int | str, dict[str, Any]]:
    """``{status: {"model": ErrorBody, "description": ...}}`` for each status (400, 413, 415 and 422 always included).

    ``descriptions`` override the text per status, keyed ``s403="..."``.
    """
    out: dict[int | str, dict[str, Any]] = {}
    for status in sorted({*statuses, 400, 413, 415, 422}):
        text = descriptions.get(f"s{status}", _DESCRIPTIONS.get(status, "error"))
        out[status] = {"model": ErrorBody, "description": text}
    return out
