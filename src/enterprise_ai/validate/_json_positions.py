"""Positions of the values of a JSON text, by JSON pointer, read by a small scanner (no recursion).

Used when a finding of a JSON file needs a line and column (lazily: a valid file never pays for it),
and to place what :func:`json.loads` refuses without saying where: duplicate keys, ``NaN``/``Infinity``
and numbers that overflow. It follows RFC 8259 itself rather than a YAML parser: a JSON text is not
always YAML that PyYAML reads the same way (surrogate-pair escapes such as ``"\\ud83d\\ude00"`` that
``json.dumps`` writes for every emoji, keys longer than 1024 characters, and raw U+2028 / U+0085 in
strings, which YAML counts as line breaks and JSON does not).

Strings are read with :func:`json.decoder.scanstring` (the C scanner of the json module). Lines are
counted by ``\\n`` and columns in characters, both 1-based.
"""

from __future__ import annotations

import bisect
import re
from json.decoder import scanstring

from enterprise_ai.validate.findings import pointer_join

_WS = re.compile(r"[ \t\n\r]*")
_TOKEN = re.compile(r"[^,\]\}\s]+")
_NON_FINITE = frozenset(("NaN", "Infinity", "-Infinity"))


def scan(text: str) -> tuple[dict[str, int], tuple[str, str, int, int | str] | None]:
    """``({pointer: offset}, first problem)`` of a JSON text; raises ValueError/IndexError if malformed.

    The offset of a mapping member is where its key starts (as for YAML files), of a list item where
    the item starts, of the root where the text starts. The problem is ``(rule, pointer, offset, extra)``
    for a duplicate key (``extra``: the offset of the first one) or for a ``NaN``/``Infinity`` literal
    or a number that overflows (``extra``: the token), else None.
    """
    positions: dict[str, int] = {}
    problem: tuple[str, str, int, int | str] | None = None
    stack: list[list] = []  # [kind, pointer, {key: offset} | item index]
    i = _WS.match(text, 0).end()
    pointer, state = "", "value"
    positions[""] = i
    while True:
        if state == "value":
            char = text[i]
            if char == "{" or char == "[":
                stack.append([char, pointer, {} if char == "{" else 0])
                i = _WS.match(text, i + 1).end()
                if text[i] in "}]":
                    stack.pop()
                    i, state = i + 1, "after"
                elif char == "{":
                    state = "key"
                else:
                    pointer = pointer + "/0"
                    positions[pointer] = i
                continue
            if char == '"':
                i = scanstring(text, i + 1)[1]
            else:
                token = _TOKEN.match(text, i).group()
                if problem is None and (token in _NON_FINITE or (
                        token[-1:].isdigit() and float(token) in (float("inf"), float("-inf")))):
                    problem = ("load.non-finite", pointer, i, token)
                i += len(token)
            state = "after"
        elif state == "key":
            key, end = scanstring(text, i + 1)
            frame = stack[-1]
            pointer = pointer_join(frame[1], key)
            if key in frame[2] and problem is None:
                problem = ("load.duplicate-key", pointer, i, frame[2][key])
            frame[2].setdefault(key, i)
            positions[pointer] = i
            i = _WS.match(text, end).end()
            if text[i] != ":":
                raise ValueError(f"':' expected at offset {i}")
            i = _WS.match(text, i + 1).end()
            state = "value"
        else:  # after a value
            i = _WS.match(text, i).end()
            if not stack:
                return positions, problem
            frame = stack[-1]
            if text[i] == ",":
                i = _WS.match(text, i + 1).end()
                if frame[0] == "{":
                    state = "key"
                else:
                    frame[2] += 1
                    pointer = f"{frame[1]}/{frame[2]}"
                    positions[pointer] = i
                    state = "value"
            else:
                stack.pop()
                i += 1


class Lines:
    """Offset -> ``(line, column)`` for one text (1-based; lines end at ``\\n``)."""

    def __init__(self, text: str) -> None:
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def __call__(self, offset: int) -> tuple[int, int]:
        index = bisect.bisect_right(self.starts, offset) - 1
        return index + 1, offset - self.starts[index] + 1


def positions(text: str) -> dict[str, tuple[int, int]]:
    """``{pointer: (line, column)}`` of every value of a JSON text (see :func:`scan`)."""
    offsets, _ = scan(text)
    where = Lines(text)
    return {pointer: where(offset) for pointer, offset in offsets.items()}
