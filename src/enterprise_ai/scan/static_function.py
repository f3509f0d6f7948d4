"""A stand-in function with the signature of a parsed ``def``, for the SDK's schema code to read.

The static scan never runs the user's function. It makes a do-nothing function whose signature
(``__signature__``) has the parameters of the parsed ``def``, with the annotation objects
:class:`~enterprise_ai.scan.static_eval.Evaluator` rebuilt and the literal defaults, and whose
``__doc__``, ``__name__``, ``__qualname__`` and ``__module__`` are the source's, and hands it to
``LocalTool``: the exact schema code of the import scan runs on an equivalent function, which is what
makes the two scans agree byte for byte.

What cannot be read is not guessed:

* an annotation that does not resolve becomes ``typing.Any`` and is listed in
  :attr:`StandIn.unresolved`; the caller marks the property with :data:`UNRESOLVED_KEY`;
* a default that is not a literal becomes :data:`UNKNOWN_DEFAULT`, an object JSON cannot hold, so the
  parameter stays optional and no ``default`` is written; it is listed in :attr:`StandIn.unknown_defaults`.
"""

from __future__ import annotations

import ast
import inspect
import types
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


def _stub(*args: Any, **kwargs: Any) -> None:
    return None


async def _async_stub(*args: Any, **kwargs: Any) -> None:
    return None


def make_stand_in(ev: Evaluator, module: ParsedModule, node: ast.FunctionDef | ast.AsyncFunctionDef, *, skip_first: bool = False) -> StandIn:
    """Build the stand-in of ``node``; ``skip_first`` drops a leading ``ToolCallbackContext`` parameter.

    The stand-in is a new function object on a do-nothing code object (async for ``async def``), with
    ``__signature__`` (what :func:`inspect.signature` reads), ``__annotations__``, ``__doc__`` (the raw
    docstring, as the compiler stores it), ``__name__``, ``__qualname__`` and ``__module__`` of the source.
    """
    result = StandIn(fn=None)
    empty = inspect.Parameter.empty

    def annotation(name: str, expr: ast.expr | None) -> Any:
        if expr is None:
            return empty
        try:
            return ev.annotation(module, expr)
        except Unresolved as exc:
            result.unresolved[name] = exc.reason
            return typing.Any

    def default(name: str, expr: ast.expr | None) -> Any:
        if expr is None:
            return empty
        try:
            return ev._plain(module, expr)
        except Unresolved as exc:
            result.unknown_defaults[name] = exc.reason
            return UNKNOWN_DEFAULT

    args = node.args
    positional = [*args.posonlyargs, *args.args]
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    n_posonly = len(args.posonlyargs)
    if skip_first and positional:
        positional, defaults, n_posonly = positional[1:], defaults[1:], max(n_posonly - 1, 0)
    kinds = inspect.Parameter
    params: list[inspect.Parameter] = []
    for i, (arg, dflt) in enumerate(zip(positional, defaults)):
        kind = kinds.POSITIONAL_ONLY if i < n_posonly else kinds.POSITIONAL_OR_KEYWORD
        params.append(inspect.Parameter(arg.arg, kind, default=default(arg.arg, dflt), annotation=annotation(arg.arg, arg.annotation)))
    if args.vararg:
        params.append(inspect.Parameter(args.vararg.arg, kinds.VAR_POSITIONAL, annotation=annotation(args.vararg.arg, args.vararg.annotation)))
    for arg, dflt in zip(args.kwonlyargs, args.kw_defaults):
        params.append(inspect.Parameter(arg.arg, kinds.KEYWORD_ONLY, default=default(arg.arg, dflt), annotation=annotation(arg.arg, arg.annotation)))
    if args.kwarg:
        params.append(inspect.Parameter(args.kwarg.arg, kinds.VAR_KEYWORD, annotation=annotation(args.kwarg.arg, args.kwarg.annotation)))
    returns: Any = empty
    if node.returns is not None:
        try:
            returns = ev.annotation(module, node.returns)
        except Unresolved as exc:
            result.unresolved["return"] = exc.reason
    stub = _async_stub if isinstance(node, ast.AsyncFunctionDef) else _stub
    fn = types.FunctionType(stub.__code__, {"__name__": module.name}, node.name)
    fn.__signature__ = inspect.Signature(params, return_annotation=returns)  # type: ignore[attr-defined]
    fn.__annotations__ = {p.name: p.annotation for p in params if p.annotation is not empty}
    if returns is not empty:
        fn.__annotations__["return"] = returns
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
