"""JSON Schema (Draft 2020-12) of one Python annotation: the walker behind ``schema_for`` and ``input_schema``.

Choices, so that every schema is valid Draft 2020-12 and deterministic:

* unions are ``anyOf`` (``Optional[X]`` is ``anyOf: [X, {type: null}]``), never a ``type`` list;
  ``Literal`` and ``Enum`` give ``type`` *and* ``enum`` (a ``type`` list only when the values mix types);
* dataclasses, TypedDicts and pydantic models go to ``$defs`` at the root of the document and are
  referenced as ``#/$defs/<Name>``; the key is the class ``__name__`` (characters outside
  ``[A-Za-z0-9_.-]`` become ``_``; a clash gets ``Name2``, ``Name3``... in the order classes are met);
  ``$defs`` keys are sorted; enums are inlined;
* formats: ``date-time``, ``date``, ``time``, ``duration``, ``uuid``, ``ipv4``, ``ipv6`` (all defined by
  Draft 2020-12 Validation, section 7.3); a ``pathlib`` path is a plain ``{type: string}``: Draft 2020-12
  defines no ``path`` format, an unknown format is checked by no validator, and ``eai tools validate``
  warns about one (rule ``schema.unknown-format``). For the same reason, a format pydantic gives a type
  it knows (``password``, ``file-path``...) is dropped unless Draft 2020-12 defines it;
* constraints (``Field(ge=1)``, ``annotated_types.MaxLen``...) are turned into keywords by pydantic on a
  stand-in type of the same JSON type, so they match what pydantic validates;
* descriptions: a class's is the first paragraph of its docstring (not the signature ``dataclasses``
  writes when there is none); a field's comes from ``Field(description=...)``, ``Annotated[T, "text"]``,
  ``typing_extensions.Doc``, ``dataclasses.field(metadata={"description": ...})``, or the class docstring
  (``Attributes:`` / ``:param:``), in that order;
* no ``$schema`` and no ``title`` keyword anywhere (pydantic's generated titles are noise).

Only the structure of the annotation objects is read (never source files, ``__qualname__`` or ids), so
the static scan's rebuilt classes give byte-identical schemas.
"""

from __future__ import annotations

import collections
import copy
import dataclasses
import datetime
import decimal
import enum
import functools
import inspect
import ipaddress
import math
import pathlib
import re
import types
import typing
import uuid
from collections import abc
from typing import Any

import typing_extensions as te

from enterprise_ai.tools._docstrings import parse_docstring

__all__ = ["NOT_JSON", "Builder", "field_default", "is_field_info", "json_default"]

_EMPTY = inspect.Parameter.empty


def _definition_error(message: str, **details: Any) -> Exception:
    from enterprise_ai.tools._schema import ToolDefinitionError  # defined there; imported late (no cycle)

    return ToolDefinitionError(message, **details)


NOT_JSON = object()


def json_default(value: Any) -> Any:
    """A Python default as JSON data (for the ``default`` keyword), or the ``NOT_JSON`` marker.

    ``None``/bool/int/str as is; a finite float; an enum member as its value; a ``pathlib`` path as a
    POSIX string; date/time as ISO 8601; UUID as a string; list/tuple as a list; set/frozenset as a
    sorted list (deterministic); a dict with string keys; a pydantic model or dataclass instance as its
    fields. Anything else (or containing anything else) is ``NOT_JSON``: the caller leaves it out.
    """
    if value is None or isinstance(value, (bool, int, str)) and not isinstance(value, enum.Enum):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else NOT_JSON
    if isinstance(value, enum.Enum):
        return json_default(value.value)
    if isinstance(value, pathlib.PurePath):
        return value.as_posix()
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, (list, tuple, set, frozenset)):
        items = [json_default(v) for v in value]
        if any(v is NOT_JSON for v in items):
            return NOT_JSON
        if isinstance(value, (set, frozenset)):  # deterministic order
            items.sort(key=lambda v: (type(v).__name__, repr(v)))
        return items
    if isinstance(value, dict):
        out = {k: json_default(v) for k, v in value.items()}
        if not all(isinstance(k, str) for k in out) or any(v is NOT_JSON for v in out.values()):
            return NOT_JSON
        return out
    if hasattr(type(value), "model_fields") and hasattr(value, "model_dump"):
        try:
            return json_default(value.model_dump(mode="json", by_alias=True))
        except Exception:
            return NOT_JSON
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return json_default(dataclasses.asdict(value))
    return NOT_JSON


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
    pathlib.PurePath: {"type": "string"},  # no "path" format in Draft 2020-12 (see the module docstring)
    ipaddress.IPv4Address: {"type": "string", "format": "ipv4"},
    ipaddress.IPv6Address: {"type": "string", "format": "ipv6"},
    decimal.Decimal: {"anyOf": [{"type": "number"}, {"type": "string"}]},
}
FORMATS_2020_12 = frozenset((
    "date-time", "date", "time", "duration", "email", "idn-email", "hostname", "idn-hostname", "ipv4", "ipv6",
    "uri", "uri-reference", "iri", "iri-reference", "uuid", "uri-template", "json-pointer",
    "relative-json-pointer", "regex",
))  # Draft 2020-12 Validation, section 7.3
_ARRAYS = {list, abc.Sequence, abc.MutableSequence, abc.Iterable, abc.Collection, abc.Iterator,
           collections.deque, typing.List, typing.Sequence}
_SETS = {set, frozenset, abc.Set, abc.MutableSet}
_MAPS = {dict, abc.Mapping, abc.MutableMapping, collections.OrderedDict, collections.defaultdict}
_JSON_TYPES = ((bool, "boolean"), (int, "integer"), (float, "number"), (str, "string"), (type(None), "null"))
_UNION_TYPES = (typing.Union, types.UnionType)


def _type_of(values: list[Any]) -> str | list[str] | None:
    found: list[str] = []
    for v in values:
        name = next((n for t, n in _JSON_TYPES if isinstance(v, t)), None)
        if name is None:
            return None
        if name not in found:
            found.append(name)
    return found[0] if len(found) == 1 else found


def _enum_schema(values: list[Any]) -> dict[str, Any]:
    values = [json_default(v) for v in values]
    if any(v is NOT_JSON for v in values):
        return {}
    kind = _type_of(values)
    return {"type": kind, "enum": values} if kind else {"enum": values}


def _strip_titles(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: _strip_titles(v) for k, v in node.items() if k != "title" or not isinstance(v, str)}
    if isinstance(node, list):
        return [_strip_titles(v) for v in node]
    return node


_STAND_INS = {"string": str, "integer": int, "number": float, "boolean": bool, "array": list, "object": dict}


@functools.lru_cache(maxsize=256)
def _constraint_keywords_cached(stand_in: type, constraints: tuple[Any, ...]) -> dict[str, Any]:
    from pydantic import TypeAdapter

    base = TypeAdapter(stand_in).json_schema()
    full = TypeAdapter(te.Annotated[(stand_in, *constraints)]).json_schema()  # type: ignore[misc]
    return _known_format_only(_strip_titles({k: v for k, v in full.items() if base.get(k, NOT_JSON) != v}))


def _known_format_only(schema: dict[str, Any]) -> dict[str, Any]:
    """Drop a ``format`` Draft 2020-12 does not define (pydantic's ``password``, ``file-path``...)."""
    if "format" in schema and schema["format"] not in FORMATS_2020_12:
        schema = {k: v for k, v in schema.items() if k != "format"}
    return schema


def _constraint_keywords(stand_in: type, constraints: list[Any]) -> dict[str, Any]:
    """JSON Schema keywords (``minimum``, ``maxLength``, ``pattern``...) pydantic derives from constraints."""
    key = (stand_in, tuple(constraints))
    try:
        hash(key)
    except TypeError:  # unhashable metadata: no cache
        compute = _constraint_keywords_cached.__wrapped__
    else:
        compute = _constraint_keywords_cached
    try:
        return copy.deepcopy(compute(*key))
    except Exception:  # a constraint pydantic cannot apply to this type: no keyword rather than a crash
        return {}


def is_field_info(obj: Any) -> bool:
    return type(obj).__name__ == "FieldInfo" and type(obj).__module__.startswith("pydantic")


class Builder:
    """Walks annotations into schemas, collecting object classes in ``defs`` (one builder per document)."""

    def __init__(self, owner: str) -> None:
        self.owner = owner
        self.defs: dict[str, dict[str, Any]] = {}
        self._names: dict[Any, str] = {}

    # -- entry points
    def document(self, schema: dict[str, Any]) -> dict[str, Any]:
        if self.defs:
            schema["$defs"] = {k: self.defs[k] for k in sorted(self.defs)}
        return schema

    def schema(self, tp: Any) -> dict[str, Any]:
        if tp is _EMPTY or tp is Any or tp is object or tp is te.Any:
            return {}
        if tp is None:
            tp = type(None)
        if isinstance(tp, (str, typing.ForwardRef)):
            name = tp if isinstance(tp, str) else tp.__forward_arg__
            raise _definition_error(f"annotation {name!r} cannot be resolved",
                                      tool=self.owner, unresolved=name)
        origin, args = te.get_origin(tp), te.get_args(tp)
        if origin is te.Annotated:
            return self.annotated(args[0], list(tp.__metadata__))
        if origin in (te.Required, te.NotRequired, te.ReadOnly, typing.ClassVar, typing.Final):
            return self.schema(args[0]) if args else {}
        if origin is te.Literal:
            return _enum_schema(list(args))
        if origin in _UNION_TYPES:
            return self._union(args)
        if isinstance(tp, te.TypeAliasType) or type(tp).__name__ == "TypeAliasType":
            return self.schema(tp.__value__)
        if isinstance(tp, typing.NewType):
            return self.schema(tp.__supertype__)
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
                    extra.update(_strip_titles(meta.json_schema_extra))
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
            stand_in = _STAND_INS.get(target.get("type")) if isinstance(target.get("type"), str) else None
            if stand_in is not None:
                target.update(_constraint_keywords(stand_in, constraints))
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
        if issubclass(cls, enum.Enum):
            return _enum_schema([m.value for m in cls])
        if cls in (tuple,):
            return {"type": "array"}
        if cls in _ARRAYS or cls in _SETS:
            return {"type": "array", **({"uniqueItems": True} if cls in _SETS else {})}
        if cls in _MAPS:
            return {"type": "object"}
        if te.is_typeddict(cls) or dataclasses.is_dataclass(cls) or _is_model(cls):
            if _is_model(cls) and _root_annotation(cls) is not None:
                return self.schema(_root_annotation(cls))
            return self._ref(cls)
        for base in cls.__mro__:
            if base in _SIMPLE:
                return dict(_SIMPLE[base])
        return _pydantic_leaf(cls)

    def _ref(self, cls: type) -> dict[str, Any]:
        if cls not in self._names:
            base = re.sub(r"[^A-Za-z0-9_.-]+", "_", cls.__name__).strip("_") or "Model"
            name, i = base, 1
            while name in self.defs:
                i += 1
                name = f"{base}{i}"
            self._names[cls] = name
            self.defs[name] = {}  # placeholder: recursive references resolve to it
            self.defs[name] = self._object(cls)
        return {"$ref": f"#/$defs/{self._names[cls]}"}

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
        if _is_model(cls):
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
        if _is_model(cls):
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
        for f in dataclasses.fields(cls):
            if not f.init:
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
            rows.append((info.alias or name, schema, required, default))
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


def field_default(info: Any) -> Any:
    """The Python default of a pydantic ``FieldInfo`` (``inspect.Parameter.empty`` when it has none)."""
    if info.default_factory is not None:
        try:
            return info.default_factory()
        except Exception:
            return _EMPTY
    return _EMPTY if info.is_required() else info.default


def _is_model(cls: Any) -> bool:
    return isinstance(cls, type) and hasattr(cls, "model_fields") and hasattr(cls, "model_json_schema")


def _root_annotation(cls: Any) -> Any:
    fields = getattr(cls, "model_fields", {})
    if getattr(cls, "__pydantic_root_model__", False) and "root" in fields:
        return fields["root"].annotation
    return None


def _pydantic_leaf(tp: Any) -> dict[str, Any]:
    """Schema of a type pydantic knows (``AnyUrl``, ``EmailStr``...) when it needs no ``$defs``; else ``{}``."""
    try:
        hash(tp)
    except TypeError:  # unhashable
        return _pydantic_leaf_cached.__wrapped__(tp)
    return copy.deepcopy(_pydantic_leaf_cached(tp))


@functools.lru_cache(maxsize=512)
def _pydantic_leaf_cached(tp: Any) -> dict[str, Any]:
    try:
        from pydantic import TypeAdapter

        schema = TypeAdapter(tp).json_schema()
    except Exception:
        return {}
    if "$defs" in schema or "$ref" in repr(schema):
        return {}
    schema = _known_format_only(_strip_titles(schema))
    return dict(sorted(schema.items(), key=lambda item: item[0] != "type"))  # "type" first, then pydantic's order


