"""`eai tools` commands of this module (placeholder: being written)."""

from __future__ import annotations

from enterprise_ai.cli.tools import app  # noqa: F401
