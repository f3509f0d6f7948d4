"""Review of the static scan: tricky but legal code, and hostile files (issue 6, point 1).

Each test names the defect it pins down; the import scan is the reference wherever both can run.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from enterprise_ai.scan.model import ScanOptions
from enterprise_ai.scan.static import scan_static
from enterprise_ai.scan.static_function import UNRESOLVED_KEY
from tests.static.helpers import agents_env, write

IMPORT_SCAN = (
    "import json, sys\n"
    "from enterprise_ai.scan import scan\n"
    "from enterprise_ai.scan.model import ScanOptions\n"
    "r = scan(sys.argv[1:], ScanOptions())\n"
    "print(json.dumps([[t.name, t.line, t.source, t.registrable, t.manifest] for t in r.tools]))\n"
)


def _import_scan(path, env=None) -> list:
    proc = subprocess.run([sys.executable, "-c", IMPORT_SCAN, str(path)], capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, timeout=120, check=True, cwd=str(path.parent))
    return json.loads(proc.stdout)


def _static(path) -> tuple[list, list]:
    result = scan_static([str(path)], ScanOptions())
    return [[t.name, t.line, t.source, t.registrable, t.manifest] for t in result.tools], result.problems


# -- names rebound later in the module --------------------------------------------------------------

DECORATOR_REBOUND = '''
from enterprise_ai.tools import tool


@tool
def before(x: int) -> int:
    """Declared while `tool` is the SDK's decorator."""
    return x


tool = lambda fn: fn  # noqa: E731 - `tool` is rebound from here on


@tool
def after(x: int) -> int:
    """Not a tool: `tool` is a lambda here."""
    return x
'''


def test_a_tool_declared_before_the_decorator_name_is_rebound_is_still_found(tmp_path):
    """Defect: rebinding `tool` later made the static scan drop earlier tools silently."""
    path = write(tmp_path / "rebound.py", DECORATOR_REBOUND)
    static, problems = _static(path)
    assert [t[0] for t in static] == ["before"]
    assert json.dumps(static) == json.dumps(_import_scan(path))


FUNCTION_REDEFINED = '''
from enterprise_ai.tools import tool


def lookup(x: int) -> int:
    """First definition: the one wrapped."""
    return x


lookup_tool = tool(lookup, name="lookup")


def lookup(x: str) -> str:  # noqa: F811 - redefined after being wrapped
    """Second definition."""
    return x
'''


def test_wrapping_a_function_redefined_later_uses_the_definition_seen_at_that_point(tmp_path):
    """Defect: `x = tool(fn)` used the last `def fn` of the module (wrong schema, wrong line)."""
    path = write(tmp_path / "redefined.py", FUNCTION_REDEFINED)
    static, problems = _static(path)
    imported = _import_scan(path)
    assert static[0][4]["spec"]["input_schema"]["properties"]["x"] == {"type": "integer"}
    assert json.dumps(static) == json.dumps(imported)
    assert [p.severity for p in problems] == ["warning"]  # still told that the name is rebound


TRY_IMPORT = '''
try:
    from typing import Annotated
except ImportError:  # pragma: no cover - older Pythons
    from typing_extensions import Annotated

from enterprise_ai.tools import tool


@tool
def limited(n: Annotated[int, "how many"] = 1) -> None:
    """Limited."""
'''


def test_imports_in_a_try_except_import_error_block_are_followed(tmp_path):
    """Defect: the common `try: import ... except ImportError: import ...` fallback made a placeholder."""
    path = write(tmp_path / "fallback.py", TRY_IMPORT)
    static, problems = _static(path)
    assert problems == []
    assert json.dumps(static) == json.dumps(_import_scan(path))


ANNOTATIONS_CONSTANT = '''
import agents

READ_ONLY = agents.ToolAnnotations(read_only_hint=True, idempotent_hint=True)


@agents.tool(annotations=READ_ONLY)
def browse(query: str) -> list[str]:
    """Browse."""
    return []
'''


def test_tool_annotations_held_in_a_module_constant_are_read(tmp_path):
    """Defect: `annotations=CONST` fell back to the MCP defaults (action: delete) with a warning."""
    path = write(tmp_path / "hints.py", ANNOTATIONS_CONSTANT)
    static, problems = _static(path)
    assert problems == []
    assert static[0][4]["spec"]["action"] == "read"
    assert json.dumps(static) == json.dumps(_import_scan(path, agents_env()))


CLIENT_WITH_CONTEXT = '''
import agents


@agents.client_tool
def where(ctx: agents.ToolCallbackContext, /, precise: bool = False) -> dict[str, float]:
    """The user's location."""
    raise NotImplementedError
'''


def test_a_client_tool_declaration_taking_a_context_is_an_error(tmp_path):
    """Defect: the SDK raises SdkError for it (reference page); the static scan listed a manifest."""
    path = write(tmp_path / "client_ctx.py", CLIENT_WITH_CONTEXT)
    static, problems = _static(path)
    assert static == []
    assert [(p.severity, p.tool) for p in problems] == [("error", "where")]
    assert "ToolCallbackContext" in problems[0].message


# -- hostile files ------------------------------------------------------------------------------------

DEEP = "-" * 200_000 + "1"


@pytest.mark.parametrize(
    "source",
    [
        f"from enterprise_ai.tools import tool\n\n@tool\ndef deep(x: {DEEP!r}) -> None:\n    pass\n",
        f"import agents\n\n@agents.tool\ndef deep(ctx: {DEEP!r}, /, q: str) -> None:\n    pass\n",
        f"from pydantic import BaseModel\nfrom enterprise_ai.tools import tool\n\nclass M(BaseModel):\n"
        f"    x: {DEEP!r}\n\n@tool\ndef deep(m: M) -> None:\n    pass\n",
    ],
    ids=["parameter", "agents-context", "model-field"],
)
def test_a_deeply_nested_string_annotation_fails_one_tool_not_the_scan(tmp_path, source):
    """Defect: MemoryError from parsing the string crashed the whole scan (`internal error`)."""
    write(tmp_path / "a_deep.py", source)
    write(tmp_path / "b_fine.py", "from enterprise_ai.tools import tool\n\n@tool\ndef fine() -> None:\n    pass\n")
    result = scan_static([str(tmp_path)], ScanOptions())
    assert "fine" in [t.name for t in result.tools]
    deep = [p for p in result.problems if p.file.endswith("a_deep.py")]
    assert deep and all(p.severity in ("warning", "error") for p in deep)
    for tool in result.tools:
        if tool.name == "deep":  # listed with a placeholder, never a guessed schema
            assert UNRESOLVED_KEY in json.dumps(tool.manifest)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_named_pipe_called_x_py_is_reported_not_read(tmp_path):
    """Defect: reading a FIFO named `*.py` blocked the scan forever."""
    os.mkfifo(tmp_path / "a_pipe.py")
    write(tmp_path / "b_fine.py", "from enterprise_ai.tools import tool\n\n@tool\ndef fine() -> None:\n    pass\n")
    code = ("import sys\nfrom enterprise_ai.scan.static import scan_static\n"
            "r = scan_static([sys.argv[1]])\nprint([t.name for t in r.tools], [(p.file, p.severity, p.message) for p in r.problems])\n")
    proc = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("['fine']")
    assert "a_pipe.py" in proc.stdout and "not a regular file" in proc.stdout


def test_hostile_tree_is_reported_file_by_file_through_the_cli(eai, tmp_path):
    """5 MiB file, 100k nested parentheses, a directory named x.py, non-UTF-8 source, a symlink loop,
    a dangling symlink: each reported (under its own name), the good file scanned, nothing executed."""
    code = tmp_path / "code"
    marker = tmp_path / "marker.txt"
    write(code / "big.py", "x = 1\n" + "#" * (5 * 1024 * 1024) + "\n")
    write(code / "parens.py", "x = " + "(" * 100_000 + ")" * 100_000 + "\n")
    write(code / "x.py" / "inner.py", f"import pathlib\npathlib.Path({str(marker)!r}).write_text('ran')\n")
    (code / "latin.py").write_bytes("from enterprise_ai.tools import tool\n@tool\ndef caf(x: int) -> None:\n"
                                    "    '''caf\xe9'''\n".encode("latin-1"))
    os.symlink("loop_b.py", code / "loop_a.py")
    os.symlink("loop_a.py", code / "loop_b.py")
    os.symlink(str(tmp_path / "nowhere.py"), code / "dangling.py")
    write(code / "good.py", f"import pathlib\npathlib.Path({str(marker)!r}).write_text('ran')\n"
                            "from enterprise_ai.tools import tool\n\n@tool\ndef good(x: int) -> int:\n    return x\n")
    proc = eai(["tools", "scan", "--static", "--format", "json", code], cwd=tmp_path)
    assert proc.returncode == 1  # errors were reported
    assert [m["metadata"]["name"] for m in json.loads(proc.stdout)] == ["good"]
    for name in ("big.py", "parens.py", "latin.py", "loop_a.py", "loop_b.py", "dangling.py"):
        assert f"code/{name}" in proc.stderr, name
    assert "nowhere.py" not in proc.stderr.replace("code/dangling.py", "")
    assert not marker.exists()
