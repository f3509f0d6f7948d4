"""LocalTool and @tool: the reference page's defaults, manifest, OpenAI entry and invoke."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
import textwrap
import typing
from typing import Annotated, Literal, Optional

import pytest
from pydantic import Field

from enterprise_ai.errors import EaiError, ErrorKind
from enterprise_ai.tools import LocalTool, tool
from enterprise_ai.tools._local import ToolArgumentsError
from tests.sdk.helpers import assert_valid_schema


@dataclasses.dataclass
class Item:
    sku: str
    quantity: int = 1


@tool
def search_orders(customer_id: str, status: Literal["open", "closed"] = "open", limit: int = 20) -> list[str]:
    """Search a customer's orders.

    Args:
        customer_id: Customer identifier.
        status: Order status.
        limit: Maximum number of results.
    """
    return [customer_id, status, str(limit)]


@tool(action="write", scopes=["orders:write"], data_classification="confidential", requires_approval=True,
      risk_level="high", owner="billing@example.com", version="1.2.0", name="refund")
def refund_order(order_id: int, amount: Annotated[float, Field(gt=0)], items: Optional[list[Item]] = None) -> None:
    """Refund an order."""
    return None


def undocumented(x: int) -> int:
    return x


ATTRIBUTES = ["action", "data_classification", "description", "fn", "idempotent", "input_schema", "is_async",
              "name", "owner", "requires_approval", "risk_level", "scopes", "side_effects", "version"]


def test_reference_page_defaults():
    t = LocalTool(undocumented)
    for attr in ATTRIBUTES + ["output_schema"]:
        assert hasattr(t, attr), attr
    assert (t.name, t.description, t.action, t.scopes, t.data_classification, t.requires_approval) == (
        "undocumented", "undocumented", "read", [], "internal", False)
    assert (t.side_effects, t.idempotent, t.version, t.owner, t.risk_level, t.is_async) == (
        False, True, "0.1.0", "team@example.com", "minimal", False)
    assert t.fn is undocumented
    assert t.output_schema == {"type": "integer"}


@pytest.mark.parametrize("action", ["write", "delete", "execute", "anything"])
def test_side_effects_and_idempotent_defaults_follow_action(action):
    t = LocalTool(undocumented, action=action)
    assert (t.side_effects, t.idempotent) == (True, False)


def test_explicit_side_effects_and_idempotent_win():
    t = LocalTool(undocumented, action="write", side_effects=False, idempotent=True)
    assert (t.side_effects, t.idempotent) == (False, True)
    r = LocalTool(undocumented, action="read", side_effects=True, idempotent=False)
    assert (r.side_effects, r.idempotent) == (True, False)


def test_tool_name_and_description_options():
    assert LocalTool(undocumented, name="x-y", description="Custom.").name == "x-y"
    assert LocalTool(undocumented, description="Custom.").description == "Custom."
    assert search_orders.name == "search-orders"
    assert search_orders.description == "Search a customer's orders."


def test_three_decorator_forms_and_callable_like_the_function():
    bare = tool(undocumented)
    called = tool()(undocumented)
    with_options = tool(undocumented, action="write")
    for t in (bare, called, with_options):
        assert isinstance(t, LocalTool)
        assert t(4) == 4
        assert t.__name__ == "undocumented" and t.__wrapped__ is undocumented
    assert search_orders("c1", limit=2) == ["c1", "open", "2"]
    assert search_orders.__doc__.startswith("Search a customer's orders.")
    assert with_options.action == "write"


def test_unknown_option_is_a_type_error_naming_it():
    with pytest.raises(TypeError, match="'scope'"):
        tool(undocumented, scope=["x"])
    with pytest.raises(TypeError, match="'acton'"):
        tool(acton="write")
    with pytest.raises(TypeError):
        tool("not callable")


def test_manifest_document_and_key_order():
    m = refund_order.manifest()
    assert list(m) == ["apiVersion", "kind", "metadata", "spec"]
    assert m["apiVersion"] == "enterprise-ai.io/v1" and m["kind"] == "Tool"
    assert m["metadata"] == {"name": "refund", "version": "1.2.0", "owner": "billing@example.com"}
    assert list(m["spec"]) == ["description", "action", "input_schema", "scopes_required", "data_classification",
                               "risk_level", "requires_approval", "side_effects", "idempotent", "endpoint"]
    spec = m["spec"]
    assert spec["scopes_required"] == ["orders:write"]
    assert (spec["action"], spec["data_classification"], spec["risk_level"]) == ("write", "confidential", "high")
    assert (spec["requires_approval"], spec["side_effects"], spec["idempotent"]) == (True, True, False)
    assert spec["endpoint"] == {"type": "http", "method": "POST", "url": "http://127.0.0.1:8000/tools/refund",
                                "timeout_seconds": 30}
    assert spec["input_schema"]["properties"]["amount"] == {"type": "number", "exclusiveMinimum": 0}
    assert_valid_schema(spec["input_schema"], valid=({"order_id": 1, "amount": 2.5, "items": [{"sku": "a"}]},),
                        invalid=({"order_id": 1, "amount": 0},))


def test_manifest_output_schema_position_endpoint_and_metadata():
    m = search_orders.manifest({"type": "builtin", "handler": "echo"}, labels={"team": "commerce"}, annotations={})
    assert list(m["metadata"]) == ["name", "version", "owner", "labels", "annotations"]
    assert m["metadata"]["labels"] == {"team": "commerce"}
    assert list(m["spec"])[:4] == ["description", "action", "input_schema", "output_schema"]
    assert m["spec"]["output_schema"] == {"type": "array", "items": {"type": "string"}}
    assert m["spec"]["endpoint"] == {"type": "builtin", "handler": "echo"}


def test_manifest_is_a_copy():
    m = search_orders.manifest()
    m["spec"]["input_schema"]["properties"].clear()
    assert search_orders.manifest()["spec"]["input_schema"]["properties"]


def test_manifest_is_byte_identical_across_processes(tmp_path):
    module = tmp_path / "det_tools.py"
    module.write_text(textwrap.dedent('''
        from __future__ import annotations
        import dataclasses, enum
        from typing import Literal, Optional
        from enterprise_ai.tools import tool

        class Kind(str, enum.Enum):
            A = "a"
            B = "b"

        @dataclasses.dataclass
        class Node:
            name: str
            children: list[Node] = dataclasses.field(default_factory=list)

        @tool
        def walk(root: Node, kinds: set[Kind] = {Kind.B, Kind.A}, tags: frozenset[str] = frozenset("zyxw"),
                 mode: Literal["x", "y"] = "x", other: Optional[Node] = None) -> Node:
            """Walk a tree."""
    '''), encoding="utf-8")
    code = ("import json, sys; sys.path.insert(0, sys.argv[1]); import det_tools; "
            "print(json.dumps(det_tools.walk.manifest()))")
    outputs = set()
    for seed in ("1", "2", "3"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        outputs.add(subprocess.run([sys.executable, "-c", code, str(tmp_path)], env=env, check=True,
                                   capture_output=True, text=True).stdout)
    assert len(outputs) == 1
    text = outputs.pop()
    assert str(tmp_path) not in text and "det_tools" not in text
    doc = json.loads(text)
    assert doc["spec"]["input_schema"]["properties"]["kinds"]["default"] == ["a", "b"]
    assert doc["spec"]["input_schema"]["properties"]["tags"]["default"] == ["w", "x", "y", "z"]


def test_openai_tool_entry():
    entry = search_orders.openai_tool()
    assert entry == {"type": "function", "function": {"name": "search-orders",
                                                      "description": "Search a customer's orders.",
                                                      "parameters": search_orders.input_schema}}
    assert entry["function"]["parameters"] is not search_orders.input_schema


# --- invoke --------------------------------------------------------------------------------------

@pytest.mark.parametrize("arguments", [{"customer_id": "c9"}, '{"customer_id": "c9"}', ' {"customer_id": "c9"} '])
def test_invoke_accepts_dict_or_json_string(arguments):
    assert search_orders.invoke(arguments) == ["c9", "open", "20"]


@pytest.mark.parametrize("empty", [None, "", "  ", {}, "{}"])
def test_invoke_empty_means_no_arguments(empty):
    t = tool(lambda: "ok")
    assert t.invoke(empty) == "ok"


def test_invoke_coerces_values():
    assert search_orders.invoke({"customer_id": "c1", "limit": "5", "status": "closed"}) == ["c1", "closed", "5"]
    got = []
    t = tool(lambda items, when=None: got.append(items))
    t.invoke({"items": [1]})
    assert got == [[1]]

    def ship(item: Item, copies: tuple[int, int] = (1, 1)) -> tuple:
        return item, copies

    assert tool(ship).invoke({"item": {"sku": "s", "quantity": "3"}, "copies": [2, "3"]}) == (Item("s", 3), (2, 3))


@pytest.mark.parametrize(
    ("arguments", "path", "fragment"),
    [
        ({"customer_id": "c", "limit": "many"}, "/limit", "integer"),
        ({"customer_id": "c", "status": "lost"}, "/status", "'open' or 'closed'"),
        ({"customer_id": "c", "extra": 1}, "/extra", "unexpected argument"),
        ({"limit": 1}, "/customer_id", "missing required argument"),
    ],
)
def test_invoke_bad_argument_is_named(arguments, path, fragment):
    with pytest.raises(ToolArgumentsError) as info:
        search_orders.invoke(arguments)
    err = info.value
    assert isinstance(err, EaiError) and isinstance(err, ValueError) and err.kind is ErrorKind.USAGE
    assert [e["path"] for e in err.errors] == [path]
    assert fragment in err.errors[0]["message"]
    assert path.lstrip("/") in str(err)


def test_invoke_nested_error_path_and_constraints():
    with pytest.raises(ToolArgumentsError) as info:
        refund_order.invoke({"order_id": 1, "amount": -1, "items": [{"sku": "a"}, {"quantity": 2}]})
    assert sorted(e["path"] for e in info.value.errors) == ["/amount", "/items/1/sku"]


@pytest.mark.parametrize("bad", ["{not json", "[1, 2]", "3"])
def test_invoke_rejects_non_object_arguments(bad):
    with pytest.raises(ToolArgumentsError):
        search_orders.invoke(bad)


def test_invoke_positional_only_parameters():
    def f(a: int, /, b: int = 2) -> int:
        return a * 10 + b

    assert tool(f).invoke({"a": "3"}) == 32


def test_repr_names_tool():
    assert repr(search_orders) == "LocalTool(name='search-orders', action='read')"


class Opaque:
    def __init__(self, value):
        self.value = value


class Point(typing.TypedDict):  # typing.TypedDict: refused by pydantic before Python 3.12
    x: int


def test_invoke_falls_back_to_json_schema_when_pydantic_cannot_validate():
    def f(p: Point, o: Opaque = None) -> int:
        return p["x"]

    t = tool(f)
    assert t.invoke({"p": {"x": 3}}) == 3
    with pytest.raises(ToolArgumentsError) as info:
        t.invoke({"p": {"x": "no"}})
    assert info.value.errors[0]["path"] == "/p/x"


def test_tool_of_a_tool_keeps_its_own_options():
    inner = tool(undocumented, action="write", name="inner")
    outer = tool(inner, name="outer")
    assert (outer.name, outer.action, outer.side_effects) == ("outer", "read", False)
    assert outer.input_schema["properties"] == {"x": {"type": "integer"}}
    assert outer.invoke({"x": "2"}) == 2


def test_scopes_as_a_single_string():
    assert LocalTool(undocumented, scopes="orders:read").scopes == ["orders:read"]


def test_schema_valid_arguments_are_accepted_by_invoke_and_wrong_types_rejected_by_both():
    from jsonschema import Draft202012Validator

    from tests.sdk.test_schema_draft import kitchen_sink
    from tests.sdk.test_schema_types import order

    accepted = [
        (kitchen_sink, {"account": {"name": "n", "tier": 1, "meta": {"source": "s"},
                                    "tree": {"label": "r", "kids": [{"label": "k"}]}},
                        "ids": ["12345678-1234-5678-1234-567812345678"], "window": ["2024-01-01", "2024-02-01"],
                        "mode": "b", "weights": {"a": 0.5}, "folder": "x/y", "limit": 10, "extra": [1]}),
        (order, {"filters": {"customer": "c", "status": "s"}, "address": {"street": "s", "zip": "z"},
                 "lines": [{"sku": "a", "quantity": 2, "tags": ["t"]}], "category": {"name": "n"},
                 "customer": {"id": "abc", "address": {"street": "s"}}, "strict": {"x": 1}}),
    ]
    for fn, arguments in accepted:
        t = tool(fn)
        assert not list(Draft202012Validator(t.input_schema).iter_errors(arguments))
        t.invoke(arguments)  # no ToolArgumentsError

    rejected = [
        (kitchen_sink, {"account": "not an object", "ids": [], "window": ["2024-01-01", "2024-02-01"]}, "/account"),
        (kitchen_sink, {"account": {"name": "n"}, "ids": [], "window": ["2024-01-01"]}, "/window"),
        (kitchen_sink, {"account": {"name": "n"}, "ids": [], "window": ["2024-01-01", "2024-01-02"], "limit": 11},
         "/limit"),
        (order, {"filters": {}, "address": {"street": "s"}, "lines": [], "category": {"name": "n"},
                 "customer": {"id": "abc", "address": {"street": "s"}}, "strict": {}}, "/filters"),
        (order, {"filters": {"customer": "c"}, "address": {"street": "s"}, "lines": [], "category": {"name": "n"},
                 "customer": {"id": "abc", "address": {"street": "s"}}, "strict": {"y": 1}}, "/strict"),
    ]
    for fn, arguments, path in rejected:
        t = tool(fn)
        assert list(Draft202012Validator(t.input_schema).iter_errors(arguments)), path
        with pytest.raises(ToolArgumentsError) as info:
            t.invoke(arguments)
        assert all(e["path"].startswith(path) for e in info.value.errors), info.value.errors
