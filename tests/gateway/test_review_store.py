"""Review: migration 2 hashes the Idempotency-Keys a version-1 file stored in clear, and replays still work."""

from __future__ import annotations

import sqlite3

from enterprise_ai.gateway.migrations import MIGRATIONS
from enterprise_ai.gateway.store import DB_NAME, Store


def test_migration_2_hashes_stored_idempotency_keys(tmp_path):
    raw_key = "retry-of-jane.doe@example.org"
    db = sqlite3.connect(tmp_path / DB_NAME)
    db.executescript(MIGRATIONS[0])
    db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    db.execute("INSERT INTO schema_version (version) VALUES (1)")
    db.execute("INSERT INTO idempotency VALUES ('agent', 'echo', ?, 'b', 200, '{\"id\":\"inv_1\"}', '{}', 'now')",
               (raw_key,))
    db.commit()
    db.close()

    store = Store(tmp_path)
    try:
        assert store.schema_version() == len(MIGRATIONS) >= 2
        keys = [row[0] for row in store.db.execute("SELECT key FROM idempotency")]
        assert len(keys) == 1 and keys[0].startswith("sha256:") and raw_key not in keys[0]
        assert store.get_idempotent("agent", "echo", raw_key)["response"] == {"id": "inv_1"}
    finally:
        store.close()
    assert raw_key.encode() not in (tmp_path / DB_NAME).read_bytes()
