"""Issue 2, point 3, bullet 5: string annotations and forward references resolve against the function's module."""

from __future__ import annotations

import pytest

from enterprise_ai.errors import EaiError, ErrorKind
from enterprise_ai.tools import LocalTool, input_schema
from enterprise_ai.tools._schema import ToolDefinitionError
from tests.sdk.helpers import assert_valid_schema, load_module

FUTURE_MODULE = '''
from __future__ import annotations

import dataclasses
import datetime
from typing import TYPE_CHECKING, Optional

from enterprise_ai.tools import tool

if TYPE_CHECKING:
    from decimal import Decimal


@tool
def search_orders(customer: Customer, since: Optional[datetime.date] = None, limit: int = 10) -> list[Order]:
    """Search orders."""
    return []


@tool
def total(amount: Decimal) -> str:
    """Uses a name imported only under TYPE_CHECKING."""
    return str(amount)


@tool
def bad_return(x: int) -> Decimal:
    return x


@dataclasses.dataclass
class Customer:
    id: str
    parent: Optional[Customer] = None


@dataclasses.dataclass
class Order:
    id: int
    customer: Customer
'''

DECORATOR_MODULE = '''
import functools

def logged(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)
    return wrapper
'''

USER_MODULE = '''
from __future__ import annotations

from {deco} import logged


class Ticket:
    pass


@logged
def open_ticket(title: str, priority: Priority = "low") -> None:
    """Open a ticket."""


Priority = str
'''


def test_future_annotations_and_forward_refs_resolve(tmp_path):
    module = load_module(tmp_path, "future_mod", FUTURE_MODULE)
    schema = module.search_orders.input_schema
    assert schema["properties"]["customer"] == {"$ref": "#/$defs/Customer"}
    assert schema["properties"]["since"] == {"anyOf": [{"type": "string", "format": "date"}, {"type": "null"}],
                                             "default": None}
    assert schema["required"] == ["customer"]
    assert schema["$defs"]["Customer"]["properties"]["parent"] == {
        "anyOf": [{"$ref": "#/$defs/Customer"}, {"type": "null"}], "default": None}
    out = module.search_orders.output_schema
    assert out["items"] == {"$ref": "#/$defs/Order"}
    assert sorted(out["$defs"]) == ["Customer", "Order"]
    assert_valid_schema(schema, valid=({"customer": {"id": "c1", "parent": {"id": "c0"}}},))
    assert_valid_schema(out)


def test_type_checking_only_name_is_an_error_naming_tool_parameter_and_name(tmp_path):
    module = load_module(tmp_path, "future_tc", FUTURE_MODULE)
    with pytest.raises(ToolDefinitionError) as info:
        module.total.input_schema  # noqa: B018
    err = info.value
    assert isinstance(err, EaiError) and err.kind is ErrorKind.FINDINGS
    assert err.message.startswith("tool 'total': parameter 'amount' has an annotation that cannot be resolved: "
                                  "name 'Decimal' is not defined in module ")
    assert (err.tool, err.parameter, err.unresolved) == ("total", "amount", "Decimal")
    with pytest.raises(ToolDefinitionError, match="Decimal"):
        module.total.manifest()


def test_unresolvable_return_annotation_is_an_error(tmp_path):
    module = load_module(tmp_path, "future_ret", FUTURE_MODULE)
    with pytest.raises(ToolDefinitionError) as info:
        module.bad_return.manifest()
    assert info.value.parameter == "return" and "return annotation" in info.value.message


def test_wrapped_function_resolves_against_its_own_module_not_the_decorators(tmp_path):
    deco = load_module(tmp_path, "deco_mod", DECORATOR_MODULE)
    user = load_module(tmp_path, "user_mod", USER_MODULE.format(deco=deco.__name__))
    tool = LocalTool(user.open_ticket)
    assert tool.name == "open-ticket"
    assert tool.description == "Open a ticket."
    assert tool.input_schema["properties"] == {"title": {"type": "string"},
                                               "priority": {"type": "string", "default": "low"}}


def test_string_annotation_without_future_import():
    def f(a: "int", b: "list[str]" = ()) -> "dict[str, int]":
        pass

    assert input_schema(f)["properties"]["a"] == {"type": "integer"}  # quoted twice under the future import
    assert input_schema(f)["properties"]["b"]["items"] == {"type": "string"}
    assert LocalTool(f).output_schema == {"type": "object", "additionalProperties": {"type": "integer"}}


def test_local_name_not_in_module_is_an_error_not_a_fallback():
    class LocalOnly:
        pass

    def f(x: LocalOnly) -> None:  # a string (future import) naming a class the module does not have
        pass

    with pytest.raises(ToolDefinitionError, match="'x'.*'LocalOnly'"):
        input_schema(f)


def test_unresolved_field_of_a_nested_class_is_an_error(tmp_path):
    module = load_module(tmp_path, "nested_bad", '''
        from __future__ import annotations
        import dataclasses
        from typing import TYPE_CHECKING
        if TYPE_CHECKING:
            from uuid import UUID

        @dataclasses.dataclass
        class Box:
            id: UUID

        def put(box: Box) -> None:
            pass
    ''')
    with pytest.raises(ToolDefinitionError) as info:
        input_schema(module.put)
    err = info.value
    assert err.message == ("tool 'put': parameter 'box': a field of Box has an annotation that cannot be "
                           "resolved: name 'UUID' is not defined")
    assert (err.tool, err.parameter, err.unresolved) == ("put", "box", "UUID")


def test_typeddict_with_future_annotations_reads_required_markers(tmp_path):
    module = load_module(tmp_path, "td_future", '''
        from __future__ import annotations
        from typing import TypedDict
        from typing_extensions import NotRequired, Required

        class Query(TypedDict, total=False):
            text: Required[str]
            page: int

        class Paging(TypedDict):
            size: int
            cursor: NotRequired[str]

        def find(q: Query, p: Paging) -> None:
            pass
    ''')
    defs = input_schema(module.find)["$defs"]
    assert defs["Query"]["required"] == ["text"]
    assert defs["Paging"]["required"] == ["size"]


def test_schema_for_a_string_annotation_is_an_error_not_an_empty_schema():
    with pytest.raises(ToolDefinitionError, match="'Order'"):
        from enterprise_ai.tools import schema_for

        schema_for("Order")
