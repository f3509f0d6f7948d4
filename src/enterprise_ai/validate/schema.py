"""The Tool Manifest JSON Schema and the validators built from it, once per process.

* :func:`manifest_schema` - the Draft 2020-12 schema shipped as package data (``manifest.schema.json``);
* :func:`manifest_validator` - a ``Draft202012Validator`` of it, format checking on;
* :func:`meta_validator` - a validator of the Draft 2020-12 meta-schema (checks ``input_schema`` and
  ``output_schema``), format checking on (so a bad ``pattern`` regex is caught);
* :func:`offline_registry` - a ``referencing.Registry`` holding the published meta-schemas whose
  ``retrieve`` refuses every URI: no validator built here can fetch anything over the network.

Import time: jsonschema's format module imports ``rfc3987_syntax``, which compiles an Earley grammar
at import (about 0.9 s, more than validating a thousand manifests). :func:`_defer_rfc3987_syntax` puts a
stand-in module in its place that imports the real one the first time an ``iri``/``iri-reference``
value is checked; nothing else changes.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import json
import sys
import types
from importlib import resources
from typing import Any

#: Format names defined by JSON Schema Draft 2020-12 (Validation, section 7.3).
KNOWN_FORMATS = frozenset(
    (
        "date-time", "date", "time", "duration", "email", "idn-email", "hostname", "idn-hostname",
        "ipv4", "ipv6", "uri", "uri-reference", "iri", "iri-reference", "uuid", "uri-template",
        "json-pointer", "relative-json-pointer", "regex",
        # Not a Draft 2020-12 format: the name pydantic and eai (enterprise_ai.tools) give a pathlib.Path,
        # documented in the README's "Writing tools" section; accepted, checked by no validator.
        "path",
    )
)

META_SCHEMA_URI = "https://json-schema.org/draft/2020-12/schema"


def _defer_rfc3987_syntax() -> None:
    """Make ``import rfc3987_syntax`` cheap until an IRI is actually checked (see the module docstring)."""
    if "rfc3987_syntax" in sys.modules or "jsonschema._format" in sys.modules:
        return
    if importlib.util.find_spec("rfc3987_syntax") is None:
        return
    stand_in = types.ModuleType("rfc3987_syntax")
    stand_in.__doc__ = "Stand-in installed by enterprise_ai.validate.schema; loads the real module on first use."

    def is_valid_syntax(term: str, value: str) -> bool:
        if sys.modules.get("rfc3987_syntax") is stand_in:
            del sys.modules["rfc3987_syntax"]
        real = importlib.import_module("rfc3987_syntax")
        return bool(real.is_valid_syntax(term, value))

    stand_in.is_valid_syntax = is_valid_syntax  # type: ignore[attr-defined]
    sys.modules["rfc3987_syntax"] = stand_in


@functools.lru_cache(maxsize=1)
def _schema_text() -> str:
    return resources.files("enterprise_ai.validate").joinpath("manifest.schema.json").read_text(encoding="utf-8")


def manifest_schema() -> dict[str, Any]:
    """The Tool Manifest JSON Schema (Draft 2020-12), as a new dict on each call (safe to change)."""
    return json.loads(_schema_text())


@functools.lru_cache(maxsize=1)
def manifest_schema_cached() -> dict[str, Any]:
    """The same schema, parsed once and shared: do not change it."""
    return manifest_schema()


def _refuse(uri: str) -> Any:
    from referencing.exceptions import NoSuchResource

    raise NoSuchResource(ref=uri)


@functools.lru_cache(maxsize=1)
def offline_registry() -> Any:
    """A ``referencing.Registry`` with the published JSON Schema meta-schemas and no retrieval.

    Any ``$ref`` to another URI fails with ``referencing.exceptions.Unresolvable`` instead of being
    fetched. Use it for every validator built from user schemas (the gateway validating arguments too).
    """
    _defer_rfc3987_syntax()
    from jsonschema_specifications import REGISTRY as SPECIFICATIONS
    from referencing import Registry

    return Registry(retrieve=_refuse).with_resources((uri, SPECIFICATIONS[uri]) for uri in SPECIFICATIONS)


@functools.lru_cache(maxsize=1)
def manifest_validator() -> Any:
    """The ``Draft202012Validator`` of :func:`manifest_schema`, format checking on (built once)."""
    _defer_rfc3987_syntax()
    from jsonschema import Draft202012Validator

    return Draft202012Validator(
        manifest_schema_cached(), registry=offline_registry(), format_checker=Draft202012Validator.FORMAT_CHECKER
    )


@functools.lru_cache(maxsize=1)
def meta_validator() -> Any:
    """A validator of the Draft 2020-12 meta-schema, format checking on (built once)."""
    _defer_rfc3987_syntax()
    from jsonschema import Draft202012Validator

    return Draft202012Validator(
        Draft202012Validator.META_SCHEMA,
        registry=offline_registry(),
        format_checker=Draft202012Validator.FORMAT_CHECKER,
    )


def _refuse_rs(uri: str) -> Any:
    raise ValueError(f"refusing to fetch {uri}: only local references are allowed")


@functools.lru_cache(maxsize=1)
def fast_validators() -> tuple[Any, Any, Any]:
    """``(manifest_is_valid, meta_is_valid, manifest_validator)`` from jsonschema-rs, or three ``None``.

    jsonschema-rs (a Rust implementation of the same drafts) answers in microseconds where
    jsonschema takes a millisecond (the 2020-12 meta-schema's ``$dynamicRef`` is slow in Python).
    The checker uses it for the manifest schema (verdict and errors) and for the fast "is this
    embedded schema valid" answer; jsonschema explains embedded schemas it rejects, and does
    everything when jsonschema-rs is not installed. Its retriever refuses every URI.
    """
    try:
        import jsonschema_rs
    except ImportError:  # pragma: no cover - jsonschema-rs is a dependency, but the checker works without
        return None, None, None
    try:
        validator = jsonschema_rs.Draft202012Validator(manifest_schema_cached(), validate_formats=True, retriever=_refuse_rs)
    except Exception:  # noqa: BLE001  # pragma: no cover - fall back to jsonschema alone
        return None, None, None
    return validator.is_valid, jsonschema_rs.meta.is_valid, validator
