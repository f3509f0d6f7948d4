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
