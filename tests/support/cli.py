"""Run the real ``eai`` command in a child process, as a user would."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

EAI = [sys.executable, "-m", "enterprise_ai.cli"]


def clean_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The current environment without ``EAI_*`` variables, with colour off and a fixed width."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("EAI_") and k != "GITHUB_ACTIONS"}
    env["NO_COLOR"] = "1"
    env["COLUMNS"] = "200"
    env["PYTHONIOENCODING"] = "utf-8"
    if extra:
        env.update(extra)
    return env


def run_eai(
    args: Sequence[str | os.PathLike[str]],
    *,
    input: str | None = None,  # noqa: A002 - mirrors subprocess.run
    env: Mapping[str, str] | None = None,
    cwd: str | Path | None = None,
    timeout: float = 120,
) -> subprocess.CompletedProcess[str]:
    """Run ``eai ARGS`` and return the completed process (text stdout/stderr, never raises on exit code)."""
    return subprocess.run(
        [*EAI, *map(str, args)],
        input=input,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=clean_env(env),
        cwd=cwd,
        timeout=timeout,
        stdin=None if input is not None else subprocess.DEVNULL,
    )
