"""Review of the schema builder (issue 2, point 3): the cases that were wrong, then gaps in coverage.

Each ``test_bug_*`` failed before the review fix it names.
"""

from __future__ import annotations

import dataclasses
import datetime
import decimal
import enum
import pathlib
from collections.abc import Mapping, Sequence
from typing import Generic, Optional, TypeVar

import pytest
import yaml
from pydantic import AliasChoices, BaseModel, Field

from enterprise_ai.tools import LocalTool, input_schema, schema_for, tool
from tests.sdk.helpers import assert_valid_schema, walk

T = TypeVar("T")


class Page(BaseModel, Generic[T]):
    items: list[T]
    next: Optional[Page[T]] = None


class Left(BaseModel, Generic[T]):
    value: T
    right: Optional[Right[T]] = None


class Right(BaseModel, Generic[T]):
    left: Optional[Left[T]] = None


RightInt = Right[int]  # built first: Left[int] is parametrized inside it and keeps a recursive reference


def _defs_only_at_root(schema: dict) -> None:
    for where, node in walk(schema):
        if where != "#":
            assert "$defs" not in node, where


# ------------------------------------------------------------------------------------------ bugs

def test_bug_path_has_the_path_format_and_passes_validation():
    def save(folder: pathlib.Path = pathlib.Path("out/reports")) -> None:
        """Save."""

    schema = input_schema(save)
    assert schema["properties"]["folder"] == {"type": "string", "format": "path", "default": "out/reports"}
    assert schema_for(pathlib.PurePosixPath) == {"type": "string", "format": "path"}
    from enterprise_ai.validate import check_manifest

    findings = check_manifest(LocalTool(save).manifest(), strict=True)
    assert [(f.rule, f.message) for f in findings] == []  # no schema.unknown-format for "path"


def test_bug_self_referencing_generic_model_keeps_its_reference():
    # was: "next": {"default": null} (pydantic's PydanticRecursiveRef was read as an unknown type)
    schema = schema_for(Page[int])
    assert schema["$defs"]["Page_int"]["properties"]["next"] == {
        "anyOf": [{"$ref": "#/$defs/Page_int"}, {"type": "null"}], "default": None}
    assert_valid_schema(schema, valid=({"items": [1], "next": {"items": [2]}},),
                        invalid=({"items": [1], "next": {"items": ["x"]}},))


def test_bug_mutually_recursive_generic_models_resolve_even_alone():
    alone = schema_for(Left[int])  # Left[int] was built inside Right[int]: its reference is not on our stack
    assert alone["$defs"]["Left_int"]["properties"]["right"]["anyOf"][0] == {"$ref": "#/$defs/Right_int"}
    assert alone["$defs"]["Right_int"]["properties"]["left"]["anyOf"][0] == {"$ref": "#/$defs/Left_int"}
    assert_valid_schema(alone, valid=({"value": 1, "right": {"left": {"value": 2}}},),
                        invalid=({"value": 1, "right": {"left": {"value": "x"}}},))
    _defs_only_at_root(alone)


class Perm(enum.Flag):
    READ = 1
    WRITE = 2


def test_bug_flag_enum_accepts_combinations():
    def grant(perm: Perm = Perm.READ | Perm.WRITE) -> None:
        pass

    schema = input_schema(grant)
    assert schema["properties"]["perm"] == {"type": "integer", "default": 3}  # was enum [1, 2] with default 3
    assert_valid_schema(schema, valid=({"perm": 3},), invalid=({"perm": "READ"},))


def test_bug_enum_of_tuples_has_a_type():
    class Size(enum.Enum):
        SMALL = (1, 2)
        LARGE = (3, 4)

    assert schema_for(Size) == {"type": "array", "enum": [[1, 2], [3, 4]]}


def test_bug_dataclass_initvar_is_an_input():
    @dataclasses.dataclass
    class Job:
        name: str
        retries: dataclasses.InitVar[int] = 0

        def __post_init__(self, retries: int) -> None:
            self.attempts = retries + 1

    schema = schema_for(Job)["$defs"]["Job"]
    assert schema["properties"] == {"name": {"type": "string"}, "retries": {"type": "integer", "default": 0}}
    assert schema["required"] == ["name"]


def test_bug_defaults_of_str_and_int_subclasses_are_plain_json():
    class Label(str):
        pass

    class Count(int):
        pass

    def f(label: str = Label("x"), count: int = Count(2)) -> None:
        pass

    schema = input_schema(f)
    assert type(schema["properties"]["label"]["default"]) is str
    assert type(schema["properties"]["count"]["default"]) is int
    assert "default: x" in yaml.safe_dump(LocalTool(f).manifest())  # safe_dump refused the subclass


def test_bug_self_containing_default_does_not_crash():
    loop: list = []
    loop.append(loop)

    def f(items: list = loop, name: str = "n") -> None:
        pass

    schema = input_schema(f)
    assert "default" not in schema["properties"]["items"]
    assert schema["properties"]["name"]["default"] == "n"


def test_bug_timedelta_and_decimal_defaults_are_copied():
    def f(wait: datetime.timedelta = datetime.timedelta(minutes=1, seconds=30),
          price: decimal.Decimal = decimal.Decimal("9.90"), bad: decimal.Decimal = decimal.Decimal("NaN")) -> None:
        pass

    props = input_schema(f)["properties"]
    assert props["wait"] == {"type": "string", "format": "duration", "default": "PT1M30S"}
    assert props["price"]["default"] == "9.90"
    assert "default" not in props["bad"]
    assert_valid_schema(input_schema(f))


# ------------------------------------------------------------------------------ coverage gaps

def test_defaults_that_json_cannot_hold_are_left_out_without_crashing():
    class Opaque:
        def __eq__(self, other):  # noqa: D105 - hostile
            raise RuntimeError("no")

        __hash__ = None  # type: ignore[assignment]

    def f(a=lambda x: x, b=Opaque(), c: dict = {1: "x"}, d: float = float("inf"), e: bytes = b"\xff",  # noqa: B006
          f_: frozenset = frozenset({"b", "a"}), g: tuple = (1, "x"), h: datetime.date = datetime.date(2024, 5, 1)):
        pass

    props = input_schema(f)["properties"]
    assert all("default" not in props[k] for k in ("a", "b", "c", "d", "e"))
    assert props["f_"]["default"] == ["a", "b"] and props["g"]["default"] == [1, "x"]
    assert props["h"]["default"] == "2024-05-01"


@pytest.mark.skipif(not hasattr(enum, "StrEnum"), reason="enum.StrEnum is new in Python 3.11")
def test_str_enum_int_enum_and_mixed_enum():
    class Mode(enum.StrEnum):
        FAST = "fast"
        SAFE = "safe"

    class Level(enum.IntEnum):
        LOW = 1
        HIGH = 2

    class Mixed(enum.Enum):
        A = "a"
        ONE = 1
        NOTHING = None

    assert schema_for(Mode) == {"type": "string", "enum": ["fast", "safe"]}
    assert schema_for(Level) == {"type": "integer", "enum": [1, 2]}
    assert schema_for(Mixed) == {"type": ["string", "integer", "null"], "enum": ["a", 1, None]}


def test_collections_abc_and_dict_of_model_lists():
    class Line(BaseModel):
        sku: str

    assert schema_for(Mapping[str, int]) == {"type": "object", "additionalProperties": {"type": "integer"}}
    assert schema_for(Sequence[float]) == {"type": "array", "items": {"type": "number"}}
    schema = schema_for(dict[str, list[Line]])
    assert schema["additionalProperties"] == {"type": "array", "items": {"$ref": "#/$defs/Line"}}
    assert_valid_schema(schema, valid=({"a": [{"sku": "x"}]},), invalid=({"a": [{}]},))


def test_mutually_recursive_models_and_dataclasses():
    schema = schema_for(Writer)
    assert schema["$defs"]["Writer"]["properties"]["books"]["items"] == {"$ref": "#/$defs/Novel"}
    assert schema["$defs"]["Novel"]["properties"]["author"]["anyOf"][0] == {"$ref": "#/$defs/Writer"}
    assert_valid_schema(schema, valid=({"name": "a", "books": [{"heading": "t", "author": {"name": "b"}}]},),
                        invalid=({"name": "a", "books": [{"heading": 1}]},))
    _defs_only_at_root(schema)


@dataclasses.dataclass
class Writer:
    name: str
    books: list[Novel] = dataclasses.field(default_factory=list)


class Novel(BaseModel):
    heading: str
    author: Optional[Writer] = None


class Query(BaseModel):
    text: str = Field(validation_alias="q")
    page: int = Field(1, alias="Page", validation_alias=AliasChoices("p", "pg"))
    size: int = Field(10, alias="Size")


def test_bug_pydantic_validation_alias_names_the_property():
    schema = schema_for(Query)
    assert list(schema["$defs"]["Query"]["properties"]) == ["q", "p", "Size"]  # was text, Page, Size
    assert schema["$defs"]["Query"]["required"] == ["q"]

    @tool
    def find(query: Query) -> int:
        return query.page

    assert find.invoke({"query": {"q": "x", "p": "2"}}) == 2
