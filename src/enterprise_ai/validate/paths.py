"""Which files ``eai tools validate`` (and ``eai tools register``) read for the paths they are given."""

from __future__ import annotations

import os
from collections.abc import Sequence

from enterprise_ai.errors import UsageError

__all__ = ["SUFFIXES", "expand_paths"]

SUFFIXES = (".yaml", ".yml", ".json")


def _escapes(name: str, root: str) -> bool:
    """True when ``name`` (found under ``root``) is a symbolic link whose target lies outside ``root``."""
    if not os.path.islink(name):
        return False
    real_root = os.path.realpath(root)
    return os.path.commonpath([os.path.realpath(name), real_root]) != real_root


def expand_paths(paths: Sequence[str], *, outside: set[str] | None = None) -> list[str]:
    """Files to check, in order: files as given, directories searched recursively for *.yaml, *.yml and
    *.json (sorted), ``-`` for standard input. Each file is checked once, at its first mention.

    A directory walk skips hidden entries (names starting with ``.``: ``.git/``, ``.github/``,
    ``.gitlab-ci.yml``, ``.pre-commit-config.yaml`` are not manifests), does not follow symbolic
    links to directories, reads only regular files (a FIFO named ``x.yaml`` would block the run), and does not read a symbolic link to a file outside the directory searched
    (a pull request could add ``m.yaml -> ~/.netrc`` and have its content quoted in a finding): such
    a file is listed and added to ``outside`` when that set is given, else left out. A file named on
    the command line is always read, hidden or linked.

    Raises:
        UsageError: a path that does not exist, or ``-`` given twice (standard input is read once).
    """
    files: list[str] = []
    seen: set[str] = set()

    def add(name: str) -> None:
        key = name if name == "-" else os.path.normpath(name)
        if key not in seen:
            seen.add(key)
            files.append(name)

    if list(paths).count("-") > 1:
        raise UsageError("- (standard input) is given more than once: it can be read only once")
    for path in paths:
        if path == "-" or (os.path.exists(path) and not os.path.isdir(path)):  # also <(cmd) pipes, devices
            add(path)
        elif os.path.isdir(path):
            found = []
            for root, dirs, names in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                found.extend(os.path.join(root, n) for n in names
                             if n.lower().endswith(SUFFIXES) and not n.startswith(".")
                             and os.path.isfile(os.path.join(root, n)))  # no FIFO, device or broken link
            for name in sorted(found):
                if _escapes(name, path):
                    if outside is None:
                        continue
                    outside.add(name)
                add(name)
        else:
            raise UsageError(f"{path}: no such file or directory")
    return files
