"""Start the real local gateway (``eai gateway serve``) as a child process, for tests.

Usage::

    from tests.support.gateway import running_gateway, manifest

    with running_gateway(tmp_path) as gw:          # or the session fixture ``gateway`` (tests/conftest.py)
        name = gw.unique("echo")                   # unique tool names: the session gateway is shared
        httpx.post(f"{gw.base_url}/v1/tools", json=manifest(name), headers=gw.headers("dev"))

The gateway listens on a free 127.0.0.1 port (``--port 0``; the address is read from its
"listening on" line), keeps its SQLite file in ``<tmp>/data`` and reads ``<tmp>/gateway.yaml``,
written from :data:`PRINCIPALS` and :func:`gateway_config`. Each principal gets a fresh random token
(``gw.tokens[id]``). :meth:`GatewayProcess.stop` sends SIGTERM (graceful shutdown), then kills
after a timeout; :meth:`GatewayProcess.restart` starts again on the same data and config.

Principals (id: roles; scopes; highest classification; config grants):

=========  ==================  ===========================  ============  ===========================
id         roles               scopes                       class.        grants
=========  ==================  ===========================  ============  ===========================
admin      tenant_admin        *                            restricted    owner on every tool
admin2     tenant_admin        *                            restricted    (none: four eyes, no owner)
secoff     security_officer    *                            restricted    editor on every tool
dev        developer           *                            confidential  (owner of what it applies)
dev2       developer           *                            confidential  (none)
appowner   application_owner   *                            confidential  (none)
agent      agent               orders:read, demo:use        internal      can_invoke on every tool
agent2     agent               orders:read, demo:use        internal      (none)
limited    agent               *                            internal      can_invoke; 2 calls/minute
quota      agent               *                            internal      can_invoke; 1 call/day
=========  ==================  ===========================  ============  ===========================

Also in the config: a DLP ``block`` rule ``secret_code`` (``TOPSECRET-<digits>``) next to the default
redact rules; a policy ``no-agent-deletes`` (agents may not call ``action: delete`` tools); a price of
0.001 EUR per call; egress limited to the loopback interface.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.support.cli import EAI, clean_env

PRINCIPALS: dict[str, dict[str, Any]] = {
    "admin": {"roles": ["tenant_admin"], "scopes": ["*"], "classification": "restricted"},
    "admin2": {"roles": ["tenant_admin"], "scopes": ["*"], "classification": "restricted"},
    "secoff": {"roles": ["security_officer"], "scopes": ["*"], "classification": "restricted"},
    "dev": {"roles": ["developer"], "scopes": ["*"], "classification": "confidential"},
    "dev2": {"roles": ["developer"], "scopes": ["*"], "classification": "confidential"},
    "appowner": {"roles": ["application_owner"], "scopes": ["*"], "classification": "confidential"},
    "agent": {"roles": ["agent"], "scopes": ["orders:read", "demo:use"], "classification": "internal"},
    "agent2": {"roles": ["agent"], "scopes": ["orders:read", "demo:use"], "classification": "internal"},
    "limited": {"roles": ["agent"], "scopes": ["*"], "classification": "internal"},
    "quota": {"roles": ["agent"], "scopes": ["*"], "classification": "internal"},
}
GRANTS = [
    {"principal": "admin", "relation": "owner", "tool": "*"},
    {"principal": "secoff", "relation": "editor", "tool": "*"},
    {"principal": "agent", "relation": "can_invoke", "tool": "*"},
    {"principal": "limited", "relation": "can_invoke", "tool": "*"},
    {"principal": "quota", "relation": "can_invoke", "tool": "*"},
]
READY_LINE = re.compile(r"listening on (http://\S+)")


def gateway_config(tokens: Mapping[str, str], extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The gateway.yaml content (as a dict) for ``tokens`` (principal id -> token); ``extra`` overrides sections."""
    config: dict[str, Any] = {
        "tenant": "test",
        "principals": [
            {"id": pid, "token_sha256": hashlib.sha256(tokens[pid].encode()).hexdigest(), **spec}
            for pid, spec in PRINCIPALS.items()
        ],
        "grants": GRANTS,
        "dlp": {"rules": [{"type": "secret_code", "pattern": r"TOPSECRET-\d+", "action": "block"}]},
        "limits": {"principals": {"limited": {"requests_per_minute": 2}, "quota": {"calls_per_day": 1}}},
        "policies": [{"name": "no-agent-deletes", "roles": ["agent"], "actions": ["delete"],
                      "message": "agents may not call delete tools"}],
        "prices": {"currency": "EUR", "default": {"per_call": 0.001}},
    }
    config.update(extra or {})
    return config


def manifest(name: str, *, endpoint: dict[str, Any] | None = None, **spec: Any) -> dict[str, Any]:
    """A valid Tool Manifest for ``name``: a builtin ``echo`` tool taking ``{"text": string}``, unless overridden.

    ``spec`` keys replace keys of ``spec`` (e.g. ``scopes_required=["demo:use"]``, ``requires_approval=True``).
    """
    body: dict[str, Any] = {
        "description": f"Test tool {name}.",
        "action": "read",
        "input_schema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"],
                         "additionalProperties": False},
        "scopes_required": [],
        "data_classification": "internal",
        "risk_level": "minimal",
        "requires_approval": False,
        "side_effects": False,
        "idempotent": True,
        "endpoint": endpoint or {"type": "builtin", "handler": "echo"},
    }
    body.update(spec)
    return {"apiVersion": "enterprise-ai.io/v1", "kind": "Tool",
            "metadata": {"name": name, "version": "0.1.0", "owner": "team@example.com"}, "spec": body}


@dataclass
class GatewayProcess:
    """A running ``eai gateway serve``: ``base_url``, ``tokens`` (principal id -> token), paths, process."""

    root: Path
    tokens: dict[str, str]
    extra_config: dict[str, Any] | None = None
    base_url: str = ""
    proc: subprocess.Popen[bytes] | None = None
    starts: int = 0
    env: dict[str, str] = field(default_factory=dict)

    @property
    def data_dir(self) -> Path:
        return self.root / "data"

    @property
    def config_path(self) -> Path:
        return self.root / "gateway.yaml"

    @property
    def db_path(self) -> Path:
        return self.data_dir / "gateway.sqlite3"

    @property
    def token(self) -> str:
        """The ``admin`` token."""
        return self.tokens["admin"]

    @property
    def log_path(self) -> Path:
        return self.root / f"gateway-{self.starts}.log"

    def headers(self, who: str = "admin", **extra: str) -> dict[str, str]:
        """``Authorization: Bearer`` headers for principal ``who`` (plus ``extra``)."""
        return {"Authorization": f"Bearer {self.tokens[who]}", **extra}

    def client(self, who: str = "admin", **kwargs: Any) -> Any:
        """An ``httpx.Client`` on ``base_url`` authenticated as ``who`` (close it, or use ``with``)."""
        import httpx

        return httpx.Client(base_url=self.base_url, headers=self.headers(who), timeout=30, **kwargs)

    def request(self, method: str, path: str, who: str | None = "admin", **kwargs: Any) -> Any:
        """One request as principal ``who`` (None: no Authorization header) -> ``httpx.Response``."""
        import httpx

        headers = {**(self.headers(who) if who else {}), **kwargs.pop("headers", {})}
        return httpx.request(method, f"{self.base_url}{path}", headers=headers, timeout=30, **kwargs)

    def apply(self, doc: dict[str, Any], who: str = "dev") -> Any:
        """``POST /v1/tools`` with ``doc`` as ``who`` -> ``httpx.Response``."""
        return self.request("POST", "/v1/tools", who, json=doc)

    def invoke(self, name: str, arguments: dict[str, Any] | None = None, who: str = "agent",
               headers: dict[str, str] | None = None, **body: Any) -> Any:
        """``POST /v1/tools/{name}/invoke`` with ``{"arguments": ..., **body}`` as ``who`` -> ``httpx.Response``."""
        return self.request("POST", f"/v1/tools/{name}/invoke", who, json={"arguments": arguments or {}, **body},
                            headers=headers or {})

    @staticmethod
    def unique(prefix: str = "tool") -> str:
        """A tool name no other test uses: ``<prefix>-<8 hex>``."""
        return f"{prefix}-{secrets.token_hex(4)}"

    def log(self) -> str:
        """What the process wrote to stdout and stderr (this start)."""
        return self.log_path.read_text(encoding="utf-8", errors="replace") if self.log_path.exists() else ""

    def start(self, timeout: float = 30) -> None:
        """Write the config and start the process; return once ``/healthz`` answers 200."""
        import httpx

        self.config_path.write_text(json.dumps(gateway_config(self.tokens, self.extra_config), indent=2), encoding="utf-8")
        self.starts += 1
        log = self.log_path.open("wb")
        cmd = [*EAI, "gateway", "serve", "--host", "127.0.0.1", "--port", "0",
               "--data-dir", str(self.data_dir), "--config", str(self.config_path)]
        self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                     env=clean_env(self.env), cwd=self.root, preexec_fn=_die_with_parent())
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"eai gateway serve exited with {self.proc.returncode}:\n{self.log()}")
            found = READY_LINE.search(self.log())
            if found:
                self.base_url = found.group(1)
                try:
                    if httpx.get(f"{self.base_url}/healthz", timeout=2).status_code == 200:
                        return
                except httpx.HTTPError:
                    pass
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"eai gateway serve was not ready within {timeout}s:\n{self.log()}")

    def stop(self, timeout: float = 20) -> int | None:
        """SIGTERM (graceful shutdown), then SIGKILL after ``timeout`` seconds; returns the exit code."""
        proc, self.proc = self.proc, None
        if proc is None:
            return None
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM if os.name != "nt" else signal.CTRL_BREAK_EVENT)
            try:
                proc.wait(timeout)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)
        return proc.returncode

    def restart(self) -> None:
        """Stop, then start again with the same data directory, config and tokens (a new port)."""
        self.stop()
        self.start()


def _die_with_parent() -> Any:
    """On Linux, a ``preexec_fn`` asking the kernel to SIGTERM the child when the test process dies."""
    if not sys.platform.startswith("linux"):
        return None

    def set_pdeathsig() -> None:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG

    return set_pdeathsig


def new_tokens() -> dict[str, str]:
    """A fresh random token per principal of :data:`PRINCIPALS`."""
    return {pid: f"tok_{pid}_{secrets.token_urlsafe(18)}" for pid in PRINCIPALS}


@contextlib.contextmanager
def running_gateway(root: str | Path, *, extra_config: Mapping[str, Any] | None = None,
                    env: Mapping[str, str] | None = None) -> Iterator[GatewayProcess]:
    """Start a gateway under ``root`` (a fresh directory), yield it, and always stop it."""
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    gw = GatewayProcess(root=root, tokens=new_tokens(), extra_config=dict(extra_config or {}), env=dict(env or {}))
    gw.start()
    try:
        yield gw
    finally:
        gw.stop()


__all__ = ["GRANTS", "PRINCIPALS", "GatewayProcess", "manifest", "new_tokens", "running_gateway", "gateway_config"]

if __name__ == "__main__":  # pragma: no cover - manual use: python -m tests.support.gateway DIR
    with running_gateway(sys.argv[1] if len(sys.argv) > 1 else ".gateway-test") as _gw:
        print(_gw.base_url, json.dumps(_gw.tokens))
        with contextlib.suppress(KeyboardInterrupt):
            _gw.proc.wait()  # type: ignore[union-attr]
