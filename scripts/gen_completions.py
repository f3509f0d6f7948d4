#!/usr/bin/env python3
"""Write the shell completion scripts of `eai` into completions/ (bash, zsh, fish).

Usage: python scripts/gen_completions.py [--check]

The scripts come from `eai completion SHELL` (enterprise_ai.cli.completion.render_script), which reads
the live command tree. --check writes nothing and exits 1 when a committed script is stale.
Run it after adding or changing a command or an option.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FILES = {"bash": "eai.bash", "zsh": "_eai", "fish": "eai.fish"}


def main(argv: list[str]) -> int:
    from enterprise_ai.cli.completion import command_tree, render_script

    check = "--check" in argv
    tree = command_tree()
    stale = []
    for shell, name in FILES.items():
        path = ROOT / "completions" / name
        text = render_script(shell, tree)
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
