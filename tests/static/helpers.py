"""Paths and small helpers shared by the static-scan tests."""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).resolve().parent / "fixtures"
AGENTS_SDK = REPO / "tests" / "fixtures" / "agents_sdk"
EXAMPLES = REPO / "manifests-examples" / "tools"


def agents_env() -> dict[str, str]:
    """Environment putting the stand-in agents SDK on PYTHONPATH (for the import scan's worker)."""
    current = os.environ.get("PYTHONPATH")
    return {"PYTHONPATH": os.pathsep.join([str(AGENTS_SDK), *([current] if current else [])])}


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path
