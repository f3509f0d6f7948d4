"""One manifest file per tool in a folder: write them atomically, or check them for drift.

Used by ``eai tools scan --out DIR`` (write) and ``--out DIR --check`` (compare, write nothing).
The caller renders each manifest to text; this module only compares and writes files:
UTF-8, LF line ends, each file replaced atomically (a temporary file in the same folder, then
``os.replace``), and only when its content changes.
"""

from __future__ import annotations

import difflib
import os
import re
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from enterprise_ai.errors import UsageError

FileStatus = Literal["created", "updated", "unchanged", "orphaned"]

_SAFE_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$")


@dataclass
class FileChange:
    """What happens (or would happen) to one file of the folder.

    Attributes:
        path: the file, as ``DIR/<name>.yaml`` with ``DIR`` as the caller gave it.
        status: ``created`` (a tool has no file), ``updated`` (the file differs), ``unchanged``,
            or ``orphaned`` (a ``.yaml`` file no scanned tool produces; never deleted).
        diff: unified diff from the file on disk to the expected content (empty when unchanged).
    """

    path: str
    status: FileStatus
    diff: str = ""


def file_name(tool_name: str) -> str:
    """``<tool_name>.yaml``; raises UsageError for a name that cannot be a plain file name."""
    if not _SAFE_NAME.match(tool_name):
        raise UsageError(f"tool name '{tool_name}' cannot be used as a file name in the output folder")
    return f"{tool_name}.yaml"


def _read(path: str) -> str | None:
    """The text of ``path``, None when it does not exist; UsageError when it cannot be read (a folder...)."""
    try:
        with open(path, "rb") as handle:
            return handle.read().decode("utf-8", errors="replace")
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise UsageError(
            f"{path}: cannot read: {exc.strerror or exc}", hint="move it away: the tool's manifest goes there"
        ) from exc


def _diff(old: str, new: str, path: str, *, created: bool = False, removed: bool = False) -> str:
    before = old.splitlines(keepends=True)
    after = new.splitlines(keepends=True)
    lines = difflib.unified_diff(
        before, after, fromfile="/dev/null" if created else f"a/{path}", tofile="/dev/null" if removed else f"b/{path}"
    )
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)


def plan(out_dir: str, files: Mapping[str, str]) -> list[FileChange]:
    """Compare ``files`` (file name -> expected text) with the ``.yaml`` files of ``out_dir``.

    Returns one :class:`FileChange` per expected file (in name order), then one ``orphaned`` change per
    ``.yaml`` file of the folder that no expected file names. A missing folder means every file is created.

    Raises:
        UsageError: ``out_dir`` exists and is not a folder, or one of its files cannot be read.
    """
    if os.path.exists(out_dir) and not os.path.isdir(out_dir):
        raise UsageError(f"{out_dir}: not a directory")
    changes: list[FileChange] = []
    for name in sorted(files):
        path = os.path.join(out_dir, name)
        current = _read(path)
        if current is None:
            changes.append(FileChange(path, "created", _diff("", files[name], path, created=True)))
        elif current != files[name]:
            changes.append(FileChange(path, "updated", _diff(current, files[name], path)))
        else:
            changes.append(FileChange(path, "unchanged"))
    if os.path.isdir(out_dir):
        for name in sorted(os.listdir(out_dir)):
            path = os.path.join(out_dir, name)
            if name.endswith(".yaml") and name not in files and os.path.isfile(path):
                changes.append(FileChange(path, "orphaned", _diff(_read(path) or "", "", path, removed=True)))
    return changes


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write(out_dir: str, files: Mapping[str, str]) -> list[FileChange]:
    """Write every created or changed file of :func:`plan` into ``out_dir`` (made if missing).

    All new contents go to temporary files first; only when every one is written are they moved
    into place with ``os.replace``, so a failure leaves the folder as it was. Orphaned files are
    reported, not deleted.

    Returns:
        The changes of :func:`plan` (what was written, what was already up to date, what is orphaned).

    Raises:
        UsageError: ``out_dir`` is not a folder or cannot be written.
    """
    changes = plan(out_dir, files)
    try:
        os.makedirs(out_dir, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"{out_dir}: cannot create the directory: {exc.strerror}") from exc
    mode = 0o666 & ~_umask()
    staged: list[tuple[str, str]] = []
    try:
        for change in changes:
            if change.status not in ("created", "updated"):
                continue
            name = os.path.basename(change.path)
            fd, temp = tempfile.mkstemp(dir=out_dir, prefix=f".{name}.", suffix=".tmp")
            staged.append((temp, change.path))
            with os.fdopen(fd, "wb") as handle:
                handle.write(files[name].encode("utf-8"))
            os.chmod(temp, mode)
        for temp, path in staged:
            os.replace(temp, path)
    except OSError as exc:
        for temp, _ in staged:
            if os.path.exists(temp):
                os.unlink(temp)
        raise UsageError(f"{out_dir}: cannot write the manifests: {exc.strerror or exc}") from exc
    return changes
