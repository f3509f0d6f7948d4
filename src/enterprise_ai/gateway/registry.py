"""The tool registry: manifest checks, canonical digests, and the in-memory cache of the ``tools`` table.

* :func:`canonical_digest` - ``sha256:<hex>`` of the canonical JSON of a manifest (keys sorted, no
  spaces, UTF-8): two manifests with the same content in another key order or file format get
  the same digest, which is what makes ``apply`` answer ``unchanged``; :func:`behaviour_digest` is the
  same over ``spec`` minus its description, and decides whether an ``approved`` tool needs a new review.
* :meth:`Registry.check` - the checks of ``POST /v1/tools`` and of the ``tool-manifest`` contract:
  the same code as ``eai tools validate`` (:func:`enterprise_ai.validate.check_manifest`; its
  errors block, its warnings do not), plus what only the gateway knows: the egress allow-list for
  an ``http`` endpoint, and the reserved name ``invocations`` (it would shadow a route).
* :class:`ToolEntry` - a stored tool with its JSON Schema validators compiled once.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
from dataclasses import dataclass, field
from typing import Any

from enterprise_ai.gateway.egress import EgressPolicy
from enterprise_ai.gateway.store import Store, now_iso

RESERVED_NAMES = frozenset({"invocations"})


def canonical_json(value: Any) -> bytes:
    """Canonical JSON bytes: keys sorted, no insignificant whitespace, UTF-8, no NaN."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode()


def canonical_digest(value: Any) -> str:
    """``sha256:<hex>`` of :func:`canonical_json`."""
    return "sha256:" + hashlib.sha256(canonical_json(value)).hexdigest()


def behaviour_digest(doc: Any) -> str:
    """:func:`canonical_digest` of what a tool *does*: its ``spec`` without ``description``.

    ``metadata`` (version, owner, labels, annotations) and the description (which ``PATCH`` may change
    without a review) are left out: a change there keeps an ``approved`` tool approved; any other change
    of ``spec`` (schemas, endpoint, scopes, classification, risk, approval...) sends it back to ``draft``.
    """
    spec = dict(doc.get("spec") or {}) if isinstance(doc, dict) else {}
    spec.pop("description", None)
    return canonical_digest(spec)


MAX_DEPTH = 64
"""Deepest nesting of arrays and objects accepted in a manifest or in arguments (recursion safety)."""


def json_problem(value: Any, max_depth: int = MAX_DEPTH) -> tuple[str, str] | None:
    """``(pointer, message)`` of the first value JSON cannot carry or that nests deeper than ``max_depth``.

    NaN and infinite numbers are not JSON (RFC 8259, section 6). The walk is iterative, so a deep
    document cannot exhaust the interpreter's stack here.
    """
    stack: list[tuple[Any, str, int]] = [(value, "", 0)]
    while stack:
        item, path, depth = stack.pop()
        if isinstance(item, float) and not math.isfinite(item):
            return path, "NaN and Infinity are not JSON numbers"
        if isinstance(item, (dict, list)):
            if depth >= max_depth:
                return path, f"nested deeper than {max_depth} levels"
            pairs = item.items() if isinstance(item, dict) else enumerate(item)
            for key, child in pairs:
                token = str(key).replace("~", "~0").replace("/", "~1")
                stack.append((child, f"{path}/{token}", depth + 1))
    return None


def pointer(parts: Any) -> str:
    """A JSON pointer (RFC 6901) from path parts."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def schema_errors(validator: Any, instance: Any) -> list[dict[str, str]]:
    """``[{path, message}]`` of ``instance`` against a compiled validator, a missing property pointing at itself."""
    out = []
    for error in sorted(validator.iter_errors(instance), key=lambda e: list(map(str, e.absolute_path))):
        parts = list(error.absolute_path)
        if error.validator == "required" and isinstance(error.instance, dict):
            missing = [name for name in error.validator_value if name not in error.instance]
            if missing:
                parts.append(missing[0])
        out.append({"path": pointer(parts), "message": error.message})
    return out


@functools.lru_cache(maxsize=1)
def _formats() -> Any:
    """One ``FormatChecker`` for every tool schema. jsonschema is imported after
    :func:`enterprise_ai.validate.schema.manifest_validator`, which keeps its slow ``rfc3987_syntax``
    import deferred (see that module)."""
    from enterprise_ai.validate.schema import manifest_validator

    manifest_validator()
    from jsonschema import FormatChecker

    return FormatChecker()


def _compile(schema: Any) -> Any:
    """A validator for ``schema`` (its ``$schema`` dialect, Draft 2020-12 by default), formats checked."""
    formats = _formats()
    from jsonschema import Draft202012Validator
    from jsonschema.validators import validator_for

    cls = validator_for(schema, default=Draft202012Validator)
    return cls(schema, format_checker=formats)


@dataclass
class ToolEntry:
    """A stored tool: its row (``name, version, status, owner, digest, manifest, created_by, ...``)."""

    row: dict[str, Any]
    _input: Any = field(default=None, repr=False)
    _output: Any = field(default=None, repr=False)

    @property
    def name(self) -> str:
        return self.row["name"]

    @property
    def status(self) -> str:
        return self.row["status"]

    @property
    def spec(self) -> dict[str, Any]:
        return self.row["manifest"].get("spec") or {}

    @property
    def action(self) -> str:
        return self.spec.get("action", "read")

    @property
    def endpoint(self) -> dict[str, Any]:
        return self.spec.get("endpoint") or {}

    def input_validator(self) -> Any:
        if self._input is None:
            self._input = _compile(self.spec.get("input_schema") or {"type": "object"})
        return self._input

    def output_validator(self) -> Any | None:
        if self._output is None and self.spec.get("output_schema") is not None:
            self._output = _compile(self.spec["output_schema"])
        return self._output

    def public(self, apply_status: str | None = None) -> dict[str, Any]:
        """The ``Tool`` model of the API."""
        spec, row = self.spec, self.row
        out = {
            "name": row["name"], "version": row["version"], "description": spec.get("description") or "",
            "status": row["status"], "owner": row["owner"], "action": self.action,
            "risk_level": spec.get("risk_level", "minimal"),
            "data_classification": spec.get("data_classification", "internal"),
            "requires_approval": bool(spec.get("requires_approval", False)),
            "endpoint_type": self.endpoint.get("type", "http"), "digest": row["digest"], "manifest": row["manifest"],
            "created_by": row["created_by"], "created_at": row["created_at"], "updated_at": row["updated_at"],
        }
        if apply_status is not None:
            out["apply_status"] = apply_status
        return out


def _validate(doc: Any) -> list[Any]:
    """Findings of ``eai tools validate``'s own checker (one code path for the CLI and the gateway)."""
    from enterprise_ai.validate import check_manifest

    return list(check_manifest(doc))


def _structural_errors(doc: Any) -> list[dict[str, str]]:
    """Shape problems that would make the gateway unable to read a manifest at all."""
    if not isinstance(doc, dict):
        return [{"path": "", "message": "a Tool Manifest is a JSON object"}]
    errors = []
    metadata, spec = doc.get("metadata"), doc.get("spec")
    if not isinstance(metadata, dict) or not isinstance(metadata.get("name"), str):
        errors.append({"path": "/metadata/name", "message": "metadata.name is required (a string)"})
    if not isinstance(spec, dict):
        errors.append({"path": "/spec", "message": "spec is required (an object)"})
    elif not isinstance(spec.get("endpoint", {}), dict):
        errors.append({"path": "/spec/endpoint", "message": "endpoint must be an object"})
    return errors


class Registry:
    """The tools of the tenant, cached from the store (every write goes to both)."""

    def __init__(self, store: Store, egress: EgressPolicy, mcp_servers: dict[str, Any]) -> None:
        self.store = store
        self.egress = egress
        self.mcp_servers = mcp_servers
        self.tools: dict[str, ToolEntry] = {row["name"]: ToolEntry(row) for row in store.all_tools()}
        _formats()  # build the manifest and format validators now, not on the first request

    def get(self, name: str) -> ToolEntry | None:
        return self.tools.get(name)

    def names(self) -> list[str]:
        return sorted(self.tools)

    def check(self, doc: Any) -> tuple[list[dict[str, str]], list[dict[str, str]]]:
        """``(errors, warnings)`` of a manifest, each ``[{path, message}]`` (see the module docstring)."""
        errors: list[dict[str, str]] = []
        warnings: list[dict[str, str]] = []
        problem = json_problem(doc)
        if problem is not None:  # before the validator, which recurses
            return [{"path": problem[0], "message": problem[1]}], []
        for finding in _validate(doc):
            item = {"path": finding.pointer, "message": f"{finding.message} [{finding.rule}]"}
            (errors if finding.severity == "error" else warnings).append(item)
        errors.extend(e for e in _structural_errors(doc) if e["path"] not in {x["path"] for x in errors})
        if errors:
            return errors, warnings
        name = doc["metadata"]["name"]
        if name in RESERVED_NAMES:
            errors.append({"path": "/metadata/name",
                           "message": f"the name {name!r} is reserved by the gateway's routes"})
        endpoint = doc["spec"].get("endpoint") or {}
        if endpoint.get("type", "http") == "http":
            url = endpoint.get("url") or f"http://localhost:8000/tools/{name}"
            if not self.egress.allows(url):
                errors.append({"path": "/spec/endpoint/url",
                               "message": f"{url} is not allowed by the gateway's egress allow-list "
                                          f"({', '.join(self.egress.allow) or 'empty'})"})
        return errors, warnings

    def apply(self, doc: dict[str, Any], principal_id: str) -> tuple[ToolEntry, str, bool]:
        """Create or update a checked manifest.

        Returns:
            ``(entry, apply_status, behaviour_changed)``: ``apply_status`` is ``created``, ``updated`` or
            ``unchanged`` (canonical digest); ``behaviour_changed`` is True when an existing tool's spec
            changed beyond its description (:func:`behaviour_digest`). Such a change moves an ``approved``
            tool back to ``draft`` (it needs a new promotion); ``restricted``, ``deprecated`` and
            ``blocked`` are kept, so a re-apply never lifts a restriction.
        """
        name = doc["metadata"]["name"]
        digest = canonical_digest(doc)
        current = self.tools.get(name)
        if current is not None and current.row["digest"] == digest:
            return current, "unchanged", False
        changed = current is not None and behaviour_digest(current.row["manifest"]) != behaviour_digest(doc)
        status = current.row["status"] if current else "draft"
        if changed and status == "approved":
            status = "draft"
        now = now_iso()
        row = {
            "name": name, "version": str(doc["metadata"].get("version", "0.1.0")),
            "status": status, "owner": doc["metadata"].get("owner"),
            "digest": digest, "manifest": doc, "created_by": current.row["created_by"] if current else principal_id,
            "created_at": current.row["created_at"] if current else now, "updated_at": now,
        }
        self.store.put_tool(row)
        entry = ToolEntry(row)
        self.tools[name] = entry
        return entry, "updated" if current else "created", changed

    def update(self, name: str, *, owner: str | None = None, description: str | None = None,
               status: str | None = None) -> ToolEntry:
        """Change owner/description (in the manifest too, new digest) and/or status; returns the new entry."""
        current = self.tools[name]
        manifest = json.loads(json.dumps(current.row["manifest"]))
        row = dict(current.row)
        if owner is not None:
            manifest.setdefault("metadata", {})["owner"] = owner
            row["owner"] = owner
        if description is not None:
            manifest.setdefault("spec", {})["description"] = description
        if status is not None:
            row["status"] = status
        row.update(manifest=manifest, digest=canonical_digest(manifest), updated_at=now_iso())
        self.store.put_tool(row)
        entry = ToolEntry(row, current._input, current._output)
        self.tools[name] = entry
        return entry

    def delete(self, name: str) -> None:
        self.store.delete_tool(name)
        self.tools.pop(name, None)
