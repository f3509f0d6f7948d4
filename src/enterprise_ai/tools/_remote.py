"""``eai tools validate --remote``: the gateway's verdict on loaded manifests, as local findings.

Each document goes to ``POST /v1/contracts/{contract}/validate`` (reference page, ``ToolsClient.validate``;
nothing is stored). Each returned error ``{path, message}`` becomes a
:class:`~enterprise_ai.validate.findings.Finding` at the file, line and column of the value its path
names, so the local output formats (text, json, github, junit, sarif) show it like a local finding.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from enterprise_ai.validate.findings import Finding
    from enterprise_ai.validate.loader import LoadedDocument

#: rule id given to a server error that names no rule of the local catalogue
DEFAULT_REMOTE_RULE = "manifest.schema"
#: a rule id at the end of a server message: ``"... add it [manifest.schema]"``
_RULE_TAG = re.compile(r"\s*\[([a-z0-9-]+\.[a-z0-9.-]+)\]\s*$")


def to_pointer(path: Any) -> str:
    """A JSON pointer (RFC 6901) from the ``path`` of a server error.

    Accepts a pointer (``/spec/input_schema``), a dotted or ``$``-rooted path (``$.spec.input_schema``,
    ``spec.endpoint.url``, ``spec.items[0]``) or a list of keys and indexes.
    """
    from enterprise_ai.validate.findings import pointer_from_path

    if isinstance(path, (list, tuple)):
        return pointer_from_path(path)
    text = "" if path is None else str(path)
    if text == "" or text.startswith("/"):
        return text
    if text.startswith("#/"):
        return text[1:]
    text = text.removeprefix("$").lstrip(".")
    keys: list[str | int] = []
    for part in text.replace("[", ".").replace("]", "").split("."):
        if part:
            keys.append(int(part) if part.isdigit() else part)
    return pointer_from_path(keys)


def remote_findings(
    documents: Sequence[LoadedDocument],
    *,
    contract: str = "tool-manifest",
    ctx_state: Any = None,
    profile: str | None = None,
    client: Any = None,
) -> list[Finding]:
    """Validate each document on the gateway and return its errors as findings, in document order.

    Args:
        documents: loaded documents (:func:`enterprise_ai.validate.loader.load_documents`).
        contract: the contract name (``tool-manifest`` by default).
        ctx_state: the CLI state; its ``profile`` attribute, when it has one, picks the profile.
        profile: the profile to use (wins over ``ctx_state``); the active profile otherwise.
        client: a :class:`~enterprise_ai.tools.ToolsClient` to use instead of opening one.

    Returns:
        one finding per server error (severity ``error``) and warning (``warning``); the rule is the
        error's ``rule``, or the ``[rule.id]`` ending its message, when the local catalogue knows it,
        else :data:`DEFAULT_REMOTE_RULE`; ``extra["remote"]`` is True.

    Raises:
        the client's typed errors (exit 3 not authenticated, 5 ``unknown_contract``, 9 network...).
    """
    from enterprise_ai.validate.findings import RULES, Finding

    if client is None:
        from enterprise_ai.auth import open_client

        client = open_client(profile or getattr(ctx_state, "profile", None))
        owned = True
    else:
        owned = False
    findings: list[Finding] = []
    try:
        for doc in documents:
            verdict = client.validate_contract(contract, doc.data) or {}
            listed = [(e, "error") for e in verdict.get("errors") or []]
            listed += [(w, "warning") for w in verdict.get("warnings") or []]
            for error, default_severity in listed:
                if not isinstance(error, dict):
                    error = {"message": str(error)}
                pointer = to_pointer(error.get("path", error.get("pointer")))
                message = str(error.get("message", "invalid"))
                tagged = _RULE_TAG.search(message)
                rule = error.get("rule") or (tagged.group(1) if tagged else None)
                if tagged and tagged.group(1) == rule:
                    message = message[: tagged.start()].rstrip()
                rule = rule if rule in RULES else DEFAULT_REMOTE_RULE
                severity = error.get("severity")
                severity = severity if severity in ("error", "warning") else default_severity
                position = doc.position(pointer)
                findings.append(Finding(
                    rule=rule,
                    severity=severity,
                    pointer=pointer,
                    message=f"gateway: {message}",
                    file=doc.source,
                    line=position[0] if position else None,
                    column=position[1] if position else None,
                    document=doc.index,
                    extra={"remote": True, "contract": contract},
                ))
    finally:
        if owned:
            client.close()
    return findings
