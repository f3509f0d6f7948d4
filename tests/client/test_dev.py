"""``eai dev``: gateway + tool host started, tools registered and approved, a profile written, Ctrl-C stops both."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import textwrap
import time
from urllib.parse import urlsplit

from tests.support.cli import EAI, clean_env

TOOLS = textwrap.dedent('''\
    from enterprise_ai.tools import tool

    @tool
    def add_numbers(a: int, b: int = 2) -> int:
        """Add two numbers."""
        return a + b
    ''')


def _closed(url: str) -> bool:
    parts = urlsplit(url)
    with socket.socket() as sock:
        sock.settimeout(1)
        return sock.connect_ex((parts.hostname, parts.port)) != 0


def _start_dev(tmp_path, env):
    """Start ``eai dev`` on free ports; return (process, stderr text up to the ready line, gateway URL, tool host URL)."""
    (tmp_path / "mytools.py").write_text(TOOLS)
    proc = subprocess.Popen(
        [*EAI, "dev", "mytools.py", "--port", "0", "--tools-port", "0", "--data-dir", str(tmp_path / "data"),
         "--insecure-storage"],
        cwd=tmp_path, env=clean_env(env), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)
    lines: list[str] = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        if not line:
            break
        lines.append(line)
        if line.startswith("Press Ctrl-C"):
            break
    text = "".join(lines)
    if "Press Ctrl-C" not in text:
        proc.kill()
        raise AssertionError(text)
    gateway_url = text.split("eai dev: gateway ")[1].split(",")[0]
    tools_url = text.split("tool host ")[1].split(",")[0]
    return proc, text, gateway_url, tools_url


def test_dev_runs_registers_approves_and_stops_on_ctrl_c(eai, tmp_path):
    env = {"EAI_CONFIG_DIR": str(tmp_path / "cfg")}
    proc, text, gateway_url, tools_url = _start_dev(tmp_path, env)
    try:
        assert "1 tool(s) registered and approved: add-numbers" in text
        assert "eai tools invoke add-numbers a=..." in text

        dev_env = {**env, "EAI_PROFILE": "dev"}
        status = json.loads(eai(["auth", "status", "-o", "json"], env=dev_env).stdout)
        assert status["base_url"] == gateway_url and status["token_source"] == "file"
        listed = json.loads(eai(["tools", "list", "--status", "approved", "-o", "json"], env=dev_env).stdout)
        assert [t["name"] for t in listed] == ["add-numbers"]
        called = eai(["tools", "invoke", "add-numbers", "a=40", "-o", "json"], env=dev_env)
        assert called.returncode == 0, called.stderr
        assert json.loads(called.stdout)["result"] == 42

        proc.send_signal(signal.SIGINT)
        _, rest = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, rest
    assert "eai dev: stopped" in rest
    assert _closed(gateway_url) and _closed(tools_url)


def test_dev_without_keyring_or_insecure_storage_starts_nothing(eai, tmp_path):
    (tmp_path / "mytools.py").write_text(TOOLS)
    env = {"EAI_CONFIG_DIR": str(tmp_path / "cfg"), "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}
    proc = eai(["dev", "mytools.py", "--port", "0", "--tools-port", "0", "--data-dir", str(tmp_path / "data")],
               env=env, cwd=tmp_path)
    assert proc.returncode == 3 and "no usable OS keyring" in proc.stderr
    assert not (tmp_path / "data").exists() and not (tmp_path / "cfg").exists()


def test_dev_stops_both_children_on_sigterm(tmp_path):
    proc, _, gateway_url, tools_url = _start_dev(tmp_path, {"EAI_CONFIG_DIR": str(tmp_path / "cfg")})
    try:
        proc.send_signal(signal.SIGTERM)
        _, rest = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert "eai dev: stopped" in rest
    assert _closed(gateway_url) and _closed(tools_url)


def test_dev_profile_never_becomes_the_default(tmp_path, monkeypatch):
    from enterprise_ai.auth import _config

    monkeypatch.setenv("EAI_CONFIG_DIR", str(tmp_path / "cfg"))
    _config.save_profile("dev", "http://127.0.0.1:1", "file", make_default=False)
    assert _config.profile_name(None) == "default"
    _config.save_profile("work", "http://127.0.0.1:2", "keyring")
    assert _config.profile_name(None) == "work"  # the first profile saved without make_default=False
    _config.save_profile("dev", "http://127.0.0.1:3", "file", make_default=False)
    assert _config.profile_name(None) == "work"
