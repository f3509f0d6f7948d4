"""Review of the HTTP surface against API.md: error shape everywhere, bodies, cursors (real gateway process)."""

from __future__ import annotations

import base64
import json

import httpx
import pytest

from tests.support.gateway import manifest


def _shape(response: httpx.Response, status: int, code: str | None = None) -> dict:
    """The response is ``status`` in the one error shape, with a request id equal to ``X-Request-Id``."""
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"}, body
    assert set(body["error"]) == {"code", "message", "request_id", "details"}, body
    assert body["error"]["request_id"] == response.headers["x-request-id"]
    if code is not None:
        assert body["error"]["code"] == code, body
    return body["error"]


def _cursor(value) -> str:
    return base64.urlsafe_b64encode(json.dumps(value).encode()).decode().rstrip("=")


@pytest.mark.parametrize("path", ["/v1/tools/invocations", "/v1/approvals", "/v1/audit"])
@pytest.mark.parametrize("value", [10**30, -(10**30), 2**63])
def test_out_of_range_integer_cursors_are_422_not_500(gateway, path, value):
    _shape(gateway.request("GET", path, params={"cursor": _cursor(value)}), 422, "invalid_request")


def test_tool_list_cursor_of_the_wrong_type_is_422(gateway):
    _shape(gateway.request("GET", "/v1/tools", params={"cursor": _cursor(12)}), 422, "invalid_request")
    _shape(gateway.request("GET", "/v1/tools", params={"cursor": "not base64 !"}), 422, "invalid_request")


@pytest.mark.parametrize("method,path", [("POST", "/v1/tools"), ("POST", "/v1/tools/x/invoke"),
                                         ("PATCH", "/v1/tools/x"), ("POST", "/v1/contracts/tool-manifest/validate")])
def test_a_body_without_content_type_is_415_not_read_as_bytes(gateway, method, path):
    response = gateway.request(method, path, content=json.dumps(manifest("no-ctype")).encode())
    error = _shape(response, 415, "unsupported_media_type")
    assert "application/json" in error["message"]


def test_an_empty_body_without_content_type_is_still_accepted(gateway):
    """``POST /v1/approvals/{id}/approve`` has an optional body: no body, no Content-Type is fine."""
    _shape(gateway.request("POST", "/v1/approvals/apr_missing/approve", "secoff"), 404, "approval_not_found")


@pytest.mark.parametrize("method,path,kwargs,status,code", [
    ("GET", "/nowhere", {}, 404, "not_found"),
    ("GET", "/v1/tools/a/b/c", {}, 404, "not_found"),
    ("PUT", "/v1/tools", {}, 405, "method_not_allowed"),
    ("DELETE", "/healthz", {}, 405, "method_not_allowed"),
    ("GET", "/v1/tools", {"params": {"limit": 0}}, 422, "invalid_request"),
    ("GET", "/v1/tools", {"params": {"limit": 501}}, 422, "invalid_request"),
    ("GET", "/v1/tools/invocations", {"params": {"limit": "many"}}, 422, "invalid_request"),
    ("GET", "/v1/tools", {"params": {"status": "gone"}}, 422, "invalid_request"),
    ("POST", "/v1/tools", {"content": b"{nope", "headers": {"Content-Type": "application/json"}}, 422, None),
    ("POST", "/v1/tools/x/invoke", {"content": b"[1", "headers": {"Content-Type": "application/json"}}, 422, None),
    ("POST", "/v1/tools", {"content": b"a: 1", "headers": {"Content-Type": "application/yaml"}}, 415,
     "unsupported_media_type"),
    ("PATCH", "/v1/tools/x", {"json": {"status": "approved", "extra": 1}}, 422, "invalid_request"),
    ("POST", "/v1/approvals/x/approve", {"json": {"comment": 5}}, 422, "invalid_request"),
])
def test_every_error_is_in_our_shape_with_a_request_id(gateway, method, path, kwargs, status, code):
    error = _shape(gateway.request(method, path, **kwargs), status, code)
    assert "detail" not in error  # FastAPI's own shape never leaks
    if status == 422 and code == "invalid_request":
        assert error["details"]["errors"][0]["path"].startswith("/")


def test_405_names_the_allowed_methods(gateway):
    response = gateway.request("DELETE", "/v1/tools")
    _shape(response, 405, "method_not_allowed")
    assert set(response.headers["allow"].replace(" ", "").split(",")) == {"GET", "POST"}


def test_tool_cursor_is_stable_while_tools_are_inserted(gateway):
    """A cursor is a position (the last name seen), so tools created between pages neither repeat nor shift."""
    prefix = gateway.unique("page")
    names = [f"{prefix}-{c}" for c in "bdf"]
    for name in names:
        assert gateway.apply(manifest(name)).status_code == 201
    seen: list[str] = []
    params = {"limit": 1}
    inserted = False
    while True:
        page = gateway.request("GET", "/v1/tools", "dev", params=params).json()
        seen += [t["name"] for t in page["items"]]
        if not inserted and seen and seen[-1] == names[1]:
            for c in "ace":  # one before the cursor (never seen), two after it (seen, in order)
                assert gateway.apply(manifest(f"{prefix}-{c}")).status_code == 201
            inserted = True
        if page["next_cursor"] is None:
            break
        params = {"limit": 1, "cursor": page["next_cursor"]}
    ours = [n for n in seen if n.startswith(prefix)]
    assert ours == [f"{prefix}-{c}" for c in "bdef"]
    assert seen == sorted(seen) and len(seen) == len(set(seen))


def test_invocation_cursor_is_stable_while_invocations_are_inserted(gateway):
    name = gateway.unique("inv-page")
    assert gateway.apply(manifest(name)).status_code == 201
    ids = [gateway.invoke(name, {"text": str(i)}).json()["id"] for i in range(3)]
    first = gateway.request("GET", "/v1/tools/invocations", params={"tool": name, "limit": 2}).json()
    assert [r["id"] for r in first["items"]] == ids[::-1][:2]
    gateway.invoke(name, {"text": "newer"})
    rest = gateway.request("GET", "/v1/tools/invocations",
                           params={"tool": name, "limit": 2, "cursor": first["next_cursor"]}).json()
    assert [r["id"] for r in rest["items"]] == [ids[0]] and rest["next_cursor"] is None
