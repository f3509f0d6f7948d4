"""The rules beyond the JSON Schema (MANIFEST.md "Rules beyond the JSON Schema", and the checks the
``ToolsClient.create`` entry of the reference page says the gateway makes on apply).

Each function takes the manifest (any JSON value: it may have failed the schema, so every access is
guarded) and appends :class:`~enterprise_ai.validate.findings.Finding` objects. A rule that needs a
field the schema requires stays silent when the field is missing: the schema finding already says so.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import unquote, urlsplit

from enterprise_ai.validate.findings import Finding, make_finding, pointer_join
from enterprise_ai.validate.schema import KNOWN_FORMATS, META_SCHEMA_URI

BUILTIN_HANDLERS = ("echo", "time.now")
_JSON_TYPES = frozenset(("array", "boolean", "integer", "null", "number", "string"))
OPENAI_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}\Z")
MAX_DESCRIPTION = 1024

# Keywords whose value is a subschema, a map of subschemas, or a list of subschemas (Draft 2020-12 core
# and applicator vocabularies, plus the older names still found in generated schemas).
_ONE = frozenset(("additionalProperties", "contains", "contentSchema", "else", "if", "items", "not", "propertyNames",
                  "then", "unevaluatedItems", "unevaluatedProperties", "additionalItems"))
_MAP = frozenset(("$defs", "definitions", "dependentSchemas", "patternProperties", "properties"))
_MANY = frozenset(("allOf", "anyOf", "oneOf", "prefixItems", "items"))
_SUBSCHEMAS = _ONE | _MAP | _MANY
_NOTABLE = frozenset(("$ref", "$dynamicRef", "format", "pattern", "patternProperties", "$anchor", "$dynamicAnchor",
                      "$schema", "$id"))
_DIALECTS = frozenset((META_SCHEMA_URI, META_SCHEMA_URI + "#"))


def walk_schema(schema: Any, pointer: str) -> Iterator[tuple[dict[str, Any], str]]:
    """Every subschema (dict) of ``schema`` with its JSON pointer, the root first, without recursion."""
    stack = [(schema, pointer)]
    while stack:
        node, where = stack.pop()
        if not isinstance(node, dict):
            continue
        yield node, where
        for key in _SUBSCHEMAS.intersection(node):
            value = node[key]
            at = pointer_join(where, key)
            if isinstance(value, dict):
                if key in _MAP:
                    stack.extend((member, pointer_join(at, name)) for name, member in value.items())
                else:
                    stack.append((value, at))
            elif isinstance(value, list) and key in _MANY:
                stack.extend((item, pointer_join(at, i)) for i, item in enumerate(value))


def _resolve_local(root: Any, fragment: str, anchors: set[str]) -> bool:
    """True when ``#fragment`` names something in ``root``: a JSON pointer or an ``$anchor``."""
    if not fragment:
        return True
    if not fragment.startswith("/"):
        return fragment in anchors
    node = root
    for token in unquote(fragment)[1:].split("/"):
        token = token.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return False
    return True


def check_schema_references(schema: Any, pointer: str, out: list[Finding], active: frozenset[str]) -> bool:
    """$ref, $schema, format and pattern checks of one embedded schema.

    Returns False when the fast meta-schema answer must not be used: a ``pattern`` that Python's
    ``re`` rejects (jsonschema's ``regex`` format), or a ``$schema`` other than Draft 2020-12
    (jsonschema-rs would try to fetch it; it is reported under ``schema.meta`` instead).
    """
    refs: list[tuple[str, str, str]] = []
    anchors: set[str] = set()
    fast_ok = True
    for node, where in walk_schema(schema, pointer):
        if _NOTABLE.isdisjoint(node):
            continue
        dialect = node.get("$schema")
        if dialect is not None and dialect not in _DIALECTS:
            fast_ok = False
            if "schema.meta" in active:
                out.append(make_finding(
                    "schema.meta", pointer_join(where, "$schema"),
                    f"$schema {dialect!r} is not supported (nothing is fetched): remove it, or use "
                    f"{META_SCHEMA_URI!r}; manifests hold Draft 2020-12 schemas"))
        if "$id" in node and where != pointer and "schema.remote-ref" in active:
            # An embedded $id starts a new resource: '#...' refs below it no longer point into this schema
            # (JSON Schema 2020-12 core, section 8.2.1), so the local checks here would be wrong.
            out.append(make_finding(
                "schema.remote-ref", pointer_join(where, "$id"),
                f"$id {node['$id']!r} inside the schema changes the base of the $refs below it: remove it "
                "(only the root schema may have an $id)"))
        for keyword in ("$ref", "$dynamicRef"):
            if isinstance(node.get(keyword), str):
                refs.append((keyword, node[keyword], pointer_join(where, keyword)))
        for keyword in ("$anchor", "$dynamicAnchor"):
            if isinstance(node.get(keyword), str):
                anchors.add(node[keyword])
        fmt = node.get("format")
        if isinstance(fmt, str) and fmt not in KNOWN_FORMATS and "schema.unknown-format" in active:
            out.append(make_finding(
                "schema.unknown-format", pointer_join(where, "format"),
                f"format {fmt!r} is not defined by JSON Schema 2020-12, so no validator checks it: use 'pattern', "
                "or a known format (date-time, date, email, uri, uuid, ...)"))
        regexes = [node["pattern"]] if isinstance(node.get("pattern"), str) else []
        if isinstance(node.get("patternProperties"), dict):
            regexes.extend(node["patternProperties"])
        for regex in regexes:
            try:
                re.compile(regex)
            except re.error:
                fast_ok = False
    for keyword, ref, at in refs:
        if ref == "":  # the empty reference is the whole (root) schema
            continue
        if not ref.startswith("#"):
            if "schema.remote-ref" in active:
                out.append(make_finding(
                    "schema.remote-ref", at,
                    f"{keyword} {ref!r} points outside this schema, and nothing is ever fetched: copy the "
                    "definition into $defs and refer to it as '#/$defs/NAME'"))
        elif not _resolve_local(schema, ref[1:], anchors) and "schema.dangling-ref" in active:
            out.append(make_finding(
                "schema.dangling-ref", at, f"{keyword} {ref!r} points to nothing in this schema: fix the path "
                "or add the definition under $defs"))
    return fast_ok


def check_endpoint(endpoint: Any, out: list[Finding], active: frozenset[str]) -> None:
    """Endpoint rules: http(s) URL, mcp_server, builtin handler, sandbox command."""
    if not isinstance(endpoint, dict):
        return
    kind = endpoint.get("type")
    base = "/spec/endpoint"
    if kind == "http" and isinstance(endpoint.get("url"), str) and "endpoint.http-url" in active:
        url = endpoint["url"]
        try:
            parts = urlsplit(url)
            ok = parts.scheme in ("http", "https") and bool(parts.hostname)
        except ValueError:
            ok = False
        if not ok:
            out.append(make_finding(
                "endpoint.http-url", base + "/url",
                f"url {url!r} is not an absolute http(s) URL: write it as http://HOST[:PORT]/PATH or https://..."))
    elif kind == "mcp" and isinstance(endpoint.get("mcp_server"), str) and "endpoint.mcp-server" in active:
        if not endpoint["mcp_server"].strip():
            out.append(make_finding(
                "endpoint.mcp-server", base + "/mcp_server", "mcp_server is blank: name the MCP server to call"))
    elif kind == "builtin" and isinstance(endpoint.get("handler"), str) and "endpoint.builtin-handler" in active:
        if endpoint["handler"] not in BUILTIN_HANDLERS:
            out.append(make_finding(
                "endpoint.builtin-handler", base + "/handler",
                f"handler {endpoint['handler']!r} is not a builtin of the gateway: use 'echo' or 'time.now'"))
    elif kind == "sandbox" and isinstance(endpoint.get("command"), list) and "endpoint.sandbox-command" in active:
        command = endpoint["command"]
        if command and isinstance(command[0], str) and not command[0].strip():
            out.append(make_finding(
                "endpoint.sandbox-command", base + "/command/0",
                "the program to run (command[0]) is blank: give the executable, e.g. [python, tool.py]"))


def check_governance(spec: dict[str, Any], out: list[Finding], active: frozenset[str]) -> None:
    """risk_level and the consistency of action, side_effects and requires_approval."""
    risk, action, side_effects = spec.get("risk_level"), spec.get("action"), spec.get("side_effects")
    if risk == "unacceptable" and "risk.unacceptable" in active:
        out.append(make_finding(
            "risk.unacceptable", "/spec/risk_level",
            "risk_level 'unacceptable' is refused by the gateway: such a tool cannot be registered"))
    if risk == "high" and spec.get("requires_approval") is not True and "governance.high-risk-approval" in active:
        at = "/spec/requires_approval" if "requires_approval" in spec else "/spec/risk_level"
        out.append(make_finding(
            "governance.high-risk-approval", at,
            "risk_level is 'high' but calls need no approval: set requires_approval: true"))
    if action == "delete" and side_effects is False and "governance.delete-side-effects" in active:
        out.append(make_finding(
            "governance.delete-side-effects", "/spec/side_effects",
            "action 'delete' cannot be free of side effects: set side_effects: true (or change the action)"))
    if action == "read" and side_effects is True and "governance.read-side-effects" in active:
        out.append(make_finding(
            "governance.read-side-effects", "/spec/side_effects",
            "action 'read' with side_effects: true is contradictory: use action 'write' if the tool changes "
            "something, else set side_effects: false"))


def check_export(doc: dict[str, Any], spec: dict[str, Any], out: list[Finding], active: frozenset[str]) -> None:
    """Export compatibility: OpenAI function names and description length."""
    metadata = doc.get("metadata")
    name = metadata.get("name") if isinstance(metadata, dict) else None
    if isinstance(name, str) and name and not OPENAI_NAME.match(name) and "export.name" in active:
        out.append(make_finding(
            "export.name", "/metadata/name",
            f"name {name!r} is not a valid OpenAI function name ([A-Za-z0-9_-]{{1,64}}): the openai export would "
            "break; use '-' instead of '.' and at most 64 characters"))
    description = spec.get("description")
    if isinstance(description, str) and len(description) > MAX_DESCRIPTION and "export.description-length" in active:
        out.append(make_finding(
            "export.description-length", "/spec/description",
            f"the description has {len(description)} characters; OpenAI accepts at most {MAX_DESCRIPTION}: "
            "shorten it"))


MetaCheck = Callable[[Any, str, bool], list[Finding]]


def check_rules(doc: Any, active: frozenset[str], meta_check: MetaCheck) -> list[Finding]:
    """Every rule beyond the JSON Schema, for one manifest (any JSON value)."""
    out: list[Finding] = []
    if not isinstance(doc, dict) or not isinstance(doc.get("spec"), dict):
        return out
    spec = doc["spec"]
    for key in ("input_schema", "output_schema"):
        schema = spec.get(key)
        if not isinstance(schema, (dict, bool)) or key not in spec:
            continue
        where = "/spec/" + key
        fast_ok = check_schema_references(schema, where, out, active) if isinstance(schema, dict) else True
        if "schema.meta" in active:
            out.extend(meta_check(schema, where, fast_ok))
        if key == "input_schema" and "schema.input-object" in active and isinstance(schema, dict):
            kind = schema.get("type")
            if kind != "object" and (kind is None or kind in _JSON_TYPES or isinstance(kind, list)):
                out.append(make_finding(
                    "schema.input-object", where + ("/type" if "type" in schema else ""),
                    "input_schema must describe an object of named arguments: set type: object and list them "
                    "under properties"))
        if key == "input_schema" and "schema.open-object" in active and isinstance(schema, dict):
            if schema.get("additionalProperties") is not False:
                out.append(make_finding(
                    "schema.open-object", where,
                    "input_schema accepts unknown arguments: set additionalProperties: false"))
    check_endpoint(spec.get("endpoint"), out, active)
    check_governance(spec, out, active)
    check_export(doc, spec, out, active)
    return out
