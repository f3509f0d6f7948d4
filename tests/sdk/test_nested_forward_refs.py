"""Strings left inside annotations (``list["Node"]``) resolve the same on every Python version.

Python 3.10's ``typing.get_type_hints`` leaves such strings unevaluated inside builtin generics,
3.11 evaluates them; the schema builder evaluates what is left against the function's module and
the class being walked, and still refuses a name that exists nowhere.
"""

from __future__ import annotations

import dataclasses

import pytest

from enterprise_ai.tools import ToolDefinitionError
from enterprise_ai.tools._typeschema import Builder


@dataclasses.dataclass
class Node:
    label: str
    kids: list[Node] = dataclasses.field(default_factory=list)


def test_a_string_inside_a_builtin_generic_resolves_against_the_given_module():
    builder = Builder(owner="walk", globalns={"Node": Node})
    schema = builder.document(builder.schema(list["Node"]))
    assert schema["items"] == {"$ref": "#/$defs/Node"}
    assert schema["$defs"]["Node"]["properties"]["kids"] == {"type": "array", "items": {"$ref": "#/$defs/Node"}}


def test_a_string_naming_nothing_is_still_an_error_naming_it():
    builder = Builder(owner="walk", globalns={"Node": Node})
    with pytest.raises(ToolDefinitionError) as info:
        builder.schema(list["Missing"])
    assert info.value.unresolved == "Missing" and "'Missing'" in info.value.message


def test_without_a_module_a_string_is_an_error():
    with pytest.raises(ToolDefinitionError):
        Builder(owner="walk").schema(list["Node"])
