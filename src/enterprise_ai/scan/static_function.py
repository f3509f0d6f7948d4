"""A stand-in function with the signature of a parsed ``def``, for the SDK's schema code to read.

The static scan never runs the user's function. It generates ``def name(params...) -> R: pass`` whose
annotations are the objects :class:`~enterprise_ai.scan.static_eval.Evaluator` rebuilt and whose
defaults are the literal defaults, sets ``__doc__`` (the raw docstring, as the compiler stores it),
``__name__``, ``__qualname__`` and ``__module__``, and hands it to ``LocalTool``: the exact schema code
of the import scan runs on an equivalent function, which is what makes the two scans agree byte for byte.

What cannot be read is not guessed:

* an annotation that does not resolve becomes ``typing.Any`` and is listed in
  :attr:`StandIn.unresolved`; the caller marks the property with :data:`UNRESOLVED_KEY`;
* a default that is not a literal becomes :data:`UNKNOWN_DEFAULT`, an object JSON cannot hold, so the
  parameter stays optional and no ``default`` is written; it is listed in :attr:`StandIn.unknown_defaults`.
"""

from __future__ import annotations

import ast
import typing
from dataclasses import dataclass, field
from typing import Any

from enterprise_ai.scan.static_eval import Evaluator, Unresolved
from enterprise_ai.scan.static_index import ParsedModule

UNRESOLVED_KEY = "x-eai-unresolved"
"""Keyword added to a placeholder schema: why the static scan could not resolve it (JSON Schema
2020-12 ignores unknown keywords, so the placeholder accepts any value)."""


class _UnknownDefault:
    def __repr__(self) -> str:
        return "<default not read by the static scan>"


UNKNOWN_DEFAULT = _UnknownDefault()


@dataclass
class StandIn:
    """The generated function and what could not be read (parameter name -> reason; ``return``)."""

    fn: Any
    unresolved: dict[str, str] = field(default_factory=dict)
    unknown_defaults: dict[str, str] = field(default_factory=dict)


def make_stand_in(ev: Evaluator, module: ParsedModule, node: ast.FunctionDef | ast.AsyncFunctionDef, *, skip_first: bool = False) -> StandIn:
    """Build the stand-in of ``node``; ``skip_first`` drops a leading ``ToolCallbackContext`` parameter."""
    namespace: dict[str, Any] = {"__name__": module.name, "__builtins__": {}}
    result = StandIn(fn=None)

    def bind(value: Any) -> str:
        key = f"_eai_{len(namespace)}"
        namespace[key] = value
        return key

    def annotation(name: str, expr: ast.expr | None) -> str:
        if expr is None:
            return ""
        try:
            return ": " + bind(ev.annotation(module, expr))
        except Unresolved as exc:
            result.unresolved[name] = exc.reason
            return ": " + bind(typing.Any)

    def default(name: str, expr: ast.expr | None) -> str:
        if expr is None:
            return ""
        try:
            return " = " + bind(ev._plain(module, expr))
        except Unresolved as exc:
            result.unknown_defaults[name] = exc.reason
            return " = " + bind(UNKNOWN_DEFAULT)

    args = node.args
    positional = [*args.posonlyargs, *args.args]
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    n_posonly = len(args.posonlyargs)
    if skip_first and positional:
        positional, defaults, n_posonly = positional[1:], defaults[1:], max(n_posonly - 1, 0)
    parts: list[str] = []
    for i, (arg, dflt) in enumerate(zip(positional, defaults)):
        parts.append(arg.arg + annotation(arg.arg, arg.annotation) + default(arg.arg, dflt))
        if i == n_posonly - 1:
            parts.append("/")
    if args.vararg:
        parts.append("*" + args.vararg.arg + annotation(args.vararg.arg, args.vararg.annotation))
    elif args.kwonlyargs:
        parts.append("*")
    for arg, dflt in zip(args.kwonlyargs, args.kw_defaults):
        parts.append(arg.arg + annotation(arg.arg, arg.annotation) + default(arg.arg, dflt))
    if args.kwarg:
        parts.append("**" + args.kwarg.arg + annotation(args.kwarg.arg, args.kwarg.annotation))
    returns = ""
    if node.returns is not None:
        try:
            returns = " -> " + bind(ev.annotation(module, node.returns))
        except Unresolved as exc:
            result.unresolved["return"] = exc.reason
    prefix = "async def" if isinstance(node, ast.AsyncFunctionDef) else "def"
    source = f"{prefix} {node.name}({', '.join(parts)}){returns}:\n    pass\n"
    exec(compile(source, f"<eai static {module.name}.{node.name}>", "exec", dont_inherit=True), namespace)  # noqa: S102 - generated code only
    fn = namespace[node.name]
    fn.__doc__ = ast.get_docstring(node, clean=False)
    fn.__qualname__ = node.name
    fn.__module__ = module.name
    result.fn = fn
    return result


def mark_placeholders(schema: dict[str, Any], unresolved: dict[str, str]) -> None:
    """Add :data:`UNRESOLVED_KEY` to the property schema of each unresolved parameter (in place)."""
    properties = schema.get("properties") or {}
    for name, reason in unresolved.items():
        if name in properties and isinstance(properties[name], dict):
            properties[name][UNRESOLVED_KEY] = reason
