"""`eai dev` (placeholder: being written)."""

from __future__ import annotations

HELP = "Not written yet."


def dev() -> None:
    """Placeholder."""
