"""Invoking a tool from the command line: arguments from ``key=value`` pairs, and waiting for an approval.

Core functions of ``eai tools invoke``: they return data and raise typed errors; they never print.
"""

from __future__ import annotations

import json
import sys
import time
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from enterprise_ai.errors import UsageError
from enterprise_ai.tools._exceptions import ApprovalRejected, PendingApprovalError

if TYPE_CHECKING:  # pragma: no cover
    from enterprise_ai.tools._client import ToolsClient

#: seconds between two reads of an approval while ``--wait`` polls it
APPROVAL_POLL_SECONDS = 1.0
#: the ``--wait`` deadline when the flag is given without a value, in seconds
DEFAULT_WAIT_SECONDS = 300.0


def _coerce(raw: str, schema: dict[str, Any]) -> Any:
    """Turn the text of ``key=value`` into the JSON type the property schema asks for.

    ``integer``/``number``/``boolean``/``null``/``array``/``object`` are parsed as JSON; a string
    property keeps the text as is. With several types (``["integer", "null"]``), the first that
    parses wins; with no ``type`` the text is parsed as JSON when it can be, else kept.
    """
    types = schema.get("type")
    if isinstance(types, str):
        types = [types]
    if not types:
        if "enum" in schema or "const" in schema:
            values = schema.get("enum", [schema.get("const")])
            return raw if raw in values else _json_or_text(raw)
        return _json_or_text(raw) if schema else raw
    for kind in types:
        if kind == "string":
            return raw
        try:
            value = json.loads(raw)
        except ValueError:
            continue
        if kind == "integer" and isinstance(value, int) and not isinstance(value, bool):
            return value
        if kind == "number" and isinstance(value, (int, float)) and not isinstance(value, bool):
            return value
        if kind == "boolean" and isinstance(value, bool):
            return value
        if kind == "null" and value is None:
            return value
        if kind == "array" and isinstance(value, list):
            return value
        if kind == "object" and isinstance(value, dict):
            return value
    return raw  # left for the schema check to report with its path


def _json_or_text(raw: str) -> Any:
    try:
        return json.loads(raw)
    except ValueError:
        return raw


def check_sources(pairs: Sequence[str], *, args_json: str | None = None, args_file: Path | None = None) -> None:
    """The checks of :func:`build_arguments` that need no schema, made before any request is sent.

    Raises:
        UsageError: both ``--args-json`` and ``--args-file``, or a word that is not ``key=value``.
    """
    if args_json is not None and args_file is not None:
        raise UsageError("give --args-json or --args-file, not both")
    for pair in pairs:
        key, sep, _ = pair.partition("=")
        if not sep or not key:
            raise UsageError(f"argument {pair!r} is not key=value")


def build_arguments(
    pairs: Sequence[str],
    input_schema: dict[str, Any] | None,
    *,
    args_json: str | None = None,
    args_file: Path | None = None,
    stdin: IO[str] | None = None,
) -> dict[str, Any]:
    """The arguments of an invocation, checked against the tool's ``input_schema`` (JSON Schema 2020-12).

    Args:
        pairs: ``key=value`` words; each value is coerced through ``input_schema.properties[key]``.
        input_schema: the tool's schema (from ``ToolsClient.get``); None skips coercion and checks.
        args_json: a JSON object given with ``--args-json``.
        args_file: a file holding a JSON object (``--args-file``); ``-`` reads ``stdin``.
        stdin: the stream read for ``--args-file -`` (``sys.stdin`` by default).

    Raises:
        UsageError: a word without ``=``, both ``--args-json`` and ``--args-file``, JSON that is not
            an object, or arguments the schema rejects (the message names the failing path).
    """
    check_sources(pairs, args_json=args_json, args_file=args_file)
    arguments: dict[str, Any] = {}
    if args_json is not None or args_file is not None:
        from_stdin = args_json is None and str(args_file) == "-"
        source = "--args-json" if args_json is not None else "<stdin>" if from_stdin else str(args_file)
        try:
            if args_json is not None:
                text = args_json
            elif from_stdin:
                text = (stdin or sys.stdin).read()
            else:
                text = Path(args_file).read_text(encoding="utf-8")  # type: ignore[arg-type]
            loaded = json.loads(text)
        except OSError as exc:
            raise UsageError(f"{source}: cannot read: {exc.strerror or exc}") from exc
        except UnicodeDecodeError as exc:
            raise UsageError(f"{source}: not UTF-8 text (byte {exc.start})") from exc
        except ValueError as exc:
            raise UsageError(f"{source}: not valid JSON: {exc}") from exc
        if not isinstance(loaded, dict):
            raise UsageError(f"{source}: the arguments must be a JSON object")
        arguments.update(loaded)
    props = (input_schema or {}).get("properties") or {}
    for pair in pairs:
        key, _, raw = pair.partition("=")
        prop = props.get(key)
        arguments[key] = _coerce(raw, prop if isinstance(prop, dict) else {})
    if input_schema:
        check_arguments(arguments, input_schema)
    return arguments


def check_arguments(arguments: dict[str, Any], input_schema: dict[str, Any]) -> None:
    """Raise :class:`UsageError` naming the first failing path when ``arguments`` break ``input_schema``."""
    import jsonschema

    cls = jsonschema.validators.validator_for(input_schema, default=jsonschema.Draft202012Validator)
    validator = cls(input_schema, format_checker=cls.FORMAT_CHECKER)
    errors = sorted(validator.iter_errors(arguments), key=lambda e: list(e.absolute_path))
    if errors:
        first = errors[0]
        where = "/" + "/".join(str(p) for p in first.absolute_path) if first.absolute_path else "(arguments)"
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        raise UsageError(f"invalid arguments at {where}: {first.message}{more}", hint="see: eai tools get NAME")


def invoke_and_wait(
    client: ToolsClient,
    name: str,
    arguments: dict[str, Any],
    *,
    run_id: str | None = None,
    idempotency_key: str | None = None,
    wait: float | None = None,
    approval_id: str | None = None,
    on_pending: Callable[[str], None] | None = None,
    poll_seconds: float = APPROVAL_POLL_SECONDS,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> dict[str, Any]:
    """Invoke a tool; when it needs an approval, optionally wait for it and call again with it.

    Args:
        wait: seconds to wait for a pending approval; None to return at once.
        approval_id: an approved approval for the same tool and arguments (sent in the first call).
        on_pending: called with the approval id as soon as the call is pending (to print it).

    Returns:
        the final invocation record (``status`` ``succeeded``, ``failed``, ``running``...).

    Raises:
        PendingApprovalError (exit 8): pending and no ``wait``, or still pending at the deadline.
        ApprovalRejected (exit 4): the approval was rejected or expired.
    """
    key = idempotency_key or str(uuid.uuid4())
    extra = {"approval_id": approval_id} if approval_id else {}
    result = client.invoke(name, arguments, run_id=run_id, idempotency_key=key, **extra)
    if not isinstance(result, dict) or result.get("status") != "pending_approval":
        return result
    approval_id = str(result.get("approval_id") or "")
    if on_pending is not None:
        on_pending(approval_id)
    hint = (f"once someone else runs 'eai approvals approve {approval_id}', call again with "
            f"--approval-id {approval_id} (or use --wait)")
    if wait is None:
        raise PendingApprovalError(f"the call to {name!r} waits for approval {approval_id}", approval_id=approval_id,
                                   hint=hint)
    deadline = clock() + wait
    while True:
        approval = client.approvals.get(approval_id)
        state = approval.get("status")
        if state == "approved":
            break
        if state in ("rejected", "expired", "consumed"):
            why = f" ({approval['comment']})" if approval.get("comment") else ""
            raise ApprovalRejected(f"approval {approval_id} was {state}{why}", approval_id=approval_id)
        remaining = deadline - clock()
        if remaining <= 0:
            raise PendingApprovalError(
                f"approval {approval_id} is still pending after {wait:g} s", approval_id=approval_id, hint=hint
            )
        sleep(min(poll_seconds, remaining))
    # A new key: the body now carries approval_id, and a reused key with another body is a 409.
    return client.invoke(name, arguments, run_id=run_id, idempotency_key=f"{key}.{approval_id}",
                         approval_id=approval_id)


def invocation_row(record: dict[str, Any]) -> dict[str, Any]:
    """One invocation record flattened for a table: time, tool, actor, status, decision, duration, cost, DLP, run."""
    cost = record.get("cost") or {}
    amount = cost.get("amount") if isinstance(cost, dict) else None
    dlp = record.get("dlp_detections") or []
    dlp_text = ", ".join(f"{d.get('type')}:{d.get('action')}" for d in dlp if isinstance(d, dict))
    duration = record.get("duration_ms")
    return {
        "id": record.get("id"),
        "time": record.get("created_at"),
        "tool": record.get("tool"),
        "actor": record.get("actor"),
        "status": record.get("status"),
        "decision": record.get("decision"),
        "duration": f"{duration:.0f} ms" if isinstance(duration, (int, float)) else "",
        "cost": f"{amount} {cost.get('currency', '')}".strip() if amount is not None else "",
        "dlp": dlp_text,
        "run_id": record.get("run_id"),
    }


INVOCATION_COLUMNS = [
    ("TIME", "time"),
    ("TOOL", "tool"),
    ("ACTOR", "actor"),
    ("STATUS", "status"),
    ("DECISION", "decision"),
    ("DURATION", "duration"),
    ("COST", "cost"),
    ("DLP", "dlp"),
    ("RUN ID", "run_id"),
]
