"""Review: remote commands against a server that misbehaves (or is not there), run as a user would.

Each case is a real ``eai`` child process talking to a tiny scripted HTTP server on 127.0.0.1 (or to
a closed port). The rule checked: one ``eai: error:`` line naming the URL, file or field, the
documented exit code, no traceback, and no request sent when the command line itself is wrong.
"""

from __future__ import annotations

import http.server
import json
import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest


@dataclass
class Scripted:
    """What the fake server answers to every request: status, headers, body; and what it received."""

    status: int = 200
    body: bytes = b"{}"
    headers: dict[str, str] = field(default_factory=dict)
    requests: list[str] = field(default_factory=list)
    url: str = ""


@pytest.fixture
def fake() -> Iterator[Scripted]:
    script = Scripted()

    class Handler(http.server.BaseHTTPRequestHandler):
        def _answer(self) -> None:
            self.rfile.read(int(self.headers.get("content-length") or 0))
            script.requests.append(f"{self.command} {self.path}")
            self.send_response(script.status)
            for key, value in script.headers.items():
                self.send_header(key, value)
            self.send_header("content-length", str(len(script.body)))
            self.end_headers()
            self.wfile.write(script.body)

        do_GET = do_POST = do_PATCH = do_DELETE = _answer

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    script.url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        yield script
    finally:
        server.shutdown()
        server.server_close()


def _env(tmp_path, url: str, key: str | None = "review-token") -> dict[str, str]:
    env = {"EAI_BASE_URL": url, "EAI_CONFIG_DIR": str(tmp_path / "config")}
    if key:
        env["EAI_API_KEY"] = key
    return env


def _one_error_line(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.startswith("eai: error:")]
    assert len(lines) == 1, stderr
    assert "Traceback" not in stderr
    return lines[0]


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_connection_refused_is_exit_9_naming_the_url(eai, tmp_path):
    url = f"http://127.0.0.1:{_closed_port()}"
    proc = eai(["tools", "list"], env=_env(tmp_path, url))
    assert proc.returncode == 9
    assert url in _one_error_line(proc.stderr)
    assert proc.stdout == ""


@pytest.mark.parametrize("url", ["notaurl", "ftp://example.com", "http://256.1.1.1:80", "http://127.0.0.1:99999"])
def test_a_malformed_base_url_is_a_usage_error_not_a_network_one(eai, tmp_path, url):
    proc = eai(["tools", "list"], env=_env(tmp_path, url))
    assert proc.returncode == 2, proc.stderr
    line = _one_error_line(proc.stderr)
    assert "EAI_BASE_URL" in line and url in line


def test_login_with_a_malformed_base_url_names_the_option(eai, tmp_path):
    proc = eai(["auth", "login", "--token-stdin", "--base-url", "notaurl"], input="tok\n",
               env=_env(tmp_path, "", key=None))
    assert proc.returncode == 2
    assert "--base-url" in _one_error_line(proc.stderr)
    assert not (tmp_path / "config").exists()


def test_no_token_is_exit_3_with_a_login_hint(eai, tmp_path, fake):
    proc = eai(["tools", "list"], env=_env(tmp_path, fake.url, key=None))
    assert proc.returncode == 3
    _one_error_line(proc.stderr)
    assert "eai auth login" in proc.stderr
    assert fake.requests == []


@pytest.mark.parametrize(
    ("status", "body", "content_type", "code", "expected"),
    [
        (500, b"<html><body>Internal   \n error</body></html>", "text/html", 10, "<html><body>Internal error</body></html>"),
        (500, b"", "text/plain", 10, "Internal Server Error"),
        (200, b"<html>hello</html>", "text/html", 10, "not JSON (text/html)"),
        (200, b"", "application/json", 10, "got an empty body"),
        (200, b"[1, 2]", "application/json", 10, "got a JSON array"),
        (200, b'"hello"', "application/json", 10, "got a JSON string"),
    ],
)
def test_a_server_that_is_not_the_gateway_gives_one_line_and_its_url(eai, tmp_path, fake, status, body,
                                                                     content_type, code, expected):
    fake.status, fake.body, fake.headers = status, body, {"content-type": content_type}
    for args in (["tools", "get", "some-tool"], ["tools", "list"], ["approvals", "list"]):
        proc = eai(args, env=_env(tmp_path, fake.url))
        assert proc.returncode == code, (args, proc.stderr)
        line = _one_error_line(proc.stderr)
        assert expected in line and fake.url in line, line
        assert proc.stdout == ""


@pytest.mark.parametrize("page", [{"items": "abc", "next_cursor": None}, {"items": [1, None]},
                                  {"items": [], "next_cursor": 5}])
def test_a_malformed_page_is_a_server_error_not_a_crash(eai, tmp_path, fake, page):
    fake.body = json.dumps(page).encode()
    proc = eai(["tools", "invocations"], env=_env(tmp_path, fake.url))
    assert proc.returncode == 10
    assert "not {\"items\"" in _one_error_line(proc.stderr)


def test_a_redirect_names_where_it_goes(eai, tmp_path, fake):
    fake.status, fake.body, fake.headers = 302, b"", {"location": "https://gateway.example/"}
    proc = eai(["tools", "get", "x"], env=_env(tmp_path, fake.url))
    assert proc.returncode == 2
    assert fake.url in _one_error_line(proc.stderr)
    assert "redirects to https://gateway.example/" in proc.stderr


def test_server_messages_print_literally_without_markup_or_escape_sequences(eai, tmp_path, fake):
    message = "[bold red]x[/] [link=http://evil]click[/link] \x1b[31mred\x1b]8;;http://evil\x07"
    fake.status = 401
    fake.body = json.dumps({"error": {"code": "unauthenticated", "message": message}}).encode()
    proc = eai(["tools", "list"], env=_env(tmp_path, fake.url))
    assert proc.returncode == 3
    line = _one_error_line(proc.stderr)
    assert "[bold red]x[/] [link=http://evil]click[/link]" in line
    assert "\x1b" not in proc.stderr and "\x07" not in proc.stderr
    assert "\\x1b[31mred" in line


@pytest.mark.parametrize(
    "args",
    [
        ["tools", "get", ""],
        ["tools", "delete", "", "--yes"],
        ["approvals", "get", " "],
        ["approvals", "reject", ""],
        ["tools", "list", "--status", "bogus"],
        ["tools", "update", "x", "--status", "bogus"],
        ["approvals", "list", "--status", "bogus"],
        ["tools", "invocations", "--all", "--limit", "3"],
        ["tools", "invocations", "--all", "--follow"],
        ["tools", "invoke", "x", "--args-json", "{}", "--args-file", "-"],
        ["tools", "invoke", "x", "novalue"],
    ],
)
def test_bad_command_lines_exit_2_before_any_request(eai, tmp_path, fake, args):
    proc = eai(args, env=_env(tmp_path, fake.url), input="{}")
    assert proc.returncode == 2, proc.stderr
    assert fake.requests == []
    assert "Traceback" not in proc.stderr


def test_json_output_stays_valid_json_on_an_ascii_only_stdout(eai, tmp_path, fake):
    tool = {"name": "t", "description": "ünïcödé 😀 [bold]x[/]", "manifest": {}}
    fake.body = json.dumps(tool).encode()
    proc = eai(["tools", "get", "t", "-o", "json"], env={**_env(tmp_path, fake.url), "PYTHONIOENCODING": "ascii"})
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["description"] == "ünïcödé 😀 [bold]x[/]"


def test_a_terminal_table_shows_control_characters_escaped_and_markup_literally(tmp_path, fake):
    import os
    import pty
    import subprocess

    from tests.support.cli import EAI, clean_env

    tool = {"name": "t", "status": "draft", "owner": "[link=http://evil]me[/link]",
            "description": "A\x1b[31mB\x1b]8;;http://evil\x07C [bold red]x[/]", "manifest": {}}
    fake.body = json.dumps(tool).encode()
    master, slave = pty.openpty()
    try:
        proc = subprocess.run([*EAI, "tools", "get", "t"], stdout=slave, stderr=subprocess.PIPE, timeout=60,
                              env=clean_env(_env(tmp_path, fake.url)), stdin=subprocess.DEVNULL)
        os.close(slave)
        chunks = []
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: the child closed the terminal
                break
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(master)
    shown = b"".join(chunks).decode("utf-8", "replace")
    assert proc.returncode == 0, proc.stderr
    assert "\\x1b[31mB\\x1b]8;;http://evil\\x07C" in shown
    assert "\x1b]8;;http://evil" not in shown and "\x07" not in shown
    assert "[bold red]x[/]" in shown and "[link=http://evil]me[/link]" in shown


def test_a_retry_wait_is_announced_on_stderr_not_a_silent_pause(eai, tmp_path, fake):
    fake.status, fake.headers = 429, {"Retry-After": "2", "content-type": "application/json"}
    fake.body = json.dumps({"error": {"code": "rate_limited", "message": "slow down"}}).encode()
    proc = eai(["tools", "list"], env=_env(tmp_path, fake.url))
    assert proc.returncode == 7
    assert proc.stderr.count("429 rate_limited: retrying in 2 s") == 2, proc.stderr
    assert len(fake.requests) == 3
    _one_error_line(proc.stderr)
