"""`eai completion` (placeholder: being written)."""

from __future__ import annotations

HELP = "Not written yet."


def completion() -> None:
    """Placeholder."""
