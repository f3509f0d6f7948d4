"""Review: the tool host answers unknown routes and methods in its own error shape, not FastAPI's ``detail``."""

from __future__ import annotations

import httpx

from tests.gateway.test_toolhost_serve import host  # noqa: F401 - the module-scoped tool host fixture


def test_unknown_routes_and_methods_use_the_error_shape(host: str) -> None:  # noqa: F811
    missing = httpx.get(f"{host}/nowhere")
    assert missing.status_code == 404 and missing.json() == {"error": {"code": "not_found", "message": "Not Found"}}
    wrong = httpx.get(f"{host}/tools/add")
    assert wrong.status_code == 405 and wrong.json()["error"]["code"] == "method_not_allowed"
    assert wrong.headers["allow"] == "POST"
