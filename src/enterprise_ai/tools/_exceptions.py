"""Typed errors of :class:`~enterprise_ai.tools.ToolsClient` (the shape of httpx's and anthropic's clients).

Exception tree (the CLI exit code comes from the :class:`~enterprise_ai.errors.ErrorKind`)::

    EaiError
    └── APIError                          base of every client error
        ├── APIConnectionError            NETWORK (9): refused, reset, DNS, protocol error
        │   └── APITimeoutError           NETWORK (9): connect/read/write/pool timeout
        ├── APIStatusError                a non-2xx response; 4xx not listed below: USAGE (2)
        │   ├── BadRequestError           400  USAGE (2)
        │   ├── AuthenticationError       401  NOT_AUTHENTICATED (3)
        │   ├── PermissionDeniedError     403  DENIED (4)
        │   ├── NotFoundError             404  NOT_FOUND (5)
        │   ├── ConflictError             409  CONFLICT (6)
        │   ├── UnprocessableEntityError  422  FINDINGS (1)
        │   ├── RateLimitError            429  RATE_LIMITED (7)
        │   └── InternalServerError       5xx  SERVER (10)
        ├── PaginationError               SERVER (10): the server sent a cursor it had already sent
        ├── PendingApprovalError          PENDING (8): an approval still undecided at the deadline
        └── ApprovalRejected              DENIED (4): the approval an invocation waited for was rejected

422 maps to FINDINGS, not USAGE: the gateway answers 422 when the *content* sent is wrong
(``invalid_manifest`` with the JSON pointer of each problem, ``invalid_arguments`` with the failing
path), which is the same verdict the local validator gives with exit code 1. A bad command line is
caught before any request is sent and exits 2; a 422 ``invalid_request`` (a query or body parameter
the gateway refuses, e.g. an empty ``--description``) is a usage error too (exit 2).

Every status error carries ``status_code``, ``code``, ``message``, ``request_id`` and ``details``,
read from the error body of API.md (``{"error": {"code", "message", "request_id", "details"}}``) by
the one mapping function :func:`error_from_response`. Low-level causes are chained (``raise ... from``).
Messages never contain request headers, so the bearer token cannot leak through an error.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from enterprise_ai.errors import EaiError, ErrorKind

if TYPE_CHECKING:  # pragma: no cover
    import httpx

#: longest piece of a non-JSON error body quoted in a message, in characters
MAX_BODY_EXCERPT = 200


class APIError(EaiError):
    """Base class of every error raised by :class:`~enterprise_ai.tools.ToolsClient`."""

    default_kind = ErrorKind.FAILURE


class APIConnectionError(APIError):
    """The request could not be completed: connection refused or reset, DNS failure, protocol error."""

    default_kind = ErrorKind.NETWORK


class APITimeoutError(APIConnectionError):
    """A connect, read, write or pool timeout (``timeout`` of the client, seconds)."""


class APIStatusError(APIError):
    """A non-2xx response from the gateway.

    Attributes:
        status_code: the HTTP status.
        code: the machine-readable error code of the body (``tool_not_found``), or ``http_<status>``.
        message: the human message of the body (or the reason phrase).
        request_id: the ``request_id`` of the body, else the ``X-Request-Id`` header, else None.
        details: the ``details`` object of the body (``{}`` when absent).
        retry_after: seconds from a ``Retry-After`` header (RFC 9110 §10.2.3), or None.
    """

    default_kind = ErrorKind.USAGE
    status: int | None = None

    def __init__(
        self,
        message: str,
        *,
        status_code: int,
        code: str,
        request_id: str | None = None,
        details: dict[str, Any] | None = None,
        retry_after: float | None = None,
        kind: ErrorKind | None = None,
        hint: str | None = None,
    ) -> None:
        self.status_code = status_code
        self.code = code
        self.request_id = request_id
        self.details = details or {}
        self.retry_after = retry_after
        self.server_message = message
        text = f"{status_code} {code}: {message}"
        if request_id:
            text += f" (request id {request_id})"
        super().__init__(text, kind=kind, hint=hint)


class BadRequestError(APIStatusError):
    """400: the request was malformed."""

    status = 400


class AuthenticationError(APIStatusError):
    """401 ``unauthenticated``: no token, or a token the gateway does not know."""

    status = 401
    default_kind = ErrorKind.NOT_AUTHENTICATED


class PermissionDeniedError(APIStatusError):
    """403: a role, relation, scope, classification, policy, DLP rule or tool status refused the call."""

    status = 403
    default_kind = ErrorKind.DENIED


class NotFoundError(APIStatusError):
    """404: ``tool_not_found`` (also for a tool the caller may not view), ``unknown_contract``..."""

    status = 404
    default_kind = ErrorKind.NOT_FOUND


class ConflictError(APIStatusError):
    """409: ``approval_consumed``, ``approval_not_pending``, ``idempotency_conflict``."""

    status = 409
    default_kind = ErrorKind.CONFLICT


class UnprocessableEntityError(APIStatusError):
    """422: ``invalid_manifest`` or ``invalid_arguments``; ``details`` holds the failing paths."""

    status = 422
    default_kind = ErrorKind.FINDINGS


class RateLimitError(APIStatusError):
    """429: ``rate_limited`` or ``quota_exceeded``; ``retry_after`` holds the server's wait in seconds."""

    status = 429
    default_kind = ErrorKind.RATE_LIMITED


class InternalServerError(APIStatusError):
    """Any 5xx status."""

    default_kind = ErrorKind.SERVER


class PaginationError(APIError):
    """The server sent a ``next_cursor`` it had already sent: following it would loop forever."""

    default_kind = ErrorKind.SERVER


class PendingApprovalError(APIError):
    """An invocation still waits for a human approval (at the end of ``--wait``, or without it).

    Attributes:
        approval_id: the id to pass to ``eai approvals approve``.
    """

    default_kind = ErrorKind.PENDING

    def __init__(self, message: str, *, approval_id: str | None, hint: str | None = None) -> None:
        super().__init__(message, hint=hint)
        self.approval_id = approval_id


class ApprovalRejected(APIError):
    """The approval an invocation waited for was rejected (or expired)."""

    default_kind = ErrorKind.DENIED

    def __init__(self, message: str, *, approval_id: str | None) -> None:
        super().__init__(message)
        self.approval_id = approval_id


_BY_STATUS: dict[int, type[APIStatusError]] = {
    cls.status: cls
    for cls in (
        BadRequestError,
        AuthenticationError,
        PermissionDeniedError,
        NotFoundError,
        ConflictError,
        UnprocessableEntityError,
        RateLimitError,
    )
    if cls.status is not None
}


def status_error_class(status_code: int) -> type[APIStatusError]:
    """The :class:`APIStatusError` subclass for an HTTP status (``APIStatusError`` itself if none)."""
    if status_code >= 500:
        return InternalServerError
    return _BY_STATUS.get(status_code, APIStatusError)


def error_from_response(response: httpx.Response, *, retry_after: float | None = None) -> APIStatusError:
    """Build the typed error of a non-2xx response: THE one place statuses become exceptions.

    Args:
        response: a read httpx response with a 3xx, 4xx or 5xx status.
        retry_after: the parsed ``Retry-After`` (seconds), when the caller has it.

    Returns:
        an instance of the subclass for the status, with ``code``, ``message``, ``request_id`` and
        ``details`` from the API.md error body; for a body in another shape, ``code`` is
        ``http_<status>`` and the message the reason phrase or the start of the body, followed by
        ``(from METHOD URL)`` (it is likely not the gateway answering); a redirect gets a hint naming
        its ``Location``.
    """
    code = f"http_{response.status_code}"
    message = response.reason_phrase or "error"
    request_id = response.headers.get("x-request-id")
    details: dict[str, Any] = {}
    try:
        body = response.json()
    except ValueError:
        body = None
        text = response.text.strip()
        if text:
            message = text[:MAX_BODY_EXCERPT]
    if isinstance(body, dict):
        error = body.get("error")
        if isinstance(error, dict):
            code = str(error.get("code") or code)
            message = str(error.get("message") or message)
            request_id = str(error.get("request_id") or request_id or "") or None
            if isinstance(error.get("details"), dict):
                details = error["details"]
        elif isinstance(body.get("detail"), (str, list)):  # FastAPI's default shape
            message = str(body["detail"])[:MAX_BODY_EXCERPT]
    cls = status_error_class(response.status_code)
    exc = cls(
        message,
        status_code=response.status_code,
        code=code,
        request_id=request_id,
        details=details,
        retry_after=retry_after,
    )
    if response.status_code == 422 and code == "invalid_request":  # a bad parameter, not bad content
        exc.kind = ErrorKind.USAGE
    if code == f"http_{response.status_code}":  # not the gateway's error body: say which URL answered
        exc.message = " ".join(exc.message.split())
        try:
            exc.message += f" (from {response.request.method} {response.request.url})"
        except RuntimeError:  # a response built without its request
            pass
        location = response.headers.get("location")
        if 300 <= response.status_code < 400 and location:
            exc.hint = f"the server redirects to {location}: use the gateway's own URL as the base URL"
    return exc
