"""Build plain data from PyYAML's event stream, with a position for every JSON pointer.

PyYAML never constructs anything here: the parser (libyaml's ``CParser`` behind ``CSafeLoader`` when
present, else the pure-Python one) only produces events, and this module turns them into dicts, lists
and scalars with an explicit stack (no recursion). Refused at the event, before any expansion:
aliases and anchors, tags other than the YAML core ones, duplicate keys, non-string keys, nesting
deeper than the cap. Plain scalars follow the YAML 1.2 core schema (https://yaml.org/spec/1.2.2/#1032-tag-resolution).

JSON files are read by :mod:`._json_docs` and placed by :mod:`._json_positions`, not here.
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
_LEADING_ZERO = re.compile(r"[-+]?0[0-9]+\Z")
_HEX = re.compile(r"0x[0-9a-fA-F]+\Z")
_FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?\Z")
_INF_NAN = re.compile(r"[-+]?\.(?:inf|Inf|INF)\Z|\.(?:nan|NaN|NAN)\Z")
_NULLS = frozenset(("", "~", "null", "Null", "NULL"))
_TRUES = frozenset(("true", "True", "TRUE"))
_FALSES = frozenset(("false", "False", "FALSE"))
_CORE = "tag:yaml.org,2002:"
_SCALAR_TAGS = frozenset(_CORE + t for t in ("str", "int", "float", "bool", "null"))
_NUMBER_START = frozenset("0123456789-+.")
_PLAIN_SPECIAL = frozenset("0123456789-+.~")
_KEYWORDS = _NULLS | _TRUES | _FALSES
_INF = float("inf")
_KINDS = {type(None): "null", bool: "a boolean"}


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


def _plain(value: str, event: Any, pointer: str) -> Any:
    """Resolve a plain scalar with the YAML 1.2 core schema."""
    if value in _NULLS:
        return None
    if value in _TRUES:
        return True
    if value in _FALSES:
        return False
    if value[0] in _NUMBER_START:
        if _INT.match(value):
            if _LEADING_ZERO.match(value):
                raise _Refused(make_finding(
                    "load.ambiguous", pointer, f"{value} is ambiguous (YAML 1.1 reads a leading zero as octal, YAML "
                    f"1.2 as decimal): write {int(value)}, 0o{value.lstrip('+-0') or '0'} for octal, or quote it",
                    **_where(event)))
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
    resolved = _plain(value, event, pointer)
    expected = {"int": int, "float": (int, float), "bool": bool, "null": type(None)}[tag[len(_CORE):]]
    if isinstance(resolved, bool) and expected is not bool:
        resolved = value
    if not isinstance(resolved, expected):
        raise _Refused(make_finding(
            "load.tag", pointer, f"{value!r} is not a valid {tag.replace(_CORE, '!!')}: fix the value or drop the tag",
            **_where(event)))
    return float(resolved) if tag == _CORE + "float" else resolved


def _key_problem(value: str, event: Any, pointer: str) -> None:
    """Refuse a plain key that is not a string under YAML 1.2 (``1``, ``null``, ``true``) or a merge key."""
    if value == "<<":
        raise _Refused(make_finding(
            "load.ambiguous", pointer, "merge key << refused (YAML 1.1 merges the mapping, YAML 1.2 reads a key "
            "named '<<'): write the keys out, or quote it (\"<<\") if you mean the key", **_where(event)))
    try:
        resolved = _plain(value, event, pointer)
    except _Refused:
        resolved = 0.0
    if not isinstance(resolved, str):
        raise _Refused(make_finding(
            "load.ambiguous", pointer, f"key {value or '(empty)'} is read as {_KINDS.get(type(resolved), 'a number')}"
            f", and JSON keys are strings: quote it (\"{value}\")", **_where(event)))


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


def _build_one(get_event: Any, peek_event: Any, index: int, max_depth: int) -> Built:
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
                if not event.style and (not value or value[0] in special or value in keywords or value == "<<"):
                    _key_problem(value, event, frame[1])
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
                if not value or value[0] in special or value in keywords:
                    value = _plain(value, event, pointer)
                    if value is not None and not isinstance(value, str):
                        raw[pointer] = event.value
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
            if event.tag not in (None, "!", _CORE + "str"):
                raise _Refused(make_finding(
                    "load.ambiguous", frame[1], f"key {event.tag.replace(_CORE, '!!')} {value} is not a string, and JSON "
                    f"keys are strings: drop the tag and quote it (\"{value}\")", **_where(event)))
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


def _syntax_finding(exc: yaml.YAMLError, text: str) -> Finding:
    if isinstance(exc, yaml.reader.ReaderError) and isinstance(exc.position, int):  # a control character
        offset = exc.position
        character = exc.character if isinstance(exc.character, str) else chr(exc.character)
        return make_finding(
            "load.syntax", "", f"control character U+{ord(character):04X} is not allowed in YAML: remove it or "
            "write it as an escape in a double-quoted string", line=text.count("\n", 0, offset) + 1,
            column=offset - (text.rfind("\n", 0, offset) + 1) + 1)
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    problem = getattr(exc, "problem", None) or str(exc)
    context = getattr(exc, "context", None)
    text = f"{context}: {problem}" if context else problem
    rule = "load.too-deep" if "nesting depth" in text else "load.syntax"
    where = {"line": mark.line + 1, "column": mark.column + 1} if mark is not None else {}
    label = "invalid YAML" if rule == "load.syntax" else "the document nests too deep"
    return make_finding(rule, "", f"{label}: {' '.join(text.split())}", **where)


def build_documents(text: str, *, max_depth: int) -> Iterator[Built | Finding]:
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
                if getattr(event, "version", None) not in (None, (1, 2)):
                    raise _Refused(make_finding(
                        "load.ambiguous", "", f"%YAML {'.'.join(map(str, event.version))} asks for other rules than "
                        "the YAML 1.2 ones eai reads by (yes/no/on/off are strings, 0777 is not octal): remove "
                        "the directive or write %YAML 1.2", **_where(event)))
                built = _build_one(get_event, peek_event, index, max_depth)
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
        finding = _syntax_finding(exc, text)
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
