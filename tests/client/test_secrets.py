"""Every remote command, run with --debug and EAI_API_KEY set to a sentinel against error responses:
the sentinel appears in no output, no log line and no traceback."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tests.client.conftest import SENTINEL
from tests.client.test_lifecycle_mock import MANIFEST

# route -> (status, error code, extra headers)
ROUTES = {
    "GET /v1/tools": (401, "unauthenticated", {}),
    "GET /v1/tools/x": (404, "tool_not_found", {}),
    "PATCH /v1/tools/x": (403, "insufficient_role", {}),
    "DELETE /v1/tools/x": (409, "conflict", {}),
    "POST /v1/tools": (422, "invalid_manifest", {}),
    "POST /v1/tools/inv/invoke": (500, "internal", {}),
    "GET /v1/tools/invocations": (429, "rate_limited", {"Retry-After": "3600"}),
    "POST /v1/contracts/tool-manifest/validate": (500, "internal", {}),
    "GET /v1/approvals": (403, "insufficient_role", {}),
    "GET /v1/approvals/ap": (404, "approval_not_found", {}),
    "POST /v1/approvals/ap/approve": (403, "self_approval_forbidden", {}),
    "POST /v1/approvals/ap/reject": (409, "approval_not_pending", {}),
}


class Handler(BaseHTTPRequestHandler):
    def _answer(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        route = f"{self.command} {self.path.split('?')[0]}"
        self.server.seen.append(self.headers.get("Authorization"))  # type: ignore[attr-defined]
        if route == "GET /v1/tools/inv":
            status, body, headers = 200, {"name": "inv", "manifest": {"spec": {}}}, {}
        else:
            status, code, headers = ROUTES.get(route, (404, "not_found", {}))
            body = {"error": {"code": code, "message": f"scripted {code}", "request_id": "rq-1", "details": {}}}
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("X-Request-Id", "rq-1")
        for k, v in headers.items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    do_GET = do_POST = do_PATCH = do_DELETE = _answer

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def error_server():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.seen = []  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


COMMANDS = [
    (["tools", "list"], 3),
    (["tools", "get", "x"], 5),
    (["tools", "update", "x", "--owner", "o@example.com"], 4),
    (["tools", "delete", "x", "--yes"], 6),
    (["tools", "register", "{manifest}"], 1),
    (["tools", "register", "{manifest}", "--dry-run"], 10),  # 404 = new tool; validate -> 500
    (["tools", "invoke", "inv", "a=1"], 10),
    (["tools", "invoke", "x"], 5),
    (["tools", "invocations"], 7),
    (["tools", "invocations", "--all"], 7),
    (["approvals", "list"], 4),
    (["approvals", "get", "ap"], 5),
    (["approvals", "approve", "ap", "--comment", "c"], 4),
    (["approvals", "reject", "ap"], 6),
    (["auth", "status"], 0),
    (["auth", "login", "--token-stdin"], 2),
    (["auth", "logout"], 0),
]


@pytest.mark.parametrize(("args", "expected"), COMMANDS, ids=[" ".join(c[0][:3]) for c in COMMANDS])
def test_sentinel_never_printed(eai, error_server, tmp_path, args, expected):
    manifest = tmp_path / "echo.yaml"
    manifest.write_text(MANIFEST)
    argv = ["--debug", *(a.replace("{manifest}", str(manifest)) for a in args)]
    env = {"EAI_API_KEY": SENTINEL, "EAI_BASE_URL": f"http://127.0.0.1:{error_server.server_port}",
           "EAI_CONFIG_DIR": str(tmp_path / "cfg")}
    proc = eai(argv, env=env, input=SENTINEL + "\n")
    assert proc.returncode == expected, proc.stderr
    assert SENTINEL not in proc.stdout
    assert SENTINEL not in proc.stderr
    assert SENTINEL[-8:] not in proc.stdout + proc.stderr
    if expected not in (0, 2):
        assert "enterprise_ai.http: -> " in proc.stderr and "'authorization': '<redacted>'" in proc.stderr
        assert "request_id=rq-1" in proc.stderr


def test_server_received_the_token(error_server):
    assert f"Bearer {SENTINEL}" in error_server.seen


def test_network_error_with_debug_hides_the_token(eai, tmp_path):
    proc = eai(["--debug", "tools", "list"], env={"EAI_API_KEY": SENTINEL, "EAI_BASE_URL": "http://127.0.0.1:9",
                                                  "EAI_CONFIG_DIR": str(tmp_path)})
    assert proc.returncode == 9
    assert "Traceback" in proc.stderr and "retry 2/2" in proc.stderr
    assert SENTINEL not in proc.stdout + proc.stderr


@pytest.mark.parametrize("bad", [SENTINEL + "\nX", SENTINEL + " é"])
def test_a_token_with_forbidden_characters_is_refused_without_quoting_it(eai, tmp_path, bad):
    proc = eai(["--debug", "tools", "list"], env={"EAI_API_KEY": bad, "EAI_BASE_URL": "http://127.0.0.1:9",
                                                  "EAI_CONFIG_DIR": str(tmp_path)})
    assert proc.returncode == 2 and "bearer token cannot have" in proc.stderr
    assert SENTINEL not in proc.stdout + proc.stderr
