"""The tool host: ``eai tools serve`` as a real process, and the app in-process (enterprise_ai.gateway.toolhost)."""

from __future__ import annotations

import dataclasses
import re
import signal
import subprocess
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.support.cli import EAI, clean_env

TOOLS = textwrap.dedent(
    '''
    import asyncio
    from enterprise_ai.tools import tool

    @tool
    def add(a: int, b: int = 1) -> int:
        """Add two numbers.

        :param a: the first number
        :param b: the second number
        """
        return a + b

    @tool(action="write")
    async def shout(text: str) -> dict:
        """Upper-case a text."""
        await asyncio.sleep(0)
        return {"text": text.upper()}

    @tool
    def explode(reason: str) -> str:
        """Always fails."""
        raise RuntimeError(f"exploded: {reason}")
    '''
)


@dataclasses.dataclass
class Point:
    x: int
    y: int


def start_host(args: list[str], cwd: Path) -> tuple[subprocess.Popen[str], str]:
    """Start ``eai tools serve ARGS --port 0`` and return the process and its base URL."""
    proc = subprocess.Popen([*EAI, "tools", "serve", *args, "--port", "0"], cwd=cwd, env=clean_env(),
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    deadline = time.monotonic() + 30
    lines = []
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        if not line:
            break
        lines.append(line)
        match = re.search(r"serving \d+ tool\(s\) on (http://127\.0\.0\.1:\d+)", line)
        if match:
            return proc, match.group(1)
    proc.kill()
    proc.wait()
    raise AssertionError("tool host did not start: " + "".join(lines))


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    workdir = tmp_path_factory.mktemp("toolhost")
    (workdir / "pkg").mkdir()
    (workdir / "pkg" / "mytools.py").write_text(TOOLS, encoding="utf-8")
    proc, url = start_host(["pkg"], workdir)
    try:
        yield url
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:  # pragma: no cover
            proc.kill()
            proc.wait()


def test_success_sync_and_async(host: str) -> None:
    response = httpx.post(f"{host}/tools/add", json={"a": 2, "b": 40})
    assert (response.status_code, response.json()) == (200, 42)
    response = httpx.post(f"{host}/tools/shout", json={"text": "hi"}, headers={"X-EAI-Run-Id": "r1"})
    assert (response.status_code, response.json()) == (200, {"text": "HI"})
    assert httpx.post(f"{host}/tools/add", content=b"", headers={"Content-Type": "application/json"}).status_code == 422


def test_bad_argument_is_422_naming_it(host: str) -> None:
    response = httpx.post(f"{host}/tools/add", json={"a": "many"})
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "invalid_arguments"
    assert "a" in error["message"].split("bad argument(s) ")[1].split(":")[0]
    assert [e["path"] for e in error["details"]["errors"]] == ["/a"]
    unknown = httpx.post(f"{host}/tools/add", json={"a": 1, "zz": 2}).json()["error"]
    assert [e["path"] for e in unknown["details"]["errors"]] == ["/zz"]
    assert httpx.post(f"{host}/tools/add", json=[1, 2]).status_code == 422
    async_tool = httpx.post(f"{host}/tools/shout", json={"text": 3.5})
    assert async_tool.status_code == 422 and async_tool.json()["error"]["details"]["errors"][0]["path"] == "/text"
    assert httpx.post(f"{host}/tools/add", content=b"{nope").json()["error"]["code"] == "invalid_json"


def test_tool_exception_is_a_json_error(host: str) -> None:
    response = httpx.post(f"{host}/tools/explode", json={"reason": "on purpose"})
    assert response.status_code == 500
    assert response.json() == {"error": {"code": "tool_error", "message": "RuntimeError: exploded: on purpose"}}
    assert "Traceback" not in response.text


def test_listing_health_and_unknown_tool(host: str) -> None:
    items = httpx.get(f"{host}/tools").json()["items"]
    assert [i["name"] for i in items] == ["add", "explode", "shout"]
    assert items[0]["input_schema"]["required"] == ["a"]
    assert items[2]["is_async"] is True
    assert httpx.get(f"{host}/healthz").json() == {"status": "ok", "tools": 3}
    missing = httpx.post(f"{host}/tools/nope", json={})
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "tool_not_found"


def test_gateway_http_executor_against_the_host(host: str) -> None:
    import asyncio

    from enterprise_ai.gateway.egress import EgressPolicy
    from enterprise_ai.gateway.executors import execute

    async def call(name: str, arguments: dict) -> object:
        return await execute({"type": "http", "url": f"{host}/tools/{name}"}, arguments, tool_name=name,
                             run_id="run-1", egress=EgressPolicy())

    ok = asyncio.run(call("add", {"a": 1}))
    assert (ok.status, ok.result) == ("succeeded", 2)
    failed = asyncio.run(call("explode", {"reason": "x"}))
    assert (failed.status, failed.http_status) == ("failed", 500)
    assert failed.error == "upstream answered 500 Internal Server Error: RuntimeError: exploded: x"


def test_serve_errors(eai, tmp_path: Path) -> None:
    (tmp_path / "empty.py").write_text("x = 1\n", encoding="utf-8")
    (tmp_path / "broken.py").write_text("import nope_missing_module\n", encoding="utf-8")
    proc = eai(["tools", "serve", str(tmp_path / "empty.py"), "--port", "0"], cwd=tmp_path)
    assert proc.returncode == 2 and "no tool found" in proc.stderr
    proc = eai(["tools", "serve", "broken.py", "--port", "0"], cwd=tmp_path)
    assert proc.returncode == 2 and "broken.py: import failed: ModuleNotFoundError" in proc.stderr
    proc = eai(["tools", "serve", "missing.py"], cwd=tmp_path)
    assert proc.returncode == 2 and "missing.py: no such file" in proc.stderr
    (tmp_path / "t.py").write_text(TOOLS, encoding="utf-8")
    proc = eai(["tools", "serve", "t.py", "--host", "0.0.0.0", "--port", "0"], cwd=tmp_path)
    assert proc.returncode == 2 and "--allow-remote" in proc.stderr


def test_in_process_app_rejects_duplicates_and_serialises_models() -> None:
    from fastapi.testclient import TestClient

    from enterprise_ai.gateway.toolhost import create_toolhost_app
    from enterprise_ai.tools import tool

    @tool
    def point(x: int) -> Point:
        """Make a point."""
        return Point(x, x * 2)

    with pytest.raises(ValueError, match="two tools"):
        create_toolhost_app([point, point])
    client = TestClient(create_toolhost_app([point]))
    assert client.post("/tools/point", json={"x": 3}).json() == {"x": 3, "y": 6}


def test_load_by_module_name_and_duplicate_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from enterprise_ai.errors import UsageError
    from enterprise_ai.gateway.toolload import load_local_tools

    pkg = tmp_path / "shop_eai_pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "a.py").write_text("from enterprise_ai.tools import tool\n@tool\ndef dup_one() -> int:\n    return 1\n",
                              encoding="utf-8")
    (pkg / "b.py").write_text("from .a import dup_one\nfrom enterprise_ai.tools import tool\n"
                              "@tool(name='dup-one')\ndef other() -> int:\n    return 2\n", encoding="utf-8")
    with pytest.raises(UsageError, match="'dup-one' is already defined"):
        load_local_tools([pkg])
    tools = load_local_tools([str(pkg / "a.py")])
    assert [t.name for t in tools] == ["dup-one"]
    monkeypatch.chdir(tmp_path)
    (pkg / "c.py").write_text("from enterprise_ai.tools import tool\n@tool\ndef by_name() -> int:\n    return 3\n",
                              encoding="utf-8")
    assert [t.name for t in load_local_tools(["shop_eai_pkg.c"])] == ["by-name"]
