"""`eai schema` (placeholder: being written)."""

from __future__ import annotations

HELP = "Not written yet."


def schema() -> None:
    """Placeholder."""
