"""``ToolsClient``: the HTTP client of a Tool Gateway's ``/v1/tools``, ``/v1/approvals`` and contract routes.

Routes, bodies and statuses follow the reference page (``ToolsClient.*``) and ``API.md``. Errors are
the typed exceptions of :mod:`enterprise_ai.tools._exceptions`; the retry rules are in
:mod:`enterprise_ai.tools._retry`. With logging at DEBUG, the logger ``enterprise_ai.http`` records
method, URL, status, request id, timing and retries, with ``Authorization`` redacted.
"""

from __future__ import annotations

import json
import logging
import os
import re
import time
import uuid
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

import httpx

from enterprise_ai import __version__
from enterprise_ai.auth._secret import Secret
from enterprise_ai.errors import ErrorKind, UsageError
from enterprise_ai.tools import _retry
from enterprise_ai.tools._approvals import Approvals
from enterprise_ai.tools._approvals import path_segment as _seg
from enterprise_ai.tools._exceptions import (
    APIConnectionError,
    APIError,
    APIStatusError,
    APITimeoutError,
    PaginationError,
    error_from_response,
)

if TYPE_CHECKING:  # pragma: no cover
    from enterprise_ai.tools._local import LocalTool

log = logging.getLogger("enterprise_ai.http")

#: gateway URL when neither ``base_url`` nor ``EAI_BASE_URL`` is given (``eai gateway serve``'s default)
DEFAULT_BASE_URL = "http://127.0.0.1:8700"
#: seconds to open a connection
DEFAULT_CONNECT_TIMEOUT = 5.0
#: seconds to wait for each read (and write, and a pooled connection)
DEFAULT_READ_TIMEOUT = 30.0
#: the ``User-Agent`` header of every request
USER_AGENT = f"eai/{__version__} httpx/{httpx.__version__}"
#: shortest wait (seconds) before a retry that ``on_retry`` is told about
NOTICE_RETRY_SECONDS = 2.0
#: the contract of ``validate``
TOOL_MANIFEST_CONTRACT = "tool-manifest"

# RFC 6750 §2.1 b64token, widened to every visible ASCII character (no space, no control character).
_TOKEN_CHARS = re.compile(r"[\x21-\x7e]+")

# Errors raised before any byte reached the server: safe to retry on any request.
_NOT_SENT = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout, httpx.UnsupportedProtocol)


def default_timeout() -> httpx.Timeout:
    """Connect :data:`DEFAULT_CONNECT_TIMEOUT` s, read/write/pool :data:`DEFAULT_READ_TIMEOUT` s."""
    return httpx.Timeout(DEFAULT_READ_TIMEOUT, connect=DEFAULT_CONNECT_TIMEOUT)


def make_http_client(timeout: httpx.Timeout) -> httpx.Client:
    """The ``httpx.Client`` used when none is injected (tests replace this function)."""
    return httpx.Client(timeout=timeout, follow_redirects=False)


def redact_headers(headers: Mapping[str, str]) -> dict[str, str]:
    """Headers for a log line: ``Authorization`` (and cookies, API keys) replaced by ``<redacted>``."""
    hidden = {"authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key"}
    return {k: ("<redacted>" if k.lower() in hidden else v) for k, v in headers.items()}


def check_base_url(url: str, source: str = "base_url") -> str:
    """Return ``url`` when it is an absolute ``http(s)://host[:port][/path]`` URL.

    Raises:
        UsageError (exit 2): anything else, naming ``source`` (``EAI_BASE_URL``, ``--base-url``...), so
            that a typo is not reported as an unreachable gateway.
    """
    try:
        parsed = httpx.URL(url)
        port = parsed.port
    except (httpx.InvalidURL, ValueError) as exc:
        raise UsageError(f"{source}: {url!r} is not a valid URL ({exc})", hint="e.g. http://127.0.0.1:8700") from None
    if parsed.scheme not in ("http", "https") or not parsed.host or (port is not None and not 0 < port < 65536):
        raise UsageError(f"{source}: {url!r} is not an http:// or https:// URL with a host and a valid port",
                         hint="e.g. http://127.0.0.1:8700")
    return url


def _check_answer(data: Any, method: str, url: str, status: int, expect: type | None) -> Any:
    """``data`` when it has the JSON type the route answers with, else an ``invalid_response`` error (exit 10)."""
    if expect is None or isinstance(data, expect):
        return data
    names = {dict: "object", list: "array", str: "string", bool: "boolean", int: "number", float: "number"}
    got = "an empty body" if data is None else f"a JSON {names.get(type(data), type(data).__name__)}"
    raise APIStatusError(
        f"{method} {url}: expected a JSON {names.get(expect, expect.__name__)}, got {got}",
        status_code=status, code="invalid_response", kind=ErrorKind.SERVER,
        hint="is the base URL the Tool Gateway's?",
    )


class ToolsClient:
    """Client of the Tool Gateway (registry, invoke chain, approvals, contracts).

    Args:
        base_url: gateway URL; ``EAI_BASE_URL``, then :data:`DEFAULT_BASE_URL` when omitted.
        api_key: bearer token (str or :class:`~enterprise_ai.auth.Secret`); ``EAI_API_KEY`` when
            omitted; without one, requests go unauthenticated and the gateway answers 401.
        timeout: seconds (float) or an ``httpx.Timeout``; default connect 5 s, read 30 s.
        max_retries: retries after the first attempt (see :mod:`enterprise_ai.tools._retry`).
        http_client: an ``httpx.Client`` to use (its transport, proxies...); it is not closed by
            :meth:`close`. The token is sent per request, never stored in its headers.
        on_retry: ``callable(str)`` told before each wait of :data:`NOTICE_RETRY_SECONDS` or more
            (``"429 rate_limited: retrying in 27 s (retry 1 of 2)"``), so a CLI can say why it pauses.

    Raises (from every method): :class:`~enterprise_ai.tools._exceptions.APIStatusError` subclasses,
    :class:`~enterprise_ai.tools._exceptions.APIConnectionError`, ``APITimeoutError``.
    """

    def __init__(
        self,
        base_url: str | None = None,
        api_key: str | Secret | None = None,
        *,
        timeout: float | httpx.Timeout | None = None,
        max_retries: int = _retry.DEFAULT_MAX_RETRIES,
        http_client: httpx.Client | None = None,
        on_retry: Callable[[str], None] | None = None,
    ) -> None:
        self._on_retry = on_retry
        source = "EAI_BASE_URL" if not base_url and os.environ.get("EAI_BASE_URL") else "base URL"
        url = (base_url or os.environ.get("EAI_BASE_URL") or DEFAULT_BASE_URL).rstrip("/")
        self.base_url = check_base_url(url, source)
        key = api_key if api_key is not None else os.environ.get("EAI_API_KEY")
        self._api_key: Secret | None = Secret(key) if key else None
        if self._api_key and not _TOKEN_CHARS.fullmatch(self._api_key.reveal()):
            # Checked here so that no HTTP library error can quote the header value.
            raise UsageError(
                "the API key holds characters a bearer token cannot have (spaces, line breaks, non-ASCII; RFC 6750)"
            )
        if timeout is None:
            self.timeout = default_timeout()
        elif isinstance(timeout, httpx.Timeout):
            self.timeout = timeout
        else:
            self.timeout = httpx.Timeout(float(timeout))
        self.max_retries = max(0, int(max_retries))
        self._owns_http = http_client is None
        self._http = http_client if http_client is not None else make_http_client(self.timeout)
        self.approvals = Approvals(self)  # client.approvals.list/get/approve/reject

    def __repr__(self) -> str:
        return f"ToolsClient(base_url={self.base_url!r}, api_key={'Secret(***)' if self._api_key else None})"

    # -- lifecycle ---------------------------------------------------------------------------
    def close(self) -> None:
        """Close the underlying ``httpx.Client`` when this object created it."""
        if self._owns_http:
            self._http.close()

    def __enter__(self) -> ToolsClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- tools (reference page) --------------------------------------------------------------
    def create(self, manifest: dict[str, Any]) -> Any:
        """Apply a Tool Manifest (``POST /v1/tools``): the tool with ``apply_status`` created/updated/unchanged."""
        return self._request("POST", "/v1/tools", json_body=manifest, expect=dict)

    def register(self, local: LocalTool, endpoint: dict[str, Any] | None = None) -> Any:
        """Apply ``local.manifest(endpoint)`` (the default local endpoint when ``endpoint`` is None)."""
        return self.create(local.manifest(endpoint=endpoint))

    def delete(self, name: str) -> Any:
        """Remove a tool (``DELETE /v1/tools/{name}``, 204: returns None)."""
        return self._request("DELETE", f"/v1/tools/{_seg(name)}")

    def discover(self, status: str | None = "approved", **page: Any) -> Any:
        """One page of tools in name order, of one status (``approved`` by default; None for all)."""
        return self._request("GET", "/v1/tools", params={"status": status, **page}, expect=dict)

    def list(self, **page: Any) -> Any:
        """One page of tools of every status, in name order (``limit``, ``cursor``)."""
        return self._request("GET", "/v1/tools", params=dict(page), expect=dict)

    def get(self, name: str) -> Any:
        """One tool: manifest, risk level, owner, status (404 ``tool_not_found``)."""
        return self._request("GET", f"/v1/tools/{_seg(name)}", expect=dict)

    def update(self, name: str, **changes: Any) -> Any:
        """``PATCH`` owner, description or status; ``status="approved"`` answers 202 with ``approval_id``."""
        return self._request("PATCH", f"/v1/tools/{_seg(name)}", json_body=changes, expect=dict)

    def invoke(
        self,
        name: str,
        arguments: dict[str, Any],
        run_id: str | None = None,
        idempotency_key: str | None = None,
        **extra: Any,
    ) -> Any:
        """Run a tool through the gateway chain (``POST /v1/tools/{name}/invoke``).

        Args:
            name: the tool.
            arguments: validated by the gateway against the tool's ``input_schema``.
            run_id: the run this call belongs to (sent upstream as ``X-EAI-Run-Id``).
            idempotency_key: the ``Idempotency-Key`` header; a random UUID when omitted. The same
                key and the same body bytes are sent on every retry, so a retry replays the first
                response instead of running the tool twice.
            **extra: merged into the body (``approval_id`` for a call approved by a human).

        Returns:
            the invocation (200), or ``{"status": "pending_approval", "approval_id": ...}`` (202).
        """
        body: dict[str, Any] = {"arguments": arguments}
        if run_id is not None:
            body["run_id"] = run_id
        body.update(extra)
        key = idempotency_key or str(uuid.uuid4())
        return self._request(
            "POST", f"/v1/tools/{_seg(name)}/invoke", json_body=body, headers={"Idempotency-Key": key}, retry_safe=True,
            expect=dict,
        )

    def invocation(self, invocation_id: str) -> Any:
        """One invocation record (``GET /v1/tools/invocations/{id}``), e.g. a sandbox run."""
        return self._request("GET", f"/v1/tools/invocations/{_seg(invocation_id)}", expect=dict)

    def invocations(self, tool: str | None = None, run_id: str | None = None, **page: Any) -> Any:
        """One page of invocation records, newest first (``limit``, ``cursor``)."""
        return self._request("GET", "/v1/tools/invocations", params={"tool": tool, "run_id": run_id, **page},
                             expect=dict)

    def validate(self, manifest: dict[str, Any]) -> Any:
        """Validate a Tool Manifest on the server: ``{contract, valid, errors: [{path, message}]}``."""
        return self.validate_contract(TOOL_MANIFEST_CONTRACT, manifest)

    def validate_contract(self, contract: str, document: Any) -> Any:
        """Validate ``document`` against a named contract (404 ``unknown_contract``); nothing is stored."""
        return self._request("POST", f"/v1/contracts/{_seg(contract)}/validate", json_body=document, expect=dict)

    # -- pagination --------------------------------------------------------------------------
    def iter_tools(self, status: str | None = None, *, limit: int | None = None) -> Iterator[Any]:
        """Every tool (of ``status`` when given), following ``next_cursor`` page after page.

        Only one page is held at a time. Raises :class:`PaginationError` when the server sends a
        cursor it already sent (following it would loop forever).
        """
        return self._paginate(lambda **p: self.discover(status=status, **p), limit)

    def iter_invocations(
        self, tool: str | None = None, run_id: str | None = None, *, limit: int | None = None
    ) -> Iterator[Any]:
        """Every invocation record, newest first, page after page (``limit`` = page size)."""
        return self._paginate(lambda **p: self.invocations(tool=tool, run_id=run_id, **p), limit)

    def _paginate(self, fetch: Callable[..., Any], limit: int | None) -> Iterator[Any]:
        seen: set[str] = set()
        cursor: str | None = None
        while True:
            page = fetch(limit=limit, cursor=cursor)
            items = page.get("items", []) if isinstance(page, dict) else None
            cursor = page.get("next_cursor") if isinstance(page, dict) else None
            if not isinstance(items, list) or not all(isinstance(i, dict) for i in items) or not (
                cursor is None or isinstance(cursor, str)
            ):
                raise APIStatusError(
                    f"{self.base_url}: a page of results is not "
                    "{\"items\": [objects], \"next_cursor\": string|null}",
                    status_code=200, code="invalid_response", kind=ErrorKind.SERVER,
                    hint="is the base URL the Tool Gateway's?",
                )
            yield from items
            if not cursor:
                return
            if cursor in seen:
                raise PaginationError(f"the server repeated the page cursor {cursor!r}; stopped to avoid a loop")
            seen.add(cursor)

    # -- transport ---------------------------------------------------------------------------
    def _request(
        self,
        method: str,
        path: str,
        *,
        params: Mapping[str, Any] | None = None,
        json_body: Any = None,
        headers: Mapping[str, str] | None = None,
        retry_safe: bool | None = None,
        expect: type | None = None,
    ) -> Any:
        """Send one logical request with the retry policy; return the decoded JSON (None for 204).

        ``expect``: the JSON type a 2xx answer must have (``dict``); another shape, or an empty
        body, raises ``APIStatusError`` ``invalid_response`` (exit 10) naming the method and URL.
        """
        safe = method == "GET" if retry_safe is None else retry_safe
        query = {k: v for k, v in (params or {}).items() if v is not None}
        content = None
        req_headers = {"Accept": "application/json", "User-Agent": USER_AGENT}
        if json_body is not None:
            # Encoded once: every retry sends exactly these bytes.
            content = json.dumps(json_body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
            req_headers["Content-Type"] = "application/json"
        req_headers.update(headers or {})
        if self._api_key:
            req_headers["Authorization"] = f"Bearer {self._api_key.reveal()}"
        url = f"{self.base_url}{path}"
        attempts = self.max_retries + 1
        for attempt in range(1, attempts + 1):
            request = self._http.build_request(method, url, params=query, content=content, headers=req_headers)
            if log.isEnabledFor(logging.DEBUG):
                log.debug("-> %s %s attempt %d/%d headers=%s", method, request.url, attempt, attempts,
                          redact_headers(request.headers))
            started = time.perf_counter()
            try:
                response = self._http.send(request)
                response.read()
            except httpx.TransportError as exc:
                elapsed = (time.perf_counter() - started) * 1000
                error = _transport_error(exc, method, url)
                can_retry = attempt < attempts and (safe or isinstance(exc, _NOT_SENT))
                log.debug("<- %s %s failed after %.1f ms: %s", method, request.url, elapsed, type(exc).__name__)
                if not can_retry:
                    raise error from exc
                self._wait(attempt, None, f"{type(exc).__name__}")
                continue
            elapsed = (time.perf_counter() - started) * 1000
            request_id = response.headers.get("x-request-id")
            log.debug("<- %d %s %s request_id=%s %.1f ms", response.status_code, method, request.url, request_id, elapsed)
            if response.is_success:
                return _check_answer(_decode(response, method, url), method, url, response.status_code, expect)
            retry_after = _retry.parse_retry_after(response.headers.get("retry-after"))
            error = error_from_response(response, retry_after=retry_after)
            if not (safe and response.status_code in _retry.RETRYABLE_STATUSES and attempt < attempts):
                raise error
            delay = _retry.retry_delay(attempt, retry_after)
            if delay is None:
                error.hint = (
                    f"the server asked to wait {retry_after:.0f} s, more than the "
                    f"{_retry.RETRY_AFTER_CAP_SECONDS:.0f} s the client waits; try again later"
                )
                log.debug("not retrying: Retry-After %.0f s is above the cap", retry_after)
                raise error
            self._wait(attempt, delay, f"{response.status_code} {error.code}")
        raise APIError("retries exhausted")  # pragma: no cover - the loop always returns or raises

    def _wait(self, attempt: int, delay: float | None, reason: str) -> None:
        seconds = _retry.backoff_delay(attempt) if delay is None else delay
        log.debug("retry %d/%d in %.2f s after %s", attempt, self.max_retries, seconds, reason)
        if self._on_retry is not None and seconds >= NOTICE_RETRY_SECONDS:
            self._on_retry(f"{reason}: retrying in {seconds:.0f} s (retry {attempt} of {self.max_retries})")
        _retry.sleep(seconds)


def _transport_error(exc: httpx.TransportError, method: str, url: str) -> APIConnectionError:
    if isinstance(exc, httpx.TimeoutException):
        return APITimeoutError(f"{method} {url} timed out ({type(exc).__name__})", hint="is the gateway running?")
    detail = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return APIConnectionError(f"{method} {url} failed: {detail}", hint="is the gateway running and reachable?")


def _decode(response: httpx.Response, method: str, url: str) -> Any:
    if response.status_code == 204 or not response.content:
        return None
    try:
        return response.json()
    except ValueError as exc:
        kind = response.headers.get("content-type", "").split(";")[0].strip() or "no content type"
        raise APIStatusError(
            f"{method} {url}: the answer is not JSON ({kind})",
            status_code=response.status_code,
            code="invalid_response",
            request_id=response.headers.get("x-request-id"),
            kind=ErrorKind.SERVER,
            hint="is the base URL the Tool Gateway's?",
        ) from exc


__all__ = ["APIStatusError", "Approvals", "ToolsClient"]
