"""Indented JSON text, byte-identical to ``json.dumps(data, indent=n, ensure_ascii=False)``, only faster.

Python's :mod:`json` falls back to its pure-Python, generator-based encoder whenever ``indent`` is
set: about 2 s for the 10,000 manifests of a large ``eai tools scan --format json``. This module
builds the same text with one recursive function that joins strings and leaves string escaping
to the C helper ``json.encoder.encode_basestring`` that :mod:`json` itself uses.

Only plain JSON values are handled here: exact ``dict`` (with ``str`` keys), ``list``, ``tuple``,
``str``, ``int``, ``float``, ``bool`` and ``None``. Anything else (a subclass, an enum, a set, a
non-string key, a cycle, a structure too deep) makes :func:`dumps_indented` return None and the
caller uses :func:`json.dumps`, so the text (and any error) is always exactly what :mod:`json` gives.
"""

from __future__ import annotations

import gc
from json.encoder import encode_basestring
from typing import Any

__all__ = ["dumps_indented"]

_INF = float("inf")


class _NotPlain(Exception):
    """A value this encoder leaves to :mod:`json`."""


def _float(value: float) -> str:
    if value != value:
        return "NaN"
    if value == _INF:
        return "Infinity"
    if value == -_INF:
        return "-Infinity"
    return float.__repr__(value)


def _scalar(value: Any) -> str:
    kind = type(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if kind is int:
        return int.__repr__(value)
    if kind is float:
        return _float(value)
    raise _NotPlain


def _encoder(step: str) -> Any:
    enc = encode_basestring

    def encode(value: Any, newline: str) -> str:
        """``value`` at the nesting level whose line start is ``newline`` (``"\\n"`` + its indentation)."""
        kind = type(value)
        if kind is str:
            return enc(value)
        if kind is dict:
            if not value:
                return "{}"
            inner = newline + step
            parts = []
            for key, item in value.items():
                if type(key) is not str:
                    raise _NotPlain
                sub = type(item)
                parts.append(enc(key) + ": " + (enc(item) if sub is str else encode(item, inner)))
            return "{" + inner + ("," + inner).join(parts) + newline + "}"
        if kind is list or kind is tuple:
            if not value:
                return "[]"
            inner = newline + step
            return "[" + inner + ("," + inner).join([enc(item) if type(item) is str else encode(item, inner)
                                                     for item in value]) + newline + "]"
        return _scalar(value)

    return encode


def dumps_indented(data: Any, indent: int | str) -> str | None:
    """``json.dumps(data, indent=indent, ensure_ascii=False)`` for plain JSON data, or None for anything else.

    ``indent`` is a number of spaces or the indentation string, as :func:`json.dumps` takes it.
    """
    step = " " * indent if isinstance(indent, int) else indent
    paused = gc.isenabled()
    gc.disable()  # only acyclic lists and strings are made: collecting (the whole heap, repeatedly) finds nothing
    try:
        return _encoder(step)(data, "\n")
    except (_NotPlain, RecursionError):
        return None
    finally:
        if paused:
            gc.enable()
