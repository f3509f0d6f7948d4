"""Safe loading of manifest files: the one loader every command uses (validate, register, the gateway).

What it guarantees (issue 3, "Safe loading"):

* **YAML** is read from PyYAML's event stream (libyaml's C parser when present), never constructed by
  PyYAML: no Python object can be created (only the YAML core tags ``!!str !!int !!float !!bool !!null
  !!map !!seq`` are accepted), anchors and aliases are refused at the event level, before anything is
  expanded (an alias bomb costs one event), duplicate keys are an error naming both lines, and plain
  scalars are resolved with the YAML 1.2 core schema: ``yes``, ``no``, ``on``, ``off`` stay strings,
  only ``true``/``false`` are booleans; ``3.10`` is a number (the checker then says to quote it).
* **JSON** is read with :func:`json.loads`; duplicate keys, ``NaN`` and ``Infinity`` (and numbers that
  overflow to infinity) are refused. A file may hold one object or a list of objects (one document each).
* A size cap (``max_bytes``, 1 MiB by default) checked before decoding, a nesting cap (``max_depth``),
  UTF-8 with or without a BOM, and a clear error for anything else (UTF-16, UTF-32, Latin-1), for a NUL
  character, a BOM after the start, and (JSON) a lone surrogate escape such as ``"\\ud800"``.
* What YAML readers disagree on is refused (``load.ambiguous``): keys that are not strings, merge keys
  (``<<``), integers with a leading zero (``0777``: octal in YAML 1.1, decimal in 1.2), a ``%YAML``
  directive other than 1.2, and U+0085/U+2028/U+2029 (line breaks in YAML 1.1 only: every line
  number after one would differ from the editor's).

Loading problems are :class:`~enterprise_ai.validate.findings.Finding` objects of the ``load.*`` rules.
:func:`iter_documents` yields them in stream order with the documents (the validator reports them and
goes on with the next file); :func:`load_documents` raises :class:`LoadError` on the first one (for
commands that need every document or nothing: register, the gateway).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from enterprise_ai.errors import UsageError
from enterprise_ai.validate._json_docs import json_documents
from enterprise_ai.validate.document import LoadedDocument, _Positions
from enterprise_ai.validate.findings import Finding, make_finding

__all__ = ["DEFAULT_MAX_BYTES", "DEFAULT_MAX_DEPTH", "LoadError", "LoadedDocument", "iter_documents", "load_documents",
           "path_source"]

DEFAULT_MAX_BYTES = 1_048_576
DEFAULT_MAX_DEPTH = 64
_YAML11_BREAKS = re.compile("[\x85\u2028\u2029]")


class LoadError(UsageError):
    """A manifest file could not be loaded safely (exit code 2 in the CLI).

    Attributes:
        finding: the first loading finding (rule ``load.*``, file, line, column).
    """

    def __init__(self, finding: Finding) -> None:
        where = ":".join(str(x) for x in (finding.file, finding.line, finding.column) if x is not None)
        super().__init__(f"{where}: {finding.message} [{finding.rule}]")
        self.finding = finding


def _decode(raw: bytes, source: str) -> str | Finding:
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    elif raw.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")):
        return make_finding(
            "load.encoding", "", "the file is UTF-32 (it starts with a UTF-32 byte order mark): save it as UTF-8",
            file=source, line=1, column=1,
        )
    elif raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return make_finding(
            "load.encoding", "", "the file is UTF-16 (it starts with a UTF-16 byte order mark): save it as UTF-8",
            file=source, line=1, column=1,
        )
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        byte = raw[exc.start]
        return make_finding(
            "load.encoding", "",
            f"byte 0x{byte:02X} is not UTF-8 (is the file Latin-1 or Windows-1252?): save the file as UTF-8",
            file=source, line=line, column=column,
        )


def _line_column(text: str, offset: int) -> dict[str, int]:
    return {"line": text.count("\n", 0, offset) + 1, "column": offset - (text.rfind("\n", 0, offset) + 1) + 1}


def _text_problem(text: str) -> Finding | None:
    """A NUL character or a byte order mark after the start: refused with their position (C-speed scans)."""
    if "\x00" in text:
        return make_finding(
            "load.encoding", "", "NUL character (U+0000) in the text (is the file UTF-16 or UTF-32 without a byte "
            "order mark?): save the file as UTF-8 text", **_line_column(text, text.index("\x00")))
    if "\ufeff" in text:
        return make_finding(
            "load.encoding", "", "byte order mark (U+FEFF) after the start of the file (files joined together?): "
            "remove it", **_line_column(text, text.index("\ufeff")))
    return None


def _is_json(source: str, text: str, kind: str) -> bool:
    if kind != "auto":
        return kind == "json"
    suffix = os.path.splitext(source)[1].lower()
    if suffix in (".yaml", ".yml"):
        return False
    if suffix == ".json":
        return True
    return text.lstrip()[:1] in ("{", "[")


def iter_documents(
    path_or_text: str | bytes | os.PathLike[str],
    *,
    source: str | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    max_depth: int = DEFAULT_MAX_DEPTH,
    kind: str = "auto",
) -> Iterator[LoadedDocument | Finding]:
    """Documents of one file, and its loading findings, in stream order.

    Args:
        path_or_text: a path (``os.PathLike``) to read, or the content itself (``bytes`` or ``str``).
        source: the name used in findings (defaults to the path).
        max_bytes: size cap in bytes, checked before decoding (1 MiB by default).
        max_depth: nesting cap (mappings and lists), 64 by default.
        kind: ``yaml``, ``json`` or ``auto`` (by file suffix; without one, JSON when the text starts with
            ``{``/``[`` and parses as JSON, else YAML, so flow-style YAML on standard input works).

    A file that fails to load still yields the documents before the problem; a document with a
    loading finding is not yielded. Never raises for bad content; ``OSError`` becomes ``load.read``.
    """
    if isinstance(path_or_text, os.PathLike):
        name = source or os.fspath(path_or_text)
        try:
            with open(path_or_text, "rb") as handle:
                raw: bytes | str = handle.read(max_bytes + 1)
        except OSError as exc:
            yield make_finding("load.read", "", f"cannot read the file: {exc.strerror or exc}", file=name)
            return
    else:
        name = source or "<input>"
        raw = path_or_text
    size = len(raw.encode("utf-8")) if isinstance(raw, str) else len(raw)
    if size > max_bytes:
        yield make_finding(
            "load.too-large", "",
            f"the file is larger than {max_bytes} bytes: split it, or raise the cap with --max-bytes",
            file=name, line=1, column=1,
        )
        return
    text = raw if isinstance(raw, str) else _decode(raw, name)
    if isinstance(text, Finding):
        yield text
        return
    if text.startswith("\ufeff"):
        text = text[1:]
    problem = _text_problem(text)
    if problem is not None:
        problem.file = name
        yield problem
        return
    items: Iterator[Any] | None = None
    if _is_json(name, text, kind):
        items = json_documents(text, name, max_depth)
        if kind == "auto" and os.path.splitext(name)[1].lower() != ".json":
            # Guessed from a leading { or [ (standard input, no suffix): flow-style YAML starts so too.
            listed = list(items)
            items = None if listed and isinstance(listed[0], Finding) and listed[0].rule == "load.syntax" \
                else iter(listed)
    if items is None:
        from enterprise_ai.validate import _yaml_events

        match = _YAML11_BREAKS.search(text)
        if match is not None:
            yield make_finding(
                "load.ambiguous", "", f"U+{ord(match.group()):04X} is a line break in YAML 1.1 (PyYAML) but not in "
                "YAML 1.2 nor in editors: write it as an escape (\\N, \\L, \\P) in a double-quoted string",
                file=name, **_line_column(text, match.start()))
            return
        items = _yaml_events.build_documents(text, max_depth=max_depth)
    count = 0
    refused = False
    for item in items:
        if isinstance(item, Finding):
            item.file = name
            refused = True
            yield item
        elif isinstance(item, LoadedDocument):
            item.source = name
            count += 1
            yield item
        else:  # a YAML document: _yaml_events.Built
            if item.data is None:
                continue
            count += 1
            yield LoadedDocument(item.data, name, item.index, item.raw, _Positions(item.positions))
    if count == 0 and not refused:
        yield make_finding("load.empty", "", "the file holds no manifest", file=name, line=1, column=1)


def load_documents(
    path_or_text: str | bytes | os.PathLike[str],
    *,
    source: str,
    max_bytes: int = DEFAULT_MAX_BYTES,
    max_depth: int = DEFAULT_MAX_DEPTH,
    kind: str = "auto",
) -> list[LoadedDocument]:
    """Every document of one manifest file, loaded safely (see the module docstring), or an error.

    Args:
        path_or_text: a path (``os.PathLike``, e.g. :class:`pathlib.Path`) to read, or the content
            itself (``bytes``, or ``str`` text; a ``str`` is never taken as a path).
        source: the file name shown in positions and errors (``<stdin>`` for standard input).
        max_bytes: size cap in bytes (default 1 MiB = 1,048,576).
        max_depth: nesting cap (default 64 levels of mappings and lists).
        kind: ``yaml``, ``json`` or ``auto`` (by the suffix of ``source``; JSON if the text starts
            with ``{`` or ``[``).

    Returns:
        The documents in file order (empty YAML documents skipped; a JSON list gives one per item).

    Raises:
        LoadError: (a :class:`~enterprise_ai.errors.UsageError`) on the first loading problem, with
            its ``load.*`` finding (file, line, column). A file with no document only warns in
            :func:`iter_documents` and returns ``[]`` here.
    """
    documents: list[LoadedDocument] = []
    for item in iter_documents(path_or_text, source=source, max_bytes=max_bytes, max_depth=max_depth, kind=kind):
        if isinstance(item, Finding):
            if item.severity == "error":
                raise LoadError(item)
        else:
            documents.append(item)
    return documents


def path_source(path: Path) -> str:
    """The name used for ``path`` in findings: relative to the current directory when below it."""
    try:
        return os.fspath(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return os.fspath(path)
