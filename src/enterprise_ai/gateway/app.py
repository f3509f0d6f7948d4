"""The FastAPI application of the local gateway: :func:`create_app`.

Routes (API.md; ``(ext)`` = this project's own): ``/healthz``, ``/openapi.json``, ``/v1/me`` (ext),
``/v1/tools`` (:mod:`.routes_tools`), ``/v1/tools/{name}/invoke`` and ``/v1/tools/invocations``
(:mod:`.routes_invoke`), ``/v1/approvals`` (:mod:`.routes_approvals`), ``/v1/contracts/{name}/validate``
and ``/v1/audit`` (ext) (:mod:`.routes_contracts`).

Every response carries ``X-Request-Id``; every error has the shape of :mod:`.errors`. The OpenAPI
document declares, per operation, the success model and each error status the route can answer,
plus the ``X-Request-Id``, ``Retry-After`` and ``Deprecation`` response headers.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import Depends, FastAPI

from enterprise_ai import __version__
from enterprise_ai.gateway import errors
from enterprise_ai.gateway.auth import Principal
from enterprise_ai.gateway.config import GatewayConfig
from enterprise_ai.gateway.context import Gateway, gateway, principal
from enterprise_ai.gateway.errors import json_response
from enterprise_ai.gateway.executors import close_shared_clients
from enterprise_ai.gateway.models import Health, Me
from enterprise_ai.gateway.responses import errors_for
from enterprise_ai.gateway.store import Store

log = logging.getLogger("enterprise_ai.gateway")
SHUTDOWN_DRAIN_SECONDS = 30.0

_HEADERS = {
    "X-Request-Id": {"description": "Id of this request (also in error bodies).", "schema": {"type": "string"}},
}


def _document_headers(schema: dict[str, Any]) -> dict[str, Any]:
    for path_item in schema.get("paths", {}).values():
        for operation in path_item.values():
            for status, response in operation.get("responses", {}).items():
                headers = response.setdefault("headers", {})
                headers.update(_HEADERS)
                if status == "429":
                    headers["Retry-After"] = {"description": "Seconds to wait before retrying.", "required": True,
                                              "schema": {"type": "string"}}
                if operation.get("operationId") == "invoke_tool" and status in ("200", "202"):
                    headers["Deprecation"] = {"description": "Present when the tool's status is deprecated.",
                                              "schema": {"type": "string"}}
    return schema


def create_app(config: GatewayConfig, data_dir: str | Path) -> FastAPI:
    """The gateway application over the store in ``data_dir`` (opened now, closed at shutdown).

    Args:
        config: the parsed ``gateway.yaml`` (:func:`enterprise_ai.gateway.config.load_config`).
        data_dir: directory of ``gateway.sqlite3`` (created when missing).

    Raises:
        UsageError: the data directory or a config section is unusable.
    """
    from enterprise_ai.gateway import routes_approvals, routes_contracts, routes_invoke, routes_tools

    store = Store(data_dir)
    state = Gateway(config, store)
    for entry in state.registry.tools.values():  # compile the JSON Schema validators before serving
        entry.input_validator()
        entry.output_validator()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        failed = store.fail_running("the gateway stopped before the execution finished")
        if failed:
            log.warning("marked %d interrupted execution(s) as failed", failed)
        try:
            yield
        finally:
            await state.drain(SHUTDOWN_DRAIN_SECONDS)
            store.fail_running("the gateway stopped before the execution finished")
            store.close()
            await close_shared_clients()

    app = FastAPI(title="eai local Tool Gateway", version=__version__, lifespan=lifespan,
                  description="The gateway contract of eai (API.md), served on one machine.",
                  docs_url=None, redoc_url=None)
    app.state.gateway = state
    errors.install(app)

    @app.get("/healthz", response_model=Health, operation_id="healthz", tags=["meta"])
    async def healthz() -> Any:
        """Liveness: always 200 while the process serves requests (no authentication)."""
        return json_response({"status": "ok", "version": __version__, "schema_version": store.schema_version()})

    @app.get("/v1/me", response_model=Me, operation_id="whoami", tags=["meta"], responses=errors_for(401))
    async def whoami(caller: Principal = Depends(principal), gw: Gateway = Depends(gateway)) -> Any:  # noqa: B008
        """(ext) The principal of the bearer token: id, tenant, roles, scopes, highest classification."""
        return json_response({**caller.public(), "tenant": gw.tenant})

    app.include_router(routes_invoke.router)  # first: /v1/tools/invocations before /v1/tools/{name}
    app.include_router(routes_tools.router)
    app.include_router(routes_approvals.router)
    app.include_router(routes_contracts.router)

    default_openapi = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = _document_headers(default_openapi())
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    return app
