"""`eai gateway serve` as a process: first start, host check, config errors, restart, graceful shutdown, headers."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time

import httpx

from tests.support.cli import EAI, clean_env
from tests.support.gateway import manifest, running_gateway


def _serve(tmp_path, *extra: str, name: str = "serve"):
    log = tmp_path / f"{name}.log"
    with log.open("wb") as out:
        proc = subprocess.Popen([*EAI, "gateway", "serve", "--port", "0", "--data-dir", str(tmp_path / "data"), *extra],
                                stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=clean_env())
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        text = log.read_text()
        found = re.search(r"listening on (http://\S+)", text)
        if found:
            return proc, found.group(1), log
        assert proc.poll() is None, text
        time.sleep(0.05)
    proc.kill()
    raise AssertionError(log.read_text())


def _stop(proc) -> int:
    proc.send_signal(signal.SIGTERM)
    return proc.wait(20)


def test_first_start_creates_an_admin_and_prints_its_token_once(tmp_path):
    proc, url, log = _serve(tmp_path, name="first")
    try:
        text = log.read_text()
        token = re.search(r"Admin token \(shown only now; store it\): (\S+)", text).group(1)
        assert f"eai auth login --base-url {url} --token-stdin" in text
        me = httpx.get(f"{url}/v1/me", headers={"Authorization": f"Bearer {token}"}).json()
        assert me["id"] == "admin" and me["roles"] == ["tenant_admin"] and me["tenant"] == "default"
        # the admin owns every tool, so it can apply and delete
        headers = {"Authorization": f"Bearer {token}"}
        assert httpx.post(f"{url}/v1/tools", json=manifest("first-tool"), headers=headers).status_code == 201
        assert httpx.delete(f"{url}/v1/tools/first-tool", headers=headers).status_code == 204
    finally:
        assert _stop(proc) == 0
    db = (tmp_path / "data" / "gateway.sqlite3").read_bytes()
    assert token.encode() not in db  # only its hash is stored
    proc, url, log = _serve(tmp_path, name="second")
    try:
        assert "Admin token" not in log.read_text() and token not in log.read_text()
        assert httpx.get(f"{url}/v1/me", headers={"Authorization": f"Bearer {token}"}).status_code == 200
    finally:
        _stop(proc)
    assert "eai gateway: stopped" in log.read_text()


def test_refuses_a_non_loopback_host_without_allow_remote(eai, tmp_path):
    proc = eai(["gateway", "serve", "--host", "0.0.0.0", "--port", "0", "--data-dir", tmp_path / "d"])
    assert proc.returncode == 2
    assert "not a loopback address" in proc.stderr and "--allow-remote" in proc.stderr
    assert not (tmp_path / "d").exists()


def test_bad_config_is_a_usage_error_naming_the_field(eai, tmp_path):
    config = tmp_path / "gateway.yaml"
    config.write_text("principals:\n  - id: a\n    token_sha256: abc\n    roles: [tenant_admin]\n")
    proc = eai(["gateway", "serve", "--port", "0", "--config", config, "--data-dir", tmp_path / "d"])
    assert proc.returncode == 2
    assert "principals.0.token_sha256" in proc.stderr and str(config) in proc.stderr
    config.write_text("egress:\n  allow: ['ftp://files.example.com']\n")
    proc = eai(["gateway", "serve", "--port", "0", "--config", config, "--data-dir", tmp_path / "d"])
    assert proc.returncode == 2 and "egress" in proc.stderr


def test_hash_token(eai):
    proc = eai(["gateway", "hash-token"], input="secret-token\n")
    assert proc.returncode == 0
    assert proc.stdout.strip() == "930bbdc51b6aed5c2a5678fd6e28dee7a05e8a4b643cfc0b4427c3efb86c0d94"


def test_restart_keeps_tools_approvals_and_invocations(tmp_path):
    with running_gateway(tmp_path / "gw") as gw:
        name, gated = gw.unique("keep"), gw.unique("gated")
        assert gw.apply(manifest(name)).status_code == 201
        assert gw.apply(manifest(gated, requires_approval=True)).status_code == 201
        assert gw.request("PATCH", f"/v1/tools/{name}", "secoff", json={"status": "deprecated"}).status_code == 200
        record = gw.invoke(name, {"text": "before"}).json()
        approval_id = gw.invoke(gated, {"text": "needs ok"}).json()["approval_id"]
        key = {"Idempotency-Key": "restart-key"}
        first = gw.invoke(name, {"text": "idem"}, headers=key).json()
        before = {
            "tools": gw.request("GET", "/v1/tools", "admin", params={"limit": 500}).json()["items"],
            "invocations": gw.request("GET", "/v1/tools/invocations", "admin", params={"limit": 500}).json()["items"],
            "approvals": gw.request("GET", "/v1/approvals", "admin").json()["items"],
            "audit": gw.request("GET", "/v1/audit", "admin").json()["items"],
        }
        gw.restart()
        after = {
            "tools": gw.request("GET", "/v1/tools", "admin", params={"limit": 500}).json()["items"],
            "invocations": gw.request("GET", "/v1/tools/invocations", "admin", params={"limit": 500}).json()["items"],
            "approvals": gw.request("GET", "/v1/approvals", "admin").json()["items"],
            "audit": gw.request("GET", "/v1/audit", "admin").json()["items"],
        }
        assert after == before
        assert gw.request("GET", f"/v1/tools/invocations/{record['id']}").json() == record
        assert gw.request("GET", f"/v1/tools/{name}").json()["status"] == "deprecated"
        # relations survived: the applier (dev) still owns its tool, and the approval still works
        assert gw.request("GET", f"/v1/tools/{name}/grants", "dev").json()["items"] == [
            {"principal": "dev", "relation": "owner"}]
        assert gw.request("POST", f"/v1/approvals/{approval_id}/approve", "admin2").status_code == 200
        assert gw.invoke(gated, {"text": "needs ok"}, approval_id=approval_id).json()["status"] == "succeeded"
        assert gw.invoke(name, {"text": "idem"}, headers=key).json() == first  # idempotency records survive


def test_graceful_shutdown_finishes_accepted_sandbox_executions(tmp_path):
    with running_gateway(tmp_path / "gw") as gw:
        name = gw.unique("slow")
        code = "import json,sys,time; json.load(sys.stdin); time.sleep(1.5); print(json.dumps({'done': True}))"
        doc = manifest(name, endpoint={"type": "sandbox", "command": [sys.executable, "-c", code], "timeout_seconds": 20})
        assert gw.apply(doc).status_code == 201
        accepted = gw.invoke(name, {"text": "x"})
        assert accepted.status_code == 202
        assert gw.stop() == 0  # SIGTERM while the execution runs
        gw.start()
        record = gw.request("GET", f"/v1/tools/invocations/{accepted.json()['id']}").json()
        assert record["status"] == "succeeded" and record["result"] == {"done": True}


def test_request_id_on_every_response_and_openapi(gateway):
    ok = gateway.request("GET", "/healthz", None)
    assert ok.status_code == 200 and ok.json()["status"] == "ok" and ok.headers["x-request-id"].startswith("req_")
    missing = gateway.request("GET", "/v1/nowhere")
    assert missing.status_code == 404 and missing.json()["error"]["request_id"] == missing.headers["x-request-id"]
    echoed = gateway.request("GET", "/v1/me", headers={"X-Request-Id": "trace-123"})
    assert echoed.headers["x-request-id"] == "trace-123"
    wrong_method = gateway.request("PUT", "/v1/tools", json={})
    assert wrong_method.status_code == 405 and wrong_method.headers["allow"] == "GET, POST"
    text = gateway.request("POST", "/v1/tools", content=b"x", headers={"Content-Type": "text/plain"})
    assert text.status_code == 415 and text.json()["error"]["code"] == "unsupported_media_type"
    spec = gateway.request("GET", "/openapi.json", None).json()
    routes = {(path, method) for path, item in spec["paths"].items() for method in item}
    for route in [("/v1/tools", "post"), ("/v1/tools", "get"), ("/v1/tools/{name}", "get"),
                  ("/v1/tools/{name}", "patch"), ("/v1/tools/{name}", "delete"), ("/v1/tools/{name}/invoke", "post"),
                  ("/v1/tools/invocations", "get"), ("/v1/contracts/{name}/validate", "post"),
                  ("/v1/approvals", "get"), ("/v1/approvals/{approval_id}", "get"),
                  ("/v1/approvals/{approval_id}/approve", "post"), ("/v1/approvals/{approval_id}/reject", "post"),
                  ("/healthz", "get")]:
        assert route in routes, route
    invoke = spec["paths"]["/v1/tools/{name}/invoke"]["post"]["responses"]
    assert set(invoke) >= {"200", "202", "401", "403", "404", "409", "422", "429"}
    assert "Retry-After" in invoke["429"]["headers"] and "X-Request-Id" in invoke["200"]["headers"]
    assert invoke["403"]["content"]["application/json"]["schema"]["$ref"].endswith("/ErrorBody")


def test_one_gateway_per_data_directory(eai, gateway):
    proc = eai(["gateway", "serve", "--port", "0", "--data-dir", gateway.data_dir])
    assert proc.returncode == 2 and "another gateway is already serving" in proc.stderr
    assert gateway.request("GET", "/healthz", None).status_code == 200
