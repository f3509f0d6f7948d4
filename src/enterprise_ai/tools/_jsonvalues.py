"""Python values as JSON data, for the ``default``, ``enum`` and ``examples`` keywords of a schema.

Split from :mod:`enterprise_ai.tools._typeschema`; the rules are issue 2, point 3 ("copy defaults that JSON
can hold ... and leave out the rest, never crashing").
"""

from __future__ import annotations

import dataclasses
import datetime
import decimal
import enum
import math
import pathlib
import uuid
from typing import Any

__all__ = ["NOT_JSON", "enum_schema", "json_default"]

NOT_JSON = object()
"""Marker returned by :func:`json_default` for a value JSON cannot hold (the caller leaves it out)."""

_JSON_TYPES = ((bool, "boolean"), (int, "integer"), (float, "number"), (str, "string"), (type(None), "null"),
               (list, "array"), (dict, "object"))


def json_default(value: Any) -> Any:
    """A Python default as JSON data (for the ``default`` keyword), or the ``NOT_JSON`` marker.

    ``None``/bool/int/str as plain ``bool``/``int``/``str`` (subclasses are converted, so that YAML safe
    dumping works); a finite float; an enum member as its value; a ``pathlib`` path as a POSIX string;
    date/time as ISO 8601; a ``timedelta`` as an ISO 8601 duration and a ``Decimal`` as a string (pydantic's
    JSON forms); UUID as a string; list/tuple as a list; set/frozenset as a sorted list (deterministic); a
    dict with string keys; a pydantic model or dataclass instance as its fields. Anything else (or containing
    anything else, or containing itself) is ``NOT_JSON``. Never raises.
    """
    try:
        return _json(value)
    except (RecursionError, ValueError, TypeError):  # a self-containing list, an odd __iter__...
        return NOT_JSON


def _json(value: Any) -> Any:
    if value is None or isinstance(value, bool):
        return None if value is None else bool(value)
    if isinstance(value, enum.Enum):
        return _json(value.value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, str):
        return str(value)
    if isinstance(value, float):
        return float(value) if math.isfinite(value) else NOT_JSON
    if isinstance(value, pathlib.PurePath):
        return value.as_posix()
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, (datetime.timedelta, decimal.Decimal)):
        if isinstance(value, decimal.Decimal) and not value.is_finite():
            return NOT_JSON
        from pydantic_core import to_jsonable_python

        return to_jsonable_python(value)  # "PT3S", "1.5"
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, (list, tuple, set, frozenset)):
        items = [_json(v) for v in value]
        if any(v is NOT_JSON for v in items):
            return NOT_JSON
        if isinstance(value, (set, frozenset)):  # deterministic order
            items.sort(key=lambda v: (type(v).__name__, repr(v)))
        return items
    if isinstance(value, dict):
        if not all(isinstance(k, str) for k in value):
            return NOT_JSON
        out = {str(k): _json(v) for k, v in value.items()}
        return NOT_JSON if any(v is NOT_JSON for v in out.values()) else out
    if hasattr(type(value), "model_fields") and hasattr(value, "model_dump"):
        try:
            return _json(value.model_dump(mode="json", by_alias=True))
        except Exception:
            return NOT_JSON
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _json(dataclasses.asdict(value))
    return NOT_JSON


def _type_of(values: list[Any]) -> str | list[str] | None:
    found: list[str] = []
    for v in values:
        name = next((n for t, n in _JSON_TYPES if isinstance(v, t)), None)
        if name is None:
            return None
        if name not in found:
            found.append(name)
    return found[0] if len(found) == 1 else found


def enum_schema(values: list[Any]) -> dict[str, Any]:
    """``{type, enum}`` for ``Literal`` or ``Enum`` values (a ``type`` list when they mix JSON types).

    ``{}`` when a value cannot be written in JSON (the annotation then accepts anything).
    """
    values = [json_default(v) for v in values]
    if any(v is NOT_JSON for v in values):
        return {}
    kind = _type_of(values)
    return {"type": kind, "enum": values} if kind else {"enum": values}
