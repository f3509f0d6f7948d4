#!/usr/bin/env python3
"""Benchmark: `eai tools scan --static` over a generated tree of 2,000 modules with 5 tools each.

Usage: python bench/bench_static_scan.py [--modules 2000] [--runs 5] [--import-runs 3]

Prints the median wall time of the static scan (target: under 5 s on the 2-core reference machine),
the median of the import scan (`eai tools scan`, the baseline) over the same tree, and their ratio.
Both run the real CLI in a child process with JSON output sent to a pipe; the tree is generated
once in a temporary folder (a shared models module with an Enum, a TypedDict and a pydantic model,
and modules whose tools use them, Optional/Literal/list parameters and Google docstrings).
The import scan is slower, so it runs fewer times (--import-runs, default 3; 0 skips it); the output says so.
The CPU figure (user + system time of eai and its worker processes) varies much less than the wall time
when other processes share the machine.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

MODELS = '''"""Shared types."""
import enum
from typing import Literal, Optional

from pydantic import BaseModel, Field
from typing_extensions import TypedDict


class Status(str, enum.Enum):
    OPEN = "open"
    CLOSED = "closed"


class Address(TypedDict, total=False):
    street: str
    city: str


class Query(BaseModel):
    """A search query."""

    text: str = Field(description="Words to look for.", min_length=1)
    limit: int = 10
    status: Optional[Status] = None
    sort: Literal["asc", "desc"] = "asc"
'''

TOOL = '''

@tool(action="{action}", scopes=["area{m}:{action}"])
def tool_{m}_{t}(customer_id: str, status: Optional[Status] = None, limit: int = {t}, tags: list[str] = [],
                 query: Optional[Query] = None, address: Optional[Address] = None) -> dict[str, int]:
    """Tool {t} of module {m}.

    Args:
        customer_id: the customer.
        status: only this status.
        limit: at most this many results.
    """
    return {{}}
'''


def generate(root: Path, modules: int) -> Path:
    tree = root / "benchpkg"
    (tree / "sub").mkdir(parents=True)
    (tree / "__init__.py").write_text("")
    (tree / "models.py").write_text(MODELS)
    per_folder = 100
    for m in range(modules):
        folder = tree / "sub" / f"g{m // per_folder}"
        if not folder.exists():
            folder.mkdir()
            (folder / "__init__.py").write_text("")
        head = ("from typing import Optional\n\nfrom enterprise_ai.tools import tool\n\n"
                "from benchpkg.models import Address, Query, Status\n")
        body = "".join(TOOL.format(m=m, t=t, action="read" if t % 2 else "write") for t in range(5))
        (folder / f"mod{m}.py").write_text(head + body)
    (tree / "sub" / "__init__.py").write_text("")
    return tree


def timed(args: list[str], cwd: Path) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds of eai and its child processes, tools printed) of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "enterprise_ai.cli", *args], cwd=cwd, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"eai {' '.join(args)} failed ({proc.returncode}): {proc.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return elapsed, cpu, proc.stdout.count('"apiVersion"')


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--modules", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--import-runs", type=int, default=3)
    opts = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="eai-bench-static-") as tmp:
        root = Path(tmp)
        generate(root, opts.modules)
        expected = opts.modules * 5
        load = os.getloadavg()[0]
        static_runs = []
        for _ in range(opts.runs):
            elapsed, cpu, count = timed(["tools", "scan", "--static", "--format", "json", "benchpkg"], root)
            assert count == expected, f"static scan found {count} tools, expected {expected}"
            static_runs.append((elapsed, cpu))
        import_runs = []
        for _ in range(opts.import_runs):
            elapsed, cpu, count = timed(["tools", "scan", "--format", "json", "--timeout", "600", "benchpkg"], root)
            assert count == expected, f"import scan found {count} tools, expected {expected}"
            import_runs.append((elapsed, cpu))
    static_wall = statistics.median(t for t, _ in static_runs)
    static_cpu = statistics.median(c for _, c in static_runs)
    print(f"tree: {opts.modules} modules x 5 tools = {expected} tools; {os.cpu_count()} CPUs, load average {load:.1f} at start")
    print(f"static scan  (eai tools scan --static): median {static_wall:.2f} s wall, {static_cpu:.2f} s CPU, "
          f"of {opts.runs} runs [wall {', '.join(f'{t:.2f}' for t, _ in static_runs)}; "
          f"CPU {', '.join(f'{c:.2f}' for _, c in static_runs)}]  target < 5 s: {'OK' if static_wall < 5 else 'MISSED'}")
    if not import_runs:
        return 0
    import_wall = statistics.median(t for t, _ in import_runs)
    import_cpu = statistics.median(c for _, c in import_runs)
    print(f"import scan  (eai tools scan, baseline): median {import_wall:.2f} s wall, {import_cpu:.2f} s CPU, "
          f"of {opts.import_runs} runs [wall {', '.join(f'{t:.2f}' for t, _ in import_runs)}; "
          f"CPU {', '.join(f'{c:.2f}' for _, c in import_runs)}]")
    print(f"ratio static / import: {static_wall / import_wall:.2f} (wall), {static_cpu / import_cpu:.2f} (CPU)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
