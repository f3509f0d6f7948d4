"""The state of one running gateway, built once at start-up and shared by every route.

:class:`Gateway` holds the open :class:`~enterprise_ai.gateway.store.Store`, the authorization
graph, the tool registry (an in-memory cache of the ``tools`` table with compiled JSON Schema
validators), and the building blocks configured from ``gateway.yaml`` (DLP scanner, rate limiter,
egress policy). Nothing here re-reads the config per request.

FastAPI dependencies: :func:`gateway` (the state) and :func:`principal` (the authenticated caller,
``401 unauthenticated`` otherwise).
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from enterprise_ai.errors import UsageError
from enterprise_ai.gateway.auth import Authz, Principal
from enterprise_ai.gateway.config import GatewayConfig
from enterprise_ai.gateway.errors import ApiError
from enterprise_ai.gateway.registry import Registry
from enterprise_ai.gateway.store import Store


class Gateway:
    """Everything a request needs; one instance per process (see the module docstring).

    Raises:
        UsageError: a config section the building blocks refuse (egress pattern, DLP rule, limit).
    """

    def __init__(self, config: GatewayConfig, store: Store) -> None:
        self.config = config
        self.store = store
        self.tenant = store.get_meta("tenant") or config.tenant
        self.egress, self.dlp, self.limiter = build_blocks(config)
        self.authz = Authz(config, store)
        self.registry = Registry(store, self.egress, config.mcp_servers)
        self.tasks: set[asyncio.Task[Any]] = set()
        self.inflight: dict[tuple[str, str, str], asyncio.Future[None]] = {}  # idempotency keys being executed

    def redact_text(self, text: str | None) -> str | None:
        """``text`` as it may be stored: DLP-redacted (None stays None). Used for the caller's free-text fields
        (run id, agent name, approval comments), which API.md does not exempt from "only ever stored redacted"."""
        return None if text is None else self.dlp.scan(text).value

    def spawn(self, coro: Any) -> asyncio.Task[Any]:
        """Run ``coro`` in the background, tracked so that shutdown can wait for it."""
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    async def drain(self, timeout: float) -> None:
        """Wait up to ``timeout`` seconds for background executions to finish and write their records."""
        if self.tasks:
            await asyncio.wait(set(self.tasks), timeout=timeout)


def build_blocks(config: GatewayConfig) -> tuple[Any, Any, Any]:
    """``(EgressPolicy, DlpScanner, RateLimiter)`` from the config; UsageError for a section they refuse."""
    from enterprise_ai.gateway.dlp import DlpScanner
    from enterprise_ai.gateway.egress import EgressPolicy
    from enterprise_ai.gateway.limits import RateLimiter

    try:
        egress = EgressPolicy(config.egress.allow)
    except ValueError as exc:
        raise UsageError(str(exc)) from exc
    return egress, DlpScanner.from_config(config.dlp), RateLimiter.from_config(config.limits)


_bearer = HTTPBearer(auto_error=False, description="A principal's token: Authorization: Bearer <token>.")


async def gateway(request: Request) -> Gateway:
    """The :class:`Gateway` of the application serving ``request``."""
    return request.app.state.gateway


async def principal(
    request: Request,
    credentials: HTTPAuthorizationCredentials | None = Depends(_bearer),  # noqa: B008 - FastAPI idiom
) -> Principal:
    """The authenticated principal; ``401 unauthenticated`` without a known bearer token."""
    if credentials is None or credentials.scheme.lower() != "bearer" or not credentials.credentials:
        raise ApiError(401, "unauthenticated", "missing bearer token (Authorization: Bearer <token>)",
                       headers={"WWW-Authenticate": "Bearer"})
    found = request.app.state.gateway.authz.authenticate(credentials.credentials)
    if found is None:
        raise ApiError(401, "unauthenticated", "unknown or revoked token", headers={"WWW-Authenticate": "Bearer"})
    return found
