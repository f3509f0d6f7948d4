"""The local Tool Gateway: the HTTP contract of ``/work/shared/API.md`` on one machine.

Installed with the extra ``[gateway]`` (FastAPI and uvicorn). Modules:

* :mod:`.config` - ``gateway.yaml``: principals, grants, egress, DLP, limits, prices, MCP servers;
* :mod:`.store` - the SQLite file (WAL, schema version, migrations);
* :mod:`.app` - :func:`~enterprise_ai.gateway.app.create_app`, the FastAPI application;
* :mod:`.invoke` - the invoke chain, in its one documented order;
* :mod:`.server` - bootstrap (first-start admin) and the uvicorn runner behind ``eai gateway serve``;
* :mod:`.dlp`, :mod:`.limits`, :mod:`.executors`, :mod:`.egress`, :mod:`.toolhost` - building blocks.

Nothing is imported here, so that ``import enterprise_ai.gateway`` stays cheap.
"""
