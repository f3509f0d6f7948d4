"""The speed-ups of the static scan give exactly what the plain code gives.

Covered: JSON rendering of a cycle, ``LocalTool.manifest``'s copies,
the per-scan class schema cache, the docstring parser short-cut, the per-folder module names,
and the encoding of worker results.
"""

from __future__ import annotations

import dataclasses
import enum
import json
from pathlib import Path
from typing import Literal, Optional

import pytest
from pydantic import BaseModel, Field
from typing_extensions import TypedDict

from enterprise_ai.cli.render import to_json
from enterprise_ai.scan.model import ScannedTool, ScanProblem
from enterprise_ai.scan.static import _decode_chunk, _scan_chunk
from enterprise_ai.scan.static_index import ModuleIndex, module_name_for
from enterprise_ai.tools import LocalTool, input_schema
from enterprise_ai.tools._docstrings import parse_docstring
from enterprise_ai.tools._typeschema import object_schema_cache

def test_a_cycle_still_raises_json_error():
    loop: list = []
    loop.append(loop)
    with pytest.raises(ValueError, match="Circular reference"):
        to_json(loop)


# ---------------------------------------------------------------------- manifests and schemas

class Status(str, enum.Enum):
    OPEN = "open"
    CLOSED = "closed"


class Address(TypedDict, total=False):
    street: str
    city: str


class Query(BaseModel):
    """A search query."""

    text: str = Field(description="Words to look for.", min_length=1)
    status: Optional[Status] = None
    sort: Literal["asc", "desc"] = "asc"


class Page(BaseModel):
    query: Query
    size: int = 10


@dataclasses.dataclass
class Node:
    value: int
    children: "list[Node]" = dataclasses.field(default_factory=list)


def search(query: Query, page: Optional[Page] = None, address: Optional[Address] = None,
           tree: Optional[Node] = None, status: Status = Status.OPEN) -> list[Query]:
    """Search.

    Args:
        query: what to find.
    """
    return []


def other(address: Address, status: Optional[Status] = None, query: Optional[Query] = None) -> Page:
    return Page(query=Query(text="x"))


def test_the_class_schema_cache_gives_the_schemas_built_without_it():
    plain = [LocalTool(fn).manifest() for fn in (search, other, search)]
    with object_schema_cache():
        cached = [LocalTool(fn).manifest() for fn in (search, other, search)]
    assert json.dumps(cached) == json.dumps(plain)
    assert list(cached[0]["spec"]["input_schema"]["$defs"]) == ["Address", "Node", "Page", "Query"]


def test_manifests_are_independent_copies_even_with_shared_cached_schemas():
    with object_schema_cache():
        first, second = LocalTool(search), LocalTool(other)
        one = first.manifest()
        one["spec"]["input_schema"]["$defs"]["Query"]["properties"]["text"]["description"] = "changed"
        one["spec"]["input_schema"]["properties"]["status"]["enum"].append("changed")
        two = second.manifest()
    assert two["spec"]["input_schema"]["$defs"]["Query"]["properties"]["text"]["description"] == "Words to look for."
    assert first.manifest()["spec"]["input_schema"]["properties"]["status"]["enum"] == ["open", "closed"]
    assert input_schema(search)["$defs"]["Query"]["properties"]["text"]["description"] == "Words to look for."


def test_manifest_copies_metadata_and_endpoint_deeply():
    labels = {"team": ["a"]}
    endpoint = {"type": "http", "method": "POST", "url": "http://x/tools/f", "timeout_seconds": 5, "extra": [1]}
    manifest = LocalTool(search).manifest(endpoint=endpoint, labels=labels)
    manifest["metadata"]["labels"]["team"].append("b")
    manifest["spec"]["endpoint"]["extra"].append(2)
    assert labels == {"team": ["a"]} and endpoint["extra"] == [1]


# --------------------------------------------------------------------------------- docstrings

@pytest.mark.parametrize(("doc", "params"), [
    ("Summary.\n\n    :param x: the x.\n    :returns: a value.\n", ["x"]),
    ("Summary.\n\n    Args:\n        x: the x.\n\n    Returns:\n        a value.\n", ["x"]),
    ("Summary.\n\n    Parameters\n    ----------\n    x : int\n        the x.\n", ["x"]),
    ("\n    Summary\n      :param x: indented more than the rest\n", ["x"]),
    ("Only a summary: with a colon.", []),
    ("Summary.\n\n    .. deprecated:: 1.0\n        Gone.\n\n    Args:\n        x: the x.\n", ["x"]),
])
def test_docstring_short_cut_keeps_the_full_parse_result(doc, params, monkeypatch):
    import re

    from enterprise_ai.tools import _docstrings

    got = parse_docstring.__wrapped__(doc)
    monkeypatch.setattr(_docstrings, "_REST_FIELD", re.compile(""))  # always run rest.parse too
    assert parse_docstring.__wrapped__(doc) == got
    assert list(got.params) == params


# ------------------------------------------------------------------------------ module names

def test_module_names_per_folder_match_module_name_for(tmp_path: Path):
    (tmp_path / "a" / "b" / "c").mkdir(parents=True)
    (tmp_path / "a" / "b" / "__init__.py").write_text("")
    (tmp_path / "a" / "b" / "c" / "__init__.py").write_text("")
    (tmp_path / "x").mkdir()
    files = [tmp_path / "a/b/c/m.py", tmp_path / "a/b/c/__init__.py", tmp_path / "a/b/__init__.py",
             tmp_path / "a/b/n.py", tmp_path / "a/top.py", tmp_path / "x/y.py", tmp_path / "a/b/c/../c/z.py"]
    index = ModuleIndex()
    for path in files:
        assert index._module_name(path) == module_name_for(path)


# --------------------------------------------------------------------------- worker results

def test_worker_results_come_back_equal_by_marshal_or_pickle(tmp_path: Path):
    source = tmp_path / "tools_mod.py"
    source.write_text('from enterprise_ai.tools import tool\n\n@tool(action="write")\n'
                      'def f(a: int, b: tuple[int, str] = (1, "x")) -> dict[str, float]:\n    """F."""\n    return {}\n'
                      '\n@tool\ndef g(x: "Missing") -> None:\n    pass\n')
    from enterprise_ai.scan.model import ScanOptions
    from enterprise_ai.scan.static import _scan_files

    expected = _scan_files([source.resolve()], ScanOptions())
    blob = _scan_chunk([source.resolve()], ScanOptions())
    assert blob[:1] == b"M"
    assert _decode_chunk(blob) == expected
    assert expected[0] and expected[1]


class _Text(str):
    pass


def test_worker_results_marshal_cannot_hold_go_by_pickle(monkeypatch):
    import enterprise_ai.scan.static as static

    Text = _Text
    odd = ([ScannedTool("t", {"a": Text("x"), "b": (1, [2])}, "f.py", 1)], [ScanProblem("f.py", "m", line=3)])
    monkeypatch.setattr(static, "_scan_files", lambda files, options: odd)
    blob = _scan_chunk([], None)
    assert blob[:1] == b"P"
    decoded = _decode_chunk(blob)
    assert decoded == odd and type(decoded[0][0].manifest["a"]) is Text
