"""The SQLite store: WAL, schema version and migrations (in-process: no server needed)."""

from __future__ import annotations

import sqlite3

import pytest

from enterprise_ai.errors import UsageError
from enterprise_ai.gateway.store import SCHEMA_VERSION, Store, decode_cursor, encode_cursor


def test_new_store_has_wal_and_the_current_schema_version(tmp_path):
    store = Store(tmp_path / "data")
    assert store.schema_version() == SCHEMA_VERSION
    assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.db.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
    store.close()
    again = Store(tmp_path / "data")  # reopening applies nothing twice
    assert [r[0] for r in again.db.execute("SELECT version FROM schema_version")] == list(range(1, SCHEMA_VERSION + 1))
    again.close()


def test_a_newer_schema_is_refused(tmp_path):
    Store(tmp_path).close()
    db = sqlite3.connect(tmp_path / "gateway.sqlite3")
    db.execute("INSERT INTO schema_version (version) VALUES (?)", (SCHEMA_VERSION + 1,))
    db.commit()
    db.close()
    with pytest.raises(UsageError, match="newer than this eai"):
        Store(tmp_path)


def test_cursors_are_opaque_and_checked():
    assert decode_cursor(encode_cursor(42), int) == 42
    assert decode_cursor(encode_cursor("search-orders"), str) == "search-orders"
    assert decode_cursor(None, int) is None
    for bad in ("!!", encode_cursor("x"), encode_cursor(True)):
        with pytest.raises(ValueError):
            decode_cursor(bad, int)
