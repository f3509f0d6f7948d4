"""JSON manifest files: strict :func:`json.loads` (no duplicate keys, NaN or Infinity), one document
per object or list item, positions computed only when a finding needs them (see :mod:`.loader`)."""

from __future__ import annotations

import json
import re
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


_SURROGATE = re.compile(r"(\\+)u([dD][89a-fA-F][0-9a-fA-F]{2})")


def _lone_surrogate(text: str) -> int | None:
    """Offset of the first ``\\uD800``-``\\uDFFF`` escape that is not half of a pair (json.loads keeps
    those as lone surrogates: not Unicode, not writable as UTF-8), or None."""
    pending_high: int | None = None
    last_end = -1
    for match in _SURROGATE.finditer(text):
        if len(match.group(1)) % 2 == 0:  # an escaped backslash, then a literal "u"
            continue
        start = match.end(1) - 1
        low = match.group(2)[1].lower() >= "c"
        if pending_high is not None:
            if low and start == last_end:
                pending_high = None
                last_end = match.end()
                continue
            return pending_high
        if low:
            return start
        pending_high, last_end = start, match.end()
    return pending_high


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
        yield _locate_json_problem(text, exc)
        return
    if _depth_exceeds(data, max_depth):
        yield make_finding(
            "load.too-deep", "", f"the document nests deeper than {max_depth} levels: flatten it", line=1, column=1
        )
        return
    if "\\u" in text and _SURROGATE.search(text):
        offset = _lone_surrogate(text)
        if offset is not None:
            yield _surrogate_finding(text, offset)
            return
    positions = _Positions(None, text)
    if isinstance(data, list):
        for index, item in enumerate(data):
            yield LoadedDocument(item, name, index, {}, positions, pointer_join("", index))
    else:
        yield LoadedDocument(data, name, 0, {}, positions)


def _locate_json_problem(text: str, exc: _JsonRefused) -> Finding:
    """The finding for a refused JSON value, placed by the JSON position scanner."""
    from enterprise_ai.validate import _json_positions

    try:
        problem = _json_positions.scan(text)[1]
    except (ValueError, IndexError):
        problem = None
    if problem is not None and problem[0] == exc.rule:
        rule, pointer, offset, extra = problem
        where = _json_positions.Lines(text)
        line, column = where(offset)
        if isinstance(extra, int):  # a duplicate key, and the offset of the first one
            key = pointer[pointer.rfind("/") + 1:].replace("~1", "/").replace("~0", "~")
            first_line, first_column = where(extra)
            first = f"line {first_line}" + (f", column {first_column}" if first_line == line else "")
            message = f"duplicate key {key!r} at line {line} (first at {first}): keep only one of them"
        elif extra.lstrip("-") in ("NaN", "Infinity"):
            message = f"{extra} is not a JSON value (JSON has no NaN or Infinity): use a finite number"
        else:
            message = f"the number {extra} overflows to infinity: use a smaller number"
        return make_finding(rule, pointer, message, line=line, column=column)
    return make_finding(exc.rule, "", str(exc))  # pragma: no cover - json.loads and the scanner agree


def _surrogate_finding(text: str, offset: int) -> Finding:
    """The finding for a lone surrogate escape at ``offset``: its line and column, and the pointer of the
    value that holds it (positions read from the text with every such escape made a U+FFFD)."""
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    table = _Positions(None, text).get()
    before = [(where, pointer) for pointer, where in table.items() if where <= (line, column)]
    pointer = max(before)[1] if before else ""
    escape = text[offset:offset + 6]
    return make_finding(
        "load.encoding", pointer, f"{escape} is half of a UTF-16 surrogate pair, not a character: fix the escape "
        "or write the character itself", line=line, column=column)
