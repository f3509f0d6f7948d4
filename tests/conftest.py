"""Fixtures shared by every test package."""

from __future__ import annotations

import pytest

from tests.support.cli import run_eai


@pytest.fixture
def eai():
    """Call the real CLI in a child process: ``eai(["tools", "scan", path])`` -> CompletedProcess."""
    return run_eai


@pytest.fixture(scope="session")
def gateway(tmp_path_factory):
    """A real ``eai gateway serve`` child process, shared by the tests of one xdist worker.

    Yields a :class:`tests.support.gateway.GatewayProcess` (``base_url``, ``tokens``, ``headers(who)``,
    ``client(who)``, ``unique(prefix)``); see that module for the principals and the config.
    Tests must not interfere: create tools with ``gateway.unique(...)`` names.
    """
    from tests.support.gateway import running_gateway

    with running_gateway(tmp_path_factory.mktemp("gateway")) as gw:
        yield gw
