"""Per-invocation CLI state, passed to every command as ``ctx.obj`` (never a module global)."""

from __future__ import annotations

import os
from dataclasses import dataclass


@dataclass
class CliState:
    """Options of the root callback.

    Attributes:
        debug: log HTTP traffic and internal steps to stderr, and show tracebacks (no local variables).
        no_color: no colour or style on any output; also set by a non-empty ``NO_COLOR`` (https://no-color.org).
    """

    debug: bool = False
    no_color: bool = False

    def __post_init__(self) -> None:
        if os.environ.get("NO_COLOR"):
            self.no_color = True


def get_state(ctx: object) -> CliState:
    """The :class:`CliState` of a click/Typer context, or defaults when it has none."""
    obj = getattr(ctx, "obj", None)
    if isinstance(obj, CliState):
        return obj
    root = getattr(ctx, "find_root", None)
    if root is not None:
        obj = getattr(root(), "obj", None)
        if isinstance(obj, CliState):
            return obj
    return CliState()
