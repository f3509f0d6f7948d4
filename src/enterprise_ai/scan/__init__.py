"""Finding the tools in Python code: the import scan (child process) and the static scan (AST only).

* :func:`scan` - the import scan: imports the code in a child process and reads the ``LocalTool``
  objects (and agents-SDK tools) it defines (:mod:`enterprise_ai.scan._import`);
* :mod:`enterprise_ai.scan.files` - writing and drift-checking one manifest file per tool;
* :mod:`enterprise_ai.scan.model` - the result types both scans return.
"""

from __future__ import annotations

from enterprise_ai.scan._import import scan
from enterprise_ai.scan.model import ScannedTool, ScanOptions, ScanProblem, ScanResult

__all__ = ["ScanOptions", "ScanProblem", "ScanResult", "ScannedTool", "scan"]
