"""Checking manifests: :func:`check_manifest` for one dict, :func:`validate_paths` for files and folders.

The schema step validates against :func:`~enterprise_ai.validate.schema.manifest_schema` (Draft 2020-12,
formats on); the rule step runs :mod:`~enterprise_ai.validate.rules`. The manifest schema is checked by
jsonschema-rs when it is installed (microseconds per manifest), else by jsonschema; both give errors
as (keyword, instance path, instance) that one mapping turns into the same findings and messages (a
test compares them). Embedded schemas get jsonschema-rs's fast yes/no against the 2020-12 meta-schema,
and jsonschema explains the ones rejected.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from enterprise_ai.errors import UsageError
from enterprise_ai.validate import schema as schemas
from enterprise_ai.validate.findings import Finding, make_finding, pointer_from_path, pointer_join, select_rules
from enterprise_ai.validate.loader import DEFAULT_MAX_BYTES, DEFAULT_MAX_DEPTH, LoadedDocument, iter_documents
from enterprise_ai.validate.paths import SUFFIXES, expand_paths
from enterprise_ai.validate.rules import check_rules



def _type_name(value: Any) -> str:
    return "boolean" if isinstance(value, bool) else "number"


def _show(value: Any) -> str:
    """A value as the user wrote it: strings quoted as before, the rest as JSON (null, true, {...})."""
    if isinstance(value, str):
        return repr(value)
    import json

    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 80 else text[:77] + "..."


def _subschema(path: Sequence[Any]) -> Any:
    """The subschema of the manifest schema at ``path`` (a keyword location), ``{}`` if it cannot be followed."""
    node: Any = schemas.manifest_schema_cached()
    try:
        for key in path:
            node = node[key]
    except (KeyError, IndexError, TypeError):
        return {}
    return node


def _errors(doc: Any) -> Iterator[tuple[str, Sequence[Any], Any, Any, dict[str, Any], str]]:
    """Schema errors as ``(keyword, instance path, instance, keyword value, subschema, library message)``,
    from jsonschema-rs when installed, else from jsonschema (same shape, so one mapping below)."""
    rs_validator = schemas.fast_validators()[2]
    if rs_validator is not None:
        try:
            errors = list(rs_validator.iter_errors(doc))
        except Exception:  # noqa: BLE001 - a value jsonschema-rs cannot take: let jsonschema explain
            errors = None
        if errors is not None:
            for error in errors:
                schema_path = list(error.schema_path)
                subschema = _subschema(schema_path[:-1])
                keyword = schema_path[-1] if schema_path else ""
                value = subschema.get(keyword) if isinstance(subschema, dict) else None
                yield str(keyword), list(error.instance_path), error.instance, value, subschema, error.message
            return
    for error in schemas.manifest_validator().iter_errors(doc):
        yield str(error.validator), list(error.absolute_path), error.instance, error.validator_value, error.schema, error.message


def _schema_findings(doc: Any, raw: Mapping[str, str]) -> list[Finding]:
    """Findings of the manifest JSON Schema (an unknown or missing property gives one finding per key)."""
    findings: list[Finding] = []
    seen: set[tuple[str, str]] = set()

    def add(rule: str, pointer: str, message: str) -> None:
        if (pointer, message) not in seen:
            seen.add((pointer, message))
            findings.append(make_finding(rule, pointer, message))

    for keyword, path, instance, value, subschema, library_message in _errors(doc):
        pointer = pointer_from_path(path)
        hint = subschema.get("description") if isinstance(subschema, dict) else None
        hint = hint.rstrip(".") if isinstance(hint, str) else None
        expected = [value] if isinstance(value, str) else value
        if value is None and keyword in ("type", "required", "enum", "const", "additionalProperties"):
            add("manifest.schema", pointer, library_message)
        elif keyword == "type" and isinstance(instance, (int, float, bool)) and "string" in (expected or ()):
            written = raw.get(pointer, str(instance).lower() if isinstance(instance, bool) else str(instance))
            add("manifest.quote-string", pointer,
                f"a string is expected, but {written} is read as a {_type_name(instance)}: quote it (\"{written}\")")
        elif keyword == "additionalProperties" and isinstance(instance, dict) and isinstance(subschema, dict):
            known = subschema.get("properties", {})
            for key in instance:
                if key not in known:
                    add("manifest.schema", pointer_join(pointer, key),
                        f"unknown property {key!r}: remove it or fix its spelling (allowed here: {', '.join(known)})")
        elif keyword == "required" and isinstance(instance, dict):
            for key in value or ():
                if key not in instance:
                    add("manifest.schema", pointer, f"required property {key!r} is missing: add it")
        elif keyword == "enum":
            add("manifest.schema", pointer, f"{_show(instance)} is not allowed: use one of {', '.join(map(str, value))}")
        elif keyword == "const":
            add("manifest.schema", pointer, f"{_show(instance)} is not allowed: the value must be {_show(value)}")
        elif keyword == "type" and expected == ["boolean"] and isinstance(instance, str):
            add("manifest.schema", pointer,
                f"{instance!r} is a string here (YAML 1.2: only true and false are booleans): write true or false")
        elif keyword == "type":
            add("manifest.schema", pointer,
                f"{_show(instance)} is not of type {' or '.join(expected)}: give {' or '.join(('an ' if t[0] in 'aeiou' else 'a ') + t for t in expected)}")
        elif keyword == "pattern":
            add("manifest.schema", pointer, f"{_show(instance)} has the wrong form" + (f": {hint}" if hint else ""))
        else:
            add("manifest.schema", pointer, library_message + (f" ({hint})" if hint else ""))
    findings.sort(key=lambda f: f.pointer)  # the same order whichever library found them
    return findings


def _meta_findings(schema: Any, where: str, fast_ok: bool) -> list[Finding]:
    """Meta-schema findings for one embedded schema (``where`` is its pointer in the manifest)."""
    meta_is_valid = schemas.fast_validators()[1]
    if meta_is_valid is not None and fast_ok:
        try:
            if meta_is_valid(schema):
                return []
        except Exception:  # noqa: BLE001 - let jsonschema decide
            pass
    findings = []
    seen: set[tuple[str, str]] = set()
    for error in schemas.meta_validator().iter_errors(schema):
        path = list(error.absolute_path)
        message = error.message
        if path and path[-1] == "type" and error.validator == "anyOf":
            message = f"{error.instance!r} is not a type: use array, boolean, integer, null, number, object or string"
        at = where + pointer_from_path(path)
        if (at, message) in seen:  # the meta-schema reaches some keywords by several $dynamicRef paths
            continue
        seen.add((at, message))
        findings.append(make_finding("schema.meta", at, f"not a valid JSON Schema (Draft 2020-12): {message}"))
    return findings


def check_manifest(
    doc: Any,
    *,
    strict: bool = False,
    disabled: Iterable[str] = (),
    enabled: Iterable[str] = (),
    raw: Mapping[str, str] | None = None,
) -> list[Finding]:
    """Every check of one Tool Manifest: the JSON Schema, then the rules beyond it.

    Args:
        doc: the manifest as plain data (from :func:`~enterprise_ai.validate.load_documents` or a request body).
        strict: when true, warnings are returned with severity ``error`` (they fail the run).
        disabled: rule ids not to run (a loading rule of severity error cannot be: ValueError).
        enabled: opt-in rule ids to run (e.g. ``schema.open-object``).
        raw: source text of numbers read from YAML, by pointer (``LoadedDocument.raw``), for messages.

    Returns:
        Findings without file positions (``file``/``line``/``column`` are ``None``), in check order.

    Raises:
        ValueError: an unknown rule id in ``disabled`` or ``enabled``, or a ``load.*`` error rule in
            ``disabled``.
    """
    return _check(doc, select_rules(disabled=tuple(disabled), enabled=tuple(enabled)), strict, raw or {})


def _fast_is_valid(doc: Any) -> bool:
    """True when jsonschema-rs says the manifest matches the schema (False when unsure)."""
    manifest_is_valid = schemas.fast_validators()[0]
    try:
        return manifest_is_valid is not None and bool(manifest_is_valid(doc))
    except Exception:  # noqa: BLE001 - a value jsonschema-rs cannot take
        return False


def _check(doc: Any, active: frozenset[str], strict: bool, raw: Mapping[str, str]) -> list[Finding]:
    findings: list[Finding] = []
    if "manifest.schema" in active or "manifest.quote-string" in active:
        if not _fast_is_valid(doc):
            findings = [f for f in _schema_findings(doc, raw) if f.rule in active]
    findings.extend(check_rules(doc, active, _meta_findings))
    if strict:
        for finding in findings:
            finding.severity = "error"
    return findings


@dataclass
class FileReport:
    """The outcome for one file: its name, how many manifests it held, and its findings (sorted by line)."""

    file: str
    documents: int = 0
    findings: list[Finding] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        """True when a finding has severity ``error`` (warnings count only under ``--strict``)."""
        return any(f.severity == "error" for f in self.findings)


def check_document(document: LoadedDocument, active: frozenset[str], strict: bool) -> list[Finding]:
    """Findings of one loaded document, placed at their file, line and column."""
    findings = _check(document.data, active, strict, document.raw)
    for finding in findings:
        finding.file = document.source
        finding.document = document.index
        position = document.position(finding.pointer)
        if position is not None:
            finding.line, finding.column = position
    return findings


def validate_paths(
    paths: Sequence[str],
    *,
    strict: bool = False,
    disabled: Iterable[str] = (),
    enabled: Iterable[str] = (),
    max_bytes: int = DEFAULT_MAX_BYTES,
    max_depth: int = DEFAULT_MAX_DEPTH,
    stdin: IO[bytes] | None = None,
    check: bool = True,
) -> tuple[list[FileReport], list[LoadedDocument]]:
    """Load and check every manifest under ``paths``; one bad file never stops the others.

    Args:
        paths: files, directories (recursive) and ``-`` (standard input, read from ``stdin``).
        strict, disabled, enabled: as for :func:`check_manifest`.
        max_bytes: size cap per file in bytes (default 1 MiB).
        max_depth: nesting cap per document (default 64).
        stdin: the binary stream read for ``-`` (``sys.stdin.buffer`` by default).
        check: False to only load (loading findings only), e.g. before a remote validation.

    Returns:
        One :class:`FileReport` per file, in order, and the documents loaded.

    Raises:
        UsageError: a path that does not exist, ``-`` given twice, an unknown rule id, or a
            ``load.*`` error rule in ``disabled``.
    """
    try:
        active = select_rules(disabled=tuple(disabled), enabled=tuple(enabled))
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    reports: list[FileReport] = []
    documents: list[LoadedDocument] = []
    outside: set[str] = set()
    for path in expand_paths(paths, outside=outside):
        if path in outside:
            reports.append(FileReport(path, 0, [make_finding(
                "load.read", "", f"not read: a symbolic link to {os.path.realpath(path)}, outside the directory "
                "searched (a pull request could point it at a secret); name the file itself to check it",
                file=path)]))
            continue
        if path == "-":
            stream = stdin if stdin is not None else sys.stdin.buffer
            source: Any = stream.read(max_bytes + 1)
            name = "<stdin>"
        else:
            source, name = Path(path), path
        report = FileReport(name)
        for item in iter_documents(source, source=name, max_bytes=max_bytes, max_depth=max_depth):
            if isinstance(item, Finding):
                if item.rule not in active:  # load.empty, when disabled
                    continue
                if strict:
                    item.severity = "error"
                report.findings.append(item)
                continue
            report.documents += 1
            documents.append(item)
            if check:
                report.findings.extend(check_document(item, active, strict))
        report.findings.sort(key=lambda f: (f.document, f.line or 0, f.column or 0))
        reports.append(report)
    return reports, documents



def add_findings(reports: list[FileReport], findings: Iterable[Finding], *, strict: bool = False) -> None:
    """Add ``findings`` (e.g. the gateway's, for ``--remote``) to the report of their file, in line order.

    A finding of a file without a report gets a new report; under ``strict`` warnings become errors.
    """
    by_file = {report.file: report for report in reports}
    for finding in findings:
        if strict:
            finding.severity = "error"
        name = finding.file or "<input>"
        if name not in by_file:
            by_file[name] = FileReport(name)
            reports.append(by_file[name])
        by_file[name].findings.append(finding)
    for report in reports:
        report.findings.sort(key=lambda f: (f.document, f.line or 0, f.column or 0))
