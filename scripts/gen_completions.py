#!/usr/bin/env python3
"""Write the shell completion scripts of `eai` into completions/ (bash, zsh, fish).

Usage: python scripts/gen_completions.py [--check]

The scripts are Typer's completion stubs, the text `eai completion SHELL` prints
(enterprise_ai.cli.completion.render_script): they ask `eai` for the candidates at TAB time, so they
only change with the program name or a Typer upgrade, not with the commands. --check writes nothing
and exits 1 when a committed script is stale.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FILES = {"bash": "eai.bash", "zsh": "_eai", "fish": "eai.fish"}


def main(argv: list[str]) -> int:
    from enterprise_ai.cli.completion import render_script

    check = "--check" in argv
    stale = []
    for shell, name in FILES.items():
        path = ROOT / "completions" / name
        text = render_script(shell)
        current = path.read_text(encoding="utf-8") if path.is_file() else None
        if current == text:
            continue
        stale.append(str(path.relative_to(ROOT)))
        if not check:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{name}.")
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
                handle.write(text)
            os.replace(tmp, path)
    if check and stale:
        print(f"stale completion scripts: {', '.join(stale)}; run: python scripts/gen_completions.py", file=sys.stderr)
        return 1
    print(("updated: " + ", ".join(stale)) if stale else "completion scripts up to date", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
