"""The SQL migrations of the gateway's SQLite file, in order: ``MIGRATIONS[i]`` brings version ``i`` to ``i + 1``.

Never edit a released migration: append a new one (``ALTER TABLE ...``, a new index, a data fix).
:class:`enterprise_ai.gateway.store.Store` applies the missing ones in one transaction when it opens a
file, and refuses a file whose version is newer than :data:`SCHEMA_VERSION`.
"""

from __future__ import annotations

MIGRATIONS: list[str] = [
    # 1: the first schema
    """
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE principals (
        id TEXT PRIMARY KEY, token_sha256 TEXT NOT NULL UNIQUE, roles TEXT NOT NULL,
        scopes TEXT NOT NULL, classification TEXT NOT NULL, created_at TEXT NOT NULL);
    CREATE TABLE tools (
        name TEXT PRIMARY KEY, version TEXT NOT NULL, status TEXT NOT NULL, owner TEXT,
        digest TEXT NOT NULL, manifest TEXT NOT NULL, created_by TEXT NOT NULL,
        created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
    CREATE TABLE relations (
        tool TEXT NOT NULL, principal TEXT NOT NULL, relation TEXT NOT NULL, created_at TEXT NOT NULL,
        PRIMARY KEY (tool, principal, relation));
    CREATE TABLE approvals (
        seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, kind TEXT NOT NULL,
        tool TEXT NOT NULL, requested_by TEXT NOT NULL, arguments TEXT, arguments_sha256 TEXT,
        target_status TEXT, status TEXT NOT NULL, decided_by TEXT, comment TEXT,
        created_at TEXT NOT NULL, decided_at TEXT, expires_at REAL NOT NULL, consumed_by TEXT);
    CREATE INDEX approvals_status ON approvals (status, seq);
    CREATE TABLE invocations (
        seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, tool TEXT NOT NULL,
        actor TEXT NOT NULL, run_id TEXT, status TEXT NOT NULL, record TEXT NOT NULL);
    CREATE INDEX invocations_tool ON invocations (tool, seq);
    CREATE INDEX invocations_run ON invocations (run_id, seq);
    CREATE TABLE idempotency (
        principal TEXT NOT NULL, tool TEXT NOT NULL, key TEXT NOT NULL, body_sha256 TEXT NOT NULL,
        status_code INTEGER NOT NULL, response TEXT NOT NULL, headers TEXT NOT NULL,
        created_at TEXT NOT NULL, PRIMARY KEY (principal, tool, key));
    CREATE TABLE audit (
        seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, type TEXT NOT NULL,
        actor TEXT NOT NULL, tool TEXT, approval_id TEXT, details TEXT NOT NULL, created_at TEXT NOT NULL);
    """,
    # 2: idempotency keys are stored as sha256:<hex> of the caller's key (a key is free text and may carry
    # personal data); eai_sha256 is a SQL function the store registers on its connection
    """
    UPDATE idempotency SET key = 'sha256:' || eai_sha256(key);
    """,
]
SCHEMA_VERSION = len(MIGRATIONS)
