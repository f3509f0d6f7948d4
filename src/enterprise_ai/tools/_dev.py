"""``eai dev PATH...``: a local gateway and a tool host for your modules, wired together, in one command.

What :func:`run_dev` does, in order:

1. checks that the token can be stored (a usable OS keyring, or ``insecure_storage``) before starting anything;
2. writes ``<data dir>/gateway.yaml`` with two principals and fresh random tokens (only their SHA-256
   is in the file): ``dev`` (``tenant_admin`` + ``developer``, owner of every tool, may invoke them)
   and ``approver`` (``security_officer``), so that promotions pass the four-eyes rule;
3. starts ``eai tools serve PATH...`` and ``eai gateway serve`` as child processes, forwarding their
   output with a ``[tools]`` / ``[gateway]`` prefix, and waits for both to listen;
4. scans PATH (import scan, endpoints pointed at the tool host), applies every registrable tool as
   ``dev``, and promotes each one to ``approved`` (requested by ``dev``, approved by ``approver``);
5. saves the profile (``dev`` by default) with the gateway URL and the ``dev`` token;
6. waits until Ctrl-C (or a child exits), then stops both children (SIGTERM, SIGKILL after
   :data:`STOP_TIMEOUT_SECONDS`).
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from enterprise_ai.errors import EaiError, ErrorKind

#: seconds a child gets to start listening
START_TIMEOUT_SECONDS = 60.0
#: seconds a child gets to stop after SIGTERM before it is killed
STOP_TIMEOUT_SECONDS = 10.0
DEV_PRINCIPAL = "dev"
APPROVER_PRINCIPAL = "approver"
_EAI = [sys.executable, "-m", "enterprise_ai.cli"]
_URL = re.compile(r"(?:listening|serving \d+ tool\(s\)) on (http://\S+)")


@dataclass
class Child:
    """One child process and the URL it announced."""

    label: str
    proc: subprocess.Popen[str]
    ready: threading.Event = field(default_factory=threading.Event)
    url: str = ""
    lines: list[str] = field(default_factory=list)

    def pump(self, write: Callable[[str], None]) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            line = line.rstrip("\n")
            self.lines.append(line)
            del self.lines[:-50]
            write(f"[{self.label}] {line}")
            found = _URL.search(line)
            if found and not self.ready.is_set():
                self.url = found.group(1).rstrip(" .)")
                self.ready.set()
        self.ready.set()


def _start(label: str, args: Sequence[str], write: Callable[[str], None], cwd: Path | None = None) -> Child:
    env = {k: v for k, v in os.environ.items() if k not in ("EAI_API_KEY", "EAI_BASE_URL", "EAI_PROFILE")}
    env["PYTHONUNBUFFERED"] = "1"
    proc = subprocess.Popen(
        [*_EAI, *args], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True, encoding="utf-8", errors="replace", env=env, cwd=cwd,
    )
    child = Child(label, proc)
    threading.Thread(target=child.pump, args=(write,), name=f"eai-dev-{label}", daemon=True).start()
    if not child.ready.wait(START_TIMEOUT_SECONDS) or not child.url:
        stop([child])
        tail = "; ".join(line.removeprefix("eai: error: ") for line in child.lines[-3:])
        raise EaiError(f"the {label} process did not start: {tail or 'no output'}", kind=ErrorKind.FAILURE)
    return child


def stop(children: Sequence[Child]) -> None:
    """SIGTERM each running child, wait up to :data:`STOP_TIMEOUT_SECONDS`, then SIGKILL."""
    for child in children:
        if child.proc.poll() is None:
            child.proc.send_signal(signal.SIGTERM)
    for child in children:
        try:
            child.proc.wait(STOP_TIMEOUT_SECONDS)
        except subprocess.TimeoutExpired:
            child.proc.kill()
            child.proc.wait(5)


def write_gateway_config(data_dir: Path) -> dict[str, str]:
    """Write ``gateway.yaml`` (JSON, which YAML reads) with fresh tokens; return ``{principal: token}``."""
    from enterprise_ai.auth._config import write_json_atomic

    tokens = {p: f"eai_dev_{secrets.token_urlsafe(24)}" for p in (DEV_PRINCIPAL, APPROVER_PRINCIPAL)}
    config = {
        "tenant": "dev",
        "principals": [
            {"id": DEV_PRINCIPAL, "token_sha256": hashlib.sha256(tokens[DEV_PRINCIPAL].encode()).hexdigest(),
             "roles": ["tenant_admin", "developer"], "scopes": ["*"], "classification": "restricted"},
            {"id": APPROVER_PRINCIPAL,
             "token_sha256": hashlib.sha256(tokens[APPROVER_PRINCIPAL].encode()).hexdigest(),
             "roles": ["security_officer"], "scopes": ["*"], "classification": "restricted"},
        ],
        "grants": [
            {"principal": DEV_PRINCIPAL, "relation": "owner", "tool": "*"},
            {"principal": DEV_PRINCIPAL, "relation": "can_invoke", "tool": "*"},
            {"principal": APPROVER_PRINCIPAL, "relation": "editor", "tool": "*"},
        ],
    }
    write_json_atomic(data_dir / "gateway.yaml", config)
    return tokens


def register_and_approve(base_url: str, tokens: dict[str, str], paths: Sequence[str], tools_url: str,
                         note: Callable[[str], None]) -> list[dict[str, Any]]:
    """Scan ``paths``, apply each registrable tool as ``dev`` and promote it to ``approved``.

    Returns one row per tool: ``{"tool", "result", "status"}``.
    """
    from enterprise_ai.scan import ScanOptions, scan
    from enterprise_ai.tools._client import ToolsClient

    found = scan(list(paths), ScanOptions(endpoint_base_url=tools_url))
    for problem in found.problems:
        note(f"{problem.location()}: {problem.severity}: {problem.message}")
    rows = []
    with ToolsClient(base_url, tokens[DEV_PRINCIPAL]) as dev, ToolsClient(base_url, tokens[APPROVER_PRINCIPAL]) as ok:
        for tool in found.tools:
            if not tool.registrable:
                note(f"skipped {tool.name!r}: a client tool has no endpoint")
                continue
            applied = dev.create(tool.manifest)
            status = applied.get("status")
            if status != "approved":
                promotion = dev.update(tool.name, status="approved")
                if isinstance(promotion, dict) and promotion.get("approval_id"):
                    ok.approvals.approve(promotion["approval_id"], comment="eai dev")
                status = dev.get(tool.name).get("status")
            schema = (tool.manifest.get("spec") or {}).get("input_schema") or {}
            example = " ".join(f"{key}=..." for key in schema.get("required") or [])
            rows.append({"tool": tool.name, "result": applied.get("apply_status"), "status": status,
                         "example": example})
    return rows


def run_dev(
    paths: Sequence[str],
    *,
    port: int = 8700,
    tools_port: int = 8000,
    data_dir: Path = Path(".eai-dev"),
    profile: str = "dev",
    insecure_storage: bool = False,
    note: Callable[[str], None] = print,
    warn: Callable[[str], None] = print,
    ready: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Run the development loop described in the module docstring; return when it was stopped.

    Args:
        paths: Python files, directories or module names holding ``@tool`` functions.
        port: the gateway's port (0 = a free one); tools_port: the tool host's port (0 = a free one).
        data_dir: the gateway's data directory (SQLite file and ``gateway.yaml``), kept between runs.
        profile: the profile written for the ``dev`` principal.
        insecure_storage: keep the token in ``credentials.json`` (mode 0600) when there is no usable keyring.
        note, warn: where progress lines and warnings go (stderr in the CLI).
        ready: called once with the summary when everything is registered, before waiting.

    Returns:
        the summary: ``{"gateway", "tool_host", "profile", "tools": [...]}``.

    Raises:
        UsageError (exit 2): a missing path, or no Python file in ``paths``; nothing was started.
        KeyringUnavailable (exit 3): no usable keyring and no ``insecure_storage``; nothing was started.
        EaiError: a child did not start or exited early; the other one is stopped.
    """
    from enterprise_ai.auth import _config, _keyring
    from enterprise_ai.errors import UsageError
    from enterprise_ai.scan._import import resolve_targets

    if not resolve_targets(list(paths)):  # a missing path is a usage error before anything starts
        raise UsageError(f"no Python file in {' '.join(map(str, paths))}",
                         hint="give .py files, directories or module names")
    from enterprise_ai.gateway import require_extra

    require_extra()  # before anything starts: both children need FastAPI and uvicorn
    if not insecure_storage:
        _keyring.check_usable()
    data_dir = Path(data_dir).resolve()
    data_dir.mkdir(parents=True, exist_ok=True)
    tokens = write_gateway_config(data_dir)
    children: list[Child] = []
    restore_sigterm = _sigterm_stops_like_ctrl_c()
    try:
        children.append(_start("tools", ["tools", "serve", *paths, "--port", str(tools_port)], note))
        children.append(_start("gateway", ["gateway", "serve", "--port", str(port), "--data-dir", str(data_dir),
                                           "--config", str(data_dir / "gateway.yaml")], note))
        tools_host, gateway = children
        rows = register_and_approve(gateway.url, tokens, paths, tools_host.url, note)
        if insecure_storage:
            warn(f"storing the token in plain text in {_config.config_dir() / _config.CREDENTIALS_FILE} (mode 0600)")
            _config.write_file_token(profile, tokens[DEV_PRINCIPAL])
            storage = "file"
        else:
            _keyring.set_token(profile, tokens[DEV_PRINCIPAL])
            storage = "keyring"
        _config.save_profile(profile, gateway.url, storage, make_default=False)
        summary = {"gateway": gateway.url, "tool_host": tools_host.url, "profile": profile, "tools": rows}
        try:  # Ctrl-C is the normal way to stop, also while the ready lines are printed
            if ready is not None:
                ready(summary)
            while all(c.proc.poll() is None for c in children):
                time.sleep(0.5)
        except KeyboardInterrupt:
            return summary
        dead = next(c for c in children if c.proc.poll() is not None)
        raise EaiError(f"the {dead.label} process exited with code {dead.proc.returncode}", kind=ErrorKind.FAILURE)
    finally:
        stop(children)
        restore_sigterm()


def _sigterm_stops_like_ctrl_c() -> Callable[[], None]:
    """Make SIGTERM raise KeyboardInterrupt, so that ``kill`` stops both children like Ctrl-C does.

    Returns a function that puts the previous handler back. Outside the main thread (where
    signal handlers cannot be set) it changes nothing.
    """
    if threading.current_thread() is not threading.main_thread():
        return lambda: None

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    return lambda: signal.signal(signal.SIGTERM, previous)


def next_steps(summary: dict[str, Any]) -> list[str]:
    """The lines ``eai dev`` prints once ready: what runs where, and commands to try."""
    profile = summary["profile"]
    tools = [row["tool"] for row in summary["tools"]]
    example = f"{tools[0]} {summary['tools'][0]['example']}".strip() if tools else "NAME key=value"
    lines = [
        f"eai dev: gateway {summary['gateway']}, tool host {summary['tool_host']}, profile {profile!r}",
        f"eai dev: {len(tools)} tool(s) registered and approved: {', '.join(tools) or '(none)'}",
        "Try, in another terminal:",
        f"  export EAI_PROFILE={profile}",
        "  eai tools list",
        f"  eai tools get {tools[0] if tools else 'NAME'}",
        f"  eai tools invoke {example}",
        "  eai tools invocations --follow",
        "Press Ctrl-C to stop the gateway and the tool host.",
    ]
    return lines


__all__ = ["next_steps", "run_dev", "write_gateway_config"]
