"""Helpers for scan tests: write small Python trees into a temporary folder."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest


def write_tree(root: Path, files: dict[str, str]) -> Path:
    """Write ``{relative path: source}`` under ``root`` (sources dedented) and return ``root``."""
    for relative, source in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(source).lstrip("\n"), encoding="utf-8")
    return root


@pytest.fixture
def tree(tmp_path):
    """``tree({"pkg/mod.py": "..."})`` writes files under a fresh folder and returns it."""

    def make(files: dict[str, str]) -> Path:
        return write_tree(tmp_path, files)

    return make


TOOL_MODULE = '''
from enterprise_ai.tools import tool


@tool
def {fn}(query: str, limit: int = 10) -> list[str]:
    """Look things up.

    Args:
        query: what to look for.
        limit: largest number of results.
    """
    return []
'''


def tool_module(fn: str = "search_orders") -> str:
    """Source of a module defining one ``@tool`` function named ``fn``."""
    return TOOL_MODULE.format(fn=fn)
