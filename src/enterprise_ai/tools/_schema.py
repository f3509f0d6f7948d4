"""Schemas of Python callables: ``schema_for``, ``input_schema``, ``tool_name`` and the shared ``analyse``.

The reference page of ``enterprise_ai.tools`` fixes the public signatures; issue 2 (point 3) the rules.
:func:`analyse` reads a callable once (signature, resolved annotations, docstring) and builds its input
and output schemas; :class:`~enterprise_ai.tools.LocalTool` and the helpers here use it. The schema of
each annotation comes from :mod:`enterprise_ai.tools._typeschema` (see its docstring for the choices:
``anyOf`` unions, ``$defs`` naming, formats, no ``title``).

The result depends only on the signature, the resolved annotations, the docstring and the structure
of the annotation objects (never on source files, ``__qualname__`` paths or ids), so the static
scan's stand-in functions give byte-identical schemas.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import inspect
import re
import sys
import types
import typing
from typing import Any, Callable, Iterator

import typing_extensions as te

from enterprise_ai.errors import EaiError, ErrorKind
from enterprise_ai.tools._docstrings import parse_docstring
from enterprise_ai.tools._typeschema import NOT_JSON, Builder, field_default, is_field_info, json_default

__all__ = ["Analysis", "ToolDefinitionError", "analyse", "input_schema", "schema_for", "tool_name"]

_EMPTY = inspect.Parameter.empty


class ToolDefinitionError(EaiError):
    """A tool cannot be described: typically an annotation that does not resolve (kind FINDINGS).

    Attributes:
        tool: the function name; parameter: the parameter (or ``return``, or ``Class.field``);
        unresolved: the name that could not be resolved, when known.
    """

    default_kind = ErrorKind.FINDINGS

    def __init__(self, message: str, *, tool: str | None = None, parameter: str | None = None,
                 unresolved: str | None = None) -> None:
        super().__init__(message)
        self.tool, self.parameter, self.unresolved = tool, parameter, unresolved


# ----------------------------------------------------------------------------------------- names

def _base_callable(fn: Any) -> Any:
    while isinstance(fn, functools.partial):
        fn = fn.func
    if isinstance(fn, (staticmethod, classmethod)):
        fn = fn.__func__
    return fn


def tool_name(fn: Callable[..., Any]) -> str:
    """DNS-style tool name from a function's ``__name__`` (``search_orders`` -> ``search-orders``).

    The reference page's rule, exactly: lower case, then ``_`` and every character other than ``a-z``,
    ``0-9``, ``.`` and ``-`` become one ``-`` each (nothing is stripped or collapsed: ``_private`` gives
    ``-private``, which ``eai tools validate`` then reports, so pass ``name=``); ``tool`` when the name is
    empty. A partial uses the wrapped function's name, a callable object its class name.
    """
    base = _base_callable(fn)
    name = getattr(base, "__name__", None)
    if not isinstance(name, str):
        name = type(base).__name__
    return re.sub(r"[^a-z0-9.-]", "-", name.lower()) or "tool"


def schema_for(annotation: Any) -> dict[str, Any]:
    """JSON Schema (Draft 2020-12) for one Python annotation.

    Handles builtins, ``Optional``/``Union`` (``anyOf``), ``Literal`` and ``Enum`` (``type`` + ``enum``),
    ``list``/``set``/``tuple``/``dict`` and their ``collections.abc`` forms, ``Annotated`` with pydantic
    ``Field`` or ``annotated_types`` constraints, date/time/UUID/Path, TypedDict, dataclasses and
    pydantic models (in ``$defs`` at the root). Returns ``{}`` for ``Any``, a missing annotation or a
    type it does not know. Raises :class:`ToolDefinitionError` for a string or forward reference
    (nothing to resolve it against: use :func:`input_schema` on the function instead).
    """
    builder = Builder(owner="schema_for")
    return builder.document(builder.schema(annotation))


# ----------------------------------------------------------------------------------- functions

@dataclasses.dataclass(frozen=True)
class Param:
    """One tool parameter: name, kind, resolved annotation (``inspect.Parameter.empty`` if none), default.

    ``factory`` is the ``default_factory`` of a ``Field(default_factory=...)`` default (None otherwise):
    :meth:`LocalTool.invoke` calls it for each call that omits the argument, as pydantic does.
    """

    name: str
    kind: Any
    annotation: Any
    default: Any
    factory: Any = None


@dataclasses.dataclass(frozen=True)
class Analysis:
    """Everything a tool needs from a callable: see :func:`analyse`."""

    function_name: str
    doc: str | None
    params: list[Param]
    input_schema: dict[str, Any]
    output_schema: dict[str, Any] | None


def _signature_target(fn: Any) -> tuple[Any, int, set[str], bool]:
    """(callable to read the signature from, bound positional count, bound keywords, drop first param)."""
    n_args, keywords = 0, set()
    while isinstance(fn, functools.partial):  # partial(partial(f, 1), b=2) is usually flattened already
        n_args += len(fn.args)
        keywords |= set(fn.keywords)
        fn = fn.func
    drop_first = False
    if isinstance(fn, classmethod):
        fn, drop_first = fn.__func__, True
    elif isinstance(fn, staticmethod):
        fn = fn.__func__
    elif inspect.isfunction(fn) and _defined_in_class_body(fn):
        drop_first = True
    return fn, n_args, keywords, drop_first


def _defined_in_class_body(fn: Any) -> bool:
    """A plain function written in a class body (``@tool`` on a method): its first parameter is the instance."""
    parts = getattr(fn, "__qualname__", "").split(".")
    if len(parts) < 2 or parts[-2] == "<locals>":
        return False
    owner: Any = sys.modules.get(getattr(fn, "__module__", None) or "")
    for part in parts[:-1]:
        owner = getattr(owner, part, None)
    attribute = owner.__dict__.get(parts[-1]) if isinstance(owner, type) else None
    if isinstance(attribute, staticmethod) or isinstance(getattr(attribute, "fn", None), staticmethod):
        return False
    return True


def _globals_of(fn: Any) -> dict[str, Any]:
    fn = inspect.unwrap(fn)
    if inspect.ismethod(fn):
        fn = inspect.unwrap(fn.__func__)
    if not inspect.isfunction(fn) and not isinstance(fn, type) and callable(fn):
        fn = inspect.unwrap(getattr(type(fn), "__call__", fn))
    found = getattr(fn, "__globals__", None)
    if found is None:
        module = sys.modules.get(getattr(fn, "__module__", None) or "")
        found = vars(module) if module else {}
    return found


def _doc_of(fn: Any) -> str | None:
    if inspect.isfunction(fn) or inspect.ismethod(fn) or isinstance(fn, type):
        return fn.__doc__
    call = getattr(type(fn), "__call__", None)
    own = getattr(fn, "__doc__", None)
    if own and own != type(fn).__doc__:
        return own
    try:
        inner = inspect.unwrap(fn)  # functools.cache, a class-based decorator: the function's doc, not the class's
    except ValueError:  # a __wrapped__ cycle
        inner = fn
    if inner is not fn:
        return _doc_of(inner)
    return type(fn).__doc__ or getattr(call, "__doc__", None)


def _resolve(annotations: dict[str, Any], globalns: dict[str, Any], function: str) -> dict[str, Any]:
    """Evaluate string/forward-ref annotations against ``globalns``; errors name the parameter."""
    def one(items: dict[str, Any]) -> dict[str, Any]:
        holder = types.SimpleNamespace(__annotations__=items)
        return typing.get_type_hints(holder, globalns=globalns, localns=None, include_extras=True)

    try:
        return one(annotations)
    except Exception:
        pass
    for name, ann in annotations.items():
        try:
            one({name: ann})
        except NameError as exc:
            what = "the return annotation" if name == "return" else f"parameter {name!r}"
            raise ToolDefinitionError(
                f"tool {function!r}: {what} has an annotation that cannot be resolved: name {exc.name!r} is not "
                f"defined in module {globalns.get('__name__', '?')!r} (imported only under TYPE_CHECKING?)",
                tool=function, parameter=name, unresolved=exc.name) from None
        except Exception as exc:
            what = "the return annotation" if name == "return" else f"parameter {name!r}"
            raise ToolDefinitionError(f"tool {function!r}: {what} has an invalid annotation: {exc}",
                                      tool=function, parameter=name) from None
    return one(annotations)  # pragma: no cover - only a combination failed


@contextlib.contextmanager
def _naming(function: str, parameter: str) -> Iterator[None]:
    """Prefix a ToolDefinitionError raised inside with the tool and the parameter it is about."""
    try:
        yield
    except ToolDefinitionError as exc:
        what = "the return annotation" if parameter == "return" else f"parameter {parameter!r}"
        raise ToolDefinitionError(f"tool {function!r}: {what}: {exc.message}", tool=function,
                                  parameter=parameter, unresolved=exc.unresolved) from None


def analyse(fn: Callable[..., Any]) -> Analysis:
    """Read a callable's parameters, resolved annotations and docstring; build its input and output schemas.

    ``fn`` may be a function (sync or async), a ``functools.wraps`` wrapper (``__wrapped__`` is followed),
    a ``functools.partial`` (bound arguments are removed), a bound method, a class method, or a callable
    object. ``self``/``cls`` are skipped through binding, ``*args``/``**kwargs`` by parameter kind.

    Raises:
        ToolDefinitionError: an annotation cannot be resolved (the message names the function, the
            parameter and the missing name).
    """
    target, n_bound, bound_keywords, drop_first = _signature_target(fn)
    function = getattr(target, "__name__", None) or type(target).__name__
    try:
        signature = inspect.signature(target)
    except (TypeError, ValueError) as exc:
        raise ToolDefinitionError(f"tool {function!r}: no readable signature: {exc}", tool=function) from None
    params = list(signature.parameters.values())
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    skip = n_bound + (1 if drop_first else 0)
    kept = []
    for p in params:
        if skip and p.kind in positional:
            skip -= 1
            continue
        if p.kind in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD) or p.name in bound_keywords:
            continue
        kept.append(p)
    raw = {p.name: p.annotation for p in kept if p.annotation is not _EMPTY}
    if signature.return_annotation is not _EMPTY:
        raw["return"] = signature.return_annotation
    hints = _resolve(raw, _globals_of(target), function) if raw else {}
    doc = _doc_of(target)
    docs = parse_docstring(doc)

    builder = Builder(owner=function, globalns=_globals_of(target))
    properties: dict[str, Any] = {}
    required: list[str] = []
    out_params: list[Param] = []
    for p in kept:
        hint, default, factory = hints.get(p.name, _EMPTY), p.default, None
        if is_field_info(default):  # def f(x: int = Field(3, description=...)), as with pydantic.validate_call
            hint = te.Annotated[(Any if hint is _EMPTY else hint, default)]  # type: ignore[misc]
            factory = default.default_factory
            default = field_default(default)
            p = p.replace(default=default)
        out_params.append(Param(p.name, p.kind, hint, default, factory))
        with _naming(function, p.name):
            schema = dict(builder.schema(hint))
        if "description" not in schema and p.name in docs.params:
            schema["description"] = docs.params[p.name]
        if p.default is _EMPTY:
            required.append(p.name)
        elif (value := json_default(p.default)) is not NOT_JSON:
            schema["default"] = value
        properties[p.name] = schema
    inputs = builder.document({"type": "object", "properties": properties, "required": required,
                               "additionalProperties": False})
    output = None
    returns = hints.get("return", _EMPTY)
    if returns is not _EMPTY and returns is not None and returns is not type(None):
        out_builder = Builder(owner=function, globalns=_globals_of(target))
        with _naming(function, "return"):
            output = out_builder.document(dict(out_builder.schema(returns)))
    return Analysis(function, doc, out_params, inputs, output)


def input_schema(fn: Callable[..., Any]) -> dict[str, Any]:
    """Object schema of ``fn``'s parameters: ``{type: object, properties, required, additionalProperties: false}``.

    ``required`` lists exactly the parameters without a default; JSON-able defaults are copied into
    ``default``; parameter descriptions come from ``Annotated[..., Field(description=...)]`` first,
    then the docstring (Sphinx, Google or NumPy). ``$defs`` holds the classes referenced.

    Raises:
        ToolDefinitionError: an annotation cannot be resolved against ``fn``'s module.
    """
    return analyse(fn).input_schema
