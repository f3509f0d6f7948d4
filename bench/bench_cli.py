"""Benchmark of the ``eai`` command line: start-up (``eai --help``) and the import scan.

Run from the repository root, in the project's virtual environment::

    python bench/bench_cli.py            # 7 runs of each (default)
    python bench/bench_cli.py --runs 11

Figures are medians of the wall-clock time of the real command in a child process (``--runs`` >= 5),
after one warm-up run (which also compiles the generated modules to bytecode, as a second scan of
any project would find them). Targets on the reference machine (2 cores):

* ``eai --help``: under 150 ms;
* ``eai tools scan`` over a generated tree of 200 modules with 5 tools each (1000 manifests, YAML on
  stdout): under 5 s.

Prints one line per figure with its ratio to the target (below 1.00 meets it), plus the median CPU
time (user + system), which stays put when other processes load the machine, and exits 1 when a
target is missed. POSIX only (``resource``).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HELP_TARGET_S = 0.150
SCAN_TARGET_S = 5.0
PACKAGES, MODULES_PER_PACKAGE, TOOLS_PER_MODULE = 10, 20, 5

MODULE_HEADER = '''"""Generated module {index} of the scan benchmark."""

from __future__ import annotations

import datetime as dt
from enum import Enum
from typing import Literal, Optional

from enterprise_ai.tools import tool


class Status{index}(str, Enum):
    OPEN = "open"
    CLOSED = "closed"
'''

TOOL_TEMPLATE = '''

@tool(action="{action}", scopes=["bench:{index}"], owner="bench@example.com")
def tool_{index}_{number}(
    record_id: str,
    status: Optional[Status{index}] = None,
    since: Optional[dt.datetime] = None,
    tags: list[str] = [],
    order: Literal["asc", "desc"] = "asc",
    limit: int = 20,
) -> list[dict[str, str]]:
    """Tool {number} of module {index}: look up records.

    Args:
        record_id: Record identifier.
        status: Only records in this status.
        since: Only records changed after this instant.
        tags: Only records carrying all these tags.
        order: Sort order of the results.
        limit: Largest number of records returned.
    """
    return []
'''


def eai_command() -> list[str]:
    """The installed ``eai`` console script next to this interpreter, else ``python -m enterprise_ai.cli``."""
    script = Path(sys.executable).with_name("eai")
    return [str(script)] if script.exists() else [sys.executable, "-m", "enterprise_ai.cli"]


def generate_tree(root: Path) -> Path:
    """Write PACKAGES x MODULES_PER_PACKAGE modules of TOOLS_PER_MODULE tools each under ``root/tree``."""
    tree = root / "tree"
    index = 0
    for package in range(PACKAGES):
        folder = tree / f"pkg{package:02d}"
        folder.mkdir(parents=True)
        (folder / "__init__.py").write_text("", encoding="utf-8")
        for _ in range(MODULES_PER_PACKAGE):
            actions = ("read", "write", "read", "delete", "execute")
            body = MODULE_HEADER.format(index=index) + "".join(
                TOOL_TEMPLATE.format(index=index, number=n, action=actions[n % len(actions)]) for n in range(TOOLS_PER_MODULE)
            )
            (folder / f"mod{index:03d}.py").write_text(body, encoding="utf-8")
            index += 1
    return tree


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed_runs(command: list[str], runs: int, env: dict[str, str]) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU seconds (user + system, children included) of ``runs`` runs after one warm-up.

    The CPU time does not grow when other processes compete for the cores, so it tells a slow
    machine from a slow command. Exits on a non-zero exit code of ``command``.
    """
    wall, cpu = [], []
    for attempt in range(runs + 1):
        cpu_before, start = _children_cpu(), time.perf_counter()
        proc = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, check=False)
        elapsed, used = time.perf_counter() - start, _children_cpu() - cpu_before
        if proc.returncode != 0:
            raise SystemExit(f"{' '.join(command)} exited with {proc.returncode}: {proc.stderr.decode()[-500:]}")
        if attempt:  # the first run is the warm-up
            wall.append(elapsed)
            cpu.append(used)
    return wall, cpu


def report(label: str, runs: tuple[list[float], list[float]], target: float) -> bool:
    """Print the median wall time, its ratio to ``target`` (seconds), and the median CPU time."""
    wall, cpu = runs
    median = statistics.median(wall)
    ratio = median / target
    verdict = "ok" if ratio < 1 else "MISSED"
    print(
        f"{label:<44} median {median * 1000:8.1f} ms  (min {min(wall) * 1000:.1f}, max {max(wall) * 1000:.1f}, "
        f"n={len(wall)}; cpu {statistics.median(cpu) * 1000:.1f} ms)  target {target * 1000:.0f} ms  "
        f"ratio {ratio:.2f}  {verdict}"
    )
    return ratio < 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="timed runs per figure (at least 5; default 7)")
    args = parser.parse_args()
    runs = max(5, args.runs)
    env = {k: v for k, v in os.environ.items() if not k.startswith("EAI_")}
    env["NO_COLOR"] = "1"
    eai = eai_command()
    print(f"command: {' '.join(eai)}; python {sys.version.split()[0]}; {os.cpu_count()} cpus; {runs} runs each")

    ok = report("eai --help", timed_runs([*eai, "--help"], runs, env), HELP_TARGET_S)

    workdir = Path(tempfile.mkdtemp(prefix="eai-bench-"))
    try:
        tree = generate_tree(workdir)
        check = subprocess.run([*eai, "tools", "scan", str(tree), "--format", "json"], capture_output=True, env=env, check=False)
        count = len(json.loads(check.stdout or b"[]"))
        expected = PACKAGES * MODULES_PER_PACKAGE * TOOLS_PER_MODULE
        if check.returncode != 0 or count != expected:
            print(f"scan check failed: exit {check.returncode}, {count} manifests (expected {expected})", file=sys.stderr)
            print(check.stderr.decode()[-2000:], file=sys.stderr)
            return 1
        label = f"eai tools scan ({PACKAGES * MODULES_PER_PACKAGE} modules x {TOOLS_PER_MODULE} tools)"
        ok = report(label, timed_runs([*eai, "tools", "scan", str(tree)], runs, env), SCAN_TARGET_S) and ok
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
