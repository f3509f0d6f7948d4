"""Load :class:`~enterprise_ai.tools.LocalTool` objects from Python files, in this process (for ``eai tools serve``).

The tool host runs user code by design, so unlike ``eai tools scan`` (which imports user modules in a child
process and only reports manifests) this loader imports them here and keeps the live tool objects.
File discovery and module naming reuse the scan's rules (:mod:`enterprise_ai.scan._paths`): directories
are walked recursively, skipping hidden folders, virtual environments, ``__pycache__``, ``build``,
``dist``, ``node_modules`` and ``site-packages``; a file inside packages is imported under its dotted
name with the package root on ``sys.path`` (so relative imports work); a dotted name that is not a path
(``shop.tools``) is imported as a module from ``sys.path`` (the current directory is added first).

Every module-level attribute that is a ``LocalTool`` is served, once per tool object.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Iterable
from typing import Any

from enterprise_ai.errors import UsageError
from enterprise_ai.scan import _paths

__all__ = ["load_local_tools"]


def _import(module_name: str, root: str | None, label: str) -> Any:
    if root and root not in sys.path:
        sys.path.insert(0, root)
    try:
        return importlib.import_module(module_name)
    except SystemExit as exc:
        raise UsageError(f"{label}: importing the module called sys.exit({exc.code!r})") from None
    except Exception as exc:  # noqa: BLE001 - user code may raise anything; report it in one line
        lines = str(exc).strip().splitlines()
        detail = f": {lines[-1]}" if lines else ""
        raise UsageError(f"{label}: import failed: {type(exc).__name__}{detail}") from exc


def load_local_tools(paths: Iterable[str | os.PathLike[str]]) -> list[Any]:
    """Import the modules named by ``paths`` and return every ``LocalTool`` they define at module level.

    Args:
        paths: ``.py`` files, directories (walked recursively) or dotted module names.

    Returns:
        the tools, in file order then attribute order, each object once.

    Raises:
        UsageError: a path that does not exist, a module that fails to import (the message names the file and
            the exception), two different tools with the same name, or no tool found at all.
    """
    from enterprise_ai.tools import LocalTool

    paths = [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)
    cwd = os.getcwd()
    if cwd not in sys.path:
        sys.path.insert(0, cwd)
    targets: list[tuple[str, str | None, str]] = []  # (module name, sys.path root, label)
    for raw in paths:
        text = os.fspath(raw)
        if os.path.isdir(text):
            files = _paths.python_files(text)
        elif os.path.isfile(text):
            files = [os.path.abspath(text)]
        elif _paths.looks_like_module_name(text):
            targets.append((text, None, text))
            continue
        else:
            raise UsageError(f"{text}: no such file, directory or module")
        for file in files:
            module_name, root = _paths.module_for_file(file)
            targets.append((module_name, root, os.path.relpath(file, cwd)))
    tools: list[Any] = []
    seen_ids: set[int] = set()
    by_name: dict[str, str] = {}
    for module_name, root, label in targets:
        module = _import(module_name, root, label)
        for value in list(vars(module).values()):
            if not isinstance(value, LocalTool) or id(value) in seen_ids:
                continue
            seen_ids.add(id(value))
            if value.name in by_name:
                raise UsageError(f"{label}: tool name {value.name!r} is already defined in {by_name[value.name]}")
            by_name[value.name] = label
            tools.append(value)
    if not tools:
        shown = ", ".join(os.fspath(p) for p in paths)
        raise UsageError(f"no tool found in {shown} (functions decorated with enterprise_ai.tools.tool)")
    return tools
