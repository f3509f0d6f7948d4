"""Turn annotation and literal expressions of parsed code into real Python objects, safely.

Nothing from the scanned tree is imported or run. An expression is evaluated node by node:

* literals (``ast.literal_eval`` rules) and references to module-level literal constants;
* names from ``builtins`` (types only), and from a fixed list of trusted library modules
  (:data:`SAFE_MODULES`: ``typing``, ``datetime``, ``pydantic``...), which are imported normally;
* names defined in the scanned tree, following ``import`` / ``from ... import`` inside it: type
  aliases, and classes that are Enums, TypedDicts, dataclasses or pydantic models, rebuilt by
  :mod:`enterprise_ai.scan.static_classes` from their literal parts;
* subscripts (``list[int]``, ``Annotated[...]``), ``X | Y``, string (forward) annotations, and calls of
  a few trusted constructors with no side effects (``pydantic.Field``, ``dataclasses.field``,
  ``enum.auto``, ``typing.NewType``, ``annotated_types`` constraints, ``pathlib.Path``, ``datetime.date``...).

Anything else raises :class:`Unresolved` with a reason, and the caller reports it.
"""

from __future__ import annotations

import ast
import builtins
import importlib
import operator
from typing import Any

from enterprise_ai.scan.static_index import ModuleIndex, ParsedModule

SAFE_MODULES = frozenset(
    {
        "typing", "typing_extensions", "collections", "collections.abc", "datetime", "uuid", "pathlib",
        "decimal", "enum", "dataclasses", "ipaddress", "re", "pydantic", "pydantic.fields",
        "pydantic.dataclasses", "pydantic.types", "pydantic.networks", "pydantic.config", "annotated_types",
    }
)
"""Library modules whose names the static scan may import and use (no user code lives there)."""

SAFE_BUILTINS = frozenset(
    {"int", "float", "str", "bool", "bytes", "bytearray", "list", "dict", "set", "frozenset", "tuple",
     "object", "type", "complex", "True", "False", "None"}
)


def _safe_calls() -> set[Any]:
    """The callables an expression may call: constructors of plain values, with no side effects."""
    import dataclasses
    import datetime
    import decimal
    import enum
    import pathlib
    import typing
    import uuid

    import pydantic

    calls: set[Any] = {pydantic.Field, pydantic.ConfigDict, dataclasses.field, enum.auto, typing.NewType,
                       pathlib.Path, pathlib.PurePath, pathlib.PurePosixPath, datetime.date, datetime.datetime,
                       datetime.time, datetime.timedelta, uuid.UUID, decimal.Decimal}
    try:
        import annotated_types

        calls.update(getattr(annotated_types, n) for n in annotated_types.__all__ if isinstance(getattr(annotated_types, n), type))
    except ImportError:  # pragma: no cover
        pass
    calls.update(getattr(pydantic, n) for n in ("StringConstraints", "conint", "constr", "confloat", "conlist"))
    return calls


class Unresolved(Exception):
    """An expression the static scan cannot turn into a value; ``reason`` says why, in one line."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class ModuleRef:
    """A module bound to a name (``import typing as t``), inside or outside the scanned tree."""

    def __init__(self, name: str) -> None:
        self.name = name


_BINOPS = {ast.BitOr: operator.or_, ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul}


class Evaluator:
    """Evaluates expressions of the modules of one :class:`ModuleIndex`; caches rebuilt classes."""

    def __init__(self, index: ModuleIndex) -> None:
        self.index = index
        self.classes: dict[tuple[str, str], Any] = {}
        self.building: set[tuple[str, str]] = set()
        self.stack: list[tuple[str, str]] = []
        self.aliases: dict[tuple[str, str], Any] = {}
        self.built_ids: set[int] = set()
        self.annotations: dict[tuple[str, bytes], Any] = {}
        self._safe_calls: set[Any] | None = None

    # -- names -------------------------------------------------------------------------
    def qualified(self, module: ParsedModule, node: ast.AST) -> str | None:
        """The dotted name an expression refers to through the imports (``t`` -> ``enterprise_ai.tools.tool``).

        Used to recognise decorators and types by name without evaluating them.
        """
        if isinstance(node, ast.Name):
            if node.id in module.imports:
                source, attr = module.imports[node.id]
                return f"{source}.{attr}" if attr else source
            if node.id in module.defs:
                return f"{module.name}.{node.id}"
            return node.id
        if isinstance(node, ast.Attribute):
            base = self.qualified(module, node.value)
            return f"{base}.{node.attr}" if base else None
        return None

    def lookup(self, module: ParsedModule, name: str, depth: int = 0) -> Any:
        """The object a top-level name of ``module`` stands for (raises :class:`Unresolved`)."""
        if depth > 50:
            raise Unresolved(f"import cycle while resolving {name!r}")
        if name in module.ambiguous:
            raise Unresolved(f"{name!r} is bound more than once or changed in place in {module.name}")
        node = module.defs.get(name)
        if isinstance(node, ast.ClassDef):
            return self.build_class(module, node)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            raise Unresolved(f"{name!r} is a function, not a type")
        if node is not None:
            key = (module.name, name)
            if key not in self.aliases:
                self.aliases[key] = Unresolved(f"{name!r} refers to itself")
                try:
                    self.aliases[key] = self.eval(module, node)
                except Unresolved as exc:
                    if getattr(exc, "aliased", False):  # keep the innermost reason of a chain A = B = ...
                        self.aliases[key] = exc
                    else:
                        self.aliases[key] = Unresolved(f"{name!r} = ... cannot be read statically: {exc.reason}")
                        self.aliases[key].aliased = True  # type: ignore[attr-defined]
            value = self.aliases[key]
            if isinstance(value, Unresolved):
                raise value
            return value
        if name in module.imports:
            source, attr = module.imports[name]
            if attr is None:
                return ModuleRef(source)
            return self.attribute_of_module(source, attr, depth + 1)
        for star in module.star_imports:
            try:
                return self.attribute_of_module(star, name, depth + 1)
            except Unresolved:
                continue
        if name in SAFE_BUILTINS:
            return getattr(builtins, name)
        raise Unresolved(f"name {name!r} is not defined in {module.name}")

    def attribute_of_module(self, source: str, attr: str, depth: int = 0) -> Any:
        parsed = self.index.get(source)
        if parsed is not None:
            if attr in parsed.defs or attr in parsed.imports or parsed.star_imports:
                return self.lookup(parsed, attr, depth)
            if self.index.get(f"{source}.{attr}") is not None:
                return ModuleRef(f"{source}.{attr}")
            raise Unresolved(f"{attr!r} is not defined in {source}")
        if source in SAFE_MODULES:
            try:
                return getattr(importlib.import_module(source), attr)
            except AttributeError:
                if f"{source}.{attr}" in SAFE_MODULES:
                    return ModuleRef(f"{source}.{attr}")
                raise Unresolved(f"{source} has no attribute {attr!r}") from None
        if f"{source}.{attr}" in SAFE_MODULES or self.index.get(f"{source}.{attr}") is not None:
            return ModuleRef(f"{source}.{attr}")
        raise Unresolved(f"{source}.{attr} comes from a module outside the scanned tree ({source})")

    # -- expressions -----------------------------------------------------------------------
    def eval(self, module: ParsedModule, node: ast.AST, ann: bool = False) -> Any:
        """Evaluate an expression (raises :class:`Unresolved`); with ``ann``, a string is a forward reference."""
        if isinstance(node, ast.Constant):
            if ann and isinstance(node.value, str):
                return self.eval_string_annotation(module, node.value)
            return node.value
        if isinstance(node, ast.Name):
            return self.lookup(module, node.id)
        if isinstance(node, ast.Attribute):
            base = self.eval(module, node.value)
            if isinstance(base, ModuleRef):
                return self.attribute_of_module(base.name, node.attr)
            if isinstance(base, type) and (id(base) in self.built_ids or _safe_module(base.__module__)):
                try:
                    return getattr(base, node.attr)
                except AttributeError:
                    raise Unresolved(f"{base.__name__} has no attribute {node.attr!r}") from None
            raise Unresolved(f"cannot read the attribute {node.attr!r} statically")
        if isinstance(node, ast.Subscript):
            base = self.eval(module, node.value)
            args = self._subscript_args(module, base, node.slice)  # generic arguments are annotations
            try:
                return base[args]
            except Exception as exc:  # noqa: BLE001 - a bad subscript in user code
                raise Unresolved(f"invalid subscript: {exc}") from None
        if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
            left, right = self.eval(module, node.left, ann), self.eval(module, node.right, ann)
            if isinstance(node.op, ast.BitOr) and (isinstance(left, str) or isinstance(right, str)):
                import typing

                return typing.Union[left, right]  # a self-reference in `X | None`: a forward reference
            if not isinstance(node.op, ast.BitOr) and not _bounded(left, right, node.op):
                raise Unresolved(f"`{_short(node)}` is not a plain literal computation")
            try:
                return _BINOPS[type(node.op)](left, right)
            except Exception as exc:  # noqa: BLE001
                raise Unresolved(f"invalid operation: {exc}") from None
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            value = self.eval(module, node.operand)
            if isinstance(value, (int, float, complex)) and not isinstance(value, bool):
                return -value if isinstance(node.op, ast.USub) else value
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            items = [self.eval(module, elt, ann) for elt in node.elts]
            return {ast.Tuple: tuple, ast.List: list, ast.Set: set}[type(node)](items)
        if isinstance(node, ast.Dict) and None not in node.keys:
            return {self.eval(module, k): self.eval(module, v) for k, v in zip(node.keys, node.values)}  # type: ignore[arg-type]
        if isinstance(node, ast.Call):
            return self.call(module, node)
        raise Unresolved(f"the expression `{_short(node)}` is not a literal or a known type")

    def eval_string_annotation(self, module: ParsedModule, text: str) -> Any:
        try:
            expr = ast.parse(text.strip(), mode="eval").body
        except SyntaxError:
            shown = text if len(text) <= 60 else text[:57] + "..."
            raise Unresolved(f"the string annotation {shown!r} is not valid Python") from None
        except (MemoryError, RecursionError):  # the parser's answer to deeply nested code
            raise Unresolved("the string annotation is too deeply nested to parse") from None
        return self.eval(module, expr, ann=True)

    def annotation(self, module: ParsedModule, node: ast.AST) -> Any:
        """Evaluate ``node`` as an annotation (strings inside it are forward references).

        Results (and failures) are cached by module and source text of one-line annotations, outside
        class rebuilding (where a self-reference is kept as a name).
        """
        key = None
        if not self.building and module.lines and getattr(node, "end_lineno", None) == node.lineno:  # type: ignore[attr-defined]
            key = (module.name, module.lines[node.lineno - 1][node.col_offset : node.end_col_offset])  # type: ignore[attr-defined]
            hit = self.annotations.get(key)
            if hit is not None:
                if isinstance(hit, Unresolved):
                    raise hit
                return hit[0]
        try:
            value = self.eval(module, node, ann=True)
        except Unresolved as exc:
            if key is not None:
                self.annotations[key] = exc
            raise
        if key is not None:
            self.annotations[key] = (value,)
        return value

    def _subscript_args(self, module: ParsedModule, base: Any, node: ast.AST) -> Any:
        import typing

        origin = getattr(base, "_name", None) or getattr(base, "__name__", "")
        elts = node.elts if isinstance(node, ast.Tuple) else [node]
        if origin == "Literal":
            values = tuple(self._plain(module, e) for e in elts)
        elif origin == "Annotated":
            values = (self.eval(module, elts[0], ann=True), *(self._plain(module, e) for e in elts[1:]))
        elif base is typing.Callable or origin == "Callable":
            raise Unresolved("Callable parameters cannot be expressed in JSON Schema")
        else:
            values = tuple(self.eval(module, e, ann=True) for e in elts)
        return values if isinstance(node, ast.Tuple) else values[0]

    def _plain(self, module: ParsedModule, node: ast.AST) -> Any:
        """Evaluate without treating strings as forward references (Literal values, metadata, defaults)."""
        return self.eval(module, node)

    def call(self, module: ParsedModule, node: ast.Call) -> Any:
        try:
            func = self.eval(module, node.func)
        except Unresolved:
            func = None
        if self._safe_calls is None:
            self._safe_calls = _safe_calls()
        if func not in self._safe_calls:
            raise Unresolved(f"the call `{_short(node)}` cannot be evaluated without running code")
        args = [self._plain(module, a) for a in node.args if not isinstance(a, ast.Starred)]
        if len(args) != len(node.args) or any(k.arg is None for k in node.keywords):
            raise Unresolved(f"`{_short(node)}` uses * or ** arguments")
        kwargs = {}
        for k in node.keywords:
            try:
                kwargs[k.arg] = self._plain(module, k.value)
            except Unresolved:
                if k.arg != "default_factory":
                    raise
                kwargs[k.arg] = _opaque_factory  # never called for a schema: only its presence counts
        try:
            return func(*args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - bad arguments in user code
            raise Unresolved(f"`{_short(node)}` fails: {exc}") from None

    def build_class(self, module: ParsedModule, node: ast.ClassDef) -> Any:
        from enterprise_ai.scan.static_classes import build_class

        key = (module.name, node.name)
        if key in self.classes:
            return self.classes[key]
        if key in self.building and self.stack and self.stack[-1] == key:
            return node.name  # a self-reference: kept as a forward reference, as in the source
        if key in self.building:
            raise Unresolved(f"class {node.name} refers to itself (recursive types are not read statically)")
        self.building.add(key)
        self.stack.append(key)
        try:
            built = build_class(self, module, node)
        finally:
            self.building.discard(key)
            self.stack.pop()
        self.classes[key] = built
        self.built_ids.add(id(built))
        return built


MAX_LITERAL_SIZE = 100_000
"""Largest string/bytes/sequence a computed constant may reach (``A = B + B`` chains stay bounded)."""


def _bounded(left: Any, right: Any, op: ast.operator) -> bool:
    """True for ``+ - *`` on numbers, and ``+`` on same-type sequences whose result stays small."""
    numbers = (int, float)
    if isinstance(left, numbers) and isinstance(right, numbers):
        return all(abs(v) < 10**18 for v in (left, right))
    if isinstance(op, ast.Add) and type(left) is type(right) and isinstance(left, (str, bytes, tuple, list)):
        return len(left) + len(right) <= MAX_LITERAL_SIZE
    return False


def _opaque_factory() -> Any:
    """Stands for a ``default_factory`` the static scan cannot read (a lambda): schemas never call it."""
    raise RuntimeError("default_factory not available in the static scan")


def _safe_module(name: str | None) -> bool:
    return bool(name) and (name in SAFE_MODULES or name == "builtins" or name.partition(".")[0] in {"pydantic", "typing"})


def _short(node: ast.AST) -> str:
    try:
        text = ast.unparse(node)
    except Exception:  # noqa: BLE001 - unparse of odd nodes
        text = type(node).__name__
    return text if len(text) <= 60 else text[:57] + "..."
