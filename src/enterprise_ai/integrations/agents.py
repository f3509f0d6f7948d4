"""Tool Manifests from agents-SDK tools (``agents.tool`` / ``PythonTool``, ``agents.client_tool`` / ``ClientTool``).

The agents SDK (reference page ``000_a31e558403a9bc07.txt``) describes a tool with a ``ToolDefinition``:
``name``, ``title``, ``description``, ``input_schema``, ``output_schema`` and MCP ``ToolAnnotations``.
MANIFEST.md fixes how that becomes a manifest, implemented once here for both scans:

* ``read_only_hint`` true gives ``action: read`` and ``side_effects: false``; otherwise
  ``destructive_hint`` true (the MCP default: assume the worst) gives ``action: delete`` and false gives
  ``action: write``, both with ``side_effects: true``; ``idempotent`` is ``idempotent_hint``;
* the four hints, under their MCP names (``readOnlyHint``, ``destructiveHint``, ``idempotentHint``,
  ``openWorldHint``), and ``title`` are kept in ``metadata.annotations`` as strings (``"true"``/``"false"``),
  since annotations are a string map; a declared ``model_access`` is kept as ``agents.model-access``;
* the tool id ``<namespace>.<name>`` is kept in ``metadata.labels`` under :data:`TOOL_ID_LABEL`;
* ``metadata.name`` is the SDK name in DNS style (the rules of :func:`enterprise_ai.tools.tool_name`).

A client tool is answered outside the gateway by a callback: scans list it with source ``agents-client``
and mark it not registrable unless an endpoint is given.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

TOOL_ID_LABEL = "agents.tool-id"
"""``metadata.labels`` key holding the agents-SDK tool id ``<namespace>.<name>``."""

MODEL_ACCESS_ANNOTATION = "agents.model-access"
"""``metadata.annotations`` key holding a declared ``model_access`` (``direct``, ``programmatic``, ``both``)."""

HINTS: tuple[tuple[str, str, bool], ...] = (
    ("read_only_hint", "readOnlyHint", False),
    ("destructive_hint", "destructiveHint", True),
    ("idempotent_hint", "idempotentHint", False),
    ("open_world_hint", "openWorldHint", True),
)
"""(snake-case name, MCP name, MCP default) of each ``ToolAnnotations`` hint."""

DEFAULT_NAMESPACE = "client"

RESERVED_NAMESPACES = frozenset({"self", "file_system", "skill", "process", "agents", "subagent", "connectors", "guardrail"})
"""Namespaces the SDK refuses (``connector_*`` too): its built-in, connector and control tools use them."""


def check_namespace(namespace: str) -> None:
    """Raise :class:`~enterprise_ai.errors.UsageError` for a namespace the agents SDK refuses.

    Rule (reference page): letters, digits, ``_`` or ``$``, not starting with a digit; not reserved.
    """
    import re

    from enterprise_ai.errors import UsageError

    if not re.fullmatch(r"[A-Za-z_$][A-Za-z0-9_$]*", namespace):
        raise UsageError(f"invalid agents namespace {namespace!r}: letters, digits, _ or $, not starting with a digit")
    if namespace in RESERVED_NAMESPACES or namespace.startswith("connector_"):
        raise UsageError(f"the agents namespace {namespace!r} is reserved by the SDK")


def normalise_hints(annotations: Any) -> dict[str, bool]:
    """The four hints as ``{snake_name: bool}``, MCP defaults filled in.

    Args:
        annotations: None, a mapping (snake-case or MCP names), or an object with the snake-case
            attributes (the SDK's ``ToolAnnotations``).
    """
    hints: dict[str, bool] = {}
    for snake, camel, default in HINTS:
        if annotations is None:
            value: Any = None
        elif isinstance(annotations, Mapping):
            value = annotations.get(snake, annotations.get(camel))
        else:
            value = getattr(annotations, snake, None)
        hints[snake] = default if value is None else bool(value)
    return hints


def _dns_name(name: str) -> str:
    from types import SimpleNamespace

    from enterprise_ai.tools import tool_name

    return tool_name(SimpleNamespace(__name__=name))  # type: ignore[arg-type]


def _default_endpoint(name: str) -> dict[str, Any]:
    return {"type": "http", "method": "POST", "url": f"http://127.0.0.1:8000/tools/{name}", "timeout_seconds": 30}


def _string(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def manifest_from_tool_definition(
    definition: Mapping[str, Any],
    *,
    namespace: str = DEFAULT_NAMESPACE,
    client: bool = False,
    endpoint: Mapping[str, Any] | None = None,
    metadata: Mapping[str, Any] | None = None,
    model_access: str | None = None,
) -> dict[str, Any]:
    """The Tool Manifest of one agents-SDK tool definition (the mapping of MANIFEST.md).

    Args:
        definition: the ``ToolDefinition`` fields in snake case: ``name`` (required), ``title``,
            ``description``, ``input_schema``, ``output_schema``, ``annotations`` (see :func:`normalise_hints`).
        namespace: the tool's namespace; the tool id is ``<namespace>.<name>``.
        client: True for a client tool (recorded as annotation ``agents.client-tool: "true"``).
        endpoint: the manifest endpoint; default an http ``POST /tools/<name>`` on localhost, 30 s.
        metadata: extra ``metadata`` fields (``owner``, ``version``...); ``labels`` and ``annotations``
            given here are merged with the mapped ones (given values win).
        model_access: the declared ``model_access``, kept as an annotation when not None.

    Returns:
        A manifest dict with the key order of :meth:`enterprise_ai.tools.LocalTool.manifest`.
    """
    sdk_name = str(definition["name"])
    name = _dns_name(sdk_name)
    hints = normalise_hints(definition.get("annotations"))
    read_only = hints["read_only_hint"]
    action = "read" if read_only else ("delete" if hints["destructive_hint"] else "write")
    annotations = {camel: _string(hints[snake]) for snake, camel, _ in HINTS}
    title = definition.get("title")
    if title:
        annotations["title"] = str(title)
    if model_access:
        annotations[MODEL_ACCESS_ANNOTATION] = str(model_access)
    if client:
        annotations["agents.client-tool"] = "true"
    extra = dict(metadata or {})
    labels = {TOOL_ID_LABEL: f"{namespace}.{sdk_name}", **dict(extra.pop("labels", None) or {})}
    annotations.update(dict(extra.pop("annotations", None) or {}))
    meta: dict[str, Any] = {"name": name, "version": "0.1.0", "owner": "team@example.com"}
    meta.update(extra)
    meta["labels"] = labels
    meta["annotations"] = annotations
    spec: dict[str, Any] = {
        "description": str(definition.get("description") or "").strip() or sdk_name,
        "action": action,
        "input_schema": dict(definition.get("input_schema") or {"type": "object", "properties": {}}),
    }
    if definition.get("output_schema") is not None:
        spec["output_schema"] = definition["output_schema"]
    spec.update(
        {
            "scopes_required": [],
            "data_classification": "internal",
            "risk_level": "minimal",
            "requires_approval": False,
            "side_effects": not read_only,
            "idempotent": hints["idempotent_hint"],
            "endpoint": dict(endpoint) if endpoint is not None else _default_endpoint(name),
        }
    )
    return {"apiVersion": "enterprise-ai.io/v1", "kind": "Tool", "metadata": meta, "spec": spec}


def is_client_tool(obj: Any) -> bool:
    """True for an SDK ``ClientTool`` (recognised by class name, so the SDK is never imported here)."""
    return any(cls.__name__ == "ClientTool" for cls in type(obj).__mro__)


def definition_as_dict(definition: Any) -> dict[str, Any]:
    """A ``ToolDefinition`` (pydantic model, mapping or plain object) as a snake-case dict."""
    if isinstance(definition, Mapping):
        return dict(definition)
    fields = ("name", "title", "description", "input_schema", "output_schema", "annotations")
    return {f: getattr(definition, f, None) for f in fields}


def manifest_from_agents_tool(obj: Any, endpoint: Mapping[str, Any] | None = None, **metadata: Any) -> tuple[dict[str, Any], str]:
    """``(manifest, source)`` for an object with a ``tool_definition`` attribute (``PythonTool``, ``ClientTool``).

    ``source`` is ``"agents-client"`` for a client tool, else ``"agents"``. The import scan calls this
    for every module-level object carrying ``tool_definition``.

    Raises:
        enterprise_ai.errors.UsageError: when the object has no usable ``tool_definition.name``.
    """
    from enterprise_ai.errors import UsageError

    definition = definition_as_dict(getattr(obj, "tool_definition", None) or {})
    if not definition.get("name"):
        raise UsageError(f"{type(obj).__name__} object has no tool_definition.name: not an agents-SDK tool")
    client = is_client_tool(obj)
    manifest = manifest_from_tool_definition(
        definition,
        namespace=str(getattr(obj, "namespace", None) or DEFAULT_NAMESPACE),
        client=client,
        endpoint=endpoint,
        metadata=metadata,
        model_access=getattr(obj, "model_access", None),
    )
    return manifest, "agents-client" if client else "agents"
