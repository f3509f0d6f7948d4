"""JSON manifest files: strict :func:`json.loads` (no duplicate keys, NaN or Infinity), one document
per object or list item, positions computed only when a finding needs them (see :mod:`.loader`)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from enterprise_ai.validate.document import LoadedDocument, _Positions
from enterprise_ai.validate.findings import Finding, make_finding, pointer_join


class _JsonRefused(ValueError):
    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.rule = rule


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _JsonRefused("load.duplicate-key", f"duplicate key {key!r}: keep only one of them")
            seen.add(key)
    return result


def _constant(name: str) -> Any:
    raise _JsonRefused("load.non-finite", f"{name} is not allowed (JSON has no NaN or Infinity): use a finite number")


def _float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise _JsonRefused("load.non-finite", f"the number {text} overflows to infinity: use a smaller number")
    return value


def _depth_exceeds(data: Any, max_depth: int) -> bool:
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            if depth > max_depth:
                return True
            stack.extend((v, depth + 1) for v in value.values() if isinstance(v, (dict, list)))
        elif isinstance(value, list):
            if depth > max_depth:
                return True
            stack.extend((v, depth + 1) for v in value if isinstance(v, (dict, list)))
    return False


def json_documents(text: str, name: str, max_depth: int) -> Iterator[LoadedDocument | Finding]:
    """The documents of a JSON text (an object, or a list of objects), or one loading finding."""
    try:
        data = json.loads(text, object_pairs_hook=_pairs, parse_constant=_constant, parse_float=_float)
    except json.JSONDecodeError as exc:
        yield make_finding("load.syntax", "", f"invalid JSON: {exc.msg}", line=exc.lineno, column=exc.colno)
        return
    except RecursionError:
        yield make_finding(
            "load.too-deep", "", f"the document nests deeper than {max_depth} levels: flatten it", line=1, column=1
        )
        return
    except _JsonRefused as exc:
        yield _locate_json_problem(text, exc, max_depth)
        return
    if _depth_exceeds(data, max_depth):
        yield make_finding(
            "load.too-deep", "", f"the document nests deeper than {max_depth} levels: flatten it", line=1, column=1
        )
        return
    positions = _Positions(None, text)
    if isinstance(data, list):
        for index, item in enumerate(data):
            yield LoadedDocument(item, name, index, {}, positions, pointer_join("", index))
    else:
        yield LoadedDocument(data, name, 0, {}, positions)


def _locate_json_problem(text: str, exc: _JsonRefused, max_depth: int) -> Finding:
    """The finding for a refused JSON value, placed by the YAML event reader run in JSON mode."""
    from enterprise_ai.validate import _yaml_events

    try:
        for item in _yaml_events.build_documents(text, json_mode=True, max_depth=max(max_depth, 1000)):
            if isinstance(item, Finding) and item.rule == exc.rule:
                return item
    except Exception:  # noqa: BLE001 - fall back to a finding without a position
        pass
    return make_finding(exc.rule, "", str(exc))
