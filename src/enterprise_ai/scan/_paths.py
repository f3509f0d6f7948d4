"""Which Python files a scan reads: directory walking rules and module names.

Shared by the CLI process (expanding ``PATH`` arguments) and the import worker (expanding a
dotted package name), so it imports nothing beyond the standard library.

Rules of a recursive directory walk (the directory given on the command line is always entered):

* folders skipped: hidden ones (``.git``, ``.tox``...), virtual environments (a folder holding a
  ``pyvenv.cfg``, or named ``venv``, ``.venv`` or ``env``), ``__pycache__``, ``node_modules``, ``build``,
  ``dist`` and ``site-packages``;
* files kept: ``*.py`` that are not hidden and are not ``__main__.py`` (a package's entry point runs
  its program when imported, so it is only scanned when named explicitly);
* order: sorted by path, so every scan of the same tree sees modules in the same order.
"""

from __future__ import annotations

import os
import re

SKIPPED_DIR_NAMES = frozenset(
    {"__pycache__", "node_modules", "build", "dist", "site-packages", "venv", ".venv", "env"}
)

_DOTTED_NAME = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$")


def is_skipped_dir(parent: str, name: str) -> bool:
    """True when the folder ``name`` inside ``parent`` is not walked (see the module rules)."""
    if name.startswith(".") or name in SKIPPED_DIR_NAMES:
        return True
    return os.path.isfile(os.path.join(parent, name, "pyvenv.cfg"))


def python_files(directory: str) -> list[str]:
    """Every ``.py`` file under ``directory`` kept by the walking rules, as absolute paths, sorted."""
    found: list[str] = []
    for current, dirnames, filenames in os.walk(os.path.abspath(directory)):
        dirnames[:] = sorted(d for d in dirnames if not is_skipped_dir(current, d))
        for filename in sorted(filenames):
            if filename.endswith(".py") and not filename.startswith(".") and filename != "__main__.py":
                found.append(os.path.join(current, filename))
    return found


def module_for_file(path: str) -> tuple[str, str]:
    """The dotted module name of a ``.py`` file and the folder to put on ``sys.path`` to import it.

    The package root is found by walking up while the folder holds an ``__init__.py``:
    ``/src/shop/orders/api.py`` with ``shop/__init__.py`` and ``shop/orders/__init__.py`` gives
    ``("shop.orders.api", "/src")``; a package's ``__init__.py`` gives the package name.
    """
    path = os.path.abspath(path)
    directory, filename = os.path.split(path)
    stem = filename[: -len(".py")] if filename.endswith(".py") else filename
    parts = [] if stem == "__init__" else [stem]
    while os.path.isfile(os.path.join(directory, "__init__.py")):
        directory, package = os.path.split(directory)
        if not package:  # reached the filesystem root
            break
        parts.insert(0, package)
    return ".".join(parts), directory


def looks_like_module_name(text: str) -> bool:
    """True for ``shop.orders``-style names (no slash, no ``.py`` suffix), which the worker imports by name."""
    return bool(_DOTTED_NAME.match(text)) and not text.endswith(".py")
