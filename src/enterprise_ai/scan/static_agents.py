"""agents-SDK tools in the static scan: the definition the SDK would build, mapped by
:mod:`enterprise_ai.integrations.agents` exactly as the import scan maps the SDK's own objects.

What the static scan predicts for the ``ToolDefinition`` (reference page ``000_a31e558403a9bc07.txt``):
``name`` from ``name=`` or the function; ``description`` from ``description=`` or the cleaned docstring;
the input schema from ``input_schema=`` (pydantic ``model_json_schema()``) or from the parameters, a leading
positional-only ``ToolCallbackContext`` left out, built with eai's own schema code; the output schema from
``output_schema=`` or the return annotation; ``annotations``, ``title``, ``namespace``, ``model_access``
from the literal options. The real SDK may word its parameter schemas differently from eai's; the stand-in
SDK of the tests (``tests/fixtures/agents_sdk``) uses eai's, so both scans can be compared byte for byte.
"""

from __future__ import annotations

import ast
from typing import Any

from enterprise_ai.errors import UsageError
from enterprise_ai.scan.model import ScanOptions
from enterprise_ai.scan.static_eval import Evaluator
from enterprise_ai.scan.static_function import UNRESOLVED_KEY, mark_placeholders
from enterprise_ai.scan.static_index import ParsedModule

AGENTS_CONTEXT = {"agents.ToolCallbackContext"}


def takes_context(ev: Evaluator, module: ParsedModule, fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """True when the first parameter is positional-only and annotated ``agents.ToolCallbackContext`` (any alias)."""
    first = fn.args.posonlyargs[0] if fn.args.posonlyargs else None
    if first is None or first.annotation is None:
        return False
    ann = first.annotation
    if isinstance(ann, ast.Constant) and isinstance(ann.value, str):
        try:
            ann = ast.parse(ann.value, mode="eval").body
        except (SyntaxError, MemoryError, RecursionError):  # deeply nested text: not a context type
            return False
    return ev.qualified(module, ann) in AGENTS_CONTEXT


def agents_manifest(stand_in: Any, fn: ast.FunctionDef | ast.AsyncFunctionDef | None, kind: str, opts: dict[str, Any],
                    options: ScanOptions) -> tuple[str, dict[str, Any], str]:
    """``(name, manifest, source)`` of an agents-SDK tool declaration (``fn`` is None without a function)."""
    import inspect

    from enterprise_ai.scan.static import endpoint_for  # here: static imports this module
    from enterprise_ai.integrations.agents import check_namespace, manifest_from_tool_definition
    from enterprise_ai.tools import LocalTool

    namespace = str(opts.get("namespace", "client"))
    check_namespace(namespace)
    input_model, output_model = opts.get("input_schema"), opts.get("output_schema")
    schema_in: dict[str, Any] = {"type": "object", "properties": {}}
    schema_out: dict[str, Any] | None = None
    if stand_in is not None:
        local = LocalTool(stand_in.fn)
        schema_in, schema_out = local.input_schema, local.output_schema
        mark_placeholders(schema_in, stand_in.unresolved)
        if "return" in stand_in.unresolved:
            schema_out = {UNRESOLVED_KEY: stand_in.unresolved["return"]}
    elif not opts.get("name"):
        raise UsageError("a client tool declared without a function needs a literal name=")
    for model, which in ((input_model, "input_schema"), (output_model, "output_schema")):
        if model is not None and not hasattr(model, "model_json_schema"):
            raise UsageError(f"{which}= must be a pydantic model class defined in the scanned tree")
    if input_model is not None:
        schema_in = input_model.model_json_schema()
    if output_model is not None:
        schema_out = output_model.model_json_schema()
    description = opts.get("description")
    if description is None:
        doc = ast.get_docstring(fn, clean=True) if fn is not None else None
        description = inspect.cleandoc(doc) if doc else ""
    definition = {
        "name": opts.get("name") or fn.name,  # type: ignore[union-attr]
        "title": opts.get("title"),
        "description": description,
        "input_schema": schema_in,
        "output_schema": schema_out,
        "annotations": opts.get("annotations"),
    }
    client = kind == "agents-client"
    manifest = manifest_from_tool_definition(definition, namespace=namespace, client=client, metadata=options.metadata,
                                             model_access=opts.get("model_access"))
    name = manifest["metadata"]["name"]
    endpoint = endpoint_for(options, name)
    if endpoint is not None:
        manifest["spec"]["endpoint"] = endpoint
    return name, manifest, kind
