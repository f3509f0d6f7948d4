"""Where ``eai tools export`` gets its manifests: manifest files, or Python code scanned on the way.

* ``*.yaml``, ``*.yml``, ``*.json`` files are loaded with the safe loader of
  :func:`enterprise_ai.validate.load_documents` (every document of the file);
* ``*.py`` files and dotted module names are scanned (the import scan, or the static scan when asked);
* a directory gives both: its manifest files and its Python files, walked with the scan's rules
  (:mod:`enterprise_ai.scan._paths`).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from enterprise_ai.errors import UsageError
from enterprise_ai.scan import _paths
from enterprise_ai.scan.model import ScanOptions, ScanProblem

MANIFEST_SUFFIXES = (".yaml", ".yml", ".json")


def _manifest_files(directory: str, unreadable: list[str]) -> list[str]:
    """Manifest files under ``directory``; entries that are not regular files (a FIFO or device named
    ``*.yaml`` would block the loader, a dangling link or a symlink loop cannot be read) go to ``unreadable``."""
    found: list[str] = []
    for current, dirnames, filenames in os.walk(directory):
        dirnames[:] = sorted(d for d in dirnames if not _paths.is_skipped_dir(current, d))
        for name in sorted(filenames):
            if name.endswith(MANIFEST_SUFFIXES) and not name.startswith("."):
                path = os.path.join(current, name)
                (found if os.path.isfile(path) else unreadable).append(path)
    return found


def collect_manifests(paths: list[str], *, static: bool = False, options: ScanOptions | None = None) -> tuple[list[tuple[dict[str, Any], str]], list[ScanProblem]]:
    """``([(manifest, where), ...], scan problems)`` for the ``PATH`` arguments of ``eai tools export``.

    ``where`` is ``file`` or ``file#index`` (the document number), or ``file:line`` for a scanned tool.

    Raises:
        UsageError: no path, a missing path, a file of another kind; a manifest file that cannot be
            loaded safely (:class:`enterprise_ai.validate.LoadError`).
    """
    from enterprise_ai.validate import load_documents
    from enterprise_ai.validate.loader import path_source

    if not paths:
        raise UsageError("no path to export: give manifest files, Python files, directories or module names")
    manifest_files: list[str] = []
    unreadable: list[str] = []
    code: list[str] = []
    for arg in paths:
        if os.path.isdir(arg):
            manifest_files += _manifest_files(arg, unreadable)
            if _paths.python_files(arg):
                code.append(arg)
        elif os.path.isfile(arg):
            if arg.endswith(MANIFEST_SUFFIXES):
                manifest_files.append(arg)
            elif arg.endswith(".py"):
                code.append(arg)
            else:
                raise UsageError(f"{arg}: neither a manifest file (.yaml, .yml, .json) nor Python code (.py)")
        elif _paths.looks_like_module_name(arg):
            code.append(arg)
        else:
            raise UsageError(f"{arg}: no such file, directory or module")
    found: list[tuple[dict[str, Any], str]] = []
    for file in manifest_files:
        source = path_source(Path(file))
        for doc in load_documents(Path(file), source=source):
            found.append((doc.data, f"{source}#{doc.index}" if doc.index else source))
    problems = [ScanProblem(f, "not a regular file (a pipe, a device, a dangling link or a symlink loop): not read")
                for f in unreadable]
    if code:
        options = options or ScanOptions()
        if static:
            from enterprise_ai.scan.static import scan_static

            result = scan_static(code, options)
        else:
            from enterprise_ai.scan import scan

            result = scan(code, options)
        found += [(tool.manifest, f"{tool.file}:{tool.line}") for tool in result.tools]
        problems += result.problems
    return found, problems
