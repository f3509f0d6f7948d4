"""``eai tools register`` / ``apply``: manifests and Python tools applied to the gateway.

Core functions: they return data and raise typed errors; they never print.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

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


def _load_manifest_file(path: Path, out: Collected) -> None:
    """Every document of one manifest file (the validator's safe loader: LoadError, exit 2, on a bad file)."""
    from enterprise_ai.validate.loader import load_documents, path_source

    source = path_source(path)
    for doc in load_documents(path, source=source):
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


def collect(paths: Sequence[str | Path]) -> Collected:
    """Read manifest files (``.yaml``, ``.yml``, ``.json``) and scan Python files and directories.

    Raises:
        UsageError: a missing path, or a manifest file that does not load.
        FindingsError: the Python scan reported an error.
    """
    out = Collected()
    python: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if not path.exists():
            raise UsageError(f"{path}: no such file or directory")
        if path.is_file() and path.suffix.lower() in MANIFEST_SUFFIXES:
            _load_manifest_file(path, out)
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
    rows: list[dict[str, Any]] = []
    for cand in candidates:
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
        rows.append(row)
    return rows


def changed(rows: Sequence[dict[str, Any]]) -> bool:
    """True when a row created or updated a tool (or would have, in a dry run)."""
    return any(r.get("result") in ("created", "updated", "would create", "would update") for r in rows)
