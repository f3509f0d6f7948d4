"""Run every benchmark script of this folder (``bench/bench_*.py``), one after the other.

Usage, from the repository root in the project's virtual environment::

    python bench/run_all.py              # all benchmarks
    python bench/run_all.py cli gateway  # only bench_cli.py and bench_gateway.py

Each script prints its own figures (medians of at least 5 runs, with the ratio to its target). This
runner prints a summary line per script and exits 1 when any script exits non-zero (a missed target
or a failure).
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(argv: list[str]) -> int:
    scripts = sorted(HERE.glob("bench_*.py"))
    if argv:
        wanted = {name.removeprefix("bench_").removesuffix(".py") for name in argv}
        scripts = [s for s in scripts if s.stem.removeprefix("bench_") in wanted]
    if not scripts:
        print("no benchmark script found", file=sys.stderr)
        return 1
    results = []
    for script in scripts:
        print(f"== {script.name}", flush=True)
        start = time.perf_counter()
        code = subprocess.run([sys.executable, str(script)], cwd=HERE.parent, check=False).returncode
        results.append((script.name, code, time.perf_counter() - start))
    print("== summary")
    for name, code, elapsed in results:
        print(f"{name:<28} {'ok' if code == 0 else f'FAILED (exit {code})':<18} {elapsed:6.1f} s")
    return 0 if all(code == 0 for _, code, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
