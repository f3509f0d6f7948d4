"""The gateway's storage: one SQLite file (``gateway.sqlite3``) in the data directory.

* WAL journal with ``synchronous=NORMAL`` (a commit is durable against a crash of the process; the
  last commits may be lost on a power cut, which a development gateway accepts), ``busy_timeout`` 5 s.
* One connection, opened once and kept for the life of the process; statements are cached by
  :mod:`sqlite3` (``cached_statements``), so each SQL text is prepared once.
* A ``schema_version`` table and the ordered migrations of :mod:`.migrations`: opening a file applies the missing
  ones in one transaction; a file written by a newer version is refused.

Rows are plain dicts; JSON columns hold already-redacted data only (arguments and results are
redacted by the invoke chain before they get here). Times are ISO 8601 UTC strings.
"""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from enterprise_ai.errors import UsageError
from enterprise_ai.gateway.migrations import MIGRATIONS, SCHEMA_VERSION

DB_NAME = "gateway.sqlite3"



def now_iso() -> str:
    """The current UTC time as ISO 8601 with milliseconds and a ``Z``."""
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def new_id(prefix: str) -> str:
    """A random id such as ``inv_3f2a...`` (80 random bits, hex)."""
    return f"{prefix}_{secrets.token_hex(10)}"


def encode_cursor(value: Any) -> str:
    """An opaque cursor for a list position (URL-safe base64 of JSON)."""
    return base64.urlsafe_b64encode(json.dumps(value).encode()).decode().rstrip("=")


def decode_cursor(cursor: str | None, kind: type) -> Any:
    """The position inside ``cursor``; ``None`` for no cursor. Raises ``ValueError`` if malformed
    (not base64 JSON of ``kind``, or an integer outside the 64-bit row ids of SQLite)."""
    if cursor is None or cursor == "":
        return None
    try:
        value = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
    except Exception as exc:  # noqa: BLE001 - any decoding problem is a bad cursor
        raise ValueError("malformed cursor") from exc
    if not isinstance(value, kind) or isinstance(value, bool):
        raise ValueError("malformed cursor")
    if isinstance(value, int) and not 0 <= value < 2**63:  # a row seq: SQLite INTEGER is 64-bit signed
        raise ValueError("malformed cursor")
    return value


def _sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _key_digest(key: str) -> str:
    """How an Idempotency-Key is stored: ``sha256:<hex>`` (migration 2 converted older rows)."""
    return "sha256:" + _sha256_hex(key)


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class Store:
    """The open SQLite database of a data directory.

    Args:
        data_dir: directory holding ``gateway.sqlite3`` (created, mode 0700, when missing).

    Raises:
        UsageError: the directory cannot be created, or the file has a newer schema version.
    """

    def __init__(self, data_dir: str | Path) -> None:
        self.data_dir = Path(data_dir)
        try:
            self.data_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        except OSError as exc:
            raise UsageError(f"{self.data_dir}: cannot create the data directory: {exc.strerror or exc}") from exc
        self.path = self.data_dir / DB_NAME
        self._lock = threading.RLock()
        self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, cached_statements=256)
        self.db.row_factory = sqlite3.Row
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute("PRAGMA busy_timeout=5000")
        self.db.create_function("eai_sha256", 1, _sha256_hex, deterministic=True)  # used by migration 2
        self._migrate()

    # -- schema ---------------------------------------------------------------------------------
    def _migrate(self) -> None:
        with self._lock:
            self.db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            row = self.db.execute("SELECT MAX(version) FROM schema_version").fetchone()
            current = row[0] or 0
            if current > SCHEMA_VERSION:
                raise UsageError(
                    f"{self.path}: schema version {current} is newer than this eai ({SCHEMA_VERSION}); upgrade eai"
                )
            for version in range(current + 1, SCHEMA_VERSION + 1):
                self.db.execute("BEGIN IMMEDIATE")
                try:
                    for statement in MIGRATIONS[version - 1].split(";"):
                        if statement.strip():
                            self.db.execute(statement)
                    self.db.execute("INSERT INTO schema_version (version) VALUES (?)", (version,))
                    self.db.execute("COMMIT")
                except BaseException:
                    self.db.execute("ROLLBACK")
                    raise

    def schema_version(self) -> int:
        return int(self.db.execute("SELECT MAX(version) FROM schema_version").fetchone()[0] or 0)

    def close(self) -> None:
        """Checkpoint the WAL into the main file and close the connection."""
        with self._lock:
            try:
                self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            finally:
                self.db.close()

    def _write(self, sql: str, params: Iterable[Any] = ()) -> sqlite3.Cursor:
        with self._lock:
            return self.db.execute(sql, tuple(params))

    def _one(self, sql: str, params: Iterable[Any] = ()) -> dict[str, Any] | None:
        with self._lock:
            row = self.db.execute(sql, tuple(params)).fetchone()
        return dict(row) if row is not None else None

    def _all(self, sql: str, params: Iterable[Any] = ()) -> list[dict[str, Any]]:
        with self._lock:
            return [dict(r) for r in self.db.execute(sql, tuple(params)).fetchall()]

    # -- meta and principals ------------------------------------------------------------------

    def _page(self, table: str, columns: str, filters: dict[str, Any], after_seq: int | None, limit: int,
              extra: tuple[str, list[Any]] | None = None) -> tuple[list[dict[str, Any]], int | None]:
        """One page of ``table``, newest first (``seq`` descending), keyset-paged.

        Args:
            filters: ``{column: value}`` equality conditions; a None value is no condition.
            after_seq: the ``seq`` of the last row of the previous page (the cursor), or None.
            limit: rows per page; extra: one more SQL condition with its parameters.

        Returns:
            the rows (with ``seq``) and the ``seq`` for the next cursor, None on the last page.
        """
        where, params = ["1 = 1"], []
        for column, value in filters.items():
            if value is not None:
                where.append(f"{column} = ?")
                params.append(value)
        if extra is not None:
            where.append(extra[0])
            params.extend(extra[1])
        if after_seq is not None:
            where.append("seq < ?")
            params.append(after_seq)
        rows = self._all(f"SELECT {columns} FROM {table} WHERE {' AND '.join(where)} ORDER BY seq DESC LIMIT ?",
                         [*params, limit + 1])
        more = len(rows) > limit
        rows = rows[:limit]
        return rows, (rows[-1]["seq"] if more else None)
    def get_meta(self, key: str) -> str | None:
        row = self._one("SELECT value FROM meta WHERE key = ?", (key,))
        return row["value"] if row else None

    def set_meta(self, key: str, value: str) -> None:
        self._write("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                    (key, value))

    def principals(self) -> list[dict[str, Any]]:
        rows = self._all("SELECT * FROM principals ORDER BY id")
        for r in rows:
            r["roles"] = json.loads(r["roles"])
            r["scopes"] = json.loads(r["scopes"])
        return rows

    def add_principal(self, pid: str, token_sha256: str, roles: list[str], scopes: list[str],
                      classification: str) -> None:
        self._write("INSERT INTO principals (id, token_sha256, roles, scopes, classification, created_at)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (pid, token_sha256, _dumps(roles), _dumps(scopes), classification, now_iso()))

    # -- tools and relations ------------------------------------------------------------------
    def all_tools(self) -> list[dict[str, Any]]:
        rows = self._all("SELECT * FROM tools ORDER BY name")
        for r in rows:
            r["manifest"] = json.loads(r["manifest"])
        return rows

    def put_tool(self, row: dict[str, Any]) -> None:
        """Insert or replace a tool row (``manifest`` a dict)."""
        self._write(
            "INSERT INTO tools (name, version, status, owner, digest, manifest, created_by, created_at, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(name) DO UPDATE SET version = excluded.version,"
            " status = excluded.status, owner = excluded.owner, digest = excluded.digest,"
            " manifest = excluded.manifest, updated_at = excluded.updated_at",
            (row["name"], row["version"], row["status"], row["owner"], row["digest"], _dumps(row["manifest"]),
             row["created_by"], row["created_at"], row["updated_at"]),
        )

    def delete_tool(self, name: str) -> None:
        with self._lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                self.db.execute("DELETE FROM tools WHERE name = ?", (name,))
                self.db.execute("DELETE FROM relations WHERE tool = ?", (name,))
                self.db.execute("UPDATE approvals SET status = 'expired'"
                                " WHERE tool = ? AND status IN ('pending', 'approved')", (name,))
                self.db.execute("COMMIT")
            except BaseException:
                self.db.execute("ROLLBACK")
                raise

    def relations(self) -> list[dict[str, Any]]:
        return self._all("SELECT tool, principal, relation FROM relations")

    def add_relation(self, tool: str, principal: str, relation: str) -> None:
        self._write("INSERT OR IGNORE INTO relations (tool, principal, relation, created_at) VALUES (?, ?, ?, ?)",
                    (tool, principal, relation, now_iso()))

    def remove_relation(self, tool: str, principal: str, relation: str) -> int:
        return self._write("DELETE FROM relations WHERE tool = ? AND principal = ? AND relation = ?",
                           (tool, principal, relation)).rowcount

    # -- approvals --------------------------------------------------------------------------------
    def add_approval(self, row: dict[str, Any]) -> None:
        self._write(
            "INSERT INTO approvals (id, kind, tool, requested_by, arguments, arguments_sha256, target_status, status,"
            " created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?)",
            (row["id"], row["kind"], row["tool"], row["requested_by"],
             None if row.get("arguments") is None else _dumps(row["arguments"]), row.get("arguments_sha256"),
             row.get("target_status"), row["created_at"], row["expires_at"]),
        )

    def expire_approvals(self, tool: str, kinds: tuple[str, ...], statuses: tuple[str, ...]) -> int:
        """Mark the approvals of ``tool`` of ``kinds`` in ``statuses`` as ``expired``; returns how many."""
        kind_marks, status_marks = ",".join("?" * len(kinds)), ",".join("?" * len(statuses))
        return self._write(f"UPDATE approvals SET status = 'expired' WHERE tool = ? AND kind IN ({kind_marks})"
                           f" AND status IN ({status_marks})", (tool, *kinds, *statuses)).rowcount

    def _expire(self) -> None:
        self._write("UPDATE approvals SET status = 'expired' WHERE status = 'pending' AND expires_at < ?",
                    (time.time(),))

    def get_approval(self, approval_id: str) -> dict[str, Any] | None:
        self._expire()
        row = self._one("SELECT * FROM approvals WHERE id = ?", (approval_id,))
        return _approval(row) if row else None

    def approval_arguments_sha256(self, approval_id: str) -> str | None:
        row = self._one("SELECT arguments_sha256 FROM approvals WHERE id = ?", (approval_id,))
        return row["arguments_sha256"] if row else None

    def list_approvals(self, *, status: str | None, tool: str | None, requested_by: str | None,
                       after_seq: int | None, limit: int) -> tuple[list[dict[str, Any]], int | None]:
        self._expire()
        rows, last = self._page("approvals", "*", {"status": status, "tool": tool, "requested_by": requested_by},
                                after_seq, limit)
        return [_approval(r) for r in rows], last

    def decide_approval(self, approval_id: str, status: str, decided_by: str, comment: str | None) -> bool:
        """Move a pending approval to ``approved``/``rejected``; False if it was not pending."""
        cur = self._write("UPDATE approvals SET status = ?, decided_by = ?, comment = ?, decided_at = ?"
                          " WHERE id = ? AND status = 'pending'", (status, decided_by, comment, now_iso(), approval_id))
        return cur.rowcount == 1

    def consume_approval(self, approval_id: str, invocation_id: str) -> bool:
        """Atomically take an approved approval for one call; False if it is no longer ``approved``."""
        cur = self._write("UPDATE approvals SET status = 'consumed', consumed_by = ?"
                          " WHERE id = ? AND status = 'approved'", (invocation_id, approval_id))
        return cur.rowcount == 1

    def release_approval(self, approval_id: str) -> None:
        """Give back an approval taken by a call that did not succeed."""
        self._write("UPDATE approvals SET status = 'approved', consumed_by = NULL WHERE id = ? AND status = 'consumed'",
                    (approval_id,))

    # -- invocations ------------------------------------------------------------------------------
    def save_invocation(self, record: dict[str, Any]) -> None:
        """Insert or update an invocation record (already redacted)."""
        self._write(
            "INSERT INTO invocations (id, tool, actor, run_id, status, record) VALUES (?, ?, ?, ?, ?, ?)"
            " ON CONFLICT(id) DO UPDATE SET status = excluded.status, record = excluded.record",
            (record["id"], record["tool"], record["actor"], record.get("run_id"), record["status"], _dumps(record)),
        )

    def get_invocation(self, invocation_id: str) -> dict[str, Any] | None:
        row = self._one("SELECT record FROM invocations WHERE id = ?", (invocation_id,))
        return json.loads(row["record"]) if row else None

    def list_invocations(self, *, tool: str | None, run_id: str | None, actors_or_tools: tuple[str, list[str]] | None,
                         after_seq: int | None, limit: int) -> tuple[list[dict[str, Any]], int | None]:
        """Newest first; ``actors_or_tools`` = (actor, tools) limits to that actor's calls or those tools."""
        extra = None
        if actors_or_tools is not None:
            actor, tools = actors_or_tools
            marks = ",".join("?" * len(tools))
            extra = (f"(actor = ? OR tool IN ({marks}))" if tools else "actor = ?", [actor, *tools])
        rows, last = self._page("invocations", "seq, record", {"tool": tool, "run_id": run_id}, after_seq, limit,
                                extra)
        return [json.loads(r["record"]) for r in rows], last

    def fail_running(self, message: str) -> int:
        """Mark every ``running`` record as ``failed`` (a start after a crash); returns how many."""
        count = 0
        for row in self._all("SELECT record FROM invocations WHERE status = 'running'"):
            record = json.loads(row["record"])
            record.update(status="failed", error={"code": "interrupted", "message": message})
            self.save_invocation(record)
            count += 1
        return count

    # -- idempotency ------------------------------------------------------------------------------
    # The key column holds sha256:<hex> of the caller's Idempotency-Key (a key is free text and may carry
    # personal data; only its hash is needed to find the stored answer).
    def get_idempotent(self, principal: str, tool: str, key: str) -> dict[str, Any] | None:
        row = self._one("SELECT body_sha256, status_code, response, headers FROM idempotency"
                        " WHERE principal = ? AND tool = ? AND key = ?", (principal, tool, _key_digest(key)))
        if row:
            row["response"] = json.loads(row["response"])
            row["headers"] = json.loads(row["headers"])
        return row

    def put_idempotent(self, principal: str, tool: str, key: str, body_sha256: str, status_code: int,
                       response: Any, headers: dict[str, str]) -> None:
        self._write("INSERT OR REPLACE INTO idempotency (principal, tool, key, body_sha256, status_code, response,"
                    " headers, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (principal, tool, _key_digest(key), body_sha256, status_code, _dumps(response), _dumps(headers),
                     now_iso()))

    # -- audit ------------------------------------------------------------------------------------
    def add_audit(self, type_: str, actor: str, *, tool: str | None = None, approval_id: str | None = None,
                  details: dict[str, Any] | None = None) -> dict[str, Any]:
        event = {"id": new_id("evt"), "type": type_, "actor": actor, "tool": tool, "approval_id": approval_id,
                 "details": details or {}, "created_at": now_iso()}
        self._write("INSERT INTO audit (id, type, actor, tool, approval_id, details, created_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (event["id"], type_, actor, tool, approval_id, _dumps(event["details"]), event["created_at"]))
        return event

    def list_audit(self, *, type_: str | None, tool: str | None, after_seq: int | None,
                   limit: int) -> tuple[list[dict[str, Any]], int | None]:
        rows, last = self._page("audit", "*", {"type": type_, "tool": tool}, after_seq, limit)
        for r in rows:
            r["details"] = json.loads(r["details"])
        return [{k: v for k, v in r.items() if k != "seq"} for r in rows], last


def _approval(row: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in row.items() if k not in ("seq", "expires_at", "arguments_sha256", "consumed_by")}
    out["arguments"] = json.loads(row["arguments"]) if row.get("arguments") is not None else None
    out["expires_at"] = datetime.fromtimestamp(row["expires_at"], timezone.utc).isoformat(timespec="seconds").replace(
        "+00:00", "Z")
    return out
