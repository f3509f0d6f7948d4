"""Fixtures shared by every test package."""

from __future__ import annotations

import pytest

from tests.support.cli import run_eai


@pytest.fixture
def eai():
    """Call the real CLI in a child process: ``eai(["tools", "scan", path])`` -> CompletedProcess."""
    return run_eai
