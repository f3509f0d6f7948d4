"""The static scan reads code without running it: recognition, options, placeholders, hostile files."""

from __future__ import annotations

import json

import pytest

from enterprise_ai.scan.model import ScanOptions
from enterprise_ai.scan.static import scan_static
from enterprise_ai.scan.static_function import UNRESOLVED_KEY
from tests.static.helpers import FIXTURES, write

ALIASES = '''
import enterprise_ai.tools
import enterprise_ai.tools as eat
from enterprise_ai import tools
from enterprise_ai.tools import LocalTool
from enterprise_ai.tools import tool as t


@t
def one(x: int) -> int:
    return x


@eat.tool(name="two-renamed")
def two(x: int) -> int:
    return x


@enterprise_ai.tools.tool
def three() -> None:
    pass


@tools.tool(action="delete")
def four() -> None:
    pass


def _five(a: str) -> str:
    return a


five = t(_five, name="five")


def _six() -> None:
    pass


six = t(action="write", name="six")(_six)
seven = LocalTool(_six, name="seven")


def tool(fn):
    return fn


@tool
def not_a_tool() -> None:
    pass


@staticmethod
def neither() -> None:
    pass
'''


def _scan(tmp_path, text, name="mod.py", **options):
    write(tmp_path / name, text)
    return scan_static([str(tmp_path / name)], ScanOptions(**options))


def test_every_import_form_of_the_decorator_is_recognised(tmp_path):
    result = _scan(tmp_path, ALIASES)
    assert [t.name for t in result.tools] == ["five", "four", "one", "seven", "six", "three", "two-renamed"]
    by_name = {t.name: t.manifest for t in result.tools}
    assert by_name["four"]["spec"]["action"] == "delete"
    assert by_name["six"]["spec"]["action"] == "write"
    assert by_name["five"]["spec"]["input_schema"]["required"] == ["a"]
    assert result.problems == []


def test_literal_options_and_module_constants_are_read(tmp_path):
    result = _scan(tmp_path, '''
from enterprise_ai.tools import tool
SCOPES = ["orders:read", "orders:list"]
OWNER = "shop@example.com"

@tool(scopes=SCOPES, owner=OWNER, risk_level="high", requires_approval=True, data_classification="restricted")
def search(limit: int = -3) -> None:
    """Search."""
''')
    spec = result.tools[0].manifest["spec"]
    assert spec["scopes_required"] == ["orders:read", "orders:list"]
    assert result.tools[0].manifest["metadata"]["owner"] == "shop@example.com"
    assert (spec["risk_level"], spec["requires_approval"], spec["data_classification"]) == ("high", True, "restricted")
    assert spec["input_schema"]["properties"]["limit"] == {"type": "integer", "default": -3}


NOT_LITERAL = '''
import os
from requests import Session
from enterprise_ai.tools import tool

def compute() -> int:
    return 3

@tool(owner=os.environ["OWNER"], action="write")
def fetch(session: Session, retries: int = compute(), url: str = "x") -> None:
    """Fetch.

    Args:
        session: an HTTP session.
    """
'''


def test_what_cannot_be_read_is_a_warning_naming_tool_parameter_and_reason(tmp_path):
    result = _scan(tmp_path, NOT_LITERAL)
    warnings = {(p.tool, p.parameter): p for p in result.problems}
    assert all(p.severity == "warning" for p in result.problems) and len(result.problems) == 3
    session = warnings[("fetch", "session")]
    assert "'session'" in session.message and "requests" in session.message and session.line == 10
    assert "owner=" in warnings[("fetch", None)].message
    assert "'retries'" in warnings[("fetch", "retries")].message
    manifest = result.tools[0].manifest
    props = manifest["spec"]["input_schema"]["properties"]
    assert props["session"] == {"description": "an HTTP session.", UNRESOLVED_KEY: session.message.split("(", 1)[1].rsplit(")", 1)[0]}
    assert props["retries"] == {"type": "integer"}  # default left out, not guessed
    assert manifest["spec"]["input_schema"]["required"] == ["session"]
    assert manifest["metadata"]["owner"] == "team@example.com"  # the option's default
    assert manifest["spec"]["action"] == "write"


def test_strict_turns_placeholders_into_errors(tmp_path):
    result = _scan(tmp_path, NOT_LITERAL, strict=True)
    assert {p.severity for p in result.problems} == {"error"}


def test_cli_exit_code_follows_strict(eai, tmp_path):
    write(tmp_path / "mod.py", NOT_LITERAL)
    relaxed = eai(["tools", "scan", "--static", "--format", "json", "mod.py"], cwd=tmp_path)
    strict = eai(["tools", "scan", "--static", "--strict", "--format", "json", "mod.py"], cwd=tmp_path)
    assert relaxed.returncode == 0, relaxed.stderr
    assert "mod.py:10: warning: tool 'fetch': parameter 'session'" in relaxed.stderr
    assert json.loads(relaxed.stdout)[0]["metadata"]["name"] == "fetch"
    assert strict.returncode == 1
    assert "mod.py:10: error: tool 'fetch': parameter 'session'" in strict.stderr


def test_unresolved_return_annotation_gets_a_placeholder_output_schema(tmp_path):
    result = _scan(tmp_path, '''
from typing import TYPE_CHECKING
from enterprise_ai.tools import tool
if TYPE_CHECKING:
    from shop.models import Order

@tool
def get(order_id: str) -> "Order":
    """Get one order."""
''')
    spec = result.tools[0].manifest["spec"]
    assert list(spec)[:4] == ["description", "action", "input_schema", "output_schema"]
    assert UNRESOLVED_KEY in spec["output_schema"]
    assert result.problems[0].parameter is None and "return annotation" in result.problems[0].message


def test_hostile_files_are_reported_one_by_one_and_the_others_scanned(tmp_path):
    write(tmp_path / "a_syntax.py", "from enterprise_ai.tools import tool\n\n@tool\ndef broken(:\n    pass\n")
    write(tmp_path / "b_huge.py", "x = 1\n" + "#" * (2 * 1024 * 1024) + "\n")
    write(tmp_path / "c_nested.py", "x = " + "-" * 200_000 + "1\n")
    write(tmp_path / "d_parens.py", "x = " + "(" * 5000 + ")" * 5000 + "\n")
    (tmp_path / "e_nul.py").write_bytes(b"x = 1\x00\n")
    write(tmp_path / "f_good.py", "from enterprise_ai.tools import tool\n\n@tool\ndef fine() -> None:\n    pass\n")
    result = scan_static([str(tmp_path)], ScanOptions())
    assert [t.name for t in result.tools] == ["fine"]
    by_file = {p.file.rsplit("/", 1)[-1]: p for p in result.problems}
    assert sorted(by_file) == ["a_syntax.py", "b_huge.py", "c_nested.py", "d_parens.py", "e_nul.py"]
    assert all(p.severity == "error" for p in result.problems)
    assert by_file["a_syntax.py"].line == 4 and "syntax error" in by_file["a_syntax.py"].message
    assert "too large" in by_file["b_huge.py"].message
    assert "nested" in by_file["c_nested.py"].message


def test_a_module_that_writes_a_marker_at_import_leaves_none_after_static(eai, tmp_path):
    marker = tmp_path / "marker.txt"
    write(tmp_path / "code" / "evil.py", f'''
import pathlib
pathlib.Path({str(marker)!r}).write_text("imported")
from enterprise_ai.tools import tool

@tool
def harmless(x: int) -> int:
    """Looks harmless."""
    return x
''')
    static = eai(["tools", "scan", "--static", "--format", "json", tmp_path / "code"])
    assert static.returncode == 0, static.stderr
    assert json.loads(static.stdout)[0]["metadata"]["name"] == "harmless"
    assert not marker.exists()
    imported = eai(["tools", "scan", "--format", "json", tmp_path / "code"])  # the control: importing runs it
    assert imported.returncode == 0 and marker.read_text() == "imported"
    assert imported.stdout == static.stdout


def test_dotted_module_names_are_read_not_imported(eai):
    proc = eai(["tools", "scan", "--static", "--format", "json", "shop"], cwd=FIXTURES)
    assert proc.returncode == 0, proc.stderr
    assert "search-orders" in [m["metadata"]["name"] for m in json.loads(proc.stdout)]


@pytest.mark.parametrize(
    ("source", "reason"),
    [
        ("A = B\nB = A\n", "refers to itself"),
        ("class A:\n    x: int\n", "not an Enum, TypedDict"),
        ("from typing import Callable\nA = Callable[[int], int]\n", "Callable"),
        ("A = undefined_name\n", "is not defined"),
        ("import enum\ndef compute():\n    return 1\nclass A(enum.Enum):\n    X = compute()\n", "cannot be evaluated"),
        ("from pydantic import BaseModel\nclass A(BaseModel):\n    if True:\n        x: int\n", "statement"),
    ],
)
def test_unreadable_types_never_crash_the_scan(tmp_path, source, reason):
    result = _scan(tmp_path, source + "from enterprise_ai.tools import tool\n\n@tool\ndef f(a: A) -> None:\n    pass\n")
    assert [t.name for t in result.tools] == ["f"]
    assert len(result.problems) == 1 and reason in result.problems[0].message
    assert UNRESOLVED_KEY in result.tools[0].manifest["spec"]["input_schema"]["properties"]["a"]


def test_a_tool_error_of_the_sdk_is_an_error_like_in_the_import_scan(tmp_path):
    result = _scan(tmp_path, "from enterprise_ai.tools import tool\n\n@tool(colour='red')\ndef f() -> None:\n    pass\n")
    assert result.tools == [] and result.problems[0].severity == "error" and "colour" in result.problems[0].message


def test_endpoint_base_url_and_metadata_are_applied(tmp_path):
    result = _scan(tmp_path, "from enterprise_ai.tools import tool\n\n@tool\ndef f() -> None:\n    pass\n",
                   endpoint_base_url="https://tools.example.com/", metadata={"labels": {"team": "shop"}})
    manifest = result.tools[0].manifest
    assert manifest["spec"]["endpoint"]["url"] == "https://tools.example.com/tools/f"
    assert manifest["metadata"]["labels"] == {"team": "shop"}


def test_the_parallel_scan_gives_the_one_process_result(monkeypatch):
    import enterprise_ai.scan.static as static

    paths = [str(FIXTURES / "shop"), str(FIXTURES / "agents_tools")]
    monkeypatch.setattr(static, "FILES_PER_WORKER", 10_000)
    alone = scan_static(paths, ScanOptions())
    monkeypatch.setattr(static, "FILES_PER_WORKER", 1)
    monkeypatch.setattr(static, "_worker_count", lambda n: 2)
    together = scan_static(paths, ScanOptions())
    assert together == alone
    assert len(alone.tools) >= 10


def test_a_tool_wrapping_something_else_than_a_local_function_is_reported_not_dropped(tmp_path):
    result = _scan(tmp_path, '''
import functools
from enterprise_ai.tools import tool
from other import search

def base(a: int, b: int) -> int:
    return a + b

bound = tool(functools.partial(base, 1), name="bound")
imported = tool(search)
''')
    assert result.tools == []
    assert [(p.severity, p.tool, p.line) for p in result.problems] == [("warning", "bound", 9), ("warning", "?", 10)]
    assert "functools.partial(base, 1)" in result.problems[0].message


def test_thousands_of_chained_aliases_fail_one_tool_not_the_scan(tmp_path):
    aliases = "\n".join(["A0 = int", *(f"A{i} = A{i - 1}" for i in range(1, 5000))])
    result = _scan(tmp_path, f"from enterprise_ai.tools import tool\n{aliases}\n\n@tool\ndef f(x: A4999) -> None:\n"
                             "    pass\n\n\n@tool\ndef g(y: int) -> None:\n    pass\n")
    assert [t.name for t in result.tools] == ["g"]
    assert [(p.severity, p.tool) for p in result.problems] == [("error", "f")]


@pytest.mark.parametrize(
    "source",
    [
        "SCOPES = ['a']\nSCOPES.append('b')\n",
        "SCOPES = ['a']\nSCOPES += ['b']\n",
        "SCOPES = ['a']\nSCOPES[0] = 'b'\n",
        "SCOPES = ['a']\nSCOPES = ['b']\n",
    ],
)
def test_a_constant_changed_after_its_definition_is_not_read(tmp_path, source):
    result = _scan(tmp_path, source + "from enterprise_ai.tools import tool\n\n@tool(scopes=SCOPES)\ndef f() -> None:\n    pass\n")
    assert result.tools[0].manifest["spec"]["scopes_required"] == []
    assert len(result.problems) == 1 and "'SCOPES' is bound more than once or changed in place" in result.problems[0].message


def test_a_class_redefined_later_is_not_guessed(tmp_path):
    result = _scan(tmp_path, "from pydantic import BaseModel\nfrom enterprise_ai.tools import tool\n\n"
                             "class A(BaseModel):\n    x: int\n\n@tool\ndef f(a: A) -> None:\n    pass\n\n"
                             "class A(BaseModel):\n    y: str\n")
    assert UNRESOLVED_KEY in result.tools[0].manifest["spec"]["input_schema"]["properties"]["a"]
