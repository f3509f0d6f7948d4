"""The sandbox executor: protocol, timeout kill, and no inherited secrets (enterprise_ai.gateway.sandbox)."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from typing import Any

import pytest

from enterprise_ai.gateway.egress import EgressPolicy
from enterprise_ai.gateway.executors import ExecutionResult, execute, run_sandbox

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX sandbox")

PY = sys.executable


def sandbox(code: str, arguments: Any = None, timeout: float = 10, **kwargs: Any) -> ExecutionResult:
    return asyncio.run(run_sandbox([PY, "-c", code], arguments if arguments is not None else {},
                                   timeout_seconds=timeout, **kwargs))


def test_arguments_on_stdin_result_on_stdout() -> None:
    code = "import json,sys; a=json.load(sys.stdin); print(json.dumps({'sum': a['x'] + a['y']}))"
    result = sandbox(code, {"x": 2, "y": 3})
    assert (result.status, result.result, result.error) == ("succeeded", {"sum": 5}, None)
    assert result.usage["exit_code"] == 0


def test_no_secret_reaches_the_child(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EAI_TEST_SECRET_SENTINEL", "s3cr3t-value")
    code = "import json,os; print(json.dumps({'env': dict(os.environ), 'cwd': os.getcwd()}))"
    result = sandbox(code, env={"TOOL_MODE": "demo"})
    env = result.result["env"]
    assert "EAI_TEST_SECRET_SENTINEL" not in env
    assert "s3cr3t-value" not in repr(env)
    assert set(env) <= {"PATH", "LANG", "LC_ALL", "HOME", "TMPDIR", "TOOL_MODE", "LC_CTYPE"}
    assert env["TOOL_MODE"] == "demo"
    assert result.result["cwd"] == env["HOME"] and os.path.basename(env["HOME"]).startswith("eai-sandbox-")
    assert not os.path.exists(env["HOME"])  # the work directory is removed afterwards


def test_new_session_and_resource_limits() -> None:
    code = ("import json,os,resource; print(json.dumps({'sid': os.getsid(0) == os.getpid(), "
            "'cpu': resource.getrlimit(resource.RLIMIT_CPU)[0], 'core': resource.getrlimit(resource.RLIMIT_CORE)[0], "
            "'nofile': resource.getrlimit(resource.RLIMIT_NOFILE)[0]}))")
    result = sandbox(code, timeout=5)
    assert result.result["sid"] is True
    assert result.result["cpu"] == 6 and result.result["core"] == 0 and result.result["nofile"] <= 256


def test_timeout_kills_the_whole_group(tmp_path: Any) -> None:
    pidfile = tmp_path / "grandchild.pid"
    code = ("import os,subprocess,sys,time; p=subprocess.Popen([sys.executable,'-c','import time; time.sleep(30)']); "
            "open(os.environ['PIDFILE'],'w').write(str(p.pid)); time.sleep(30)")
    started = time.perf_counter()
    result = sandbox(code, timeout=1.0, env={"PIDFILE": str(pidfile)})
    assert time.perf_counter() - started < 5
    assert result.status == "failed" and result.error == "sandbox command timed out after 1s and was killed"
    grandchild = int(pidfile.read_text())
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{grandchild}/stat") as stat:
                if stat.read().split(") ")[1].startswith("Z"):
                    break  # killed, waiting for init to reap it
        except FileNotFoundError:
            break
        time.sleep(0.05)
    else:
        pytest.fail("the grandchild process survived the timeout")


def test_failures_are_results_not_exceptions() -> None:
    exit_code = sandbox("import sys; print('partial'); sys.exit('bad input: x')")
    assert exit_code.status == "failed" and exit_code.error == "sandbox command exited with code 1: bad input: x"
    not_json = sandbox("print('hello')")
    assert not_json.status == "failed" and not_json.error == "sandbox output is not JSON: hello"
    empty = sandbox("pass")
    assert (empty.status, empty.result) == ("succeeded", None)
    flood = sandbox("import sys; sys.stdout.write('x' * 5000)", max_output_bytes=1000)
    assert flood.status == "failed" and "exceeded 1000 bytes" in flood.error
    missing = asyncio.run(run_sandbox(["no-such-command-eai"], {}, timeout_seconds=5))
    assert missing.status == "failed" and "could not start" in missing.error
    killed = sandbox("import os,signal; os.kill(os.getpid(), signal.SIGTERM)")
    assert killed.error == "sandbox command was killed by signal SIGTERM"


def test_execute_dispatches_sandbox_endpoints() -> None:
    endpoint = {"type": "sandbox", "command": [PY, "-c", "import json,sys; print(json.dumps(json.load(sys.stdin)))"],
                "timeout_seconds": 10}
    result = asyncio.run(execute(endpoint, {"k": "v"}, tool_name="t", run_id=None, egress=EgressPolicy()))
    assert (result.status, result.result) == ("succeeded", {"k": "v"})
    bad = asyncio.run(execute({"type": "sandbox", "command": "echo hi"}, {}, tool_name="t", run_id=None,
                              egress=EgressPolicy()))
    assert bad.status == "failed" and "non-empty list of strings" in bad.error
