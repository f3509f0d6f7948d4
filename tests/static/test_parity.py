"""The static scan and the import scan print the same manifests, byte for byte (issue 6, done-when)."""

from __future__ import annotations

import json

import pytest

from tests.static.helpers import EXAMPLES, FIXTURES, agents_env

TREES = [
    pytest.param(EXAMPLES, {}, id="manifests-examples"),
    pytest.param(FIXTURES / "shop", {}, id="shop"),
    pytest.param(FIXTURES / "agents_tools", agents_env(), id="agents_tools"),
]


@pytest.mark.parametrize(("tree", "env"), TREES)
def test_static_and_import_scans_print_identical_json(eai, tree, env):
    imported = eai(["tools", "scan", "--format", "json", tree], env=env)
    static = eai(["tools", "scan", "--static", "--format", "json", tree], env=env)
    assert imported.returncode == 0, imported.stderr
    assert static.returncode == 0, static.stderr
    manifests = json.loads(imported.stdout)
    assert len(manifests) >= 3  # the comparison is not between two empty lists
    assert static.stdout == imported.stdout
    assert "warning" not in static.stderr and "error" not in static.stderr


@pytest.mark.parametrize(("tree", "env"), TREES)
def test_every_module_agrees_one_by_one(tree, env):
    """Module by module, through the Python API (cheap): same tools, same manifests, no problems."""
    import os
    import subprocess
    import sys

    from enterprise_ai.scan.model import ScanOptions
    from enterprise_ai.scan.static import scan_static

    code = (
        "import json, sys\n"
        "from enterprise_ai.scan import scan\n"
        "from enterprise_ai.scan.model import ScanOptions\n"
        "r = scan(sys.argv[1:], ScanOptions())\n"
        "print(json.dumps([[t.name, t.file, t.line, t.source, t.registrable, t.manifest] for t in r.tools]))\n"
    )
    modules = sorted(str(p) for p in tree.rglob("*.py"))
    proc = subprocess.run([sys.executable, "-c", code, *modules], capture_output=True, text=True,
                          env={**os.environ, **env}, timeout=120, check=True)
    imported = json.loads(proc.stdout)
    result = scan_static(modules, ScanOptions())
    static = [[t.name, t.file, t.line, t.source, t.registrable, t.manifest] for t in result.tools]
    assert [p for p in result.problems if p.severity != "note"] == []
    assert json.dumps(static) == json.dumps(imported)


INLINE = {
    "aliases": None,  # filled from test_static_scan.ALIASES
    "constants_and_values": '''
import datetime as dt
import uuid
from decimal import Decimal
from pathlib import Path
from typing import Literal, Optional

from enterprise_ai.tools import tool

SCOPES = ["files:read"]
Mode = Literal["r", "rb"]


@tool(scopes=SCOPES, risk_level="limited")
def read_file(path: Path = Path("/srv/data"), mode: Mode = "r", since: dt.date = dt.date(2024, 1, 2),
              ident: Optional[uuid.UUID] = None, price: Decimal = Decimal("1.50"), *, limit: int = 10 * 3) -> str:
    """Read a file.

    :param path: where.
    :param mode: how.
    """
    return ""
''',
    "string_annotations": '''
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING

from enterprise_ai.tools import tool


@tool(action="write")
async def plan(steps: "list[Step]", mode: "Mode" = None) -> "Plan":
    """Make a plan.

    Parameters
    ----------
    steps
        What to do, in order.
    """


class Mode(enum.IntEnum):
    FAST = 1
    SAFE = 2


@dataclass(frozen=True)
class Step:
    name: str
    seconds: float = 1.5


@dataclass
class Plan:
    """A plan."""

    steps: list[Step]
    next: Plan | None = None
''',
}


@pytest.mark.parametrize("name", sorted(INLINE))
def test_inline_test_modules_agree(tmp_path, name):
    from enterprise_ai.scan import scan
    from enterprise_ai.scan.model import ScanOptions
    from enterprise_ai.scan.static import scan_static
    from tests.static.test_static_scan import ALIASES

    source = INLINE[name] or ALIASES
    path = tmp_path / f"inline_{name}.py"
    path.write_text(source, encoding="utf-8")
    imported = scan([str(path)], ScanOptions())
    static = scan_static([str(path)], ScanOptions())
    assert imported.problems == [] and static.problems == []
    assert imported.tools and json.dumps([t.manifest for t in static.tools]) == json.dumps([t.manifest for t in imported.tools])
    assert [(t.line, t.source) for t in static.tools] == [(t.line, t.source) for t in imported.tools]
