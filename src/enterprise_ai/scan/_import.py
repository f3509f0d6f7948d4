"""The import scan: find the tools of Python code by importing it in a child process.

:func:`scan` expands the ``PATH`` arguments (:mod:`._paths`), runs one worker process
(:mod:`._worker`) that imports every module, and turns its report into a :class:`ScanResult`.
The CLI process itself never imports user code.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import time
from typing import Any
from urllib.parse import urlsplit

from enterprise_ai.errors import EaiError, UsageError
from enterprise_ai.scan import _paths
from enterprise_ai.scan.model import ScannedTool, ScanOptions, ScanProblem, ScanResult

log = logging.getLogger(__name__)

WORKER = [sys.executable, "-m", "enterprise_ai.scan._worker"]
#: longest ``--timeout`` accepted, in seconds (one day; larger values overflow the OS timers)
MAX_TIMEOUT_SECONDS = 86400.0


def scan(paths: list[str], options: ScanOptions | None = None) -> ScanResult:
    """Import the modules under ``paths`` in a child process and return the tools they define.

    Args:
        paths: ``.py`` files, directories (walked recursively, see :mod:`enterprise_ai.scan._paths`)
            or dotted module names importable from the current directory (a package brings its submodules).
        options: endpoint base URL and metadata applied to every manifest, and the timeout in seconds
            for the whole import (``ScanOptions()`` by default).

    Returns:
        A :class:`ScanResult`: every ``LocalTool`` (and agents-SDK tool, when
        :mod:`enterprise_ai.integrations.agents` is installed) found at module level, once each, sorted
        by name then file; problems for modules that failed to import (``<type>: <last line>``, with
        file and line), tools whose manifest could not be built, duplicate names, and the timeout.

    Raises:
        UsageError: no path, a path that does not exist, a file that is not ``.py``, a module name
            that cannot be found, a bad endpoint base URL or timeout.
        EaiError: the worker process itself could not start (a broken installation).
    """
    options = options or ScanOptions()
    _check_options(options)
    targets = resolve_targets(paths)
    tools, problems = _run(targets, options)
    tools = _dedupe(tools, problems)
    tools.sort(key=lambda t: (t.name, t.file, t.line))
    return ScanResult(tools=tools, problems=problems)


def _check_options(options: ScanOptions) -> None:
    base = options.endpoint_base_url
    if base is not None:
        parts = urlsplit(base)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise UsageError(f"the endpoint base URL must be an http(s) URL such as http://127.0.0.1:8000, got '{base}'")
    if not 0 < options.timeout <= MAX_TIMEOUT_SECONDS:
        raise UsageError(f"the scan timeout must be a positive number of seconds up to {MAX_TIMEOUT_SECONDS:g} "
                         f"(one day), got {options.timeout}")
    try:
        json.dumps(options.metadata)
    except (TypeError, ValueError) as exc:
        raise UsageError(f"scan metadata must be JSON values: {exc}") from exc
    _check_metadata(options.metadata)


def _check_metadata(metadata: dict[str, Any]) -> None:
    """``--version`` and ``--owner`` must be what the manifest schema accepts, or every manifest would be invalid."""
    import re

    from enterprise_ai.validate.schema import manifest_schema

    pattern = manifest_schema().get("$defs", {}).get("metadata", {}).get("properties", {}).get("version", {}).get("pattern")
    version = metadata.get("version")
    if version is not None and pattern and not re.fullmatch(pattern, str(version)):
        raise UsageError(f"--version: {version!r} is not a semantic version (https://semver.org), e.g. 0.1.0")
    owner = metadata.get("owner")
    if owner is not None and not str(owner).strip():
        raise UsageError("--owner: the owner cannot be empty (a team or person, e.g. team@example.com)")


def resolve_targets(paths: list[str]) -> list[dict[str, Any]]:
    """Worker targets for the ``PATH`` arguments, each file once (see the :mod:`._worker` protocol).

    Raises:
        UsageError: no path, a missing path, or a file that is not ``.py``.
    """
    if not paths:
        raise UsageError("no path to scan: give .py files, directories or module names")
    targets: list[dict[str, Any]] = []
    seen: set[str] = set()
    for arg in paths:
        if arg == "-":
            raise UsageError("-: scan imports .py files, directories or module names; it cannot read standard input")
        if os.path.isdir(arg):
            files = _paths.python_files(arg)
        elif os.path.isfile(arg):
            if not arg.endswith(".py"):
                raise UsageError(f"{arg}: not a Python file (.py)")
            files = [os.path.abspath(arg)]
        elif _paths.looks_like_module_name(arg):
            if arg not in seen:
                seen.add(arg)
                targets.append({"kind": "module", "name": arg})
            continue
        else:
            raise UsageError(f"{arg}: no such file, directory or module")
        for file in files:
            real = os.path.realpath(file)
            if real in seen:
                continue
            seen.add(real)
            module, root = _paths.module_for_file(file)
            targets.append({"kind": "file", "path": file, "module": module, "root": root})
    return targets


def _display_path(path: str) -> str:
    """``path`` relative to the current directory when it lies under it, else as given."""
    if not os.path.isabs(path):
        return path
    cwd = os.getcwd()
    return os.path.relpath(path, cwd) if path.startswith(cwd + os.sep) else path


def _target_file(target: dict[str, Any]) -> str:
    return _display_path(target["path"]) if target["kind"] == "file" else target["name"]


def _run(targets: list[dict[str, Any]], options: ScanOptions) -> tuple[list[ScannedTool], list[ScanProblem]]:
    """Run workers until every target is scanned; a worker killed by a module restarts after it."""
    tools: list[ScannedTool] = []
    problems: list[ScanProblem] = []
    missing: list[str] = []
    deadline = time.monotonic() + options.timeout
    pending = list(range(len(targets)))
    started_at = time.monotonic()
    while pending:
        batch = [targets[i] for i in pending]
        events, code, timed_out, stderr = _run_worker(batch, options, deadline - time.monotonic())
        done: set[int] = set()
        current: int | None = None
        ended = False
        for event in events:
            kind = event.get("event")
            if kind == "start":
                current = event["index"]
            elif kind == "missing":
                done.add(event["index"])
                missing.append(batch[event["index"]]["name"])
            elif kind == "done":
                done.add(event["index"])
                tools += [_tool(record) for record in event["tools"]]
                problems += [_problem(record) for record in event["problems"]]
            elif kind == "end":
                ended = True
        if ended:
            break
        if current is None and not timed_out:
            detail = stderr.strip().splitlines()[-1] if stderr.strip() else f"exit code {code}"
            raise EaiError(f"the scan worker process failed before importing any module: {detail}")
        current = current or 0
        culprit = _target_file(batch[current])
        if timed_out:
            if current not in done:
                problems.append(ScanProblem(culprit, f"import did not finish within the {options.timeout:g} s timeout"))
            for later in batch[current + 1 :]:
                problems.append(ScanProblem(_target_file(later), f"not scanned: the scan timed out after {culprit}"))
            break
        if current not in done:
            problems.append(ScanProblem(culprit, f"the import ended the scan process (exit code {code})"))
        pending = pending[current + 1 :]
    log.debug("import scan: %d targets in %.2f s", len(targets), time.monotonic() - started_at)
    if missing:
        raise UsageError(f"no such file, directory or module: {', '.join(missing)}")
    return tools, problems


def _worker_env() -> dict[str, str]:
    """The environment of the worker: ours without ``EAI_*`` variables (no credentials for user code)."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("EAI_")}
    env["PYTHONIOENCODING"] = "utf-8"
    return env


def _run_worker(
    batch: list[dict[str, Any]], options: ScanOptions, timeout: float
) -> tuple[list[dict[str, Any]], int | None, bool, str]:
    """Run one worker on ``batch``: (events read, exit code, timed out?, worker stderr)."""
    request = {"targets": batch, "endpoint_base_url": options.endpoint_base_url, "metadata": options.metadata}
    payload = json.dumps(request).encode("utf-8")
    if timeout <= 0:
        return [{"event": "start", "index": 0}], None, True, ""
    posix = os.name == "posix"
    try:
        proc = subprocess.Popen(  # noqa: S603 - our own interpreter and module
            WORKER,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=_worker_env(),
            start_new_session=posix,
        )
    except OSError as exc:
        raise EaiError(f"cannot start the scan worker process: {exc}") from exc
    timed_out = False
    try:
        out, err = proc.communicate(payload, timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        _kill(proc, posix)
        try:
            out, err = proc.communicate(timeout=10)
        except subprocess.TimeoutExpired:  # pragma: no cover - a grandchild holding our pipes
            out, err = b"", b""
    except BaseException:
        _kill(proc, posix)
        proc.wait()
        raise
    events = []
    for line in out.decode("utf-8", errors="replace").splitlines():
        try:
            events.append(json.loads(line))
        except ValueError:  # a partial last line from a killed worker
            break
    return events, proc.returncode, timed_out, err.decode("utf-8", errors="replace")


def _kill(proc: subprocess.Popen[bytes], posix: bool) -> None:
    """Kill the worker and everything it started (its own process group on POSIX)."""
    try:
        if posix:
            os.killpg(proc.pid, signal.SIGKILL)
        else:  # pragma: no cover
            proc.kill()
    except (ProcessLookupError, PermissionError):
        pass


def _tool(record: dict[str, Any]) -> ScannedTool:
    return ScannedTool(
        name=record["name"],
        manifest=record["manifest"],
        file=_display_path(record["file"]),
        line=record["line"],
        source=record.get("source", "eai"),
        registrable=record.get("registrable", True),
    )


def _problem(record: dict[str, Any]) -> ScanProblem:
    if record.get("traceback"):
        log.debug("%s", record["traceback"].rstrip())
    return ScanProblem(
        file=_display_path(record["file"]),
        message=record["message"],
        line=record.get("line"),
        tool=record.get("tool"),
        parameter=record.get("parameter"),
    )


def _dedupe(tools: list[ScannedTool], problems: list[ScanProblem]) -> list[ScannedTool]:
    """Drop repeats of one tool (same name, place and manifest); report two tools sharing a name."""
    kept: list[ScannedTool] = []
    by_name: dict[str, ScannedTool] = {}
    for tool in tools:
        first = by_name.get(tool.name)
        if first is None:
            by_name[tool.name] = tool
            kept.append(tool)
            continue
        if (first.file, first.line, first.manifest) == (tool.file, tool.line, tool.manifest):
            continue
        problems.append(
            ScanProblem(
                tool.file,
                f"duplicate tool name '{tool.name}': defined at {first.file}:{first.line} and at {tool.file}:{tool.line}",
                line=tool.line,
                tool=tool.name,
            )
        )
        kept.append(tool)
    for tool in kept:
        if tool.source == "agents-client" and not tool.registrable:
            problems.append(
                ScanProblem(
                    tool.file,
                    f"client tool '{tool.name}' has no endpoint: it is listed, but register skips it "
                    "(give an endpoint base URL to register it)",
                    severity="note",
                    line=tool.line,
                    tool=tool.name,
                )
            )
    return kept
