"""``LocalTool`` and the ``@tool`` decorator: a Python function exposed as a governed tool.

The reference page of ``enterprise_ai.tools`` fixes the constructor, the attributes and their defaults;
MANIFEST.md fixes the Tool Manifest that :meth:`LocalTool.manifest` returns.
"""

from __future__ import annotations

import copy
import functools
import inspect
import json
from typing import Any, Callable

from enterprise_ai.errors import EaiError, ErrorKind
from enterprise_ai.tools._docstrings import first_paragraph
from enterprise_ai.tools._pydantic import pydantic_ready
from enterprise_ai.tools._schema import Analysis, _doc_of, _signature_target, analyse, tool_name

__all__ = ["LocalTool", "ToolArgumentsError", "tool"]

API_VERSION = "enterprise-ai.io/v1"
DEFAULT_ENDPOINT_BASE = "http://127.0.0.1:8000"
DEFAULT_TIMEOUT_SECONDS = 30
_OPTIONS = ("name", "description", "action", "scopes", "data_classification", "requires_approval",
            "side_effects", "idempotent", "version", "owner", "risk_level")


class ToolArgumentsError(EaiError, ValueError):
    """Arguments given to :meth:`LocalTool.invoke` do not match the tool's input schema (kind USAGE).

    Attributes:
        errors: one ``{"path": "/<argument>[/<item>...]", "message": str}`` per problem, JSON Pointer paths.
    """

    default_kind = ErrorKind.USAGE

    def __init__(self, message: str, errors: list[dict[str, str]]) -> None:
        super().__init__(message)
        self.errors = errors


def default_endpoint(name: str) -> dict[str, Any]:
    """The endpoint of a manifest when none is given: an http ``POST /tools/<name>`` on localhost, 30 s."""
    return {"type": "http", "method": "POST", "url": f"{DEFAULT_ENDPOINT_BASE}/tools/{name}",
            "timeout_seconds": DEFAULT_TIMEOUT_SECONDS}


def _is_async(fn: Any) -> bool:
    """True when calling ``fn`` gives a coroutine: an ``async def`` at any level of a ``functools.wraps``
    chain (an async wrapper of a sync function, or a plain wrapper passing an async function's coroutine on)."""
    target, *_ = _signature_target(fn)
    if inspect.iscoroutinefunction(target):
        return True
    target = inspect.unwrap(target, stop=inspect.iscoroutinefunction)
    if inspect.iscoroutinefunction(target):
        return True
    call = getattr(type(target), "__call__", None)
    return not inspect.isfunction(target) and not inspect.ismethod(target) and inspect.iscoroutinefunction(call)


class LocalTool:
    """A Python function exposed as a tool, with its Tool Manifest and its OpenAI tool entry.

    Args:
        fn: the callable (function, async function, ``functools.wraps`` wrapper, ``functools.partial``,
            bound method, class/static method object, or callable object); called with decoded arguments.
        name: tool name; default :func:`tool_name` of ``fn`` (``search_orders`` -> ``search-orders``).
        description: shown to the model; default the first paragraph of the docstring, else the name.
        action: ``read`` (default), ``write``, ``delete`` or ``execute``; sets the defaults below.
        scopes: scopes needed to invoke the tool (manifest ``scopes_required``); default none.
        data_classification: highest classification of the data handled; default ``internal``.
        requires_approval: every call needs a human approval; default False.
        side_effects: the tool changes something; default True for every action but ``read``.
        idempotent: repeating a call changes nothing more; default True only for ``read``.
        version: manifest ``metadata.version``; default ``0.1.0``.
        owner: manifest ``metadata.owner``; default ``team@example.com``.
        risk_level: ``minimal`` (default), ``limited``, ``high`` or ``unacceptable``.

    The input and output schemas are built on first use (so that annotations may name classes defined
    later in the module); reading ``input_schema``, ``output_schema``, :meth:`manifest`,
    :meth:`openai_tool` or :meth:`invoke` raises
    :class:`~enterprise_ai.tools._schema.ToolDefinitionError` when an annotation cannot be resolved.
    The object is callable exactly like ``fn`` and carries its ``__name__``, ``__doc__`` and ``__wrapped__``.
    """

    def __init__(
        self,
        fn: Callable[..., Any],
        name: str | None = None,
        description: str | None = None,
        action: str = "read",
        scopes: list[str] | None = None,
        data_classification: str = "internal",
        requires_approval: bool = False,
        side_effects: bool | None = None,
        idempotent: bool | None = None,
        version: str = "0.1.0",
        owner: str = "team@example.com",
        risk_level: str = "minimal",
    ) -> None:
        if not callable(fn) and not isinstance(fn, (staticmethod, classmethod)):
            raise TypeError(f"LocalTool() needs a callable, got {type(fn).__name__}")
        try:
            functools.update_wrapper(self, fn)  # __name__, __doc__, __module__, __qualname__, __wrapped__
        except Exception:  # pragma: no cover - exotic callables
            self.__wrapped__ = fn
        self._options = {"name": name, "description": description, "action": action, "scopes": scopes,
                         "data_classification": data_classification, "requires_approval": requires_approval,
                         "side_effects": side_effects, "idempotent": idempotent, "version": version,
                         "owner": owner, "risk_level": risk_level}
        target, *_ = _signature_target(fn)
        self.__name__ = getattr(target, "__name__", None) or type(target).__name__
        self.__doc__ = _doc_of(target)
        self.fn = fn
        self.name = name or tool_name(fn)
        self.description = description or first_paragraph(self.__doc__) or self.name
        self.action = action
        self.scopes = [scopes] if isinstance(scopes, str) else list(scopes or [])
        self.data_classification = data_classification
        self.requires_approval = bool(requires_approval)
        self.side_effects = action != "read" if side_effects is None else bool(side_effects)
        self.idempotent = action == "read" if idempotent is None else bool(idempotent)
        self.version = version
        self.owner = owner
        self.risk_level = risk_level
        self.is_async = _is_async(fn)
        self._analysis: Analysis | None = None
        self._overrides: dict[str, Any] = {}
        self._validators: dict[str, Any] | None = None

    # -- schemas (lazy)
    def _analyse(self) -> Analysis:
        if self._analysis is None:
            self._analysis = analyse(self.fn)
        return self._analysis

    @property
    def input_schema(self) -> dict[str, Any]:
        """JSON Schema (Draft 2020-12) of the arguments: see :func:`~enterprise_ai.tools.input_schema`."""
        if "input_schema" in self._overrides:
            return self._overrides["input_schema"]
        return self._analyse().input_schema

    @input_schema.setter
    def input_schema(self, value: dict[str, Any]) -> None:
        self._overrides["input_schema"] = value

    @property
    def output_schema(self) -> dict[str, Any] | None:
        """JSON Schema of the return annotation; None when it is absent or ``None``."""
        if "output_schema" in self._overrides:
            return self._overrides["output_schema"]
        return self._analyse().output_schema

    @output_schema.setter
    def output_schema(self, value: dict[str, Any] | None) -> None:
        self._overrides["output_schema"] = value

    # -- calling
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        fn = self.fn.__func__ if isinstance(self.fn, staticmethod) else self.fn
        return fn(*args, **kwargs)

    def __get__(self, obj: Any, objtype: Any = None) -> Any:
        """Used as a method: ``instance.tool`` is a LocalTool of the bound method (``self`` leaves the schema).

        ``@tool`` above ``@classmethod`` binds to the class on ``Class.tool`` too.
        """
        if isinstance(self.fn, staticmethod) or (obj is None and not isinstance(self.fn, classmethod)) \
                or not hasattr(self.fn, "__get__"):
            return self
        return LocalTool(self.fn.__get__(obj, objtype), **self._options)

    def __repr__(self) -> str:
        return f"LocalTool(name={self.name!r}, action={self.action!r})"

    def invoke(self, arguments: dict[str, Any] | str | None) -> Any:
        """Call the function with arguments as a model's tool call gives them.

        Args:
            arguments: a dict or a JSON object string; ``None``, ``""`` and ``{}`` mean no arguments.

        Returns:
            What the function returns (a coroutine for an async function: await it).

        Raises:
            ToolArgumentsError: not a JSON object, an unknown argument, a missing required one, or a value
                that does not validate against its annotation (pydantic lax mode: ``"3"`` is coerced to 3 for
                an ``int``, a dict to a dataclass...). ``errors`` lists each problem with its path.
        """
        args, kwargs = self._bind(_decode(arguments))
        return self(*args, **kwargs)

    def _bind(self, arguments: dict[str, Any]) -> tuple[list[Any], dict[str, Any]]:
        """Validate and coerce ``arguments``; return the positional and keyword arguments of the call."""
        analysis = self._analyse()
        params = analysis.params
        if self._validators is None:
            self._validators = {p.name: _adapter(p.annotation, analysis.input_schema, p.name) for p in params}
        errors = [{"path": f"/{_escape(k)}", "message": "unexpected argument"}
                  for k in arguments if k not in self._validators]
        values: dict[str, Any] = {}
        for p in params:
            if p.name not in arguments:
                if p.default is inspect.Parameter.empty:
                    errors.append({"path": f"/{_escape(p.name)}", "message": "missing required argument"})
                continue
            adapter = self._validators[p.name]
            if adapter is None:
                values[p.name] = arguments[p.name]
                continue
            try:
                values[p.name] = adapter.validate_python(arguments[p.name])
            except Exception as exc:  # pydantic.ValidationError
                for err in getattr(exc, "errors", lambda: [{"loc": (), "msg": str(exc)}])():
                    path = "".join(f"/{_escape(str(part))}" for part in (p.name, *err.get("loc", ())))
                    errors.append({"path": path, "message": err.get("msg", str(exc))})
        if errors:
            names = ", ".join(dict.fromkeys(e["path"].split("/")[1] for e in errors))
            detail = "; ".join(f"{e['path']}: {e['message']}" for e in errors)
            raise ToolArgumentsError(f"tool {self.name!r}: bad argument(s) {names}: {detail}", errors)
        args: list[Any] = []
        kwargs: dict[str, Any] = {}
        for p in params:
            if p.name in values:
                value = values[p.name]
            elif p.factory is not None:  # Field(default_factory=list): a fresh value per call
                value = p.factory()
            elif p.default is not inspect.Parameter.empty:  # explicit: a Field(...) default is unwrapped
                value = p.default
            else:
                continue
            if p.kind is inspect.Parameter.POSITIONAL_ONLY:
                args.append(value)
            else:
                kwargs[p.name] = value
        return args, kwargs

    # -- documents
    def manifest(self, endpoint: dict[str, Any] | None = None, **metadata: Any) -> dict[str, Any]:
        """The Tool Manifest (``apiVersion: enterprise-ai.io/v1``, ``kind: Tool``) of MANIFEST.md.

        Args:
            endpoint: the ``spec.endpoint`` mapping; default :func:`default_endpoint` of the name.
            **metadata: extra ``metadata`` fields (``labels``, ``annotations``...), after name/version/owner.

        Returns:
            A new JSON-able dict with a fixed key order; the same code always gives the same dict.
        """
        spec: dict[str, Any] = {"description": self.description, "action": self.action,
                                "input_schema": _copy(self.input_schema)}
        if self.output_schema is not None:
            spec["output_schema"] = _copy(self.output_schema)
        spec.update(
            scopes_required=list(self.scopes),
            data_classification=self.data_classification,
            risk_level=self.risk_level,
            requires_approval=self.requires_approval,
            side_effects=self.side_effects,
            idempotent=self.idempotent,
            endpoint=_copy(endpoint) if endpoint is not None else default_endpoint(self.name),
        )
        meta = {"name": self.name, "version": self.version, "owner": self.owner, **_copy(metadata)}
        return {"apiVersion": API_VERSION, "kind": "Tool", "metadata": meta, "spec": spec}

    def openai_tool(self) -> dict[str, Any]:
        """The ``tools`` entry of an OpenAI-compatible chat request: ``{type: function, function: {...}}``."""
        return {"type": "function", "function": {"name": self.name, "description": self.description,
                                                 "parameters": _copy(self.input_schema)}}


def tool(fn: Callable[..., Any] | None = None, **options: Any) -> Any:
    """Turn a function into a :class:`LocalTool`: ``@tool``, ``@tool(action="write")`` or ``tool(fn, ...)``.

    Args:
        fn: the function; when omitted, a decorator applying ``options`` is returned.
        **options: the keyword arguments of :class:`LocalTool` (``name``, ``action``, ``scopes``...).

    Returns:
        A :class:`LocalTool` when ``fn`` is given, else a decorator that returns one.

    Raises:
        TypeError: an unknown option (named in the message), or ``fn`` is not callable.
    """
    unknown = sorted(set(options) - set(_OPTIONS))
    if unknown:
        raise TypeError(f"tool() got an unexpected keyword argument {unknown[0]!r}"
                        f" (options: {', '.join(_OPTIONS)})")
    if fn is None:
        return lambda f: LocalTool(f, **options)
    if not callable(fn) and not isinstance(fn, (staticmethod, classmethod)):
        raise TypeError(f"tool() needs a callable, got {type(fn).__name__}: use @tool or @tool(name=...)")
    return LocalTool(fn, **options)


def _copy(value: Any) -> Any:
    """A deep copy of JSON data (what ``copy.deepcopy`` gives, several times faster on dicts, lists and scalars).

    Exact ``dict`` and ``list`` are rebuilt, ``str``/``int``/``float``/``bool``/``None`` are kept (immutable);
    anything else, and a structure that contains itself, is handed to :func:`copy.deepcopy`.
    """
    try:
        return _copy_json(value)
    except RecursionError:
        return copy.deepcopy(value)


def _copy_json(value: Any) -> Any:
    kind = type(value)
    if kind is dict:
        return {k: v if type(v) in _IMMUTABLE else _copy_json(v) for k, v in value.items()}
    if kind is list:
        return [v if type(v) in _IMMUTABLE else _copy_json(v) for v in value]
    if kind in _IMMUTABLE:
        return value
    return copy.deepcopy(value)


_IMMUTABLE = frozenset((str, int, float, bool, type(None)))


def _escape(token: str) -> str:
    """One JSON Pointer reference token (RFC 6901): ``~`` -> ``~0``, ``/`` -> ``~1``."""
    return token.replace("~", "~0").replace("/", "~1")


def _decode(arguments: dict[str, Any] | str | None) -> dict[str, Any]:
    if arguments is None or (isinstance(arguments, str) and not arguments.strip()):
        return {}
    if isinstance(arguments, (str, bytes)):
        try:
            arguments = json.loads(arguments)
        except ValueError as exc:
            raise ToolArgumentsError(f"arguments are not valid JSON: {exc}",
                                     [{"path": "", "message": f"invalid JSON: {exc}"}]) from None
    if not isinstance(arguments, dict):
        raise ToolArgumentsError(f"arguments must be a JSON object, got {type(arguments).__name__}",
                                 [{"path": "", "message": "not an object"}])
    return arguments


def _adapter(annotation: Any, schema: dict[str, Any], name: str) -> Any:
    """A pydantic ``TypeAdapter`` for one parameter (built once per tool), or None (no annotation: any value).

    A ``typing.TypedDict`` (which pydantic refuses before Python 3.12) is rebuilt as a
    ``typing_extensions.TypedDict`` first. When pydantic still cannot build one (an arbitrary class, a
    recursive ``typing.TypedDict``), the value is checked against the parameter's JSON Schema instead,
    without coercion.
    """
    if annotation is inspect.Parameter.empty or annotation is Any:
        return None
    from pydantic import ConfigDict, TypeAdapter

    try:
        return TypeAdapter(annotation)
    except Exception:
        pass
    try:
        return TypeAdapter(pydantic_ready(annotation))
    except Exception:
        pass
    try:
        return TypeAdapter(annotation, config=ConfigDict(arbitrary_types_allowed=True))
    except Exception:
        prop = dict(schema["properties"].get(name, {}))
        if "$defs" in schema:
            prop["$defs"] = schema["$defs"]
        return _SchemaCheck(prop)


class _SchemaCheckFailed(Exception):
    def __init__(self, errors: list[dict[str, Any]]) -> None:
        super().__init__(errors[0]["msg"])
        self._errors = errors

    def errors(self) -> list[dict[str, Any]]:
        return self._errors


class _SchemaCheck:
    """Validation by JSON Schema (Draft 2020-12), for a parameter pydantic cannot validate."""

    def __init__(self, schema: dict[str, Any]) -> None:
        from jsonschema import Draft202012Validator

        self._validator = Draft202012Validator(schema)

    def validate_python(self, value: Any) -> Any:
        errors = sorted(self._validator.iter_errors(value), key=lambda e: [str(p) for p in e.absolute_path])
        if errors:
            raise _SchemaCheckFailed([{"loc": tuple(e.absolute_path), "msg": e.message} for e in errors])
        return value
