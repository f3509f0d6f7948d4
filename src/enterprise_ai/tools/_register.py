"""``eai tools register`` / ``apply``: manifests and Python tools applied to the gateway.

Core functions: they return data and raise typed errors; they never print.
"""

from __future__ import annotations

import difflib
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from enterprise_ai.errors import FindingsError, UsageError
from enterprise_ai.tools._exceptions import NotFoundError

if TYPE_CHECKING:  # pragma: no cover
    from enterprise_ai.tools._client import ToolsClient

#: file suffixes read as Tool Manifests; every other file (and every directory) is scanned as Python
MANIFEST_SUFFIXES = (".yaml", ".yml", ".json")


@dataclass
class Candidate:
    """One manifest to apply, and where it came from (``file`` or ``file:line``)."""

    name: str
    manifest: dict[str, Any]
    source: str


@dataclass
class Collected:
    """Manifests found in the given paths, and notes about what was skipped."""

    candidates: list[Candidate] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _load_manifest_file(path: Path, out: Collected, stdin: IO[bytes] | None = None) -> None:
    """Every document of one manifest file, or of standard input for ``-`` (the validator's safe loader:
    LoadError, exit 2, on a bad file)."""
    from enterprise_ai.validate.loader import DEFAULT_MAX_BYTES, load_documents, path_source

    if str(path) == "-":
        source = "<stdin>"
        content: Any = (stdin or sys.stdin.buffer).read(DEFAULT_MAX_BYTES + 1)
    else:
        source, content = path_source(path), path
    for doc in load_documents(content, source=source):
        data = doc.data
        where = f"{source}" + (f"#{doc.index}" if doc.index else "")
        if not isinstance(data, dict):
            raise UsageError(f"{where}: a Tool Manifest must be a mapping", hint=f"see: eai tools validate {path}")
        name = str((data.get("metadata") or {}).get("name") or "")
        if not name:
            raise UsageError(f"{where}: metadata.name is missing", hint=f"see: eai tools validate {path}")
        out.candidates.append(Candidate(name, data, where))


def _scan_python(paths: Sequence[Path], out: Collected) -> None:
    from enterprise_ai.scan import scan

    result = scan([str(p) for p in paths])
    if result.errors:
        first = result.errors[0]
        raise FindingsError(f"{first.location()}: {first.message}", hint="see: eai tools scan")
    for found in result.tools:
        if not found.registrable:
            out.notes.append(f"{found.file}:{found.line}: skipped {found.name!r}: a client tool has no endpoint")
            continue
        out.candidates.append(Candidate(found.name, found.manifest, f"{found.file}:{found.line}"))


def _directory(path: Path, python: list[Path], out: Collected, stdin: IO[bytes] | None) -> None:
    """A directory holding Python code is scanned; one without is read for manifest files."""
    from enterprise_ai.scan._paths import python_files
    from enterprise_ai.validate.checker import expand_paths

    manifests = expand_paths([str(path)])
    if python_files(str(path)):
        python.append(path)
        if manifests:
            out.notes.append(f"{path}: holds Python code, so its {len(manifests)} manifest file(s) were not read; "
                             "name them explicitly to register them")
        return
    for name in manifests:
        _load_manifest_file(Path(name), out, stdin)


def collect(paths: Sequence[str | Path], stdin: IO[bytes] | None = None) -> Collected:
    """Read manifest files (``.yaml``, ``.yml``, ``.json``, ``-`` for standard input) and scan Python code.

    A directory that holds ``.py`` files (scan's walking rules) is scanned as Python; a directory
    without any is read for manifest files, recursively (like ``eai tools validate DIR``).

    Raises:
        UsageError: a missing path, or a manifest file that does not load.
        FindingsError: the Python scan reported an error.
    """
    out = Collected()
    python: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if str(raw) == "-":
            _load_manifest_file(path, out, stdin)
        elif not path.exists():
            raise UsageError(f"{path}: no such file or directory")
        elif path.is_dir():
            _directory(path, python, out, stdin)
        elif path.suffix.lower() in MANIFEST_SUFFIXES or not path.is_file():  # also <(cmd) pipes
            _load_manifest_file(path, out, stdin)
        else:
            python.append(path)
    if python:
        _scan_python(python, out)
    names = [c.name for c in out.candidates]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise UsageError(f"tool {dupes[0]!r} is defined more than once in the given paths")
    return out


def _yaml(data: Any) -> list[str]:
    import yaml

    return yaml.safe_dump(data, sort_keys=True, allow_unicode=True, default_flow_style=False).splitlines(keepends=True)


def manifest_diff(name: str, live: dict[str, Any] | None, local: dict[str, Any]) -> str:
    """Unified diff of the live tool's manifest (``live``, None when absent) against ``local`` (YAML, keys sorted)."""
    before = _yaml(live) if live is not None else []
    return "".join(difflib.unified_diff(before, _yaml(local), f"live/{name}", f"local/{name}"))


def _live_manifest(client: ToolsClient, name: str) -> dict[str, Any] | None:
    try:
        tool = client.get(name)
    except NotFoundError:
        return None
    return tool.get("manifest") if isinstance(tool, dict) else None


def apply(client: ToolsClient, candidates: Sequence[Candidate], *, dry_run: bool = False,
          diff: bool = False) -> list[dict[str, Any]]:
    """Apply (or with ``dry_run`` only validate on the server) each candidate.

    Returns one row per tool: ``{"tool", "source", "result", "diff"?, "errors"?}`` where ``result`` is
    ``created``/``updated``/``unchanged`` (applied), or with ``dry_run`` ``would create``/``would update``/
    ``unchanged``/``invalid``. With ``dry_run`` nothing is written: each manifest goes to
    ``POST /v1/contracts/tool-manifest/validate`` and is compared to the live tool.
    """
    from enterprise_ai.tools._exceptions import APIError

    if not dry_run:
        precheck(candidates)
    rows: list[dict[str, Any]] = []
    for cand in candidates:
        try:
            rows.append(_apply_one(client, cand, dry_run=dry_run, diff=diff))
        except APIError as exc:  # say which file failed, and what was already applied
            exc.message = f"{cand.source}: {exc.message}"
            done = ", ".join(f"{r['tool']} {r['result']}" for r in rows)
            if done:
                exc.hint = f"already done before this error: {done}" + (f"; {exc.hint}" if exc.hint else "")
            raise
    return rows


def precheck(candidates: Sequence[Candidate]) -> None:
    """Run the gateway's own manifest checks locally on every candidate before anything is applied.

    Raises:
        FindingsError (exit 1): a candidate has an error finding (the file, pointer, message and rule
            of the first one); nothing was sent, so no tool is left half-registered.
    """
    from enterprise_ai.validate import check_manifest

    for cand in candidates:
        errors = [f for f in check_manifest(cand.manifest) if f.severity == "error"]
        if errors:
            first = errors[0]
            more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
            raise FindingsError(f"{cand.source}: {first.pointer or '/'}: {first.message} [{first.rule}]{more}; "
                                "nothing was registered", hint=f"see: eai tools validate {_file_of(cand.source)}")


def _file_of(source: str) -> str:
    """The file of a candidate's ``source`` (``file``, ``file#2`` or ``file.py:12``; ``-`` for ``<stdin>``)."""
    name = source.split("#")[0]
    name = name.rsplit(":", 1)[0] if name.endswith(tuple("0123456789")) and ":" in name else name
    return "-" if name == "<stdin>" else name


def _apply_one(client: ToolsClient, cand: Candidate, *, dry_run: bool, diff: bool) -> dict[str, Any]:
    """One tool applied (or, with ``dry_run``, validated on the server and compared): its row."""
    row: dict[str, Any] = {"tool": cand.name, "source": cand.source}
    live = _live_manifest(client, cand.name) if (dry_run or diff) else None
    if diff:
        row["diff"] = manifest_diff(cand.name, live, cand.manifest)
    if dry_run:
        verdict = client.validate(cand.manifest)
        if not verdict.get("valid", False):
            row["result"] = "invalid"
            row["errors"] = verdict.get("errors", [])
        elif live is None:
            row["result"] = "would create"
        else:
            row["result"] = "unchanged" if not manifest_diff(cand.name, live, cand.manifest) else "would update"
    else:
        answer = client.create(cand.manifest)
        row["result"] = (answer or {}).get("apply_status", "applied")
        row["status"] = (answer or {}).get("status")
    return row


def changed(rows: Sequence[dict[str, Any]]) -> bool:
    """True when a row created or updated a tool (or would have, in a dry run)."""
    return any(r.get("result") in ("created", "updated", "would create", "would update") for r in rows)
