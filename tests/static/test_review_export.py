"""Review of `eai tools export`: hostile inputs and strict-mode schemas checked against OpenAI's rules."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from tests.static.helpers import REPO, write


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_pipes_and_symlink_loops_named_x_yaml_in_a_folder_are_reported_not_read(tmp_path):
    """Defects: walking a folder read a FIFO named `*.yaml` (blocked forever) and crashed on a symlink loop."""
    shutil.copy(REPO / "manifests-examples" / "valid" / "http-read.yaml", tmp_path / "http-read.yaml")
    os.mkfifo(tmp_path / "pipe.yaml")
    os.symlink("loop_b.yaml", tmp_path / "loop_a.yaml")
    os.symlink("loop_a.yaml", tmp_path / "loop_b.yaml")
    code = ("import json, sys\nfrom enterprise_ai.export.sources import collect_manifests\n"
            "found, problems = collect_manifests([sys.argv[1]])\n"
            "print(json.dumps([[w for _, w in found], [[p.file, p.severity] for p in problems]]))\n")
    proc = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, timeout=30)
    assert proc.returncode == 0, proc.stderr
    found, problems = json.loads(proc.stdout)
    assert [w.rsplit("/", 1)[-1] for w in found] == ["http-read.yaml"]
    assert sorted((f.rsplit("/", 1)[-1], s) for f, s in problems) == [
        ("loop_a.yaml", "error"), ("loop_b.yaml", "error"), ("pipe.yaml", "error")]


STRICT_TOOLS = '''
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Annotated, Literal, Optional, Union

from pydantic import BaseModel, Field
from typing_extensions import TypedDict

from enterprise_ai.tools import tool


class Color(enum.Enum):
    RED = "r"
    BLUE = "b"


class Address(TypedDict, total=False):
    street: str
    city: str


class Inner(BaseModel):
    """Inner model."""

    a: int = 1
    b: Optional[str] = None
    addresses: list[Address] = []


@dataclass
class Node:
    name: str
    child: Optional[Inner] = None


@tool
def plan(color: Color, inner: Inner, maybe: Optional[Inner] = None, nodes: list[Node] = [],
         mode: Literal["x", 1] = "x", n: Annotated[int, Field(ge=0, le=5)] = 2,
         either: Union[int, str, None] = None, address: Address | None = None) -> None:
    """Plan.

    Args:
        color: The colour.
        inner: An inner.
    """
'''


def _strict_violations(node, root, path="$"):
    """Every place where a schema breaks OpenAI strict-mode rules (objects closed and fully required,
    no default, local $ref that resolve)."""
    out = []
    if isinstance(node, dict):
        if "$ref" in node:
            target = root
            for part in node["$ref"].removeprefix("#/").split("/"):
                target = target.get(part) if isinstance(target, dict) else None
            if target is None:
                out.append(f"{path}: dangling {node['$ref']}")
        kind = node.get("type")
        if kind == "object" or (isinstance(kind, list) and "object" in kind) or "properties" in node:
            if node.get("additionalProperties") is not False:
                out.append(f"{path}: additionalProperties is not false")
            if sorted(node.get("required", [])) != sorted(node.get("properties", {})):
                out.append(f"{path}: not every property is required")
        if "default" in node:
            out.append(f"{path}: default")
        for key, value in node.items():
            if key not in ("enum", "const", "required"):
                out += _strict_violations(value, root, f"{path}.{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out += _strict_violations(value, root, f"{path}[{i}]")
    return out


def test_strict_export_of_models_enums_and_optionals_follows_every_rule(eai, tmp_path):
    from jsonschema import Draft202012Validator

    write(tmp_path / "plan_tools.py", STRICT_TOOLS)
    for static in ([], ["--static"]):
        proc = eai(["tools", "export", *static, "--to", "openai", "--strict", "plan_tools.py"], cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
        (entry,) = json.loads(proc.stdout)
        params = entry["function"]["parameters"]
        Draft202012Validator.check_schema(params)
        assert entry["function"]["strict"] is True
        assert _strict_violations(params, params) == []
        assert set(params["$defs"]) == {"Address", "Inner", "Node"}
        props = params["properties"]
        assert props["maybe"] == {"anyOf": [{"$ref": "#/$defs/Inner"}, {"type": "null"}]}
        assert props["color"]["type"] == "string"  # required: not nullable
        assert params["$defs"]["Address"]["properties"]["city"]["type"] == ["string", "null"]
        valid = {"color": "r", "inner": {"a": 1, "b": None, "addresses": []}, "maybe": None, "nodes": None,
                 "mode": None, "n": None, "either": None, "address": {"street": None, "city": "Lyon"}}
        Draft202012Validator(params).validate(valid)
