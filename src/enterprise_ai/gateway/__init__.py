"""The local Tool Gateway: the HTTP contract of ``/work/shared/API.md`` on one machine.

Installed with the extra ``[gateway]`` (FastAPI and uvicorn). Modules:

* :mod:`.config` - ``gateway.yaml``: principals, grants, egress, DLP, limits, prices, MCP servers;
* :mod:`.store` - the SQLite file (WAL, schema version, migrations);
* :mod:`.app` - :func:`~enterprise_ai.gateway.app.create_app`, the FastAPI application;
* :mod:`.invoke` - the invoke chain, in its one documented order;
* :mod:`.server` - bootstrap (first-start admin) and the uvicorn runner behind ``eai gateway serve``;
* :mod:`.dlp`, :mod:`.limits`, :mod:`.executors`, :mod:`.egress`, :mod:`.toolhost` - building blocks.

Nothing heavy is imported here, so that ``import enterprise_ai.gateway`` stays cheap.
"""

from __future__ import annotations

import importlib.util

#: The modules of the ``[gateway]`` extra (pyproject.toml).
EXTRA_MODULES = ("fastapi", "uvicorn")


def _installed(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def require_extra() -> None:
    """Check that the ``[gateway]`` extra is installed, before anything starts.

    Raises:
        UsageError (exit 2): FastAPI or uvicorn is missing; the hint gives the install command.
    """
    missing = [name for name in EXTRA_MODULES if not _installed(name)]
    if missing:
        from enterprise_ai.errors import UsageError

        raise UsageError(
            f"the local gateway and the tool host need the 'gateway' extra ({', '.join(missing)} not installed)",
            hint="pip install 'eai[gateway]' (from a clone: pip install '.[gateway]')",
        )
