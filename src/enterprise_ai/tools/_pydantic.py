"""What the schema walker asks pydantic: constraint keywords, leaf types, field defaults, generic self-references.

Split from :mod:`enterprise_ai.tools._typeschema`. pydantic is imported lazily (``import enterprise_ai.tools``
stays light); every result is cached and deep-copied, and no pydantic error escapes: a constraint or a type
pydantic cannot handle gives no keyword (``{}``), never a crash.
"""

from __future__ import annotations

import copy
import functools
import inspect
from typing import Any

import typing_extensions as te

__all__ = [
    "KNOWN_FORMATS", "constraint_keywords", "field_default", "is_field_info", "is_model", "is_recursive_ref",
    "known_format_only", "pydantic_leaf", "pydantic_ready", "recursive_ref_target", "root_annotation",
    "strip_titles",
]

_EMPTY = inspect.Parameter.empty

KNOWN_FORMATS = frozenset((
    "date-time", "date", "time", "duration", "email", "idn-email", "hostname", "idn-hostname", "ipv4", "ipv6",
    "uri", "uri-reference", "iri", "iri-reference", "uuid", "uri-template", "json-pointer",
    "relative-json-pointer", "regex",  # Draft 2020-12 Validation, section 7.3
    "path",  # not standard: pydantic's (and eai's) name for pathlib paths, accepted by `eai tools validate`
))
"""The ``format`` values kept in a schema; pydantic's others (``password``, ``file-path``...) are dropped."""

_STAND_INS = {"string": str, "integer": int, "number": float, "boolean": bool, "array": list, "object": dict}


def strip_titles(node: Any) -> Any:
    """A copy of a JSON document without any ``title`` keyword (a property *named* ``title`` is kept)."""
    if isinstance(node, dict):
        return {k: strip_titles(v) for k, v in node.items() if k != "title" or not isinstance(v, str)}
    if isinstance(node, list):
        return [strip_titles(v) for v in node]
    return node


def known_format_only(schema: dict[str, Any]) -> dict[str, Any]:
    """Drop a ``format`` outside :data:`KNOWN_FORMATS`."""
    if "format" in schema and schema["format"] not in KNOWN_FORMATS:
        schema = {k: v for k, v in schema.items() if k != "format"}
    return schema


def is_field_info(obj: Any) -> bool:
    """True for a pydantic ``FieldInfo`` (``Field(...)``), without importing pydantic."""
    return type(obj).__name__ == "FieldInfo" and type(obj).__module__.startswith("pydantic")


def field_default(info: Any) -> Any:
    """The Python default of a pydantic ``FieldInfo`` (``inspect.Parameter.empty`` when it has none)."""
    if info.default_factory is not None:
        try:
            return info.default_factory()
        except Exception:
            return _EMPTY
    return _EMPTY if info.is_required() else info.default


def is_model(cls: Any) -> bool:
    """A pydantic model class (v2)."""
    return isinstance(cls, type) and hasattr(cls, "model_fields") and hasattr(cls, "model_json_schema")


def root_annotation(cls: Any) -> Any:
    """The ``root`` annotation of a pydantic ``RootModel``, else None."""
    fields = getattr(cls, "model_fields", {})
    if getattr(cls, "__pydantic_root_model__", False) and "root" in fields:
        return fields["root"].annotation
    return None


def is_recursive_ref(tp: Any) -> bool:
    """A ``PydanticRecursiveRef``: what pydantic leaves in the fields of a self-referencing generic model."""
    return type(tp).__name__ == "PydanticRecursiveRef" and isinstance(getattr(tp, "type_ref", None), str)


def _type_ref(cls: Any) -> str | None:
    meta = getattr(cls, "__pydantic_generic_metadata__", None)
    if not meta or meta.get("origin") is None:
        return None
    try:
        from pydantic._internal._type_refs import model_type_ref

        return model_type_ref(meta["origin"], args_override=meta["args"])
    except Exception:  # pragma: no cover - a pydantic without this helper
        return None


def recursive_ref_target(ref: Any, known: list[Any]) -> Any:
    """The parametrized model a ``PydanticRecursiveRef`` stands for, or None.

    ``known`` (the classes met so far) is searched first, then pydantic's cache of parametrized generics
    (``Page[int]`` referenced from ``Item[int]`` that was built inside ``Page[int]``).
    """
    for cls in known:
        if _type_ref(cls) == ref.type_ref:
            return cls
    try:
        from pydantic._internal._generics import _GENERIC_TYPES_CACHE

        candidates = list(_GENERIC_TYPES_CACHE.values())
    except Exception:  # pragma: no cover - pydantic internals moved
        return None
    return next((cls for cls in candidates if _type_ref(cls) == ref.type_ref), None)


@functools.lru_cache(maxsize=256)
def _constraint_keywords_cached(stand_in: type, constraints: tuple[Any, ...]) -> dict[str, Any]:
    from pydantic import TypeAdapter

    base = TypeAdapter(stand_in).json_schema()
    full = TypeAdapter(te.Annotated[(stand_in, *constraints)]).json_schema()  # type: ignore[misc]
    return known_format_only(strip_titles({k: v for k, v in full.items() if base.get(k, _EMPTY) != v}))


def constraint_keywords(json_type: Any, constraints: list[Any]) -> dict[str, Any]:
    """JSON Schema keywords (``minimum``, ``maxLength``, ``pattern``...) pydantic derives from constraints.

    ``json_type`` is the ``type`` of the constrained schema; the keywords are computed by pydantic on a
    stand-in type of that JSON type, so they match what pydantic validates. ``{}`` when there is no
    stand-in or pydantic cannot apply a constraint.
    """
    stand_in = _STAND_INS.get(json_type) if isinstance(json_type, str) else None
    if stand_in is None:
        return {}
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


def pydantic_leaf(tp: Any) -> dict[str, Any]:
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
    schema = known_format_only(strip_titles(schema))
    return dict(sorted(schema.items(), key=lambda item: item[0] != "type"))  # "type" first, then pydantic's order


def pydantic_ready(tp: Any, _seen: frozenset[int] = frozenset()) -> Any:
    """``tp`` with every ``typing.TypedDict`` rebuilt as a ``typing_extensions.TypedDict`` (same keys, same
    required keys), which pydantic needs before Python 3.12 to validate and coerce it.

    Looks inside ``Annotated``, unions and generic aliases (``list[TD]``, ``dict[str, TD]``). Raises
    ``TypeError`` for a recursive ``typing.TypedDict`` (the caller then validates without coercion).
    """
    if isinstance(tp, type) and te.is_typeddict(tp) and type(tp).__module__ == "typing":
        if id(tp) in _seen:
            raise TypeError(f"recursive TypedDict {tp.__name__}")
        import typing

        fields = {}
        for key, hint in typing.get_type_hints(tp, include_extras=True).items():
            hint = pydantic_ready(hint, _seen | {id(tp)})
            if te.get_origin(hint) not in (te.Required, te.NotRequired):
                hint = te.Required[hint] if key in tp.__required_keys__ else te.NotRequired[hint]
            fields[key] = hint
        rebuilt = te.TypedDict(tp.__name__, fields)  # type: ignore[operator]
        rebuilt.__module__ = tp.__module__
        return rebuilt
    origin, args = te.get_origin(tp), te.get_args(tp)
    if origin is te.Annotated:
        return te.Annotated[(pydantic_ready(args[0], _seen), *tp.__metadata__)]  # type: ignore[misc]
    if not args or origin is te.Literal:
        return tp
    new_args = tuple(pydantic_ready(a, _seen) for a in args)
    if all(a is b for a, b in zip(new_args, args)):
        return tp
    import types
    import typing

    if origin in (typing.Union, types.UnionType):
        return typing.Union[new_args]
    if hasattr(tp, "copy_with"):  # typing.List[...], Required[...], typing.Dict[...]
        return tp.copy_with(new_args)
    return types.GenericAlias(origin, new_args)
