"""Finding the tools in Python code: the import scan (child process) and the static scan (AST only).

* :func:`scan` - the import scan: imports the code in a child process and reads the ``LocalTool``
  objects (and agents-SDK tools) it defines (:mod:`enterprise_ai.scan._import`);
* :mod:`enterprise_ai.scan.files` - writing and drift-checking one manifest file per tool;
* :mod:`enterprise_ai.scan.model` - the result types both scans return.

:func:`scan` is imported on first use, so that the worker process and the static scan, which
import submodules of this package, do not load the import scan's machinery.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from enterprise_ai.scan.model import ScannedTool, ScanOptions, ScanProblem, ScanResult

if TYPE_CHECKING:  # pragma: no cover
    from enterprise_ai.scan._import import scan

__all__ = ["ScanOptions", "ScanProblem", "ScanResult", "ScannedTool", "scan"]


def __getattr__(name: str) -> Any:
    if name == "scan":
        from enterprise_ai.scan._import import scan

        return scan
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
