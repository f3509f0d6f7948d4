"""The ``sandbox`` executor: run a tool's ``command`` in an isolated child process (MANIFEST.md ``type: sandbox``).

Protocol: the arguments are written as one JSON object on the child's stdin (then stdin is closed); the child
writes its result as JSON on stdout and exits with 0. Anything else is a failure.

Isolation (best effort, POSIX; this is process hygiene, not a security boundary against hostile code):

* **environment**: nothing is inherited. The child gets ``PATH=/usr/local/bin:/usr/bin:/bin``,
  ``LANG``/``LC_ALL=C.UTF-8``, ``HOME`` and ``TMPDIR`` set to its own temporary directory, plus the ``env``
  given by the caller. No token, key or variable of the gateway reaches it. The command is looked up on that
  ``PATH`` (give an absolute path otherwise);
* **working directory**: a new empty temporary directory, removed afterwards;
* **session**: a new session and process group (``start_new_session``), so that the whole group is killed
  on timeout and when the call ends;
* **resource limits** (``resource.setrlimit`` in the child before ``exec``): CPU seconds (the timeout plus 1),
  address space (:data:`DEFAULT_MEMORY_BYTES`), file size written (64 MiB), open files (256), no core dumps;
* **output caps**: stdout beyond ``max_output_bytes`` (1 MiB by default) kills the child and fails the call;
  the last 64 KiB of stderr are kept for the error message.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import os
import signal
import tempfile
import time
from typing import TYPE_CHECKING, Any

try:  # imported here, never in the child between fork and exec (an import there could deadlock)
    import resource
except ImportError:  # pragma: no cover - not POSIX
    resource = None  # type: ignore[assignment]

if TYPE_CHECKING:  # pragma: no cover
    from enterprise_ai.gateway.executors import ExecutionResult

__all__ = ["DEFAULT_MEMORY_BYTES", "DEFAULT_OUTPUT_BYTES", "SANDBOX_PATH", "run_sandbox"]

SANDBOX_PATH = "/usr/local/bin:/usr/bin:/bin"
DEFAULT_OUTPUT_BYTES = 1024 * 1024
DEFAULT_MEMORY_BYTES = 2 * 1024 * 1024 * 1024
_STDERR_KEEP = 64 * 1024
_FILE_SIZE_BYTES = 64 * 1024 * 1024
_OPEN_FILES = 256


def _limits_preexec(cpu_seconds: int, memory_bytes: int | None) -> Any:
    if resource is None:  # pragma: no cover - not POSIX
        return None
    wanted = [
        (resource.RLIMIT_CPU, cpu_seconds),
        (resource.RLIMIT_FSIZE, _FILE_SIZE_BYTES),
        (resource.RLIMIT_NOFILE, _OPEN_FILES),
        (resource.RLIMIT_CORE, 0),
    ]
    if memory_bytes:
        wanted.append((resource.RLIMIT_AS, memory_bytes))

    def apply() -> None:  # runs in the child between fork and exec: no import, no lock, never raises
        for which, value in wanted:
            try:
                _, hard = resource.getrlimit(which)
                if hard != resource.RLIM_INFINITY:
                    value = min(value, hard)
                resource.setrlimit(which, (value, hard))
            except (ValueError, OSError):
                pass

    return apply


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def _exit_reason(code: int) -> str:
    if code < 0:
        try:
            return f"was killed by signal {signal.Signals(-code).name}"
        except ValueError:
            return f"was killed by signal {-code}"
    return f"exited with code {code}"


async def run_sandbox(
    command: list[str],
    arguments: Any,
    *,
    timeout_seconds: float,
    env: dict[str, str] | None = None,
    max_output_bytes: int = DEFAULT_OUTPUT_BYTES,
    memory_bytes: int | None = DEFAULT_MEMORY_BYTES,
) -> ExecutionResult:
    """Run ``command`` (an argv list, no shell) with ``arguments`` as JSON on stdin; never raises.

    Args:
        command: the argv; ``command[0]`` is looked up on :data:`SANDBOX_PATH` unless it contains a ``/``.
        arguments: any JSON-able value, written to stdin.
        timeout_seconds: wall-clock limit; on expiry the process group is killed and the call fails.
        env: extra environment variables (on top of the minimal one; see the module docstring).
        max_output_bytes: stdout cap in bytes.
        memory_bytes: ``RLIMIT_AS`` in bytes (None: no limit).

    Returns:
        an ``ExecutionResult``: ``succeeded`` with the parsed stdout (None for empty output) on exit 0 and
        JSON output; ``failed`` with a one-line error otherwise. ``usage`` holds ``exit_code`` and
        ``stdout_bytes``.
    """
    from enterprise_ai.gateway.executors import ExecutionResult

    started = time.perf_counter()

    def failed(error: str, **usage: Any) -> ExecutionResult:
        return ExecutionResult("failed", None, error, None, usage, (time.perf_counter() - started) * 1000)

    try:
        payload = json.dumps(arguments, ensure_ascii=False).encode("utf-8")
    except (TypeError, ValueError) as exc:
        return failed(f"sandbox arguments are not JSON: {exc}")
    with tempfile.TemporaryDirectory(prefix="eai-sandbox-", ignore_cleanup_errors=True) as workdir:
        child_env = {"PATH": SANDBOX_PATH, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "HOME": workdir,
                     "TMPDIR": workdir, **(env or {})}
        try:
            proc = await asyncio.create_subprocess_exec(
                *command,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                cwd=workdir,
                env=child_env,
                start_new_session=True,
                close_fds=True,
                preexec_fn=_limits_preexec(math.ceil(timeout_seconds) + 1, memory_bytes),
            )
        except OSError as exc:
            return failed(f"sandbox command {command[0]!r} could not start: {exc.strerror or exc}")
        overflow = False
        stdout = bytearray()
        stderr = bytearray()

        async def feed() -> None:
            assert proc.stdin is not None
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                proc.stdin.write(payload)
                await proc.stdin.drain()
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                proc.stdin.close()

        async def read_stdout() -> None:
            nonlocal overflow
            assert proc.stdout is not None
            while chunk := await proc.stdout.read(65536):
                stdout.extend(chunk)
                if len(stdout) > max_output_bytes:
                    overflow = True
                    _kill_group(proc.pid)
                    return

        async def read_stderr() -> None:
            assert proc.stderr is not None
            while chunk := await proc.stderr.read(65536):
                stderr.extend(chunk)
                if len(stderr) > _STDERR_KEEP:
                    del stderr[: len(stderr) - _STDERR_KEEP]

        try:
            await asyncio.wait_for(asyncio.gather(feed(), read_stdout(), read_stderr(), proc.wait()),
                                   timeout_seconds)
            timed_out = False
        except asyncio.TimeoutError:
            timed_out = True
        finally:
            _kill_group(proc.pid)
            if proc.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    proc.kill()
                await proc.wait()
    code = proc.returncode if proc.returncode is not None else -signal.SIGKILL
    usage = {"exit_code": code, "stdout_bytes": len(stdout)}
    if timed_out:
        return failed(f"sandbox command timed out after {timeout_seconds:g}s and was killed", **usage)
    if overflow:
        return failed(f"sandbox output exceeded {max_output_bytes} bytes; the command was killed", **usage)
    if code != 0:
        lines = stderr.decode("utf-8", "replace").strip().splitlines()
        tail = f": {lines[-1][:300]}" if lines else ""
        return failed(f"sandbox command {_exit_reason(code)}{tail}", **usage)
    text = stdout.decode("utf-8", "replace").strip()
    if not text:
        result = None
    else:
        try:
            result = json.loads(text)
        except ValueError:
            return failed(f"sandbox output is not JSON: {' '.join(text.split())[:200]}", **usage)
    return ExecutionResult("succeeded", result, None, None, usage, (time.perf_counter() - started) * 1000)
