"""``eai tools validate``: check Tool Manifest files, locally or with the gateway (``--remote``).

Parses options, calls :func:`enterprise_ai.validate.validate_paths` (or, with ``--remote``,
``enterprise_ai.tools._remote.remote_findings``) and prints the findings with a reporter of
:mod:`enterprise_ai.validate.reporters`. jsonschema and PyYAML are imported inside the command.
"""

from __future__ import annotations

import enum
import os
import sys
from typing import List, Optional

import typer

from enterprise_ai.cli.tools import app


#: highest ``--max-bytes``: the cap is read into memory at once (1 GiB)
MAX_BYTES_LIMIT = 1 << 30
#: highest ``--max-depth``: deeper documents hit the parsers' own limits first
MAX_DEPTH_LIMIT = 1000


class ValidateFormat(str, enum.Enum):
    """Output formats of ``eai tools validate``."""

    text = "text"
    json = "json"
    github = "github"
    junit = "junit"
    sarif = "sarif"


HELP = """Check Tool Manifest files (YAML or JSON) against the manifest JSON Schema and the rules.

PATH is a file, a directory (searched recursively for *.yaml, *.yml and *.json, skipping hidden
files and directories such as .git/ or .gitlab-ci.yml; a symbolic link to a file outside the
directory is reported, not read) or - for standard input. A YAML file may hold several documents; a JSON file an object or a list of objects. Loading is
strict: anchors/aliases, non-core tags, duplicate keys, NaN/Infinity, files over --max-bytes, other
encodings than UTF-8 are refused; yes/no/on/off stay strings. Every finding names its file, line,
column, JSON pointer and rule id; rule ids are listed by --list-rules.

Output (--format): text (default), json, github (default when GITHUB_ACTIONS=true), junit, sarif.

Exit codes: 0 valid, 1 a finding fails the run (errors; warnings too with --strict), 2 usage
(a missing path, an unknown rule id or format).
"""


@app.command("validate", help=HELP)
def validate_command(
    ctx: typer.Context,
    paths: Optional[List[str]] = typer.Argument(  # noqa: UP006,UP007 - Typer needs typing names on 3.10
        None, metavar="PATH...", help="Manifest files, directories, or - for standard input."
    ),
    fmt: Optional[ValidateFormat] = typer.Option(  # noqa: UP007
        None, "--format", "-f", help="text, json, github, junit or sarif (github when GITHUB_ACTIONS=true, else text)."
    ),
    strict: bool = typer.Option(False, "--strict", help="Warnings fail the run too."),
    disable: Optional[List[str]] = typer.Option(  # noqa: UP006,UP007
        None, "--disable", metavar="RULE", help="Do not run this rule (repeatable)."
    ),
    enable: Optional[List[str]] = typer.Option(  # noqa: UP006,UP007
        None, "--enable", metavar="RULE", help="Run this opt-in rule (repeatable)."
    ),
    max_bytes: int = typer.Option(
        1_048_576, "--max-bytes", min=1, max=MAX_BYTES_LIMIT, help="Size cap per file, in bytes (at most 1 GiB)."
    ),
    max_depth: int = typer.Option(
        64, "--max-depth", min=1, max=MAX_DEPTH_LIMIT, help="Nesting cap per document (mappings and lists; at most 1000)."
    ),
    list_rules: bool = typer.Option(False, "--list-rules", help="Print the rule ids, severities and summaries, and exit."),
    remote: bool = typer.Option(False, "--remote", help="Ask the gateway to validate (its verdict, same formats)."),
    contract: str = typer.Option("tool-manifest", "--contract", metavar="NAME", help="With --remote: the contract."),
) -> None:
    from enterprise_ai.cli import render
    from enterprise_ai.cli.state import get_state
    from enterprise_ai.errors import UsageError
    from enterprise_ai.validate import validate_paths
    from enterprise_ai.validate.reporters import get_reporter

    state = get_state(ctx)
    if list_rules:
        from enterprise_ai.validate.findings import RULES

        rows = [
            {"rule": r.id, "severity": r.severity, "default": "on" if (r.default or r.loading) else "off", "summary": r.summary}
            for r in RULES.values()
        ]
        render.emit(rows, "table", columns=[("RULE", "rule"), ("SEVERITY", "severity"), ("DEFAULT", "default"), ("SUMMARY", "summary")], state=state)
        return
    if not paths:
        raise UsageError("give at least one PATH (a file, a directory, or - for standard input)")
    if fmt is None:
        fmt = ValidateFormat.github if os.environ.get("GITHUB_ACTIONS") == "true" else ValidateFormat.text
    reports, documents = validate_paths(
        paths,
        strict=strict,
        disabled=disable or (),
        enabled=enable or (),
        max_bytes=max_bytes,
        max_depth=max_depth,
        check=not remote,
    )
    if not reports:
        render.warn("no manifest file (*.yaml, *.yml, *.json) found under the given paths", state)
    if remote:
        _add_remote_findings(reports, documents, contract, state, strict)
    output = get_reporter(fmt.value)(reports, strict=strict)
    # A file name that is not UTF-8 (os.walk gives it surrogate escapes) is written as \udcXX, not a crash.
    sys.stdout.write(output.encode("utf-8", "backslashreplace").decode("utf-8"))
    sys.stdout.flush()
    if any(report.failed for report in reports):
        raise typer.Exit(1)


def _add_remote_findings(reports, documents, contract: str, state, strict: bool) -> None:  # noqa: ANN001
    """Ask the gateway for its findings on ``documents`` and add them to the reports of their files."""
    from enterprise_ai.errors import UsageError
    from enterprise_ai.validate.checker import add_findings

    try:
        from enterprise_ai.tools._remote import remote_findings
    except ImportError:
        raise UsageError("remote validation not available") from None
    add_findings(reports, remote_findings(documents, contract=contract, ctx_state=state), strict=strict)
