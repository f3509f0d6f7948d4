"""``eai tools scan``: Tool Manifests from the ``@tool`` functions of Python code.

Parses options, calls :func:`enterprise_ai.scan.scan` (or the static scan), and renders:
YAML documents or a JSON array on stdout, one file per tool with ``--out``, a diff with ``--check``.
Problems go to stderr as ``file:line: severity: message``.
"""

from __future__ import annotations

import enum
from pathlib import Path
from typing import TYPE_CHECKING, Any, List, Optional

import typer

from enterprise_ai.cli.tools import app

if TYPE_CHECKING:  # pragma: no cover
    from enterprise_ai.cli.state import CliState
    from enterprise_ai.scan.model import ScanOptions, ScanResult


class ScanFormat(str, enum.Enum):
    """Output format of ``eai tools scan`` on stdout."""

    yaml = "yaml"
    json = "json"


HELP = """Print the Tool Manifest of every tool defined in Python code.

PATH is a .py file, a directory (searched recursively; hidden folders, virtual environments,
__pycache__, node_modules, build, dist and site-packages are skipped) or a dotted module name.
Modules are imported in a separate process, without EAI_* variables, under their real names
(so `if __name__ == "__main__"` blocks do not run); what they print is discarded.

Exit codes: 0 ok (also when no tool is found), 1 a module failed to import, a duplicate name,
or drift under --check, 2 usage (a missing path, bad option).
"""


@app.command("scan", help=HELP)
def scan_command(
    ctx: typer.Context,
    paths: List[str] = typer.Argument(..., metavar="PATH", help=".py files, directories or module names."),  # noqa: UP006
    fmt: Optional[ScanFormat] = typer.Option(  # noqa: UP007 - Typer needs Optional on 3.10
        None, "--format", "-f", help="Output on stdout: yaml (documents separated by ---, the default) or json (an array)."
    ),
    out: Optional[Path] = typer.Option(  # noqa: UP007
        None, "--out", file_okay=False, metavar="DIR", help="Write one <name>.yaml per tool into this directory instead."
    ),
    check: bool = typer.Option(
        False, "--check", help="With --out: write nothing; print a diff and exit 1 if the directory is out of date."
    ),
    endpoint_base_url: Optional[str] = typer.Option(  # noqa: UP007
        None, "--endpoint-base-url", metavar="URL", help="Endpoint of every tool: POST URL/tools/<name> (default http://127.0.0.1:8000)."
    ),
    owner: Optional[str] = typer.Option(None, "--owner", metavar="OWNER", help="metadata.owner of every manifest."),  # noqa: UP007
    version: Optional[str] = typer.Option(None, "--version", metavar="VERSION", help="metadata.version of every manifest."),  # noqa: UP007
    label: Optional[List[str]] = typer.Option(  # noqa: UP006,UP007
        None, "--label", metavar="KEY=VALUE", help="metadata.labels entry of every manifest (repeatable)."
    ),
    timeout: float = typer.Option(60.0, "--timeout", metavar="SECONDS", help="Time allowed to import all modules."),
    static: bool = typer.Option(False, "--static", help="Read the code without importing it (AST only)."),
    strict: bool = typer.Option(False, "--strict", help="Fail (exit 1) on warnings too."),
) -> None:
    from enterprise_ai.cli.state import get_state
    from enterprise_ai.errors import UsageError
    from enterprise_ai.scan.model import ScanOptions

    state = get_state(ctx)
    if check and out is None:
        raise UsageError("--check needs --out DIR (the directory to compare with)")
    if out is not None and fmt is not None:
        raise UsageError("--format sets stdout output; --out always writes YAML files: use one or the other")
    metadata: dict[str, Any] = {}
    if owner is not None:
        metadata["owner"] = owner
    if version is not None:
        metadata["version"] = version
    if label:
        metadata["labels"] = _labels(label)
    options = ScanOptions(endpoint_base_url=endpoint_base_url, metadata=metadata, timeout=timeout, strict=strict)
    result = _run_scan(paths, options, static)
    import gc

    gc.freeze()  # the manifests live until exit: no later collection (nor the one at exit) walks them again
    failed = _report_problems(result, options, state)
    if out is not None:
        _write_or_check(result, str(out), check, failed, state)
        return
    _print_manifests(result, fmt or ScanFormat.yaml, paths, state)
    if failed:
        raise typer.Exit(1)


def _labels(pairs: list[str]) -> dict[str, str]:
    from enterprise_ai.errors import UsageError

    labels: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--label expects KEY=VALUE, got '{pair}'")
        labels[key.strip()] = value
    return labels


def _run_scan(paths: list[str], options: ScanOptions, static: bool) -> ScanResult:
    from enterprise_ai.errors import UsageError

    if not static:
        from enterprise_ai.scan import scan

        return scan(paths, options)
    try:
        from enterprise_ai.scan.static import scan_static
    except ImportError as exc:
        if exc.name not in ("enterprise_ai.scan.static", None):
            raise
        raise UsageError("static scan not available in this installation (enterprise_ai.scan.static is missing)") from exc
    return scan_static(paths, options)


def _report_problems(result: ScanResult, options: ScanOptions, state: CliState) -> bool:
    """Print every problem on stderr; True when the scan failed (errors, or warnings under --strict)."""
    from enterprise_ai.cli import render

    styles = {"error": "red", "warning": "yellow", "note": ""}
    for problem in result.problems:
        render.note(f"{problem.location()}: {problem.severity}: {problem.message}", state, style=styles.get(problem.severity))
    return bool(result.errors or (options.strict and result.warnings))


def _print_manifests(result: ScanResult, fmt: ScanFormat, paths: list[str], state: CliState) -> None:
    from enterprise_ai.cli import render

    manifests = [tool.manifest for tool in result.tools]
    if fmt is ScanFormat.json:
        render.emit(manifests, "json", state=state)
    elif manifests:
        typer.echo(render.yaml_documents(manifests), nl=False)
    if not manifests and not result.errors:
        render.note(f"no tools found in {' '.join(paths)}", state)


def _write_or_check(result: ScanResult, out: str, check: bool, failed: bool, state: CliState) -> None:
    from enterprise_ai.cli import render
    from enterprise_ai.errors import FindingsError
    from enterprise_ai.scan import files as manifest_files

    if failed:
        render.note(f"{out}: nothing {'checked' if check else 'written'}: fix the errors above first", state)
        raise typer.Exit(1)
    texts = {manifest_files.file_name(tool.name): render.to_yaml(tool.manifest) for tool in result.tools}
    if check:
        drift = [c for c in manifest_files.plan(out, texts) if c.status != "unchanged"]
        if drift:
            typer.echo("".join(change.diff for change in drift), nl=False)
            labels = {"created": "missing", "updated": "differs", "orphaned": "has no tool"}
            detail = ", ".join(f"{c.path} {labels[c.status]}" for c in drift)
            raise FindingsError(
                f"{out} is out of date with the code: {detail}",
                hint=f"run the same scan with --out {out} and without --check to update it"
                + (", then delete the files without a tool" if any(c.status == "orphaned" for c in drift) else ""),
            )
        render.note(f"{out}: {len(texts)} manifests up to date", state)
        return
    changes = manifest_files.write(out, texts)
    counts = {s: sum(c.status == s for c in changes) for s in ("created", "updated", "unchanged")}
    render.note(
        f"{out}: {len(texts)} manifests ({counts['created']} created, {counts['updated']} updated, "
        f"{counts['unchanged']} unchanged)",
        state,
    )
    for change in changes:
        if change.status == "orphaned":
            render.warn(f"{change.path} has no tool in the scanned code (not deleted; --check will report it)", state)
    if not texts:
        render.note("no tools found", state)
