"""Tool Manifests exported as the tool entries model APIs and MCP clients read.

Targets (:data:`TARGETS`):

* ``openai`` - a Chat Completions ``tools`` entry: ``{"type": "function", "function": {"name",
  "description", "parameters"}}``; with ``strict=True`` the parameters follow OpenAI strict mode
  (:mod:`.strict`) and the function carries ``"strict": true``;
* ``anthropic`` - a Messages API ``tools`` entry: ``{"name", "description", "input_schema"}``;
* ``mcp`` - a Model Context Protocol ``Tool``: ``{"name", "title"?, "description", "inputSchema",
  "outputSchema"?, "annotations"}``, the annotations mapped back from the manifest (:func:`mcp_annotations`).

OpenAI and Anthropic accept tool names matching ``[A-Za-z0-9_-]{1,64}``: ``.`` in a manifest name
becomes ``_``; a name still invalid, or two tools mapped to one name, fails the export.
"""

from __future__ import annotations

import re
from typing import Any

from enterprise_ai.errors import FindingsError, UsageError

TARGETS = ("openai", "anthropic", "mcp")
MODEL_API_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_HINTS = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")


def model_api_name(name: str) -> str:
    """A manifest name as OpenAI/Anthropic accept it (``.`` -> ``_``); raises FindingsError if still invalid."""
    mapped = name.replace(".", "_")
    if not MODEL_API_NAME.match(mapped):
        raise FindingsError(f"tool '{name}': the name '{mapped}' is not accepted by model APIs ([A-Za-z0-9_-]{{1,64}})")
    return mapped


def _bool(value: Any) -> bool | None:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "false"):
        return value.lower() == "true"
    return None


def mcp_annotations(manifest: dict[str, Any]) -> dict[str, Any]:
    """MCP ``ToolAnnotations`` of a manifest.

    Hints kept in ``metadata.annotations`` (an agents-SDK tool, MANIFEST.md mapping) win; otherwise
    they are derived from the spec: ``readOnlyHint`` = ``action == read``; for other actions
    ``destructiveHint`` = ``action == delete`` and ``idempotentHint`` = ``spec.idempotent``;
    ``openWorldHint`` is set only when kept (the manifest does not say it). ``title`` comes from
    ``metadata.annotations.title``.
    """
    spec = manifest.get("spec", {})
    kept = (manifest.get("metadata", {}).get("annotations") or {})
    read_only = spec.get("action") == "read"
    derived: dict[str, Any] = {"readOnlyHint": read_only}
    if not read_only:
        derived["destructiveHint"] = spec.get("action") == "delete"
        derived["idempotentHint"] = bool(spec.get("idempotent", False))
    out: dict[str, Any] = {}
    if isinstance(kept.get("title"), str):
        out["title"] = kept["title"]
    for hint in _HINTS:
        value = _bool(kept.get(hint))
        if value is None:
            value = derived.get(hint)
        if value is not None:
            out[hint] = value
    return out


def _check(manifest: Any, where: str) -> dict[str, Any]:
    if not isinstance(manifest, dict) or manifest.get("kind") != "Tool":
        raise UsageError(f"{where}: not a Tool Manifest (kind: Tool)")
    name = manifest.get("metadata", {}).get("name")
    schema = manifest.get("spec", {}).get("input_schema")
    if not isinstance(name, str) or not isinstance(schema, dict):
        raise UsageError(f"{where}: a Tool Manifest needs metadata.name and spec.input_schema")
    return manifest


def export_entry(manifest: dict[str, Any], target: str, *, strict: bool = False) -> dict[str, Any]:
    """One tool entry for ``target``.

    Raises:
        UsageError: an unknown target, or ``strict`` with a target other than ``openai``.
        FindingsError: a name model APIs refuse; under ``strict``, every parameter strict mode cannot
            express, named in one message.
    """
    spec, meta = manifest["spec"], manifest["metadata"]
    name, description = meta["name"], spec.get("description", "")
    if target not in TARGETS:
        raise UsageError(f"unknown export target '{target}': choose one of {', '.join(TARGETS)}")
    if strict and target != "openai":
        raise UsageError("--strict applies to --to openai only (OpenAI strict mode)")
    if target == "openai":
        parameters = spec["input_schema"]
        function: dict[str, Any] = {"name": model_api_name(name), "description": description}
        if strict:
            from enterprise_ai.export.strict import strict_schema

            parameters, problems = strict_schema(parameters)
            if problems:
                raise FindingsError(f"tool '{name}': " + "; ".join(problems))
            function["strict"] = True
        function["parameters"] = parameters
        return {"type": "function", "function": function}
    if target == "anthropic":
        return {"name": model_api_name(name), "description": description, "input_schema": spec["input_schema"]}
    annotations = mcp_annotations(manifest)
    entry: dict[str, Any] = {"name": name}
    if "title" in annotations:
        entry["title"] = annotations["title"]
    entry.update(description=description, inputSchema=spec["input_schema"])
    output = spec.get("output_schema")
    if isinstance(output, dict) and output.get("type") == "object":
        entry["outputSchema"] = output  # MCP requires an object schema for structured content
    entry["annotations"] = annotations
    return entry


def export_manifests(manifests: list[tuple[dict[str, Any], str]], target: str, *, strict: bool = False) -> list[dict[str, Any]]:
    """Entries for ``(manifest, where)`` pairs, in order; every failure is collected, then raised at once.

    Raises:
        UsageError: a document that is not a Tool Manifest, a bad target or option.
        FindingsError: one line per tool that cannot be exported, and duplicate exported names.
    """
    entries: list[dict[str, Any]] = []
    failures: list[str] = []
    seen: dict[str, str] = {}
    by_name: dict[str, tuple[dict[str, Any], str]] = {}
    for manifest, where in manifests:
        _check(manifest, where)
        name = manifest["metadata"]["name"]
        if name in by_name:
            if by_name[name][0] != manifest:
                failures.append(f"tool '{name}' is defined twice, differently: {by_name[name][1]} and {where}")
            continue  # the same tool given twice (a manifest file and its code): exported once
        by_name[name] = (manifest, where)
        try:
            entry = export_entry(manifest, target, strict=strict)
        except FindingsError as exc:
            failures.append(exc.message)
            continue
        exported = entry.get("name") or entry["function"]["name"]
        if exported in seen and seen[exported] != manifest["metadata"]["name"]:
            failures.append(f"tools '{seen[exported]}' and '{manifest['metadata']['name']}' both export as '{exported}'")
        seen[exported] = manifest["metadata"]["name"]
        entries.append(entry)
    if failures:
        raise FindingsError(f"cannot export to {target}: " + " | ".join(failures))
    return entries
