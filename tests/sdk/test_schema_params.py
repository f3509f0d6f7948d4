"""Issue 2, point 3, bullets 1-3: required, defaults, and which parameters are skipped."""

from __future__ import annotations

import dataclasses
import datetime
import enum
import functools
import pathlib
import uuid
from typing import Annotated, Optional

import pytest
from pydantic import BaseModel, Field

from enterprise_ai.tools import LocalTool, input_schema, tool
from tests.sdk.helpers import assert_valid_schema


class Mode(str, enum.Enum):
    FAST = "fast"
    SAFE = "safe"


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 2


class Opaque:
    pass


# --- required ------------------------------------------------------------------------------------

def test_required_is_exactly_the_parameters_without_default():
    def f(a: int, b: Optional[int], c: Optional[int] = None, d: str = "x", *, e: float, g: bool = False):
        pass

    schema = input_schema(f)
    assert schema["required"] == ["a", "b", "e"]
    assert schema["properties"]["b"] == {"anyOf": [{"type": "integer"}, {"type": "null"}]}
    assert schema["properties"]["c"] == {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": None}
    assert_valid_schema(schema, valid=({"a": 1, "b": None, "e": 1.5},), invalid=({"a": 1, "e": 1.0},))


def test_no_parameters_gives_empty_properties_and_required():
    def f():
        pass

    assert input_schema(f) == {"type": "object", "properties": {}, "required": [], "additionalProperties": False}


# --- defaults ------------------------------------------------------------------------------------

def test_json_defaults_are_copied():
    def f(
        mode: Mode = Mode.SAFE,
        level: Level = Level.HIGH,
        nothing: Optional[str] = None,
        pair: tuple[int, int] = (1, 2),
        tags: set[str] = {"b", "a"},
        frozen: frozenset[int] = frozenset({3, 1, 2}),
        where: pathlib.Path = pathlib.Path("/var/data"),
        count: int = 3,
        ratio: float = 0.5,
        flag: bool = True,
        labels: dict[str, int] = {"x": 1},
        names: list[str] = ["n"],
    ):
        pass

    props = input_schema(f)["properties"]
    assert props["mode"]["default"] == "safe"
    assert props["level"]["default"] == 2
    assert props["nothing"]["default"] is None
    assert props["pair"]["default"] == [1, 2]
    assert props["tags"]["default"] == ["a", "b"]  # sorted: deterministic
    assert props["frozen"]["default"] == [1, 2, 3]
    assert props["where"]["default"] == "/var/data"
    assert [props[k]["default"] for k in ("count", "ratio", "flag")] == [3, 0.5, True]
    assert props["labels"]["default"] == {"x": 1}
    assert props["names"]["default"] == ["n"]
    assert input_schema(f)["required"] == []


def test_non_json_defaults_are_left_out_without_crashing():
    sentinel = Opaque()

    def f(a: object = sentinel, b: float = float("nan"), c: tuple = (1, Opaque()), d=lambda: 1, e: dict = {1: "x"}):
        pass

    schema = input_schema(f)
    assert schema["required"] == []
    for name in "abcde":
        assert "default" not in schema["properties"][name], name
    assert_valid_schema(schema)


# --- skipped parameters -----------------------------------------------------------------------------

def f_varargs(args: int, kwargs: str, *rest: int, **options: str) -> None:
    """A parameter called args stays; *rest and **options go."""


class Service:
    def method(self, query: str, limit: int = 5) -> None:
        pass

    @classmethod
    def build(cls, name: str) -> None:
        pass

    @staticmethod
    def static(value: int) -> None:
        pass

    def __call__(self, item: str) -> None:
        pass

    @tool
    def decorated(self, text: str) -> str:
        return text.upper()


def test_star_args_and_kwargs_are_skipped_by_kind_not_name():
    schema = input_schema(f_varargs)
    assert list(schema["properties"]) == ["args", "kwargs"]
    assert schema["required"] == ["args", "kwargs"]


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        (Service().method, ["query", "limit"]),
        (Service.build, ["name"]),
        (Service().build, ["name"]),
        (Service.static, ["value"]),
        (Service(), ["item"]),
        (Service.__dict__["build"], ["name"]),  # the classmethod object itself
    ],
    ids=["bound-method", "classmethod", "classmethod-via-instance", "staticmethod", "callable-object",
         "raw-classmethod"],
)
def test_self_and_cls_are_skipped_for_methods_and_callables(target, expected):
    assert list(input_schema(target)["properties"]) == expected


def test_tool_decorated_method_skips_self_and_binds():
    assert list(Service.decorated.input_schema["properties"]) == ["text"]
    bound = Service().decorated
    assert isinstance(bound, LocalTool)
    assert list(bound.input_schema["properties"]) == ["text"]
    assert bound.invoke({"text": "ab"}) == "AB"


def test_partial_of_method_keeps_remaining_parameters():
    schema = input_schema(functools.partial(Service().method, "q"))
    assert list(schema["properties"]) == ["limit"]
    assert schema["required"] == []


def test_pydantic_field_as_default_gives_description_constraints_and_default():
    def f(limit: int = Field(10, ge=1, description="Max rows."), name: str = Field(description="Who.")):
        return limit, name

    schema = input_schema(f)
    assert schema["properties"]["limit"] == {"type": "integer", "minimum": 1, "description": "Max rows.",
                                             "default": 10}
    assert schema["required"] == ["name"]
    t = tool(f)
    assert t.invoke({"name": "n"}) == (10, "n")


def test_structured_defaults_are_serialised():
    @dataclasses.dataclass
    class Window:
        days: int = 7

    class Paging(BaseModel):
        size: int = 10

    def f(
        window: object = Window(),
        paging: object = Paging(),
        start: datetime.date = datetime.date(2024, 1, 31),
        key: uuid.UUID = uuid.UUID(int=1),
        mode: tuple[Mode, ...] = (Mode.FAST, Mode.SAFE),
    ):
        pass

    props = input_schema(f)["properties"]
    assert props["window"]["default"] == {"days": 7}
    assert props["paging"]["default"] == {"size": 10}
    assert props["start"]["default"] == "2024-01-31"
    assert props["key"]["default"] == "00000000-0000-0000-0000-000000000001"
    assert props["mode"]["default"] == ["fast", "safe"]


def test_constraints_on_optional_apply_to_the_non_null_member():
    def f(limit: Annotated[Optional[int], Field(ge=1, description="Max.")] = None):
        pass

    assert input_schema(f)["properties"]["limit"] == {
        "anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}], "description": "Max.", "default": None}


class Registry:
    prefix = "r"

    @tool
    @classmethod
    def lookup(cls, key: str) -> str:
        return f"{cls.prefix}:{key}"

    @tool
    @staticmethod
    def plain(key: str) -> str:
        return key * 2


def test_tool_over_classmethod_and_staticmethod():
    assert list(Registry.lookup.input_schema["properties"]) == ["key"]
    assert Registry.lookup.invoke({"key": "k"}) == "r:k"
    assert Registry().lookup("k") == "r:k"
    assert list(Registry.plain.input_schema["properties"]) == ["key"]
    assert Registry.plain.invoke({"key": "ab"}) == "abab"
    assert Registry.plain.name == "plain" and Registry.lookup.name == "lookup"


def test_static_tool_through_an_instance():
    through_instance = Registry().plain
    assert list(through_instance.input_schema["properties"]) == ["key"]
    assert through_instance.invoke({"key": "x"}) == "xx"
