"""Fixtures of the client tests: a scripted gateway on ``httpx.MockTransport`` and the CLI run in-process."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from enterprise_ai.cli.main import main
from enterprise_ai.tools import _client, _retry

SENTINEL = "eai-sentinel-7Qz9vK2xPq"


@dataclass
class Recorded:
    method: str
    url: str
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body) if self.body else None


@dataclass
class MockGateway:
    """Answers requests with a list of scripted responses (or callables), recording each request.

    ``script`` maps "METHOD /path" to a list consumed in order; the last entry repeats.
    Entries are ``httpx.Response``, an exception instance (raised), or ``callable(request)``.
    """

    script: dict[str, list[Any]] = field(default_factory=dict)
    requests: list[Recorded] = field(default_factory=list)

    def on(self, route: str, *responses: Any) -> MockGateway:
        self.script[route] = list(responses)
        return self

    def handler(self, request: httpx.Request) -> httpx.Response:
        body = request.read()
        self.requests.append(Recorded(request.method, str(request.url), dict(request.headers), body))
        route = f"{request.method} {request.url.path}"
        entries = self.script.get(route)
        if not entries:
            return httpx.Response(404, json={"error": {"code": "not_scripted", "message": route, "request_id": "r0"}})
        entry = entries.pop(0) if len(entries) > 1 else entries[0]
        if isinstance(entry, BaseException):
            raise entry
        if callable(entry):
            return entry(request)
        return entry

    def calls(self, route: str) -> list[Recorded]:
        method, path = route.split(" ", 1)
        return [r for r in self.requests if r.method == method and httpx.URL(r.url).path == path]

    def client(self) -> httpx.Client:
        return httpx.Client(transport=httpx.MockTransport(self.handler))


def err(status: int, code: str, message: str = "scripted", headers: dict[str, str] | None = None) -> httpx.Response:
    return httpx.Response(
        status, headers={"X-Request-Id": f"req-{code}", **(headers or {})},
        json={"error": {"code": code, "message": message, "request_id": f"req-{code}", "details": {}}},
    )


@pytest.fixture
def sleeps(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """Every delay the client sleeps, recorded instead of slept."""
    recorded: list[float] = []
    monkeypatch.setattr(_retry, "sleep", recorded.append)
    return recorded


@pytest.fixture
def gw(monkeypatch: pytest.MonkeyPatch, tmp_path, sleeps) -> MockGateway:
    """A MockGateway wired into every ToolsClient the CLI creates; env points at it with a token."""
    gateway = MockGateway()
    monkeypatch.setattr(_client, "make_http_client", lambda timeout: gateway.client())
    monkeypatch.setenv("EAI_BASE_URL", "http://gw.test")
    monkeypatch.setenv("EAI_API_KEY", SENTINEL)
    monkeypatch.setenv("EAI_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.delenv("EAI_PROFILE", raising=False)
    monkeypatch.setenv("NO_COLOR", "1")
    return gateway


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Callable[..., tuple[int, str, str]]:
    """Run ``eai ARGS`` in this process: returns (exit code, stdout, stderr)."""

    def run(*args: str) -> tuple[int, str, str]:
        code = main(list(args))
        out = capsys.readouterr()
        return code, out.out, out.err

    return run
