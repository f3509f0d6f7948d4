"""JSON Schema (Draft 2020-12) of one Python annotation: the walker behind ``schema_for`` and ``input_schema``.

Choices, so that every schema is valid Draft 2020-12 and deterministic:

* unions are ``anyOf`` (``Optional[X]`` is ``anyOf: [X, {type: null}]``), never a ``type`` list;
  ``Literal`` and ``Enum`` give ``type`` *and* ``enum`` (a ``type`` list only when the values mix types);
* dataclasses, TypedDicts and pydantic models go to ``$defs`` at the root of the document and are
  referenced as ``#/$defs/<Name>``; the key is the class ``__name__`` (characters outside
  ``[A-Za-z0-9_.-]`` become ``_``; a clash gets ``Name2``, ``Name3``... in the order classes are met);
  ``$defs`` keys are sorted; enums are inlined;
* formats: ``date-time``, ``date``, ``time``, ``duration``, ``uuid``, ``ipv4``, ``ipv6`` (all defined by
  Draft 2020-12 Validation, section 7.3), and ``path`` for a ``pathlib`` path (issue 2 asks for Path's
  format; ``path`` is not a Draft 2020-12 format but the name pydantic uses, and ``eai tools validate``
  accepts it). Other formats pydantic gives a type it knows (``password``, ``file-path``...) are dropped;
* ``enum.Flag`` is ``{type: integer}`` without ``enum``: any combination of members is a valid value;
* pydantic generic models that refer to themselves (``Page[int]`` with a ``next: Page[T] | None``) keep
  the reference (pydantic leaves a ``PydanticRecursiveRef`` in their fields: it is resolved here);
* constraints (``Field(ge=1)``, ``annotated_types.MaxLen``...) are turned into keywords by pydantic on a
  stand-in type of the same JSON type, so they match what pydantic validates;
* descriptions: a class's is the first paragraph of its docstring (not the signature ``dataclasses``
  writes when there is none); a field's comes from ``Field(description=...)``, ``Annotated[T, "text"]``,
  ``typing_extensions.Doc``, ``dataclasses.field(metadata={"description": ...})``, or the class docstring
  (``Attributes:`` / ``:param:``), in that order;
* no ``$schema`` and no ``title`` keyword anywhere (pydantic's generated titles are noise).

Only the structure of the annotation objects is read (never source files or ``__qualname__``; no id reaches
the output), so the static scan's rebuilt classes give byte-identical schemas. Default values are turned into
JSON by :mod:`._jsonvalues`; what is asked of pydantic lives in :mod:`._pydantic`.
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import datetime
import decimal
import enum
import inspect
import ipaddress
import pathlib
import re
import sys
import types
import typing
import uuid
from collections import abc
from typing import Any, Iterator

import typing_extensions as te

from enterprise_ai.tools._docstrings import parse_docstring
from enterprise_ai.tools._jsonvalues import NOT_JSON, enum_schema, json_default
from enterprise_ai.tools._pydantic import (
    constraint_keywords, field_default, is_field_info, is_model, is_recursive_ref, pydantic_leaf,
    recursive_ref_target, root_annotation, strip_titles,
)

__all__ = ["NOT_JSON", "Builder", "field_default", "is_field_info", "json_default", "object_schema_cache"]

_EMPTY = inspect.Parameter.empty

_OBJECT_CACHE: dict[Any, dict[str, Any]] | None = None
"""Class -> its ``$defs`` entry, ``("enum", class)`` -> an enum's schema, while :func:`object_schema_cache`
is active (None otherwise)."""


@contextlib.contextmanager
def object_schema_cache() -> Iterator[None]:
    """Within this block, the ``$defs`` entry of each class (and an enum's schema) is built once and shared.

    Only entries that reference no other class (no ``$ref`` inside) are kept: those depend on the class
    alone, while a ``$ref`` name depends on the other classes of the document. For a run of many
    schemas over the same classes that nobody changes meanwhile (a scan); the entries are shared, so
    callers copy a schema before changing it (``LocalTool.manifest`` does). Nested use keeps the outer cache.
    """
    global _OBJECT_CACHE
    if _OBJECT_CACHE is not None:
        yield
        return
    _OBJECT_CACHE = {}
    try:
        yield
    finally:
        _OBJECT_CACHE = None


def _definition_error(message: str, **details: Any) -> Exception:
    from enterprise_ai.tools._schema import ToolDefinitionError  # defined there; imported late (no cycle)

    return ToolDefinitionError(message, **details)


# ---------------------------------------------------------------------------- annotation walker

_SIMPLE: dict[Any, dict[str, Any]] = {
    type(None): {"type": "null"},
    bool: {"type": "boolean"},
    int: {"type": "integer"},
    float: {"type": "number"},
    str: {"type": "string"},
    bytes: {"type": "string"},
    bytearray: {"type": "string"},
    datetime.datetime: {"type": "string", "format": "date-time"},
    datetime.date: {"type": "string", "format": "date"},
    datetime.time: {"type": "string", "format": "time"},
    datetime.timedelta: {"type": "string", "format": "duration"},
    uuid.UUID: {"type": "string", "format": "uuid"},
    pathlib.PurePath: {"type": "string", "format": "path"},  # pydantic's name (see the module docstring)
    ipaddress.IPv4Address: {"type": "string", "format": "ipv4"},
    ipaddress.IPv6Address: {"type": "string", "format": "ipv6"},
    decimal.Decimal: {"anyOf": [{"type": "number"}, {"type": "string"}]},
}
_ARRAYS = {list, abc.Sequence, abc.MutableSequence, abc.Iterable, abc.Collection, abc.Iterator,
           collections.deque, typing.List, typing.Sequence}
_SETS = {set, frozenset, abc.Set, abc.MutableSet}
_MAPS = {dict, abc.Mapping, abc.MutableMapping, collections.OrderedDict, collections.defaultdict}
_UNION_TYPES = (typing.Union, types.UnionType)


class Builder:
    """Walks annotations into schemas, collecting object classes in ``defs`` (one builder per document)."""

    def __init__(self, owner: str, globalns: dict[str, Any] | None = None) -> None:
        self.owner = owner
        self.defs: dict[str, dict[str, Any]] = {}
        self._names: dict[Any, str] = {}
        self._refs = 0  # $ref made so far: an object schema made without any can be cached
        # (globals, locals) to evaluate a string left inside an annotation, innermost last: the function's
        # module, then each class being walked (its module, and its own name for self-references)
        self._namespaces: list[tuple[dict[str, Any], dict[str, Any]]] = [(globalns, {})] if globalns else []

    def _evaluate(self, name: str) -> Any:
        """A string left inside an annotation, evaluated like ``typing.get_type_hints`` does, or _EMPTY.

        Python 3.10's ``get_type_hints`` leaves the strings inside builtin generics (``list["Node"]``)
        as they are; 3.11 evaluates them. This gives both the same schema.
        """
        for globalns, localns in reversed(self._namespaces):
            try:
                return eval(name, globalns, localns)  # noqa: S307 - what typing.get_type_hints does
            except Exception:  # noqa: BLE001 - try the next namespace, else report it unresolved
                continue
        return _EMPTY

    # -- entry points
    def document(self, schema: dict[str, Any]) -> dict[str, Any]:
        if self.defs:
            schema["$defs"] = {k: self.defs[k] for k in sorted(self.defs)}
        return schema

    def schema(self, tp: Any) -> dict[str, Any]:
        if type(tp) is type and tp in _SIMPLE:  # str, int...: what _class finds first in the MRO, sooner
            return dict(_SIMPLE[tp])
        if tp is _EMPTY or tp is Any or tp is object or tp is te.Any:
            return {}
        if tp is None:
            tp = type(None)
        if isinstance(tp, (str, typing.ForwardRef)):
            name = tp if isinstance(tp, str) else tp.__forward_arg__
            resolved = self._evaluate(name)
            if resolved is not _EMPTY and not isinstance(resolved, (str, typing.ForwardRef)):
                return self.schema(resolved)
            raise _definition_error(f"annotation {name!r} cannot be resolved",
                                      tool=self.owner, unresolved=name)
        origin, args = te.get_origin(tp), te.get_args(tp)
        if origin is te.Annotated:
            return self.annotated(args[0], list(tp.__metadata__))
        if origin in (te.Required, te.NotRequired, te.ReadOnly, typing.ClassVar, typing.Final):
            return self.schema(args[0]) if args else {}
        if origin is te.Literal:
            return enum_schema(list(args))
        if origin in _UNION_TYPES:
            return self._union(args)
        if isinstance(tp, te.TypeAliasType) or type(tp).__name__ == "TypeAliasType":
            return self.schema(tp.__value__)
        if isinstance(tp, typing.NewType):
            return self.schema(tp.__supertype__)
        if isinstance(tp, dataclasses.InitVar):
            return self.schema(tp.type)
        if is_recursive_ref(tp):
            return self._recursive_ref(tp)
        if isinstance(tp, typing.TypeVar):
            if tp.__bound__ is not None:
                return self.schema(tp.__bound__)
            return self._union(tp.__constraints__) if tp.__constraints__ else {}
        if tp is typing.Tuple or (origin is not None and not args and not isinstance(tp, type)
                                  and origin is not tuple):
            return self._class(origin)  # bare typing.List, typing.Dict, typing.Tuple...
        if origin is not None:
            return self._generic(origin, args)
        if isinstance(tp, type):
            return self._class(tp)
        return {}

    # -- pieces
    def annotated(self, base: Any, metadata: list[Any]) -> dict[str, Any]:
        schema = dict(self.schema(base))
        extra: dict[str, Any] = {}
        constraints: list[Any] = []
        for meta in metadata:
            if is_field_info(meta):
                if meta.description:
                    extra["description"] = meta.description
                if meta.examples is not None:
                    extra["examples"] = json_default(list(meta.examples))
                if isinstance(meta.json_schema_extra, dict):
                    extra.update(strip_titles(meta.json_schema_extra))
                constraints.extend(meta.metadata)
            elif isinstance(meta, str):  # Annotated[str, "what it is"]
                extra.setdefault("description", meta)
            elif type(meta).__name__ == "Doc" and isinstance(getattr(meta, "documentation", None), str):
                extra.setdefault("description", meta.documentation)
            elif type(meta).__module__ in ("annotated_types", "pydantic.types", "pydantic.fields",
                                           "pydantic._internal._fields"):
                constraints.append(meta)
        if constraints:
            target = schema
            if "anyOf" in schema:  # Optional[int] with ge=1: constrain the non-null member
                typed = [s for s in schema["anyOf"] if s.get("type") != "null"]
                target = typed[0] if len(typed) == 1 else {}
                if target:
                    schema["anyOf"] = [dict(s) for s in schema["anyOf"]]
                    target = next(s for s in schema["anyOf"] if s.get("type") != "null")
            target.update(constraint_keywords(target.get("type"), constraints))
        schema.update({k: v for k, v in extra.items() if v is not NOT_JSON})
        return schema

    def _union(self, members: tuple[Any, ...]) -> dict[str, Any]:
        out: list[dict[str, Any]] = []
        for member in members:
            s = self.schema(member)
            if not s:
                return {}  # Any absorbs the union
            for item in s["anyOf"] if list(s) == ["anyOf"] else [s]:
                if item not in out:
                    out.append(item)
        return out[0] if len(out) == 1 else {"anyOf": out}

    def _generic(self, origin: Any, args: tuple[Any, ...]) -> dict[str, Any]:
        if origin is tuple:
            if len(args) == 2 and args[1] is Ellipsis:
                item = self.schema(args[0])
                return {"type": "array", "items": item} if item else {"type": "array"}
            if args == ((),) or not args:  # tuple[()]: the empty tuple
                return {"type": "array", "maxItems": 0}
            return {"type": "array", "prefixItems": [self.schema(a) for a in args], "items": False,
                    "minItems": len(args), "maxItems": len(args)}
        if origin in _ARRAYS or origin in _SETS:
            out: dict[str, Any] = {"type": "array"}
            if args and (item := self.schema(args[0])):
                out["items"] = item
            if origin in _SETS:
                out["uniqueItems"] = True
            return out
        if origin in _MAPS:
            out = {"type": "object"}
            if len(args) == 2:
                keys = self.schema(args[0])
                if "enum" in keys:
                    out["propertyNames"] = {"enum": [str(v) for v in keys["enum"]]}
                if value := self.schema(args[1]):
                    out["additionalProperties"] = value
            return out
        if isinstance(origin, type) and (origin.__dict__.get("__pydantic_generic_metadata__") is None):
            return self._class(origin)
        return {}

    def _class(self, cls: type) -> dict[str, Any]:
        if issubclass(cls, enum.Flag):
            return {"type": "integer"}  # any combination of members is a value: no enum
        if issubclass(cls, enum.Enum):
            return self._enum(cls)
        if cls in (tuple,):
            return {"type": "array"}
        if cls in _ARRAYS or cls in _SETS:
            return {"type": "array", **({"uniqueItems": True} if cls in _SETS else {})}
        if cls in _MAPS:
            return {"type": "object"}
        if te.is_typeddict(cls) or dataclasses.is_dataclass(cls) or is_model(cls):
            if is_model(cls) and root_annotation(cls) is not None:
                return self.schema(root_annotation(cls))
            return self._ref(cls)
        for base in cls.__mro__:
            if base in _SIMPLE:
                return dict(_SIMPLE[base])
        return pydantic_leaf(cls)

    def _ref(self, cls: type) -> dict[str, Any]:
        if cls not in self._names:
            base = re.sub(r"[^A-Za-z0-9_.-]+", "_", cls.__name__).strip("_") or "Model"
            name, i = base, 1
            while name in self.defs:
                i += 1
                name = f"{base}{i}"
            self._names[cls] = name
            self.defs[name] = {}  # placeholder: recursive references resolve to it
            self.defs[name] = self._cached_object(cls)
        self._refs += 1
        return {"$ref": f"#/$defs/{self._names[cls]}"}

    def _enum(self, cls: type[enum.Enum]) -> dict[str, Any]:
        cache = _OBJECT_CACHE
        if cache is None:
            return enum_schema([m.value for m in cls])
        try:
            return cache[("enum", cls)]
        except KeyError:
            schema = cache[("enum", cls)] = enum_schema([m.value for m in cls])
            return schema
        except TypeError:  # an unhashable class (odd metaclass): no cache
            return enum_schema([m.value for m in cls])

    def _cached_object(self, cls: type) -> dict[str, Any]:
        cache = _OBJECT_CACHE
        if cache is None:
            return self._object(cls)
        try:
            return cache[cls]
        except KeyError:
            pass
        except TypeError:  # an unhashable class (odd metaclass): no cache
            return self._object(cls)
        refs = self._refs
        schema = self._object(cls)
        if self._refs == refs:
            cache[cls] = schema
        return schema

    def _recursive_ref(self, ref: Any) -> dict[str, Any]:
        target = recursive_ref_target(ref, list(self._names))
        if target is None:  # never silently accept anything
            name = ref.type_ref.split(":", 1)[0]
            raise _definition_error(f"the self-reference of generic model {name} cannot be resolved",
                                    tool=self.owner)
        return self._ref(target)

    def _object(self, cls: type) -> dict[str, Any]:
        doc = cls.__doc__
        if dataclasses.is_dataclass(cls) and doc and doc.startswith(f"{cls.__name__}("):
            doc = None  # the signature dataclasses writes when there is no docstring
        parsed = parse_docstring(doc)
        props: dict[str, Any] = {}
        required: list[str] = []
        extra_forbidden = False
        for key, schema, is_required, default in self._fields(cls):
            schema = dict(schema)
            if "description" not in schema and key in parsed.params:
                schema["description"] = parsed.params[key]
            if default is not NOT_JSON:
                schema["default"] = default
            props[key] = schema
            if is_required:
                required.append(key)
        if is_model(cls):
            extra_forbidden = cls.model_config.get("extra") == "forbid"
        out: dict[str, Any] = {"type": "object"}
        if parsed.description:
            out["description"] = parsed.description
        out["properties"] = props
        if required:
            out["required"] = required
        if extra_forbidden:
            out["additionalProperties"] = False
        return out

    def _fields(self, cls: type) -> list[tuple[str, dict[str, Any], bool, Any]]:
        module = sys.modules.get(getattr(cls, "__module__", None) or "")
        self._namespaces.append((vars(module) if module else {}, {cls.__name__: cls}))
        try:
            return self._fields_of(cls)
        finally:
            self._namespaces.pop()

    def _fields_of(self, cls: type) -> list[tuple[str, dict[str, Any], bool, Any]]:
        if is_model(cls):
            return self._model_fields(cls)
        hints = self._class_hints(cls)
        if te.is_typeddict(cls):
            rows = []
            for key, hint in hints.items():
                origin = te.get_origin(hint)
                req = True if origin is te.Required else False if origin is te.NotRequired \
                    else key in getattr(cls, "__required_keys__", ())
                rows.append((key, self.schema(hint), req, NOT_JSON))
            return rows
        rows = []
        init_vars = {name for name, hint in hints.items() if isinstance(hint, dataclasses.InitVar)}
        keep = {f.name for f in dataclasses.fields(cls)} | init_vars  # __init__ takes InitVar fields too
        for f in cls.__dataclass_fields__.values():  # type: ignore[attr-defined]
            if not f.init or f.name not in keep:
                continue
            hint, value = hints.get(f.name, _EMPTY), f.default
            if is_field_info(value):  # pydantic dataclass: x: int = Field(3, ge=0)
                schema, value = self.annotated(hint, [value]), field_default(value)
                value = dataclasses.MISSING if value is _EMPTY else value
            else:
                schema = self.schema(hint)
            has_default = value is not dataclasses.MISSING
            missing = not has_default and f.default_factory is dataclasses.MISSING  # type: ignore[misc]
            default = json_default(value) if has_default else NOT_JSON
            if isinstance(f.metadata.get("description"), str) and "description" not in schema:
                schema = {**schema, "description": f.metadata["description"]}  # field(metadata={"description": ...})
            rows.append((f.name, schema, missing, default))
        return rows

    def _model_fields(self, cls: Any) -> list[tuple[str, dict[str, Any], bool, Any]]:
        if not getattr(cls, "__pydantic_complete__", True):
            try:
                cls.model_rebuild(raise_errors=True)
            except Exception as exc:
                raise _definition_error(f"model {cls.__name__} cannot be built: {exc}",
                                          tool=self.owner, parameter=cls.__name__) from None
        rows = []
        for name, info in cls.model_fields.items():
            schema = self.annotated(info.annotation, [info])
            required = info.is_required()
            default = NOT_JSON
            if not required and info.default_factory is None:
                default = json_default(info.default)
            rows.append((_input_key(name, info), schema, required, default))
        return rows

    def _class_hints(self, cls: type) -> dict[str, Any]:
        try:
            return typing.get_type_hints(cls, localns={cls.__name__: cls}, include_extras=True)
        except NameError as exc:
            raise _definition_error(
                f"a field of {cls.__name__} has an annotation that cannot be resolved: "
                f"name {exc.name!r} is not defined", tool=self.owner, parameter=cls.__name__,
                unresolved=exc.name) from None
        except Exception as exc:
            raise _definition_error(f"annotations of {cls.__name__} cannot be resolved: {exc}",
                                      tool=self.owner, parameter=cls.__name__) from None


def _input_key(name: str, info: Any) -> str:
    """The key a pydantic field is read from, as pydantic's validation schema names it: the
    ``validation_alias`` (the first plain name of ``AliasChoices``), else the ``alias``, else the field name."""
    alias = info.validation_alias
    if alias is not None and not isinstance(alias, str):
        alias = next((c for c in getattr(alias, "choices", None) or [] if isinstance(c, str)), None)
    return alias if isinstance(alias, str) else (info.alias or name)
