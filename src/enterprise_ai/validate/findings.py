"""Findings and the catalogue of rules that produce them.

A :class:`Finding` is one problem in one manifest: where it is (file, line, column, JSON pointer,
RFC 6901), which rule found it (a stable id from :data:`RULES`), how bad it is (``error`` or
``warning``) and a message that says what to change.

Rule ids are stable: CI configurations name them in ``--disable`` / ``--enable``, and SARIF
reports name their rules by them. The sources of the rules are MANIFEST.md ("Rules beyond the
JSON Schema"), the ``ToolsClient.create`` entry of the reference page (the gateway's checks) and
the issue that asked for the validator (loading safety).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

Severity = Literal["error", "warning"]


@dataclass(frozen=True)
class Rule:
    """One rule of the catalogue.

    Attributes:
        id: stable identifier (``group.name``).
        severity: default severity of its findings.
        summary: one line, used as the SARIF rule's short description and in ``--help``.
        default: False for opt-in rules, turned on with ``--enable``.
        loading: True for rules of the loader; they cannot be disabled (the document is not checked).
    """

    id: str
    severity: Severity
    summary: str
    default: bool = True
    loading: bool = False


_CATALOGUE = [
    # Loading (always on: a document that fails them is not checked further).
    Rule("load.read", "error", "The file cannot be read.", loading=True),
    Rule("load.too-large", "error", "The file is larger than the size cap (--max-bytes).", loading=True),
    Rule("load.encoding", "error", "The file is not UTF-8 (with or without a BOM).", loading=True),
    Rule("load.syntax", "error", "The file is not well-formed YAML or JSON.", loading=True),
    Rule("load.duplicate-key", "error", "A mapping has the same key twice.", loading=True),
    Rule("load.alias", "error", "YAML anchors and aliases are refused.", loading=True),
    Rule("load.tag", "error", "Only the YAML core tags are allowed.", loading=True),
    Rule("load.too-deep", "error", "The document nests deeper than the depth cap.", loading=True),
    Rule("load.non-finite", "error", "NaN and Infinity have no JSON representation.", loading=True),
    Rule(
        "load.ambiguous", "error",
        "YAML that other readers take differently: a key that is not a string, a merge key (<<), an "
        "integer with a leading zero, a %YAML 1.1 directive, a YAML 1.1 line break (U+0085/2028/2029).",
        loading=True,
    ),
    Rule("load.empty", "warning", "The file holds no document.", loading=True),
    # The manifest JSON Schema.
    Rule("manifest.schema", "error", "The manifest does not match the Tool Manifest JSON Schema."),
    Rule("manifest.quote-string", "error", "A string field holds a number or boolean: quote it."),
    # input_schema / output_schema.
    Rule("schema.meta", "error", "input_schema/output_schema is not a valid JSON Schema (Draft 2020-12)."),
    Rule("schema.input-object", "error", "input_schema must describe an object (type: object)."),
    Rule("schema.remote-ref", "error", "Only local '#...' $refs are allowed; nothing is fetched."),
    Rule("schema.dangling-ref", "error", "A local $ref points to nothing in the schema."),
    Rule("schema.unknown-format", "warning", "A 'format' name that JSON Schema 2020-12 does not define."),
    Rule(
        "schema.open-object",
        "warning",
        "input_schema lacks additionalProperties: false (needed by OpenAI strict mode).",
        default=False,
    ),
    # Endpoint (the gateway's apply checks).
    Rule("endpoint.http-url", "error", "An http endpoint needs an absolute http(s) URL."),
    Rule("endpoint.mcp-server", "error", "An mcp endpoint needs a non-empty mcp_server."),
    Rule("endpoint.builtin-handler", "error", "A builtin endpoint's handler is 'echo' or 'time.now'."),
    Rule("endpoint.sandbox-command", "error", "A sandbox endpoint's command is a non-empty list of strings."),
    # Governance.
    Rule("risk.unacceptable", "error", "risk_level: unacceptable is refused by the gateway."),
    Rule("governance.high-risk-approval", "warning", "risk_level: high without requires_approval: true."),
    Rule("governance.delete-side-effects", "error", "action: delete with side_effects: false."),
    Rule("governance.read-side-effects", "warning", "action: read with side_effects: true."),
    # Export compatibility.
    Rule("export.name", "warning", "The name is not a valid OpenAI function name ([A-Za-z0-9_-]{1,64})."),
    Rule("export.description-length", "warning", "The description is longer than 1024 characters."),
]

RULES: dict[str, Rule] = {rule.id: rule for rule in _CATALOGUE}


@dataclass
class Finding:
    """One problem found in one manifest.

    Attributes:
        rule: the rule id (a key of :data:`RULES`).
        severity: ``error`` or ``warning``.
        pointer: JSON pointer (RFC 6901) of the value concerned, ``""`` for the whole document.
        message: what is wrong and what to change.
        file: the source (file path, ``<stdin>``), ``None`` when checked without a file.
        line: 1-based line, ``None`` when unknown.
        column: 1-based column, ``None`` when unknown.
        document: 0-based number of the document in its file.
    """

    rule: str
    severity: Severity
    pointer: str
    message: str
    file: str | None = None
    line: int | None = None
    column: int | None = None
    document: int = 0
    extra: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able dict (``extra`` left out)."""
        data = asdict(self)
        data.pop("extra", None)
        return data


def make_finding(rule: str, pointer: str, message: str, **where: Any) -> Finding:
    """A :class:`Finding` of ``rule`` with the rule's default severity."""
    return Finding(rule=rule, severity=RULES[rule].severity, pointer=pointer, message=message, **where)


def pointer_join(pointer: str, key: str | int) -> str:
    """``pointer`` extended by one reference token, escaped as RFC 6901 says (``~`` -> ``~0``, ``/`` -> ``~1``)."""
    token = str(key)
    if "~" in token or "/" in token:
        token = token.replace("~", "~0").replace("/", "~1")
    return f"{pointer}/{token}"


def pointer_from_path(path: Any) -> str:
    """JSON pointer of a sequence of keys and indexes (as jsonschema's ``error.absolute_path``)."""
    pointer = ""
    for key in path:
        pointer = pointer_join(pointer, key)
    return pointer


def select_rules(*, disabled: Any = (), enabled: Any = ()) -> frozenset[str]:
    """The ids of the rules that run: the default ones, plus ``enabled``, minus ``disabled``.

    Loading rules of severity ``error`` always run (a document that fails them cannot be checked at
    all); ``load.empty`` (a warning) may be disabled. Raises ``ValueError`` naming an unknown rule id,
    or a loading error rule given in ``disabled`` (rather than ignoring it silently).
    """
    unknown = [r for r in (*disabled, *enabled) if r not in RULES]
    if unknown:
        raise ValueError(f"unknown rule id {unknown[0]!r}; known rules: {', '.join(RULES)}")
    fixed = [r for r in disabled if RULES[r].loading and RULES[r].severity == "error"]
    if fixed:
        raise ValueError(f"rule {fixed[0]!r} cannot be disabled: a document that fails a loading rule cannot be "
                         "checked at all")
    active = {r.id for r in _CATALOGUE if r.default or r.loading}
    active |= set(enabled)
    active -= set(disabled)
    return frozenset(active)


def is_failing(finding: Finding, *, strict: bool = False) -> bool:
    """True when ``finding`` fails the run: an error, or a warning under ``strict``."""
    return finding.severity == "error" or strict
