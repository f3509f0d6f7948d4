"""Benchmark: ``eai tools validate`` vs ``check-jsonschema`` over 1,000 generated manifests.

Run: ``python bench/bench_validate.py [--count 1000] [--runs 5]``

Generates COUNT Tool Manifests (YAML, one per file, about 1 in 5 invalid: schema faults such as a bad
enum value, a missing property or an unquoted version, and rule faults such as a bad builtin handler
or a remote $ref) in a temporary directory, writes the schema ``eai schema`` prints, then times RUNS
runs of each command over the same files (whole processes, start-up included) and prints the medians,
manifests per second and the ratio. Targets (issue 3): >= 1,500 manifests/s, and at most half of
check-jsonschema's time. Exit code 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import copy
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

EAI = [shutil.which("eai") or sys.executable] if shutil.which("eai") else [sys.executable, "-m", "enterprise_ai.cli"]
CHECK_JSONSCHEMA = shutil.which("check-jsonschema") or str(Path(sys.executable).with_name("check-jsonschema"))
TYPES = [{"type": "string"}, {"type": "integer", "minimum": 0}, {"type": "number"}, {"type": "boolean"},
         {"type": "string", "enum": ["open", "closed", "pending"]}, {"type": "array", "items": {"type": "string"}},
         {"type": "string", "format": "date-time"}, {"type": "string", "pattern": "^[A-Z]{2}-[0-9]+$"}]


def manifest(i: int, rng: random.Random) -> tuple[dict, bool]:
    """One manifest, and whether it is meant to be valid."""
    action = rng.choice(["read", "write", "delete", "execute"])
    props = {f"field_{k}": dict(copy.deepcopy(rng.choice(TYPES)), description=f"Field {k} of tool {i}.") for k in range(rng.randint(1, 8))}
    endpoint = rng.choice([
        {"type": "http", "method": "POST", "url": f"http://127.0.0.1:8000/tools/tool-{i}", "timeout_seconds": 30},
        {"type": "mcp", "mcp_server": "crm", "tool": f"tool_{i}"},
        {"type": "builtin", "handler": "echo"},
        {"type": "sandbox", "command": ["python", "tool.py"], "timeout_seconds": 10},
    ])
    doc = {
        "apiVersion": "enterprise-ai.io/v1",
        "kind": "Tool",
        "metadata": {"name": f"team{i % 7}-tool-{i}", "version": f"1.{i % 10}.0", "owner": "team@example.com",
                     "labels": {"team": f"team{i % 7}"}},
        "spec": {
            "description": f"Tool number {i}: does {action} things.",
            "action": action,
            "input_schema": {"type": "object", "properties": props, "required": sorted(props)[:1],
                             "additionalProperties": False},
            "output_schema": {"type": "object", "properties": {"ok": {"type": "boolean"}}},
            "scopes_required": [f"scope{i % 5}:{action}"],
            "data_classification": rng.choice(["public", "internal", "confidential", "restricted"]),
            "risk_level": rng.choice(["minimal", "limited", "high"]),
            "requires_approval": True,
            "side_effects": action != "read",
            "idempotent": action == "read",
            "endpoint": endpoint,
        },
    }
    if i % 5:
        return doc, True
    fault = (i // 5) % 6
    if fault == 0:
        doc["spec"]["action"] = "destroy"
    elif fault == 1:
        del doc["spec"]["endpoint"]
    elif fault == 2:
        doc["metadata"]["version"] = 3.1
    elif fault == 3:
        doc["spec"]["endpoint"] = {"type": "builtin", "handler": "shell"}
    elif fault == 4:
        doc["spec"]["input_schema"]["properties"]["field_0"] = {"$ref": "https://example.com/x.json"}
    else:
        doc["spec"]["data_classification"] = "secret"
    return doc, False


def timed(cmd: list[str], runs: int) -> tuple[list[float], list[float]]:
    """Wall-clock seconds and CPU seconds (user + system of the child) of each run."""
    wall, cpu = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        wall.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    rng = random.Random(42)
    with tempfile.TemporaryDirectory(prefix="eai-bench-") as tmp:
        root = Path(tmp)
        folder = root / "manifests"
        folder.mkdir()
        files = []
        for i in range(args.count):
            doc, _ = manifest(i, rng)
            path = folder / f"tool-{i:04d}.yaml"
            path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
            files.append(str(path))
        schema = root / "tool-manifest.schema.json"
        schema.write_text(subprocess.run([*EAI, "schema"], capture_output=True, text=True, check=True).stdout)
        eai_cmd = [*EAI, "tools", "validate", str(folder)]
        cj_cmd = [CHECK_JSONSCHEMA, "--schemafile", str(schema), *files]
        check = subprocess.run(eai_cmd, capture_output=True, text=True)
        print(f"eai tools validate: exit {check.returncode}, {check.stdout.strip().splitlines()[-1]}")
        eai_times, eai_cpu = timed(eai_cmd, args.runs)
        cj_times, cj_cpu = timed(cj_cmd, args.runs)
    eai_median, cj_median = statistics.median(eai_times), statistics.median(cj_times)
    rate = args.count / eai_median
    ratio = eai_median / cj_median
    print(f"manifests: {args.count}, runs: {args.runs}, load average (1 min, at the end): {os.getloadavg()[0]:.2f}")
    for name, wall, cpu in (("eai tools validate", eai_times, eai_cpu), ("check-jsonschema", cj_times, cj_cpu)):
        median = statistics.median(wall)
        print(f"{name:<19} wall median {median:.3f} s ({args.count / median:,.0f} manifests/s)  "
              f"cpu median {statistics.median(cpu):.3f} s ({args.count / statistics.median(cpu):,.0f} manifests/s)  "
              f"wall runs {[round(t, 3) for t in wall]}")
    print(f"ratio eai / check-jsonschema (wall): {ratio:.2f}, (cpu): "
          f"{statistics.median(eai_cpu) / statistics.median(cj_cpu):.2f}; targets: ratio <= 0.50, >= 1,500 manifests/s (wall)")
    ok = rate >= 1500 and ratio <= 0.5
    print("targets: " + ("met" if ok else "MISSED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
