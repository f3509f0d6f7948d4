"""agents-SDK tools become manifests as MANIFEST.md maps them, in both scans."""

from __future__ import annotations

import sys

import pytest

from enterprise_ai.integrations.agents import (
    TOOL_ID_LABEL,
    check_namespace,
    manifest_from_agents_tool,
    manifest_from_tool_definition,
)
from enterprise_ai.scan.model import ScanOptions
from enterprise_ai.scan.static import scan_static
from tests.static.helpers import AGENTS_SDK, FIXTURES, write

SCHEMA = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"], "additionalProperties": False}


@pytest.mark.parametrize(
    ("hints", "action", "side_effects", "idempotent"),
    [
        (None, "delete", True, False),  # MCP defaults: assume the worst
        ({"read_only_hint": True}, "read", False, False),
        ({"readOnlyHint": True, "idempotentHint": True}, "read", False, True),
        ({"destructive_hint": False}, "write", True, False),
        ({"destructiveHint": False, "idempotent_hint": True}, "write", True, True),
        ({"destructive_hint": True, "idempotent_hint": True}, "delete", True, True),
    ],
)
def test_hints_map_to_action_side_effects_and_idempotent(hints, action, side_effects, idempotent):
    manifest = manifest_from_tool_definition({"name": "search_docs", "input_schema": SCHEMA, "annotations": hints})
    spec = manifest["spec"]
    assert (spec["action"], spec["side_effects"], spec["idempotent"]) == (action, side_effects, idempotent)


def test_hints_title_and_tool_id_are_kept_as_strings_and_the_manifest_is_valid():
    from enterprise_ai.validate import check_manifest

    manifest = manifest_from_tool_definition(
        {"name": "lookup_order", "title": "Look up an order", "description": "Find an order.", "input_schema": SCHEMA,
         "annotations": {"read_only_hint": True, "open_world_hint": False}},
        namespace="shop$2", metadata={"owner": "shop@example.com", "labels": {"team": "shop"}}, model_access="direct",
    )
    meta = manifest["metadata"]
    assert meta["name"] == "lookup-order" and meta["owner"] == "shop@example.com"
    assert meta["labels"] == {TOOL_ID_LABEL: "shop$2.lookup_order", "team": "shop"}
    assert meta["annotations"] == {"readOnlyHint": "true", "destructiveHint": "true", "idempotentHint": "false",
                                   "openWorldHint": "false", "title": "Look up an order", "agents.model-access": "direct"}
    assert all(isinstance(v, str) for v in meta["annotations"].values())
    assert [f for f in check_manifest(manifest) if f.severity == "error"] == []


@pytest.mark.parametrize("namespace", ["self", "agents", "connector_x", "1abc", "a-b", ""])
def test_reserved_or_malformed_namespaces_are_refused(namespace):
    from enterprise_ai.errors import UsageError

    with pytest.raises(UsageError):
        check_namespace(namespace)


@pytest.fixture
def agents_module(monkeypatch):
    monkeypatch.syspath_prepend(str(AGENTS_SDK))
    sys.modules.pop("agents", None)
    import agents

    yield agents
    sys.modules.pop("agents", None)


def test_sdk_objects_convert_and_client_tools_are_marked(agents_module):
    agents = agents_module

    @agents.tool(namespace="shop", annotations=agents.ToolAnnotations(readOnlyHint=True))
    def search(ctx: agents.ToolCallbackContext, /, query: str) -> list[str]:
        """Search."""
        return [query]

    @agents.client_tool
    def where() -> str:
        """Where am I."""
        raise NotImplementedError

    manifest, source = manifest_from_agents_tool(search, owner="o@example.com")
    assert source == "agents" and manifest["spec"]["action"] == "read"
    assert list(manifest["spec"]["input_schema"]["properties"]) == ["query"]  # the context is not a parameter
    assert manifest["metadata"]["labels"][TOOL_ID_LABEL] == "shop.search"
    assert search("q") == ["q"]  # still callable like the function
    endpoint = {"type": "http", "method": "POST", "url": "https://x.example.com/tools/where", "timeout_seconds": 30}
    client_manifest, client_source = manifest_from_agents_tool(where, endpoint=endpoint)
    assert client_source == "agents-client" and client_manifest["spec"]["endpoint"] == endpoint


def test_static_scan_finds_agents_tools_without_the_sdk_installed():
    result = scan_static([str(FIXTURES / "agents_tools")], ScanOptions())
    tools = {t.name: t for t in result.tools}
    assert sorted(tools) == ["add-task", "delete-user", "get-location", "lookup-order", "pick-file", "search-docs", "weather"]
    assert (tools["get-location"].source, tools["get-location"].registrable) == ("agents-client", False)
    assert (tools["search-docs"].source, tools["search-docs"].registrable) == ("agents", True)
    assert list(tools["search-docs"].manifest["spec"]["input_schema"]["properties"]) == ["query", "limit"]
    lookup = tools["lookup-order"].manifest
    assert lookup["metadata"]["labels"][TOOL_ID_LABEL] == "shop.lookup_order"
    assert (lookup["spec"]["action"], lookup["spec"]["idempotent"]) == ("read", True)
    assert tools["weather"].manifest["spec"]["action"] == "write"
    assert tools["weather"].manifest["spec"]["input_schema"]["properties"]["days"]["maximum"] == 10
    assert tools["delete-user"].manifest["spec"]["action"] == "delete"
    notes = [p for p in result.problems if p.tool == "get-location"]
    assert notes and notes[0].severity == "note"


def test_client_tools_become_registrable_with_an_endpoint(tmp_path):
    result = scan_static([str(FIXTURES / "agents_tools")], ScanOptions(endpoint_base_url="http://127.0.0.1:9000"))
    client = next(t for t in result.tools if t.name == "pick-file")
    assert client.registrable and client.manifest["spec"]["endpoint"]["url"] == "http://127.0.0.1:9000/tools/pick-file"
    assert not [p for p in result.problems if p.tool == "pick-file"]


def test_a_reserved_namespace_is_an_error_naming_the_tool(tmp_path):
    write(tmp_path / "bad.py", "import agents\n\n@agents.tool(namespace='self')\ndef f() -> None:\n    pass\n")
    result = scan_static([str(tmp_path / "bad.py")], ScanOptions())
    assert result.tools == [] and result.problems[0].tool == "f" and "reserved" in result.problems[0].message
