"""Review: graceful shutdown keeps an in-flight http invocation; a restart keeps what the review fixes added."""

from __future__ import annotations

import http.server
import json
import signal
import socketserver
import sqlite3
import sys
import threading
import time

from tests.support.gateway import manifest, running_gateway


class _SlowTool(http.server.BaseHTTPRequestHandler):
    def do_POST(self) -> None:  # noqa: N802 - http.server API
        self.rfile.read(int(self.headers.get("content-length", 0)))
        time.sleep(1.5)
        body = json.dumps({"done": True}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args) -> None:
        pass


def _sandbox_sees_no_gateway_environment(gw) -> None:
    name = gw.unique("env")
    code = "import json, os, sys; sys.stdin.read(); print(json.dumps({'env': dict(os.environ)}))"
    endpoint = {"type": "sandbox", "command": [sys.executable, "-c", code], "timeout_seconds": 20}
    assert gw.apply(manifest(name, endpoint=endpoint, input_schema={"type": "object"})).status_code == 201
    started = gw.invoke(name, {})
    assert started.status_code == 202, started.text
    record = started.json()
    for _ in range(200):
        record = gw.request("GET", f"/v1/tools/invocations/{record['id']}").json()
        if record["status"] != "running":
            break
        time.sleep(0.05)
    assert record["status"] == "succeeded", record
    env = record["result"]["env"]
    assert "EAI_REVIEW_SECRET" not in env and "hunter2-review" not in json.dumps(env)
    assert not any(k.startswith("EAI_") for k in env), env


def test_sigterm_during_an_http_call_answers_it_and_keeps_its_record(tmp_path):
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), _SlowTool)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with running_gateway(tmp_path / "gw", env={"EAI_REVIEW_SECRET": "hunter2-review"}) as gw:
            _sandbox_sees_no_gateway_environment(gw)
            slow, gated = gw.unique("slow"), gw.unique("gated")
            url = f"http://127.0.0.1:{server.server_address[1]}/tools/slow"
            assert gw.apply(manifest(slow, endpoint={"type": "http", "url": url})).status_code == 201
            assert gw.apply(manifest(gated, requires_approval=True)).status_code == 201
            key = {"Idempotency-Key": "pending-across-restart"}
            pending = gw.invoke(gated, {"text": "x"}, headers=key)
            assert pending.status_code == 202
            gw.restart()
            again = gw.invoke(gated, {"text": "x"}, headers=key)  # the stored 202 survives a restart
            assert again.status_code == 202 and again.content == pending.content

            answer: dict = {}
            call = threading.Thread(target=lambda: answer.setdefault("r", gw.invoke(slow, {"text": "a"})))
            call.start()
            time.sleep(0.6)  # the call is now waiting on the slow upstream
            proc, gw.proc = gw.proc, None
            proc.send_signal(signal.SIGTERM)
            call.join(15)
            assert proc.wait(20) == 0
            assert answer["r"].status_code == 200 and answer["r"].json()["status"] == "succeeded"
            with sqlite3.connect(gw.db_path) as db:
                rows = db.execute("SELECT id, status FROM invocations WHERE tool = ?", (slow,)).fetchall()
            assert rows == [(answer["r"].json()["id"], "succeeded")]
    finally:
        server.shutdown()
        server.server_close()
