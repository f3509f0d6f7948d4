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


CLASS_CONSTANTS = '''
import enum
from typing import ClassVar

from pydantic import BaseModel

from enterprise_ai.tools import tool


class Speed(str, enum.Enum):
    SLOW = "slow"
    FAST = "fast"
    DEFAULT = SLOW  # an alias member, defined from a class-level name


class Job(BaseModel):
    LIMIT: ClassVar[int] = 10
    retries: int = LIMIT


@tool
def run(job: Job, speed: Speed = Speed.DEFAULT) -> None:
    """Run a job."""
'''


def test_class_level_names_used_inside_the_class_body_are_read(tmp_path):
    """Defect: `DEFAULT = SLOW` in an Enum (or a field default naming a class constant) was a placeholder."""
    path = write(tmp_path / "classconst.py", CLASS_CONSTANTS)
    static, problems = _static(path)
    assert problems == []
    assert json.dumps(static) == json.dumps(_import_scan(path))


def test_same_named_modules_in_two_roots_resolve_to_their_own_root(tmp_path):
    """Defect: svc_b/tools.py's `from models import Args` read svc_a/models.py (silently wrong schema)."""
    for svc, kind in (("svc_a", "int"), ("svc_b", "str")):
        write(tmp_path / svc / "models.py", f"from typing import TypedDict\n\n\nclass Args(TypedDict):\n    value: {kind}\n")
        write(tmp_path / svc / f"tools_{svc}.py", "from models import Args\n\nfrom enterprise_ai.tools import tool\n\n\n"
                                                 f"@tool\ndef run_{svc}(args: Args) -> None:\n    \"\"\"Run.\"\"\"\n")
    result = scan_static([str(tmp_path)], ScanOptions())
    kinds = {t.name: t.manifest["spec"]["input_schema"]["$defs"]["Args"]["properties"]["value"]["type"] for t in result.tools}
    assert kinds == {"run-svc-a": "integer", "run-svc-b": "string"}
    code = ("import json, sys\nfrom enterprise_ai.scan import scan\nr = scan(sys.argv[1:])\n"
            "print(json.dumps([t.manifest for t in r.tools]))\n")
    proc = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, timeout=120, check=True)
    assert json.dumps([t.manifest for t in result.tools]) == proc.stdout.strip()


def test_a_very_long_attribute_chain_fails_one_file_not_the_scan(tmp_path):
    """Defect: `@os.y.y.y...` (1,500 attributes, legal and parsed) crashed the scan with RecursionError."""
    chain = "os" + ".y" * 1500
    write(tmp_path / "a_chain.py", f"import os\n\n@{chain}\ndef f(x: int) -> None:\n    pass\n")
    write(tmp_path / "b_fine.py", "from enterprise_ai.tools import tool\n\n@tool\ndef fine() -> None:\n    pass\n")
    result = scan_static([str(tmp_path)], ScanOptions())
    assert [t.name for t in result.tools] == ["fine"]
    assert [(p.file.rsplit("/", 1)[-1], p.severity) for p in result.problems] == [("a_chain.py", "error")]


def test_a_decorator_imported_in_a_try_block_and_rebound_later(tmp_path):
    """The try-body import counts as a binding when `tool` is rebound later (position-aware reading)."""
    path = write(tmp_path / "tried.py", '''
try:
    from enterprise_ai.tools import tool
except ImportError:
    tool = None


@tool
def first(x: int) -> int:
    """First."""
    return x


def tool(fn):  # noqa: F811
    return fn


@tool
def second(x: int) -> int:
    return x
''')
    static, problems = _static(path)
    assert [t[0] for t in static] == ["first"]
    assert json.dumps(static) == json.dumps(_import_scan(path))




TREE = {
    '__init__.py': '',
    'sub/__init__.py': 'from .kinds import Kind as Kind\n',
    'sub/kinds.py': 'import enum\nclass Kind(enum.Enum):\n    A = "a"\n    B = "b"\nclass Level(enum.IntEnum):\n    LOW = -1\n    HIGH = 2\n',
    'consts.py': 'OWNER = "a@b.example.com"\nSCOPES = ("x:read",)\nTEAM = "t"\n',
    'models.py': 'from __future__ import annotations\nfrom dataclasses import dataclass, field\nfrom typing import Optional\nfrom typing_extensions import TypedDict, Annotated, NotRequired\nfrom pydantic import BaseModel, Field, ConfigDict\nfrom .sub import Kind\nfrom .sub.kinds import Level\n\nclass Opts(TypedDict):\n    """Options."""\n    depth: int\n    kind: NotRequired[Kind]\n\n@dataclass\nclass Point:\n    x: float = -1.5\n    y: float = 0.0\n    tags: tuple[str, ...] = ("a", "b")\n\nclass Item(BaseModel):\n    """An item."""\n    model_config = ConfigDict(extra="forbid")\n    LIMIT: int = 3\n    name: Annotated[str, Field(min_length=1, description="Name")]\n    level: Level = Level.LOW\n    point: Optional[Point] = None\n',
    'tools1.py': '"""Tools."""\nfrom __future__ import annotations\nfrom typing import Annotated, Optional, Literal\nfrom typing_extensions import Annotated as TA\nfrom pydantic import BaseModel, Field\nfrom enterprise_ai.tools import tool as t\nimport enterprise_ai.tools as eat\nimport enterprise_ai.tools\nfrom .consts import OWNER, SCOPES\nfrom . import consts\nfrom .models import Item, Opts, Point\nfrom .sub.kinds import Level, Kind\n\n__all__ = ["a_tool", "b_tool"]\nLOCAL_OWNER = "local@example.com"\n\n@t(owner=OWNER, scopes=SCOPES)\ndef a_tool(item: Item, level: Level = Level.HIGH, kind: Kind = Kind.A, n: int = -5, pair: tuple[int, int] = (1, -2)) -> Point:\n    """Do A.\n\n    Args:\n        item: The item.\n        level: The level.\n    """\n\n@eat.tool(owner=LOCAL_OWNER)\ndef b_tool(opts: Opts, q: TA[str, Field(max_length=5, description="Query")] = "x", o: Optional[int] = None) -> "Item":\n    """Do B.\n\n    :param opts: options\n    :returns: an item\n    """\n\n@enterprise_ai.tools.tool(owner=OWNER)\ndef c_tool(x: "Literal[\'a\', \'b\']" = \'a\', f: float = -0.5) -> dict[str, int]:\n    """Do C.\n\n    Parameters\n    ----------\n    x : str\n        The x.\n    f : float\n        The f.\n    """\n\ndef _d(a: int, b: list[Point] | None = None) -> None:\n    """D."""\nd_tool = t(_d, name="d-tool", owner=OWNER)\n\n\nclass Envelope(BaseModel):\n    class Meta:\n        ordering = "id"\n\n    body: str\n\n\n@t\ndef e_tool(env: Envelope) -> None:\n    """Nested classes are not rebuilt: a warning and a placeholder."""\n',
}


def test_a_package_with_siblings_subpackages_aliases_and_all_docstring_styles_prints_the_same_json(eai, tmp_path):
    """Relative imports (sibling, subpackage re-export), constants from a sibling module, the three import
    forms of `tool`, `x = tool(fn, name=...)`, typing_extensions `Annotated[..., Field(...)]`, postponed and
    string annotations, Google/Sphinx/NumPy docstrings, negative, tuple and enum-member defaults: the
    `--format json` outputs are byte-identical, except the nested-class tool, which warns."""
    for name, text in TREE.items():
        write(tmp_path / "pkg" / name, text)
    imported = eai(["tools", "scan", "--format", "json", "pkg"], cwd=tmp_path)
    static = eai(["tools", "scan", "--static", "--format", "json", "pkg"], cwd=tmp_path)
    assert imported.returncode == 0 and static.returncode == 0, imported.stderr + static.stderr
    by_name = {m["metadata"]["name"]: m for m in json.loads(static.stdout)}
    expected = {m["metadata"]["name"]: m for m in json.loads(imported.stdout)}
    assert sorted(by_name) == sorted(expected) == ["a-tool", "b-tool", "c-tool", "d-tool", "e-tool"]
    assert UNRESOLVED_KEY in by_name.pop("e-tool")["spec"]["input_schema"]["properties"]["env"]
    expected.pop("e-tool")
    assert json.dumps(by_name) == json.dumps(expected)
    assert [line for line in static.stderr.splitlines() if "warning" in line] == [
        line for line in static.stderr.splitlines() if "e_tool" in line or "e-tool" in line]
    assert "tools1.py:59: warning: tool 'e_tool': parameter 'env'" in static.stderr


def test_the_parallel_scan_finds_modules_of_roots_scanned_by_another_process(tmp_path, monkeypatch):
    """Defect: each forked process only searched the package roots of its own slice of files, so
    `from common import Q` in svc_b/ resolved in one process and was a placeholder in the other."""
    import enterprise_ai.scan.static as static

    write(tmp_path / "common.py", "from pydantic import BaseModel\n\n\nclass Q(BaseModel):\n    text: str\n")
    for i in range(4):
        write(tmp_path / f"svc{i}" / f"tools{i}.py",
              f"from common import Q\n\nfrom enterprise_ai.tools import tool\n\n\n@tool\ndef t{i}(q: Q) -> None:\n    pass\n")
    monkeypatch.setattr(static, "FILES_PER_WORKER", 10_000)
    alone = scan_static([str(tmp_path)], ScanOptions())
    assert alone.problems == [] and len(alone.tools) == 4
    monkeypatch.setattr(static, "FILES_PER_WORKER", 1)
    monkeypatch.setattr(static, "_worker_count", lambda n: 2)
    assert scan_static([str(tmp_path)], ScanOptions()) == alone


def test_wrapping_a_function_defined_further_down_is_reported_not_listed(tmp_path):
    """`x = tool(fn)` before `def fn` raises NameError at import: the static scan must not list a tool."""
    path = write(tmp_path / "early.py", "from enterprise_ai.tools import tool\n\nearly = tool(later)\n\n\n"
                                        "def later(x: int) -> int:\n    return x\n")
    result = scan_static([str(path)], ScanOptions())
    assert result.tools == []
    assert [(p.severity, p.line) for p in result.problems] == [("warning", 3)]
    assert "later" in result.problems[0].message
