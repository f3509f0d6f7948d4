"""Issue 2, point 3, bullet 6: one schema per kind of annotation (no future import here: real objects)."""

import dataclasses
import datetime
import enum
import pathlib
import uuid
from typing import Any, Dict, List, Literal, Optional, Sequence, Set, Tuple, Union

import pytest
from pydantic import BaseModel, ConfigDict, Field
from typing_extensions import NotRequired, Required, TypedDict

from enterprise_ai.tools import input_schema, schema_for
from tests.sdk.helpers import assert_valid_schema


class Color(str, enum.Enum):
    RED = "red"
    GREEN = "green"


class Size(int, enum.Enum):
    S = 1
    M = 2


class Priority(enum.IntEnum):
    LOW = 10
    HIGH = 20


class Plain(enum.Enum):
    A = "a"
    B = "b"


@pytest.mark.parametrize(
    ("annotation", "expected"),
    [
        (Literal["a", "b"], {"type": "string", "enum": ["a", "b"]}),
        (Literal["only"], {"type": "string", "enum": ["only"]}),
        (Literal[1, 2], {"type": "integer", "enum": [1, 2]}),
        (Literal[True], {"type": "boolean", "enum": [True]}),
        (Literal["a", 1], {"type": ["string", "integer"], "enum": ["a", 1]}),
        (Color, {"type": "string", "enum": ["red", "green"]}),
        (Size, {"type": "integer", "enum": [1, 2]}),
        (Priority, {"type": "integer", "enum": [10, 20]}),
        (Plain, {"type": "string", "enum": ["a", "b"]}),
        (Literal[Color.RED], {"type": "string", "enum": ["red"]}),
    ],
)
def test_literal_and_enum_have_type_and_enum(annotation, expected):
    assert schema_for(annotation) == expected
    assert_valid_schema(schema_for(annotation))


@pytest.mark.parametrize(
    ("annotation", "expected"),
    [
        (Union[str, int], {"anyOf": [{"type": "string"}, {"type": "integer"}]}),
        (str | int, {"anyOf": [{"type": "string"}, {"type": "integer"}]}),
        (Optional[int], {"anyOf": [{"type": "integer"}, {"type": "null"}]}),
        (int | None, {"anyOf": [{"type": "integer"}, {"type": "null"}]}),
        (Optional[Union[str, int]], {"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]}),
        (Optional[Any], {}),
    ],
)
def test_unions_are_any_of_with_every_member(annotation, expected):
    assert schema_for(annotation) == expected


@pytest.mark.parametrize(
    ("annotation", "expected"),
    [
        (tuple[int, str], {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}],
                           "items": False, "minItems": 2, "maxItems": 2}),
        (Tuple[int, str], {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}],
                           "items": False, "minItems": 2, "maxItems": 2}),
        (tuple[float, ...], {"type": "array", "items": {"type": "number"}}),
        (set[str], {"type": "array", "items": {"type": "string"}, "uniqueItems": True}),
        (Set[int], {"type": "array", "items": {"type": "integer"}, "uniqueItems": True}),
        (frozenset[str], {"type": "array", "items": {"type": "string"}, "uniqueItems": True}),
        (dict[str, int], {"type": "object", "additionalProperties": {"type": "integer"}}),
        (Dict[str, List[int]], {"type": "object", "additionalProperties": {"type": "array",
                                                                         "items": {"type": "integer"}}}),
        (list[str], {"type": "array", "items": {"type": "string"}}),
        (list, {"type": "array"}),
        (dict, {"type": "object"}),
        (dict[str, Any], {"type": "object"}),
        (tuple[()], {"type": "array", "maxItems": 0}),
        (Tuple, {"type": "array"}),
        (List, {"type": "array"}),
        (tuple[Any, ...], {"type": "array"}),
        (Sequence[str], {"type": "array", "items": {"type": "string"}}),
        (dict[Color, int], {"type": "object", "propertyNames": {"enum": ["red", "green"]},
                            "additionalProperties": {"type": "integer"}}),
    ],
)
def test_containers(annotation, expected):
    assert schema_for(annotation) == expected
    assert_valid_schema(schema_for(annotation))


def test_tuple_and_set_validate_samples():
    assert_valid_schema(schema_for(tuple[int, str]), valid=([1, "a"],), invalid=([1], [1, "a", 2], ["a", 1]))
    assert_valid_schema(schema_for(set[str]), valid=(["a", "b"],), invalid=(["a", "a"],))
    assert_valid_schema(schema_for(dict[str, int]), valid=({"a": 1},), invalid=({"a": "x"},))


@pytest.mark.parametrize(
    ("annotation", "expected"),
    [
        (datetime.datetime, {"type": "string", "format": "date-time"}),
        (datetime.date, {"type": "string", "format": "date"}),
        (datetime.time, {"type": "string", "format": "time"}),
        (uuid.UUID, {"type": "string", "format": "uuid"}),
        (datetime.timedelta, {"type": "string", "format": "duration"}),
        (pathlib.Path, {"type": "string", "format": "path"}),  # pydantic's name, not a Draft 2020-12 format
        (pathlib.PurePosixPath, {"type": "string", "format": "path"}),
        (bool, {"type": "boolean"}),
        (float, {"type": "number"}),
        (Any, {}),
    ],
)
def test_formats(annotation, expected):
    assert schema_for(annotation) == expected


def test_formats_are_checked_on_samples():
    schema = input_schema(_with_formats)
    assert_valid_schema(
        schema,
        valid=({"when": "2024-05-01T10:00:00Z", "day": "2024-05-01", "at": "10:00:00Z",
                "key": "12345678-1234-5678-1234-567812345678", "where": "/tmp/x"},),
        invalid=({"when": "yesterday", "day": "2024-05-01", "at": "10:00:00Z",
                  "key": "12345678-1234-5678-1234-567812345678", "where": "/tmp/x"},),
    )


def _with_formats(when: datetime.datetime, day: datetime.date, at: datetime.time, key: uuid.UUID,
                  where: pathlib.Path) -> None:
    pass


class Address(TypedDict):
    street: str
    zip: NotRequired[str]


class Filters(TypedDict, total=False):
    status: str
    customer: Required[str]


@dataclasses.dataclass
class Line:
    """An order line.

    Attributes:
        sku: Stock keeping unit.
    """

    sku: str
    quantity: int = 1
    tags: list[str] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class Category:
    name: str
    children: "list[Category]" = dataclasses.field(default_factory=list)


class Customer(BaseModel):
    """A customer."""

    id: str = Field(description="Customer id.", min_length=3)
    address: Address
    referrer: Optional["Customer"] = None


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")
    x: int = 0


def order(filters: Filters, address: Address, lines: list[Line], category: Category, customer: Customer,
          strict: Strict) -> None:
    pass


def test_typeddict_honours_total_required_and_not_required():
    defs = input_schema(order)["$defs"]
    assert defs["Address"] == {"type": "object", "properties": {"street": {"type": "string"},
                                                                "zip": {"type": "string"}},
                               "required": ["street"]}
    assert defs["Filters"]["required"] == ["customer"]
    assert list(defs["Filters"]["properties"]) == ["status", "customer"]


def test_dataclass_pydantic_nested_and_recursive_with_defs_at_root():
    schema = input_schema(order)
    assert sorted(schema["$defs"]) == ["Address", "Category", "Customer", "Filters", "Line", "Strict"]
    assert schema["properties"]["lines"] == {"type": "array", "items": {"$ref": "#/$defs/Line"}}
    line = schema["$defs"]["Line"]
    assert line == {"type": "object", "description": "An order line.",
                    "properties": {"sku": {"type": "string", "description": "Stock keeping unit."},
                                   "quantity": {"type": "integer", "default": 1},
                                   "tags": {"type": "array", "items": {"type": "string"}}},
                    "required": ["sku"]}
    assert schema["$defs"]["Category"]["properties"]["children"] == {"type": "array",
                                                                     "items": {"$ref": "#/$defs/Category"}}
    customer = schema["$defs"]["Customer"]
    assert customer["description"] == "A customer."
    assert customer["properties"]["id"] == {"type": "string", "minLength": 3, "description": "Customer id."}
    assert customer["properties"]["address"] == {"$ref": "#/$defs/Address"}
    assert customer["properties"]["referrer"] == {"anyOf": [{"$ref": "#/$defs/Customer"}, {"type": "null"}],
                                                  "default": None}
    assert customer["required"] == ["id", "address"]
    assert schema["$defs"]["Strict"]["additionalProperties"] is False
    assert_valid_schema(
        schema,
        valid=({"filters": {"customer": "c"}, "address": {"street": "s"}, "lines": [{"sku": "a"}],
                "category": {"name": "n", "children": [{"name": "m"}]},
                "customer": {"id": "abc", "address": {"street": "s"}, "referrer": {"id": "xyz",
                                                                                  "address": {"street": "t"}}},
                "strict": {}},),
        invalid=({"filters": {}, "address": {"street": "s"}, "lines": [], "category": {"name": "n"},
                  "customer": {"id": "abc", "address": {"street": "s"}}, "strict": {}},),
    )


def test_def_name_clash_is_disambiguated_deterministically():
    First = dataclasses.make_dataclass("Item", [("a", int)])
    Second = dataclasses.make_dataclass("Item", [("b", str)])

    def f(x: First, y: Second, z: list[First]) -> None:
        pass

    schema = input_schema(f)
    assert schema["properties"]["x"] == {"$ref": "#/$defs/Item"}
    assert schema["properties"]["y"] == {"$ref": "#/$defs/Item2"}
    assert schema["properties"]["z"]["items"] == {"$ref": "#/$defs/Item"}
    assert list(schema["$defs"]["Item2"]["properties"]) == ["b"]


def test_forward_reference_string_without_future_import():
    def f(c: "Category", n: "Optional[int]" = None) -> None:
        pass

    schema = input_schema(f)
    assert schema["properties"]["c"] == {"$ref": "#/$defs/Category"}
    assert schema["properties"]["n"]["anyOf"] == [{"type": "integer"}, {"type": "null"}]


def test_unknown_type_is_empty_schema():
    class Opaque:
        pass

    assert schema_for(Opaque) == {}
    assert schema_for(None) == {"type": "null"}


def test_dataclass_field_metadata_description():
    @dataclasses.dataclass
    class Box:
        width: int = dataclasses.field(default=1, metadata={"description": "In centimetres."})

    assert schema_for(Box)["$defs"]["Box"]["properties"]["width"] == {
        "type": "integer", "description": "In centimetres.", "default": 1}


def test_generic_pydantic_model_def_name_is_a_valid_pointer_token():
    from typing import Generic, TypeVar

    T = TypeVar("T")

    class Page(BaseModel, Generic[T]):
        items: list[T]

    schema = schema_for(Page[int])
    assert schema["$ref"] == "#/$defs/Page_int"
    assert schema["$defs"]["Page_int"]["properties"]["items"] == {"type": "array", "items": {"type": "integer"}}
    assert_valid_schema(schema, valid=({"items": [1]},), invalid=({"items": ["x"]},))


@pytest.mark.parametrize(
    ("name", "expected"),
    [("search_orders", "search-orders"), ("Get_User_V2", "get-user-v2"), ("_private", "-private"),
     ("a.b", "a.b"), ("café", "caf-"), ("__", "--"), ("", "tool")],
)
def test_tool_name(name, expected):
    from enterprise_ai.tools import tool_name

    def f():
        pass

    f.__name__ = name
    assert tool_name(f) == expected


def test_pydantic_dataclass_field_defaults():
    import pydantic.dataclasses

    @pydantic.dataclasses.dataclass
    class Query:
        text: str = Field(description="Search text.", min_length=1)
        page: int = Field(1, ge=1)

    schema = schema_for(Query)["$defs"]["Query"]
    assert schema["properties"] == {"text": {"type": "string", "minLength": 1, "description": "Search text."},
                                    "page": {"type": "integer", "minimum": 1, "default": 1}}
    assert schema["required"] == ["text"]
