"""Cases that need a special config, run in-process on the ASGI app (no server process: fast)."""

from __future__ import annotations

import asyncio
import time

import httpx

from enterprise_ai.gateway.app import create_app
from enterprise_ai.gateway.config import GatewayConfig, hash_token
from tests.support.gateway import manifest


def _app(tmp_path, **sections):
    principals = [
        {"id": "admin", "token_sha256": hash_token("admin-token"), "roles": ["tenant_admin"], "scopes": ["*"],
         "classification": "restricted"},
        {"id": "bot", "token_sha256": hash_token("bot-token"), "roles": ["agent"], "scopes": ["*"]},
    ]
    config = GatewayConfig.model_validate({
        "principals": principals, "grants": [{"principal": "admin", "relation": "owner", "tool": "*"},
                                             {"principal": "bot", "relation": "can_invoke", "tool": "*"}],
        **sections,
    })
    return create_app(config, tmp_path / "data")


def _run(app, scenario):
    async def main():
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://gateway") as client:
            return await scenario(client)

    return asyncio.run(main())


def test_an_expired_approval_cannot_be_used(tmp_path):
    app = _app(tmp_path, approvals={"ttl_seconds": 1})
    bot, admin = {"Authorization": "Bearer bot-token"}, {"Authorization": "Bearer admin-token"}

    async def scenario(client):
        applied = await client.post("/v1/tools", json=manifest("gated", requires_approval=True), headers=admin)
        assert applied.status_code == 201
        asked = await client.post("/v1/tools/gated/invoke", json={"arguments": {"text": "x"}}, headers=bot)
        approval_id = asked.json()["approval_id"]
        time.sleep(1.1)
        approval = (await client.get(f"/v1/approvals/{approval_id}", headers=admin)).json()
        assert approval["status"] == "expired"
        late = await client.post(f"/v1/approvals/{approval_id}/approve", headers=admin)
        assert late.status_code == 409 and late.json()["error"]["code"] == "approval_not_pending"
        body = {"arguments": {"text": "x"}, "approval_id": approval_id}
        used = await client.post("/v1/tools/gated/invoke", json=body, headers=bot)
        assert used.status_code == 409 and used.json()["error"]["code"] == "approval_expired"

    _run(app, scenario)


def test_prices_and_egress_from_the_config(tmp_path):
    prices = {"currency": "USD", "default": {"per_call": 0.5}, "tools": {"cheap": {"per_call": 0.01}}}
    app = _app(tmp_path, prices=prices, egress={"allow": ["https://api.example.com/v2"]})
    admin = {"Authorization": "Bearer admin-token"}

    async def scenario(client):
        for name in ("cheap", "dear"):
            assert (await client.post("/v1/tools", json=manifest(name), headers=admin)).status_code == 201
        cheap = (await client.post("/v1/tools/cheap/invoke", json={"arguments": {"text": "x"}}, headers=admin)).json()
        dear = (await client.post("/v1/tools/dear/invoke", json={"arguments": {"text": "x"}}, headers=admin)).json()
        assert cheap["cost"] == {"amount": 0.01, "currency": "USD"}
        assert dear["cost"] == {"amount": 0.5, "currency": "USD"}
        allowed = manifest("remote", endpoint={"type": "http", "url": "https://api.example.com/v2/search"})
        assert (await client.post("/v1/tools", json=allowed, headers=admin)).status_code == 201
        local = manifest("local", endpoint={"type": "http", "url": "http://127.0.0.1:8000/tools/local"})
        refused = await client.post("/v1/tools", json=local, headers=admin)
        assert refused.status_code == 422
        assert refused.json()["error"]["details"]["errors"] == [
            {"path": "/spec/endpoint/url", "message": refused.json()["error"]["details"]["errors"][0]["message"]}]
        assert "egress allow-list" in refused.json()["error"]["message"]

    _run(app, scenario)


def test_nan_infinity_and_deep_nesting_are_refused_not_a_500(tmp_path):
    app = _app(tmp_path)
    admin = {"Authorization": "Bearer admin-token", "Content-Type": "application/json"}
    schema = '{"type":"object","properties":{"x":{"type":"number","default":NaN}}}'
    doc = ('{"apiVersion":"enterprise-ai.io/v1","kind":"Tool","metadata":{"name":"nums","version":"0.1.0",'
           '"owner":"t@example.com"},"spec":{"description":"N","action":"read","input_schema":%s,'
           '"endpoint":{"type":"builtin","handler":"echo"}}}')

    async def scenario(client):
        refused = await client.post("/v1/tools", content=doc % schema, headers=admin)
        assert refused.status_code == 422 and refused.json()["error"]["code"] == "invalid_manifest"
        assert refused.json()["error"]["details"]["errors"][0]["path"] == "/spec/input_schema/properties/x/default"
        assert (await client.post("/v1/tools", content=doc % '{"type":"object"}', headers=admin)).status_code == 201
        deep = '{"arguments":{"x":' + "[" * 500 + "]" * 500 + "}}"  # deeper than the 64-level cap
        for body in ('{"arguments":{"x":NaN}}', '{"arguments":{"x":[1e999]}}', deep):
            response = await client.post("/v1/tools/nums/invoke", content=body,
                                         headers={**admin, "Idempotency-Key": "k"})
            assert response.status_code == 422 and response.json()["error"]["code"] == "invalid_request"

    _run(app, scenario)


def test_oversized_bodies_are_413_in_the_error_shape(tmp_path):
    app = _app(tmp_path)
    admin = {"Authorization": "Bearer admin-token", "Content-Type": "application/json"}

    async def chunks():
        for _ in range(50):
            yield b"x" * 100_000

    async def scenario(client):
        for content in (b'{"a": "' + b"x" * 5_000_000 + b'"}', chunks()):
            response = await client.post("/v1/tools", content=content, headers=admin)
            assert response.status_code == 413
            assert response.json()["error"]["code"] == "payload_too_large"
            assert response.json()["error"]["request_id"] == response.headers["x-request-id"]

    _run(app, scenario)
