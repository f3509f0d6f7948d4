"""Retry-After parsing (RFC 9110 §10.2.3), backoff bounds, and the one status -> exception mapping."""

from __future__ import annotations

import random
from datetime import datetime, timezone

import httpx
import pytest

from enterprise_ai.errors import EaiError, ErrorKind
from enterprise_ai.tools import _exceptions as ex
from enterprise_ai.tools import _retry

NOW = datetime(2026, 1, 1, 12, 0, 0, tzinfo=timezone.utc)


@pytest.mark.parametrize(
    ("value", "expected"),
    [("120", 120.0), (" 0 ", 0.0), ("Thu, 01 Jan 2026 12:00:30 GMT", 30.0), ("Thu, 01 Jan 2026 11:00:00 GMT", 0.0),
     ("soon", None), ("-5", None), ("1.5", None), (None, None)],
)
def test_parse_retry_after(value, expected):
    assert _retry.parse_retry_after(value, now=NOW) == expected


def test_backoff_is_exponential_capped_and_jittered():
    rng = random.Random(1)
    for n, base in [(1, 0.5), (2, 1.0), (3, 2.0), (4, 4.0), (5, 8.0), (9, 8.0)]:
        delays = [_retry.backoff_delay(n, rng=rng) for _ in range(50)]
        assert all(base * (1 - _retry.JITTER_FRACTION) <= d <= base for d in delays)
        assert len(set(delays)) > 1


def test_retry_delay_fails_fast_beyond_the_cap():
    assert _retry.retry_delay(1, 60.0) == 60.0
    assert _retry.retry_delay(1, 61.0) is None
    assert _retry.retry_delay(1, 10.0, cap=5) is None


@pytest.mark.parametrize(
    ("status", "cls", "kind"),
    [(400, ex.BadRequestError, ErrorKind.USAGE), (401, ex.AuthenticationError, ErrorKind.NOT_AUTHENTICATED),
     (403, ex.PermissionDeniedError, ErrorKind.DENIED), (404, ex.NotFoundError, ErrorKind.NOT_FOUND),
     (409, ex.ConflictError, ErrorKind.CONFLICT), (422, ex.UnprocessableEntityError, ErrorKind.FINDINGS),
     (429, ex.RateLimitError, ErrorKind.RATE_LIMITED), (500, ex.InternalServerError, ErrorKind.SERVER),
     (503, ex.InternalServerError, ErrorKind.SERVER), (418, ex.APIStatusError, ErrorKind.USAGE)],
)
def test_error_from_response_maps_each_status(status, cls, kind):
    response = httpx.Response(status, json={"error": {"code": "c", "message": "m", "request_id": "rid",
                                                      "details": {"path": "/x"}}})
    error = ex.error_from_response(response, retry_after=3.0)
    assert type(error) is cls and isinstance(error, ex.APIError) and isinstance(error, EaiError)
    assert (error.status_code, error.code, error.server_message, error.request_id, error.details, error.retry_after) \
        == (status, "c", "m", "rid", {"path": "/x"}, 3.0)
    assert error.kind is kind


def test_error_from_a_body_in_another_shape():
    error = ex.error_from_response(httpx.Response(502, text="<html>bad gateway</html>", headers={"X-Request-Id": "h1"}))
    assert isinstance(error, ex.InternalServerError)
    assert (error.code, error.server_message, error.request_id) == ("http_502", "<html>bad gateway</html>", "h1")
    fastapi = ex.error_from_response(httpx.Response(405, json={"detail": "Method Not Allowed"}))
    assert fastapi.code == "http_405" and fastapi.server_message == "Method Not Allowed"


def test_connection_errors_are_chained_and_network_kind():
    from enterprise_ai.tools._client import ToolsClient

    def refuse(request):
        raise httpx.ConnectError("refused")

    client = ToolsClient("http://x", "t", max_retries=0, http_client=httpx.Client(transport=httpx.MockTransport(refuse)))
    with pytest.raises(ex.APIConnectionError) as info:
        client.get("a")
    assert isinstance(info.value.__cause__, httpx.ConnectError) and info.value.kind is ErrorKind.NETWORK

    def slow(request):
        raise httpx.ReadTimeout("slow")

    client = ToolsClient("http://x", "t", max_retries=0, http_client=httpx.Client(transport=httpx.MockTransport(slow)))
    with pytest.raises(ex.APITimeoutError):
        client.get("a")


def test_client_defaults(monkeypatch):
    from enterprise_ai.tools._client import ToolsClient

    monkeypatch.setenv("EAI_BASE_URL", "http://env.test/")
    monkeypatch.setenv("EAI_API_KEY", "env-token-123456")
    client = ToolsClient()
    assert client.base_url == "http://env.test" and client._api_key.reveal() == "env-token-123456"
    assert client.timeout.connect == 5.0 and client.timeout.read == 30.0 and client.max_retries == 2
    assert "env-token" not in repr(client)
    client.close()
