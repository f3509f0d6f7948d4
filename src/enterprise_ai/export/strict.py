"""Rewrite a tool's input schema for OpenAI's strict mode (Structured Outputs for function calling).

OpenAI strict mode (``"strict": true``, see https://platform.openai.com/docs/guides/function-calling and
the Structured Outputs "supported schemas" list) accepts a subset of JSON Schema:

* every object has ``additionalProperties: false`` and lists *all* its properties in ``required``;
  an optional parameter is expressed as nullable (``type: [T, "null"]``, or ``anyOf`` with
  ``{"type": "null"}``), since leaving it out is not allowed;
* ``$defs`` and local ``$ref`` are allowed (kept, and rewritten too); ``anyOf`` is, ``oneOf`` is
  rewritten as ``anyOf``, ``const`` as a one-value ``enum``; ``default`` is not allowed and is dropped;
* a schema that cannot be expressed fails: a free-form mapping (an object without ``properties``,
  or typed ``additionalProperties`` such as ``dict[str, int]``, or ``patternProperties``), a fixed
  tuple (``prefixItems``), an unconstrained value (``{}`` for ``Any``, an unresolved placeholder),
  ``allOf``, ``not`` and ``if``/``then``/``else``.

:func:`strict_schema` returns the new schema and the list of problems, each naming the parameter
by its path (``filters.tags``, ``$defs.Address.extra``).
"""

from __future__ import annotations

import copy
from typing import Any

_UNSUPPORTED = {
    "prefixItems": "a fixed tuple (prefixItems)",
    "patternProperties": "a mapping with patternProperties",
    "allOf": "allOf",
    "not": "not",
    "if": "if/then/else",
}
_STRUCTURAL = ("type", "enum", "const", "anyOf", "oneOf", "$ref", "properties", "items")


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` that also accepts ``null`` (unchanged when it already does)."""
    kind = schema.get("type")
    if isinstance(kind, str) and "anyOf" not in schema and "$ref" not in schema:
        if kind == "null":
            return schema
        out = dict(schema, type=[kind, "null"])
        if "enum" in out and None not in out["enum"]:
            out["enum"] = [*out["enum"], None]
        return out
    if isinstance(kind, list):
        out = dict(schema) if "null" in kind else dict(schema, type=[*kind, "null"])
        if "enum" in out and None not in out["enum"]:
            out["enum"] = [*out["enum"], None]
        return out
    if "anyOf" in schema:
        if any(isinstance(s, dict) and s.get("type") == "null" for s in schema["anyOf"]):
            return schema
        return dict(schema, anyOf=[*schema["anyOf"], {"type": "null"}])
    keep = {k: v for k, v in schema.items() if k in ("description", "title")}
    inner = {k: v for k, v in schema.items() if k not in keep}
    return {**keep, "anyOf": [inner, {"type": "null"}]}


class _Rewriter:
    def __init__(self) -> None:
        self.problems: list[str] = []

    def fail(self, path: str, what: str) -> None:
        self.problems.append(f"parameter '{path or '(root)'}': {what} cannot be expressed in strict mode")

    def node(self, schema: Any, path: str) -> Any:
        if not isinstance(schema, dict):
            return schema
        if "x-eai-unresolved" in schema:
            self.fail(path, "a schema the static scan could not resolve")
            return schema
        for key, what in _UNSUPPORTED.items():
            if key in schema:
                self.fail(path, what)
                return schema
        if not any(k in schema for k in _STRUCTURAL):
            self.fail(path, "a value of any type")
            return schema
        out = {k: v for k, v in schema.items() if k != "default"}
        if "oneOf" in out:
            out["anyOf"] = out.pop("oneOf")
        if "const" in out:
            out["enum"] = [out.pop("const")]
        if "anyOf" in out:
            out["anyOf"] = [self.node(s, path) for s in out["anyOf"]]
        if "items" in out:
            out["items"] = self.node(out["items"], f"{path}[]")
        types = out.get("type")
        if types == "object" or (isinstance(types, list) and "object" in types) or "properties" in out:
            out = self.obj(out, path)
        return out

    def obj(self, schema: dict[str, Any], path: str) -> dict[str, Any]:
        extra = schema.get("additionalProperties", True)
        props = schema.get("properties")
        if extra not in (False, None) and (extra is not True or not props):
            self.fail(path, "a free-form mapping (additionalProperties)")
            return schema
        if not props and extra is not False:
            self.fail(path, "a free-form mapping")
            return schema
        required = set(schema.get("required", []))
        new_props = {}
        for name, sub in (props or {}).items():
            child = self.node(sub, f"{path}.{name}" if path else name)
            if name not in required and isinstance(child, dict):
                child = _nullable(child)
            new_props[name] = child
        return {**schema, "properties": new_props, "required": list(new_props), "additionalProperties": False}


def strict_schema(schema: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """``(rewritten schema, problems)`` for OpenAI strict mode; the input is not modified.

    ``problems`` is empty when the schema can be expressed; otherwise one line per parameter, e.g.
    ``parameter 'tags': a free-form mapping (additionalProperties) cannot be expressed in strict mode``.
    """
    rewriter = _Rewriter()
    source = copy.deepcopy(schema)
    defs = source.pop("$defs", None)
    out = rewriter.node(source, "")
    if isinstance(defs, dict):
        out["$defs"] = {name: rewriter.node(sub, f"$defs.{name}") for name, sub in defs.items()}
    return out, rewriter.problems
