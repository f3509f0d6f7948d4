"""Output formats of validation results: text, json, github, junit and sarif.

Every reporter is a function ``(reports, *, strict=False) -> str`` taking a sequence of
:class:`~enterprise_ai.validate.checker.FileReport` (one per checked file) and returning the whole
output, ending with a newline. :func:`get_reporter` looks one up by name. The client's
``eai tools validate --remote`` reuses them for the gateway's verdict.

* ``text``: ``file:line:col: severity rule message`` per finding, then a summary line.
* ``json``: ``{"valid", "summary", "files": [{"file", "documents", "valid", "findings": [...]}]}``.
* ``github``: workflow commands (``::error file=F,line=L,col=C,title=RULE::message``), escaped as the
  GitHub Actions toolkit does, then the summary line.
* ``junit``: JUnit XML, one test case per file, one ``failure`` per failing finding.
* ``sarif``: SARIF 2.1.0 (OASIS), one run whose rules are named by their ids.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from enterprise_ai.validate.findings import RULES, Finding

if TYPE_CHECKING:  # pragma: no cover
    from enterprise_ai.validate.checker import FileReport

Reporter = Callable[..., str]
FORMATS = ("text", "json", "github", "junit", "sarif")


def _all(reports: Sequence[FileReport]) -> list[Finding]:
    return [finding for report in reports for finding in report.findings]


def summary(reports: Sequence[FileReport]) -> dict[str, int]:
    """Counts: files, manifests (documents), errors, warnings."""
    findings = _all(reports)
    errors = sum(1 for f in findings if f.severity == "error")
    return {
        "files": len(reports),
        "manifests": sum(r.documents for r in reports),
        "errors": errors,
        "warnings": len(findings) - errors,
    }


def summary_line(reports: Sequence[FileReport]) -> str:
    """``checked 3 files (4 manifests): 1 error, 2 warnings``."""
    counts = summary(reports)

    def plural(n: int, word: str) -> str:
        return f"{n} {word}{'' if n == 1 else 's'}"

    return (
        f"checked {plural(counts['files'], 'file')} ({plural(counts['manifests'], 'manifest')}): "
        f"{plural(counts['errors'], 'error')}, {plural(counts['warnings'], 'warning')}"
    )


def _location(finding: Finding) -> str:
    parts = [finding.file or "<input>"]
    if finding.line is not None:
        parts.append(str(finding.line))
        if finding.column is not None:
            parts.append(str(finding.column))
    return ":".join(parts)


def _one_line(text: str) -> str:
    return " ".join(text.split())


_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def _visible(text: str) -> str:
    """``text`` with control characters (a terminal escape in a key name, say) written as ``\\xNN``."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def text_report(reports: Sequence[FileReport], *, strict: bool = False) -> str:
    """``file:line:col: severity rule message`` lines and a summary line."""
    lines = [
        _visible(f"{_location(f)}: {f.severity} {f.rule} {_one_line(f.message)}"
                 + (f" (at {f.pointer})" if f.pointer else ""))
        for f in _all(reports)
    ]
    lines.append(summary_line(reports))
    return "\n".join(lines) + "\n"


def json_report(reports: Sequence[FileReport], *, strict: bool = False) -> str:
    """The whole result as one JSON document."""
    data = {
        "valid": not any(r.failed for r in reports),
        "strict": strict,
        "summary": summary(reports),
        "files": [
            {
                "file": r.file,
                "documents": r.documents,
                "valid": not r.failed,
                "findings": [f.to_dict() for f in r.findings],
            }
            for r in reports
        ],
    }
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _gh_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _gh_property(text: str) -> str:
    return _gh_data(text).replace(":", "%3A").replace(",", "%2C")


def github_report(reports: Sequence[FileReport], *, strict: bool = False) -> str:
    """GitHub Actions workflow commands: annotations on the pull request's files."""
    lines = []
    for f in _all(reports):
        props = [f"file={_gh_property(_visible(f.file or '<input>'))}"]
        if f.line is not None:
            props.append(f"line={f.line}")
            if f.column is not None:
                props.append(f"col={f.column}")
        props.append(f"title={_gh_property(f.rule)}")
        message = f.message + (f" (at {f.pointer})" if f.pointer else "")
        lines.append(f"::{f.severity} {','.join(props)}::{_gh_data(_visible(message))}")
    lines.append(summary_line(reports))
    return "\n".join(lines) + "\n"


_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _xml_text(text: str) -> str:
    """``text`` without the characters XML 1.0 cannot carry (control characters, lone surrogates), each
    written as a ``\\xNN``/``\\uNNNN`` escape instead."""
    return _NOT_XML.sub(lambda m: m.group().encode("unicode_escape", "backslashreplace").decode("ascii"), text)


def junit_report(reports: Sequence[FileReport], *, strict: bool = False) -> str:
    """JUnit XML: a ``testsuite`` with one ``testcase`` per file; failing findings are ``failure``s."""
    from xml.etree import ElementTree as ET

    failures = sum(1 for r in reports if r.failed)
    root = ET.Element("testsuites", name="eai tools validate", tests=str(len(reports)), failures=str(failures))
    suite = ET.SubElement(
        root, "testsuite", name="eai tools validate", tests=str(len(reports)), failures=str(failures),
        errors="0", skipped="0",
    )
    for report in reports:
        case = ET.SubElement(suite, "testcase", classname="eai.validate", name=_xml_text(report.file))
        notes = []
        for f in report.findings:
            text = f"{_location(f)}: {f.severity} {f.rule} {_one_line(f.message)}" + (
                f" (at {f.pointer})" if f.pointer else "")
            if f.severity == "error":
                failure = ET.SubElement(case, "failure", message=_xml_text(_one_line(f.message)), type=f.rule)
                failure.text = _xml_text(text)
            else:
                notes.append(_xml_text(text))
        if notes:
            ET.SubElement(case, "system-out").text = "\n".join(notes)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _sarif_uri(file: str) -> str:
    """A relative URI reference (GitHub code scanning resolves it from the checkout): as given, or relative
    to the current directory for an absolute path below it; a ``file://`` URI for any other absolute path."""
    if os.path.isabs(file):
        try:
            file = os.fspath(Path(file).relative_to(Path.cwd()))
        except ValueError:
            return Path(file).as_uri()
    return quote(file.replace("\\", "/"), safe="/._-~", errors="backslashreplace")


def sarif_report(reports: Sequence[FileReport], *, strict: bool = False) -> str:
    """SARIF 2.1.0: one run of the ``eai`` driver, every rule of the catalogue named by its id."""
    from enterprise_ai import __version__

    rule_ids = list(RULES)
    rules = [
        {
            "id": rule.id,
            "name": rule.id,
            "shortDescription": {"text": rule.summary},
            "defaultConfiguration": {"level": rule.severity, "enabled": rule.default or rule.loading},
        }
        for rule in RULES.values()
    ]
    results: list[dict[str, Any]] = []
    for f in _all(reports):
        location: dict[str, Any] = {"physicalLocation": {"artifactLocation": {"uri": _sarif_uri(f.file or "input")}}}
        if f.line is not None:
            region: dict[str, int] = {"startLine": f.line}
            if f.column is not None:
                region["startColumn"] = f.column
            location["physicalLocation"]["region"] = region
        if f.pointer:
            location["logicalLocations"] = [{"fullyQualifiedName": f.pointer, "kind": "object"}]
        result: dict[str, Any] = {
            "ruleId": f.rule,
            "level": f.severity,
            "message": {"text": f.message},
            "locations": [location],
        }
        if f.rule in RULES:
            result["ruleIndex"] = rule_ids.index(f.rule)
        results.append(result)
    sarif = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "eai",
                        "version": __version__,
                        "informationUri": "https://enterprise-ai.io/docs/eai",
                        "rules": rules,
                    }
                },
                "results": results,
            }
        ],
    }
    return json.dumps(sarif, indent=2, ensure_ascii=False) + "\n"


_REPORTERS: dict[str, Reporter] = {
    "text": text_report,
    "json": json_report,
    "github": github_report,
    "junit": junit_report,
    "sarif": sarif_report,
}


def get_reporter(name: str) -> Reporter:
    """The reporter called ``name`` (one of :data:`FORMATS`).

    Raises:
        ValueError: an unknown name.
    """
    try:
        return _REPORTERS[name]
    except KeyError:
        raise ValueError(f"unknown format {name!r}: use one of {', '.join(FORMATS)}") from None
