"""The static scan's view of a source tree: files parsed with :mod:`ast`, never imported.

A :class:`ModuleIndex` maps dotted module names to parsed :class:`ParsedModule` objects. A file's
module name is computed the way the import scan puts it on ``sys.path``: walk up the folders that
hold an ``__init__.py``; the first folder without one is the package root. Modules of the scanned
tree (and of the roots around it) are parsed lazily, so that ``from .models import Order`` can be
followed without importing anything.

Hostile input is bounded: a file over :data:`MAX_FILE_BYTES` is refused, and parser errors
(``SyntaxError``, the parser's ``MemoryError`` / ``RecursionError`` on deeply nested code, null
bytes) become a :class:`ParseFailure` carrying a one-line reason.
"""

from __future__ import annotations

import ast
import os
import stat
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

MAX_FILE_BYTES = 1024 * 1024
"""Largest source file the static scan reads (1 MiB), the same cap as the manifest loader."""


class ParseFailure(Exception):
    """A file that could not be read or parsed; ``line`` when the parser gave one."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


@dataclass
class ParsedModule:
    """One parsed source file.

    Attributes:
        name: dotted module name (``pkg.models``).
        path: the file.
        tree: the :class:`ast.Module`.
        is_package: True for an ``__init__.py``.
        imports: local name -> ``(module, attribute)``; attribute is None for ``import x [as y]``.
        star_imports: modules imported with ``from m import *``, in order.
        defs: top-level name -> the last statement binding it (ClassDef, FunctionDef or Assign value).
        lines: the source lines, as bytes (AST column offsets count UTF-8 bytes).
        ambiguous: top-level names bound more than once differently, or changed in place.
    """

    name: str
    path: Path
    tree: ast.Module
    is_package: bool = False
    imports: dict[str, tuple[str, str | None]] = field(default_factory=dict)
    star_imports: list[str] = field(default_factory=list)
    defs: dict[str, ast.AST] = field(default_factory=dict)
    lines: list[bytes] = field(default_factory=list, repr=False)
    ambiguous: set[str] = field(default_factory=set)

    @property
    def package(self) -> str:
        return self.name if self.is_package else self.name.rpartition(".")[0]


def iter_python_files(root: Path) -> list[Path]:
    """Every ``*.py`` file under ``root``, sorted, with the import scan's walking rules
    (:func:`enterprise_ai.scan._paths.python_files`); a file is returned as is."""
    from enterprise_ai.scan import _paths

    if root.is_file():
        return [root.resolve()]
    return [Path(p) for p in _paths.python_files(str(root))]


def module_name_for(path: Path) -> tuple[str, Path]:
    """``(dotted name, package root)`` of a file, as the import scan computes them."""
    from enterprise_ai.scan import _paths

    name, root = _paths.module_for_file(str(path))
    return name, Path(root)


def real_path(path: Path) -> Path:
    """``path`` resolved, or made absolute when it cannot be: a dangling symlink or a symlink loop is
    then reported under its own name by :func:`parse_file` (``Path.resolve`` raises RuntimeError on a
    loop before Python 3.13)."""
    try:
        return path.resolve(strict=True)
    except (OSError, RuntimeError):
        return path.absolute()


def parse_file(path: Path, name: str) -> ParsedModule:
    """Read and parse one file; raises :class:`ParseFailure` with a one-line reason."""
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):  # a FIFO or device named *.py would block or never end
            raise ParseFailure("not a regular file")
        size = info.st_size
        if size > MAX_FILE_BYTES:
            raise ParseFailure(f"file is too large for the static scan ({size} bytes > {MAX_FILE_BYTES})")
        source = path.read_bytes()
    except OSError as exc:
        raise ParseFailure(f"cannot read the file: {exc.strerror or exc}") from None
    try:
        tree = ast.parse(source, filename=str(path), type_comments=False)
    except SyntaxError as exc:
        raise ParseFailure(f"syntax error: {exc.msg}", exc.lineno) from None
    except (MemoryError, RecursionError):
        raise ParseFailure("the code is too deeply nested to parse") from None
    except ValueError as exc:  # null bytes, bad encoding declaration
        raise ParseFailure(f"cannot parse the file: {exc}") from None
    module = ParsedModule(name=name, path=path, tree=tree, is_package=path.name == "__init__.py",
                          lines=source.splitlines() if source.isascii() else [])  # ASCII: bytes are columns
    _index_statements(module)
    return module


def _absolute(module: ParsedModule, level: int, target: str | None) -> str:
    if level == 0:
        return target or ""
    base = module.package.split(".") if module.package else []
    if level > 1:
        base = base[: len(base) - (level - 1)]
    return ".".join([*base, *([target] if target else [])])


def _mutated_name(stmt: ast.stmt) -> list[str]:
    """Names a top-level statement changes in place: ``X += ...``, ``X[k] = ...``, ``X.a = ...``,
    ``del X``, ``X.append(...)``."""
    targets: list[ast.expr] = []
    if isinstance(stmt, ast.AugAssign):
        targets = [stmt.target]
    elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
        targets = [t for t in (stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target])
                   if isinstance(t, (ast.Subscript, ast.Attribute))]
    elif isinstance(stmt, ast.Delete):
        targets = list(stmt.targets)
    elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and isinstance(stmt.value.func, ast.Attribute):
        targets = [stmt.value.func.value]
    names = []
    for target in targets:
        while isinstance(target, (ast.Subscript, ast.Attribute)):
            target = target.value
        if isinstance(target, ast.Name):
            names.append(target.id)
    return names


IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError"})


def _executed_statements(body: list[ast.stmt]) -> list[ast.stmt]:
    """Top-level statements, with the body of ``try: ... except ImportError: ...`` blocks spliced in.

    The fallback imports of such a block (``try: from typing import Annotated`` / ``except ImportError:
    from typing_extensions import Annotated``) run only when the first ones fail; the static scan reads
    the ``try`` body, and a name it cannot resolve there is still a warning, never a guess.
    """
    out: list[ast.stmt] = []
    for stmt in body:
        handlers = stmt.handlers if isinstance(stmt, ast.Try) else []
        names = [h.type for h in handlers]
        names = [e for n in names for e in (n.elts if isinstance(n, ast.Tuple) else [n])]
        if handlers and names and all(isinstance(n, ast.Name) and n.id in IMPORT_ERRORS for n in names):
            out += _executed_statements(stmt.body)  # type: ignore[attr-defined]
        else:
            out.append(stmt)
    return out


def _index_statements(module: ParsedModule) -> None:
    """Fill ``imports``, ``star_imports`` and ``defs``; a name bound twice differently, or changed in
    place at top level, goes to ``ambiguous`` (the static scan cannot tell which value an annotation saw)."""
    bindings: dict[str, set[Any]] = {}

    def bind(name: str, how: Any) -> None:
        bindings.setdefault(name, set()).add(how)

    for stmt in _executed_statements(module.tree.body):
        if isinstance(stmt, ast.Import):
            for alias in stmt.names:
                name = alias.asname or alias.name.partition(".")[0]
                target = (alias.name if alias.asname else name, None)
                module.imports[name] = target
                module.defs.pop(name, None)
                bind(name, ("import", target))
        elif isinstance(stmt, ast.ImportFrom):
            source = _absolute(module, stmt.level, stmt.module)
            for alias in stmt.names:
                if alias.name == "*":
                    module.star_imports.append(source)
                    continue
                name = alias.asname or alias.name
                module.imports[name] = (source, alias.name)
                module.defs.pop(name, None)
                bind(name, ("import", (source, alias.name)))
        elif isinstance(stmt, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            module.defs[stmt.name] = stmt
            module.imports.pop(stmt.name, None)
            bind(stmt.name, id(stmt))
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None:
            for target in stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]:
                if isinstance(target, ast.Name):
                    module.defs[target.id] = stmt.value
                    module.imports.pop(target.id, None)
                    bind(target.id, id(stmt))
        for name in _mutated_name(stmt):
            bind(name, ("changed", id(stmt)))
    module.ambiguous = {name for name, hows in bindings.items() if len(hows) > 1}


class ModuleIndex:
    """Parsed modules by dotted name, for the roots of the scanned files (parsed on demand)."""

    def __init__(self) -> None:
        self.roots: list[Path] = []
        self._modules: dict[str, ParsedModule | None] = {}
        self.failures: dict[Path, ParseFailure] = {}
        self._packages: dict[str, tuple[str, Path]] = {}  # folder -> (its package's dotted name, package root)

    def add_file(self, path: Path) -> ParsedModule:
        """Parse a scanned file (raises :class:`ParseFailure`) and remember its package root."""
        name, root = self._module_name(path)
        if root not in self.roots:
            self.roots.append(root)
        resolved = real_path(path)
        cached = self._modules.get(name)
        if cached is not None and cached.path == resolved:
            return cached
        module = parse_file(resolved, name)
        self._modules[name] = module
        return module

    def _module_name(self, path: Path) -> tuple[str, Path]:
        """:func:`module_name_for`, with the package of each folder looked up once (files of a folder share it)."""
        directory, filename = os.path.split(os.path.abspath(path))
        found = self._packages.get(directory)
        if found is None:
            dotted, root = module_name_for(Path(directory, "_.py"))  # any module of the folder: "<package>._"
            found = self._packages[directory] = (dotted.rpartition(".")[0], root)
        package, root = found
        stem = filename[: -len(".py")] if filename.endswith(".py") else filename
        if stem == "__init__":
            return package, root
        return (f"{package}.{stem}" if package else stem), root

    def get(self, name: str) -> ParsedModule | None:
        """The parsed module ``name`` if it is a file under one of the roots, else None."""
        if name in self._modules:
            return self._modules[name]
        found: ParsedModule | None = None
        rel = Path(*name.split(".")) if name else None
        for root in self.roots if rel else []:
            for candidate, is_pkg in ((root / rel / "__init__.py", True), (root / rel.with_suffix(".py"), False)):
                if candidate.is_file():
                    try:
                        found = parse_file(candidate.resolve(), name)
                    except ParseFailure as exc:
                        self.failures[candidate] = exc
                    break
            if found:
                break
        self._modules[name] = found
        return found


def find_module_file(dotted: str, search: list[str] | None = None) -> Path | None:
    """The file of a dotted module name on ``sys.path`` (or ``search``), found without importing."""
    rel = Path(*dotted.split("."))
    for entry in search if search is not None else ["", *sys.path]:
        base = Path(entry or ".")
        for candidate in (base / rel / "__init__.py", base / rel.with_suffix(".py")):
            if candidate.is_file():
                return candidate
    return None
