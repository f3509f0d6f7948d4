"""eai tools export: OpenAI, Anthropic and MCP tool entries; OpenAI strict mode."""

from __future__ import annotations

import json

import pytest

from enterprise_ai.errors import FindingsError, UsageError
from enterprise_ai.export import export_entry, export_manifests, mcp_annotations
from enterprise_ai.export.strict import strict_schema
from enterprise_ai.scan.model import ScanOptions
from enterprise_ai.scan.static import scan_static
from tests.static.helpers import EXAMPLES, FIXTURES, agents_env, write


def _manifests(path):
    return [(t.manifest, t.file) for t in scan_static([str(path)], ScanOptions()).tools]


def _by_name(entries, key=lambda e: e["name"]):
    return {key(e): e for e in entries}


def test_mcp_entries_validate_with_the_mcp_package_and_map_annotations_back():
    from mcp.types import Tool

    entries = export_manifests(_manifests(FIXTURES / "agents_tools") + _manifests(FIXTURES / "shop"), "mcp")
    for entry in entries:
        tool = Tool.model_validate(entry)
        assert tool.model_dump(by_alias=True, exclude_none=True, mode="json") == entry
    by_name = _by_name(entries)
    lookup = by_name["lookup-order"]
    assert lookup["title"] == "Look up an order"
    assert lookup["annotations"] == {"title": "Look up an order", "readOnlyHint": True, "destructiveHint": True,
                                     "idempotentHint": True, "openWorldHint": False}
    assert by_name["weather"]["outputSchema"]["properties"]["summary"] == {"title": "Summary", "type": "string"}
    assert by_name["cancel-order"]["annotations"] == {"readOnlyHint": False, "destructiveHint": True, "idempotentHint": False}
    assert by_name["search-orders"]["annotations"] == {"readOnlyHint": True}
    assert "outputSchema" not in by_name["search-orders"]  # a list result: MCP wants an object schema


def test_openai_and_anthropic_entries_and_name_mapping():
    manifest = _manifests(FIXTURES / "shop")[0][0]
    manifest["metadata"]["name"] = "shop.browse"
    openai = export_entry(manifest, "openai")
    assert openai == {"type": "function", "function": {"name": "shop_browse", "description": "Browse a category tree.",
                                                       "parameters": manifest["spec"]["input_schema"]}}
    anthropic = export_entry(manifest, "anthropic")
    assert anthropic == {"name": "shop_browse", "description": "Browse a category tree.",
                         "input_schema": manifest["spec"]["input_schema"]}
    manifest["metadata"]["name"] = "x" * 70
    with pytest.raises(FindingsError, match="not accepted by model APIs"):
        export_entry(manifest, "openai")


def test_two_tools_exporting_to_one_name_fail():
    manifests = _manifests(FIXTURES / "shop")[:2]
    manifests[0][0]["metadata"]["name"] = "a.b"
    manifests[1][0]["metadata"]["name"] = "a_b"
    with pytest.raises(FindingsError, match="both export as 'a_b'"):
        export_manifests(manifests, "anthropic")


def _all_objects_strict(schema):
    if isinstance(schema, dict):
        if schema.get("type") == "object" or "properties" in schema:
            assert schema["additionalProperties"] is False
            assert schema["required"] == list(schema["properties"])
        assert "default" not in schema
        for value in schema.values():
            _all_objects_strict(value)
    elif isinstance(schema, list):
        for item in schema:
            _all_objects_strict(item)


def test_strict_mode_requires_everything_and_makes_optional_nullable():
    entries = export_manifests(_manifests(EXAMPLES) + _manifests(FIXTURES / "agents_tools"), "openai", strict=True)
    for entry in entries:
        assert entry["function"]["strict"] is True
        _all_objects_strict(entry["function"]["parameters"])
    search = _by_name(entries, lambda e: e["function"]["name"])["search-docs"]["function"]["parameters"]
    assert search["properties"]["limit"] == {"type": ["integer", "null"], "description": "at most this many results."}
    assert search["required"] == ["query", "limit"]


def test_strict_mode_keeps_defs_and_refs():
    schema = {"type": "object", "properties": {"c": {"$ref": "#/$defs/C", "description": "d"}}, "required": [],
              "additionalProperties": False,
              "$defs": {"C": {"type": "object", "properties": {"n": {"type": "integer", "default": 1}}}}}
    out, problems = strict_schema(schema)
    assert problems == []
    assert out["properties"]["c"] == {"description": "d", "anyOf": [{"$ref": "#/$defs/C"}, {"type": "null"}]}
    assert out["$defs"]["C"] == {"type": "object", "properties": {"n": {"type": ["integer", "null"]}},
                                 "required": ["n"], "additionalProperties": False}


def test_strict_mode_names_every_parameter_it_cannot_express(tmp_path):
    write(tmp_path / "t.py", '''
from typing import Any
from enterprise_ai.tools import tool

@tool
def f(counts: dict[str, int], pair: tuple[int, str], anything: Any, ok: str = "x") -> None:
    """F."""
''')
    manifests = _manifests(tmp_path / "t.py")
    with pytest.raises(FindingsError) as info:
        export_manifests(manifests, "openai", strict=True)
    message = info.value.message
    for name, what in [("counts", "free-form mapping"), ("pair", "fixed tuple"), ("anything", "any type")]:
        assert f"parameter '{name}': {what}" in message or (f"parameter '{name}'" in message and what in message)
    assert "'ok'" not in message
    assert export_manifests(manifests, "openai")  # without --strict the same tool exports


def test_strict_only_for_openai():
    with pytest.raises(UsageError):
        export_entry(_manifests(FIXTURES / "shop")[0][0], "mcp", strict=True)


def test_mcp_annotations_derived_for_eai_tools():
    manifest = {"metadata": {"name": "x"}, "spec": {"action": "write", "idempotent": True}}
    assert mcp_annotations(manifest) == {"readOnlyHint": False, "destructiveHint": False, "idempotentHint": True}


def test_cli_exports_manifest_files_and_code(eai, tmp_path):
    scanned = eai(["tools", "scan", "--static", "--out", tmp_path / "manifests", EXAMPLES])
    assert scanned.returncode == 0, scanned.stderr
    from_files = eai(["tools", "export", tmp_path / "manifests", "--to", "anthropic"])
    from_code = eai(["tools", "export", "--static", EXAMPLES, "--to", "anthropic"])
    assert from_files.returncode == 0, from_files.stderr
    assert from_code.returncode == 0, from_code.stderr
    assert json.loads(from_files.stdout) == json.loads(from_code.stdout)
    assert len(json.loads(from_files.stdout)) >= 3


def test_cli_agents_code_to_mcp_through_the_import_scan(eai):
    from mcp.types import Tool

    proc = eai(["tools", "export", FIXTURES / "agents_tools", "--to", "mcp"], env=agents_env())
    assert proc.returncode == 0, proc.stderr
    assert {Tool.model_validate(e).name for e in json.loads(proc.stdout)} >= {"weather", "lookup-order"}


def test_cli_strict_failure_and_usage_errors(eai, tmp_path):
    write(tmp_path / "t.py", "from enterprise_ai.tools import tool\n\n@tool\ndef f(m: dict[str, int]) -> None:\n    pass\n")
    failed = eai(["tools", "export", "--static", tmp_path / "t.py", "--to", "openai", "--strict"])
    assert failed.returncode == 1
    assert "eai: error: cannot export to openai: tool 'f': parameter 'm': a free-form mapping" in failed.stderr
    assert failed.stdout == ""
    wrong = eai(["tools", "export", tmp_path / "t.py", "--to", "mcp", "--strict"])
    assert wrong.returncode == 2
    missing = eai(["tools", "export", tmp_path / "nope.yaml", "--to", "mcp"])
    assert missing.returncode == 2 and "nope.yaml" in missing.stderr


def test_a_tool_given_twice_is_exported_once_unless_it_differs():
    manifest = _manifests(FIXTURES / "shop")[0][0]
    assert len(export_manifests([(manifest, "a.yaml"), (dict(manifest), "b.py:3")], "mcp")) == 1
    changed = {**manifest, "spec": {**manifest["spec"], "description": "Other."}}
    with pytest.raises(FindingsError, match="defined twice, differently: a.yaml and b.py:3"):
        export_manifests([(manifest, "a.yaml"), (changed, "b.py:3")], "mcp")
