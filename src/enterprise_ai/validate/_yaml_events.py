"""Build plain data from PyYAML's event stream, with a position for every JSON pointer.

PyYAML never constructs anything here: the parser (libyaml's ``CParser`` behind ``CSafeLoader`` when
present, else the pure-Python one) only produces events, and this module turns them into dicts, lists
and scalars with an explicit stack (no recursion). Refused at the event, before any expansion:
aliases and anchors, tags other than the YAML core ones, duplicate keys, non-string keys, nesting
deeper than the cap. Plain scalars follow the YAML 1.2 core schema (https://yaml.org/spec/1.2.2/#1032-tag-resolution).

In ``json_mode`` (used to place findings in JSON files) plain scalars must be JSON literals
(``null``, ``true``, ``false`` or a JSON number) and single-quoted strings are refused.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import yaml

from enterprise_ai.validate.findings import Finding, make_finding

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

_INT = re.compile(r"[-+]?[0-9]+\Z")
_OCT = re.compile(r"0o[0-7]+\Z")
_HEX = re.compile(r"0x[0-9a-fA-F]+\Z")
_FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?\Z")
_INF_NAN = re.compile(r"[-+]?\.(?:inf|Inf|INF)\Z|\.(?:nan|NaN|NAN)\Z")
_JSON_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?\Z")
_NULLS = frozenset(("", "~", "null", "Null", "NULL"))
_TRUES = frozenset(("true", "True", "TRUE"))
_FALSES = frozenset(("false", "False", "FALSE"))
_CORE = "tag:yaml.org,2002:"
_SCALAR_TAGS = frozenset(_CORE + t for t in ("str", "int", "float", "bool", "null"))
_NUMBER_START = frozenset("0123456789-+.")
_PLAIN_SPECIAL = frozenset("0123456789-+.~")
_KEYWORDS = _NULLS | _TRUES | _FALSES
_INF = float("inf")


class _Refused(Exception):
    """Stops building the current document."""

    def __init__(self, finding: Finding) -> None:
        super().__init__(finding.message)
        self.finding = finding


@dataclass
class Built:
    """One YAML document: data, 0-based index, positions (pointer -> 1-based line, column), raw scalars."""

    data: Any
    index: int
    positions: dict[str, tuple[int, int]]
    raw: dict[str, str]


def _where(event: Any) -> dict[str, int]:
    mark = event.start_mark
    return {"line": mark.line + 1, "column": mark.column + 1}


def _escape(key: str) -> str:
    if "~" in key or "/" in key:
        return key.replace("~", "~0").replace("/", "~1")
    return key


def _plain(value: str, event: Any, pointer: str, json_mode: bool) -> Any:
    """Resolve a plain scalar with the YAML 1.2 core schema (or as a JSON literal in json_mode)."""
    if json_mode:
        if value == "null":
            return None
        if value == "true":
            return True
        if value == "false":
            return False
        if _JSON_NUMBER.match(value):
            number = float(value) if any(c in value for c in ".eE") else int(value)
            if number in (_INF, -_INF):
                raise _Refused(make_finding(
                    "load.non-finite", pointer, f"the number {value} overflows to infinity: use a smaller number",
                    **_where(event)))
            return number
        rule = "load.non-finite" if value.lstrip("-+") in ("NaN", "Infinity") else "load.syntax"
        raise _Refused(make_finding(
            rule, pointer, f"{value} is not a JSON value (JSON has no NaN or Infinity; strings need double quotes)",
            **_where(event)))
    if value in _NULLS:
        return None
    if value in _TRUES:
        return True
    if value in _FALSES:
        return False
    if value[0] in _NUMBER_START:
        if _INT.match(value):
            return int(value)
        if _FLOAT.match(value):
            number = float(value)
            if number not in (_INF, -_INF):
                return number
        elif _OCT.match(value):
            return int(value[2:], 8)
        elif _HEX.match(value):
            return int(value[2:], 16)
        elif not _INF_NAN.match(value):
            return value
        raise _Refused(make_finding(
            "load.non-finite", pointer, f"{value} has no JSON representation (NaN or infinite): use a finite number",
            **_where(event)))
    return value


def _tagged(tag: str, value: str, event: Any, pointer: str) -> Any:
    """A scalar with an explicit core tag (``!!str 3.10``)."""
    if tag == _CORE + "str":
        return value
    resolved = _plain(value, event, pointer, False)
    expected = {"int": int, "float": (int, float), "bool": bool, "null": type(None)}[tag[len(_CORE):]]
    if isinstance(resolved, bool) and expected is not bool:
        resolved = value
    if not isinstance(resolved, expected):
        raise _Refused(make_finding(
            "load.tag", pointer, f"{value!r} is not a valid {tag.replace(_CORE, '!!')}: fix the value or drop the tag",
            **_where(event)))
    return float(resolved) if tag == _CORE + "float" else resolved


def _refuse_node(event: Any, pointer: str) -> None:
    if event.__class__ is yaml.AliasEvent:
        raise _Refused(make_finding(
            "load.alias", pointer, f"alias *{event.anchor} refused (anchors and aliases are not allowed): "
            "write the value out in full", **_where(event)))
    if event.anchor is not None:
        raise _Refused(make_finding(
            "load.alias", pointer, f"anchor &{event.anchor} refused (anchors and aliases are not allowed): remove it",
            **_where(event)))
    tag = event.tag
    if tag is not None and tag != "!":
        allowed = _SCALAR_TAGS if event.__class__ is yaml.ScalarEvent else (_CORE + "map", _CORE + "seq")
        if tag not in allowed:
            raise _Refused(make_finding(
                "load.tag", pointer, f"tag {tag.replace(_CORE, '!!')} refused (only the YAML core tags are allowed): "
                "remove it", **_where(event)))


def _build_one(get_event: Any, peek_event: Any, index: int, json_mode: bool, max_depth: int) -> Built:
    """Build one document; the DocumentStartEvent has been consumed. Raises _Refused.

    Hot loop, one pass per event. A frame is ``[container, pointer, pending, keys, key]``: for a
    mapping, ``pending`` is the pointer of the value it waits for (None while it waits for a key),
    ``keys`` maps each key to its line and ``key`` is the pending key; for a sequence ``pending`` is
    ``""`` and ``keys`` None. The root sits in a one-slot pseudo-mapping waiting for pointer ``""``.
    """
    mark = peek_event().start_mark
    positions: dict[str, tuple[int, int]] = {"": (mark.line + 1, mark.column + 1)}
    raw: dict[str, str] = {}
    holder: list[Any] = [None]
    stack: list[list[Any]] = [[holder, "", "", {}, 0]]
    scalar_cls, mapping_cls, sequence_cls = yaml.ScalarEvent, yaml.MappingStartEvent, yaml.SequenceStartEvent
    special, keywords = _PLAIN_SPECIAL, _KEYWORDS
    while True:
        event = get_event()
        cls = event.__class__
        frame = stack[-1]
        pending = frame[2]
        if cls is scalar_cls and event.anchor is None and event.tag is None:
            value = event.value
            if pending is None:  # a mapping key
                keys = frame[3]
                mark = event.start_mark
                pointer = frame[1] + "/" + (value if "/" not in value and "~" not in value else _escape(value))
                if value in keys:
                    raise _Refused(make_finding(
                        "load.duplicate-key", pointer, f"duplicate key {value!r} at line {mark.line + 1} (first at "
                        f"line {keys[value]}): keep only one of them", line=mark.line + 1, column=mark.column + 1))
                keys[value] = mark.line + 1
                frame[2] = pointer
                frame[4] = value
                positions[pointer] = (mark.line + 1, mark.column + 1)
                continue
            keys = frame[3]
            if keys is None:
                pointer = f"{frame[1]}/{len(frame[0])}"
                mark = event.start_mark
                positions[pointer] = (mark.line + 1, mark.column + 1)
            else:
                pointer = pending
            if not event.style:
                if json_mode or not value or value[0] in special or value in keywords:
                    value = _plain(value, event, pointer, json_mode)
                    if value is not None and not isinstance(value, str):
                        raw[pointer] = event.value
            elif json_mode and event.style != '"':
                raise _Refused(make_finding("load.syntax", pointer, "JSON strings need double quotes", **_where(event)))
            if keys is None:
                frame[0].append(value)
            else:
                frame[0][frame[4]] = value
                frame[2] = None
            continue
        if cls is yaml.MappingEndEvent or cls is yaml.SequenceEndEvent:
            stack.pop()
            continue
        if cls is yaml.DocumentEndEvent:
            return Built(holder[0], index, positions, raw)
        # A collection, an alias, or a scalar with an anchor or a tag (rare: the slow path).
        if pending is None:
            if cls is not scalar_cls and cls is not yaml.AliasEvent:
                raise _Refused(make_finding(
                    "load.syntax", frame[1], "mapping keys must be plain strings, not mappings or lists",
                    **_where(event)))
            _refuse_node(event, frame[1])  # raises, except for a core tag: the key is its text
            value = event.value
            pointer = frame[1] + "/" + _escape(value)
            if value in frame[3]:
                raise _Refused(make_finding(
                    "load.duplicate-key", pointer, f"duplicate key {value!r} (first at line {frame[3][value]}): "
                    "keep only one of them", **_where(event)))
            frame[3][value] = event.start_mark.line + 1
            frame[2], frame[4] = pointer, value
            positions[pointer] = (event.start_mark.line + 1, event.start_mark.column + 1)
            continue
        if frame[3] is None:
            pointer = f"{frame[1]}/{len(frame[0])}"
            positions[pointer] = (event.start_mark.line + 1, event.start_mark.column + 1)
        else:
            pointer = pending
        _refuse_node(event, pointer)
        if cls is scalar_cls:
            value = event.value
            if event.tag is not None and event.tag != "!":
                value = _tagged(event.tag, value, event, pointer)
        elif cls is mapping_cls or cls is sequence_cls:
            if len(stack) > max_depth:
                raise _Refused(make_finding(
                    "load.too-deep", pointer, f"the document nests deeper than {max_depth} levels: flatten it",
                    **_where(event)))
            value = {} if cls is mapping_cls else []
        else:  # pragma: no cover - the parser emits nothing else here
            raise _Refused(make_finding("load.syntax", pointer, f"unexpected {cls.__name__}", **_where(event)))
        if frame[3] is None:
            frame[0].append(value)
        else:
            frame[0][frame[4]] = value
            frame[2] = None
        if cls is mapping_cls:
            stack.append([value, pointer, None, {}, None])
        elif cls is sequence_cls:
            stack.append([value, pointer, "", None, None])


def _syntax_finding(exc: yaml.YAMLError) -> Finding:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    problem = getattr(exc, "problem", None) or str(exc)
    context = getattr(exc, "context", None)
    text = f"{context}: {problem}" if context else problem
    rule = "load.too-deep" if "nesting depth" in text else "load.syntax"
    where = {"line": mark.line + 1, "column": mark.column + 1} if mark is not None else {}
    label = "invalid YAML" if rule == "load.syntax" else "the document nests too deep"
    return make_finding(rule, "", f"{label}: {' '.join(text.split())}", **where)


def build_documents(text: str, *, json_mode: bool, max_depth: int) -> Iterator[Built | Finding]:
    """Every document of ``text``, in order; a refused document gives a Finding and the next one is read.

    A syntax error or a document nested too deep ends the stream with its finding. Findings have no
    ``file`` set.
    """
    loader = _Loader(text)
    get_event, peek_event = loader.get_event, loader.peek_event
    index = 0
    try:
        get_event()  # StreamStartEvent
        while True:
            event = get_event()
            if event.__class__ is yaml.StreamEndEvent:
                return
            try:
                built = _build_one(get_event, peek_event, index, json_mode, max_depth)
            except _Refused as refused:
                refused.finding.document = index
                yield refused.finding
                # Too deep: stop this file (skipping the rest could be slow); else go on with the next document.
                if refused.finding.rule == "load.too-deep" or not _drain(get_event):
                    return
            else:
                yield built
            index += 1
    except yaml.YAMLError as exc:
        finding = _syntax_finding(exc)
        finding.document = index
        yield finding
    finally:
        loader.dispose()


def _drain(get_event: Any) -> bool:
    """Skip the rest of a refused document (events only: aliases are never expanded).

    False when the rest of the stream is not well-formed either (reading stops there).
    """
    try:
        while get_event().__class__ is not yaml.DocumentEndEvent:
            pass
    except yaml.YAMLError:
        return False
    return True
