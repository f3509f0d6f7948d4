"""The one place that renders data: tables, JSON and YAML on stdout, messages on stderr.

Commands return plain data (dicts, lists, strings) from core functions and hand it to
:func:`emit`. Rules:

* data goes to stdout, everything else (notes, warnings, errors, progress) to stderr;
* a rich table only when stdout is a terminal; otherwise plain tab-separated text, untruncated;
* user data (tool names, descriptions, server messages) is never read as rich markup;
* no colour with ``--no-color`` or ``NO_COLOR``.

rich and PyYAML are imported lazily so that ``eai --help`` stays fast.
"""

from __future__ import annotations

import enum
import json
import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from rich.console import Console

    from enterprise_ai.cli.state import CliState


class OutputFormat(str, enum.Enum):
    """Values of the ``-o/--output`` option of list and get commands."""

    table = "table"
    json = "json"
    yaml = "yaml"


def make_console(state: CliState | None = None, *, stderr: bool = True, file: IO[str] | None = None) -> Console:
    """A new rich Console for one command (never shared): stderr by default, colour off when asked."""
    from rich.console import Console

    no_color = bool(state and state.no_color)
    return Console(
        file=file,
        stderr=stderr if file is None else False,
        no_color=no_color,
        highlight=False,
        emoji=False,
        markup=False,
        soft_wrap=True,
    )


def _json_default(value: Any) -> Any:
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    return str(value)


def to_json(data: Any, *, indent: int | None = 2) -> str:
    """JSON text of ``data`` (UTF-8 characters kept, keys in insertion order), without a final newline.

    With the default 2-space indent the text comes from orjson (the stdlib encoder falls back to
    pure Python whenever ``indent`` is set: about 1 s per 10,000 manifests, against 0.06 s); for
    plain JSON data the bytes are the same as ``json.dumps(data, indent=2, ensure_ascii=False)``.
    Whatever orjson refuses (integers over 64 bits, cycles) goes through :mod:`json`.
    """
    if indent == 2:
        import orjson

        try:
            return orjson.dumps(
                data, default=_json_default, option=orjson.OPT_INDENT_2 | orjson.OPT_NON_STR_KEYS
            ).decode("utf-8")
        except (orjson.JSONEncodeError, TypeError):
            pass
    return json.dumps(data, indent=indent, ensure_ascii=False, default=_json_default)


_DUMPER: type | None = None


def _yaml_dumper() -> type:
    """A SafeDumper (C-accelerated when available) that writes multi-line strings as block literals; built once."""
    global _DUMPER
    if _DUMPER is not None:
        return _DUMPER
    import yaml

    base = getattr(yaml, "CSafeDumper", yaml.SafeDumper)

    class Dumper(base):  # type: ignore[misc, valid-type]
        pass

    def str_presenter(dumper: Any, value: str) -> Any:
        style = "|" if "\n" in value and not value.startswith((" ", "\t")) else None
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)

    Dumper.add_representer(str, str_presenter)
    _DUMPER = Dumper
    return Dumper


def _plain(data: Any) -> Any:
    """``data`` as plain JSON types (enums as values, tuples and sets as lists)."""
    return json.loads(to_json(data, indent=None))


def _dump_all(docs: list[Any]) -> str:
    import yaml

    return yaml.dump_all(
        [_plain(doc) for doc in docs],
        Dumper=_yaml_dumper(),
        sort_keys=False,
        allow_unicode=True,
        default_flow_style=False,
        width=4096,
        explicit_start=False,
    )


def to_yaml(data: Any) -> str:
    """Block-style YAML of ``data``: keys in insertion order, UTF-8 kept, ends with a newline.

    Strings YAML 1.1 would misread (``yes``, ``no``, ``on``, ``3.10``) are quoted by PyYAML's resolver.
    """
    return _dump_all([data])


def yaml_documents(docs: Iterable[Any]) -> str:
    """Several YAML documents separated by ``---`` lines (empty string for no document)."""
    docs = list(docs)
    return _dump_all(docs) if docs else ""


_CONTROL = {c: f"\\x{c:02x}" for c in [*range(0x09), *range(0x0B, 0x20), *range(0x7F, 0xA0)]}


def printable(text: str) -> str:
    """``text`` with terminal control characters (ESC, BEL, C1...) shown as ``\\xNN``; tab and newline kept.

    Used for everything written to a terminal, so that user or server data cannot move the cursor,
    change colours or forge hyperlinks (ANSI/OSC escape sequences), just as it cannot apply rich markup.
    """
    return text.translate(_CONTROL)


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return to_json(value, indent=None)
    return str(value)


def _get(row: Mapping[str, Any], key: str) -> Any:
    value: Any = row
    for part in key.split("."):
        if not isinstance(value, Mapping):
            return None
        value = value.get(part)
    return value


def emit(
    data: Any,
    fmt: OutputFormat | str = OutputFormat.table,
    *,
    columns: Sequence[tuple[str, str]] | None = None,
    state: CliState | None = None,
    out: IO[str] | None = None,
    title: str | None = None,
) -> None:
    """Write ``data`` to stdout in the chosen format.

    Args:
        data: a mapping, a list of mappings, or any JSON-able value.
        fmt: ``table`` (rich table on a terminal, tab-separated text otherwise), ``json`` or ``yaml``.
        columns: for tables, ``(header, key)`` pairs; a key may be dotted (``metadata.name``).
            Without columns a mapping is shown as key/value rows.
        state: the CLI state (colour), from ``ctx.obj``.
        out: the stream, stdout by default (tests pass a StringIO).
        title: optional table title (terminal only).
    """
    stream = out or sys.stdout
    fmt = OutputFormat(fmt)
    if fmt is OutputFormat.json:
        stream.write(to_json(data) + "\n")
        return
    if fmt is OutputFormat.yaml:
        stream.write(to_yaml(data))
        return
    rows: list[Mapping[str, Any]]
    if isinstance(data, Mapping) and columns is None:
        columns = [("KEY", "key"), ("VALUE", "value")]
        rows = [{"key": k, "value": v} for k, v in data.items()]
    elif isinstance(data, Mapping):
        rows = [data]
    else:
        rows = list(data or [])
        if columns is None:
            keys: list[str] = []
            for row in rows:
                for key in row:
                    if key not in keys:
                        keys.append(key)
            columns = [(k.upper(), k) for k in keys]
    write_table(rows, columns, state=state, out=stream, title=title)


def write_table(
    rows: Iterable[Mapping[str, Any]],
    columns: Sequence[tuple[str, str]],
    *,
    state: CliState | None = None,
    out: IO[str] | None = None,
    title: str | None = None,
    header: bool = True,
) -> None:
    """Write rows as a rich table on a terminal, else as tab-separated lines (header first)."""
    stream = out or sys.stdout
    if stream.isatty():
        from rich.table import Table
        from rich.text import Text

        table = Table(title=title, highlight=False, show_header=header)
        for head, _ in columns:
            table.add_column(head, overflow="fold")
        for row in rows:
            table.add_row(*(Text(printable(_cell(_get(row, key)))) for _, key in columns))
        make_console(state, file=stream).print(table)
        return
    if header:
        stream.write("\t".join(head for head, _ in columns) + "\n")
    for row in rows:
        stream.write("\t".join(_cell(_get(row, key)).replace("\t", " ").replace("\n", " ") for _, key in columns) + "\n")
    stream.flush()


def note(message: str, state: CliState | None = None, *, style: str | None = None) -> None:
    """A message for the user on stderr (not data); ``message`` is never read as markup."""
    from rich.text import Text

    make_console(state).print(Text(printable(message), style=style or ""))


def warn(message: str, state: CliState | None = None) -> None:
    """``warning: <message>`` on stderr."""
    note(f"warning: {message}", state, style="yellow")


def error_line(message: str, state: CliState | None = None, hint: str | None = None) -> None:
    """``eai: error: <message>`` on stderr, and the hint on a second line when given."""
    note(f"eai: error: {message}", state, style="red")
    if hint:
        note(f"hint: {hint}", state)
