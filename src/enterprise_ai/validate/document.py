"""A loaded manifest document and the positions of its values (see :mod:`.loader`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


class _Positions:
    """Positions of one file, shared by its documents; computed on first use for JSON files."""

    __slots__ = ("table", "text")

    def __init__(self, table: dict[str, tuple[int, int]] | None, text: str | None = None) -> None:
        self.table = table
        self.text = text

    def get(self) -> dict[str, tuple[int, int]]:
        if self.table is None:
            self.table = {}
            if self.text is not None:
                from enterprise_ai.validate._json_positions import positions

                try:
                    self.table = positions(self.text)
                except Exception:  # noqa: BLE001 - positions are best effort; the data is already loaded
                    pass
        return self.table


@dataclass
class LoadedDocument:
    """One document of a manifest file.

    Attributes:
        data: the plain data (dict, list, str, int, float, bool, None), JSON-compatible.
        source: the file name (or ``<stdin>``, or the ``source`` given).
        index: 0-based number of the document in its file (YAML document, or item of a JSON list).
        raw: source text of plain YAML scalars that were read as numbers or booleans, by JSON pointer
            (lets a message say ``quote it: "3.10"``).
    """

    data: Any
    source: str
    index: int
    raw: dict[str, str] = field(default_factory=dict, repr=False)
    _positions: _Positions = field(default_factory=lambda: _Positions({}), repr=False)
    _base: str = field(default="", repr=False)

    def position(self, pointer: str = "") -> tuple[int, int] | None:
        """``(line, column)``, both 1-based, of the value at JSON pointer ``pointer`` (RFC 6901).

        For a mapping member this is where its key starts; for a pointer that does not exist (a missing
        required property) the position of its nearest existing parent. ``None`` when unknown.
        """
        table = self._positions.get()
        current = self._base + pointer
        while True:
            found = table.get(current)
            if found is not None:
                return found
            if not current:
                return None
            current = current[: current.rfind("/")]
