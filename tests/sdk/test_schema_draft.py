"""Issue 2, point 3, last bullet: valid Draft 2020-12, root shape, no $schema, no title noise; output schema."""

from __future__ import annotations

import dataclasses
import datetime
import enum
import uuid
from pathlib import Path
from typing import Annotated, Any, Literal, Optional

import pytest
from pydantic import AnyUrl, BaseModel, Field
from typing_extensions import TypedDict

from enterprise_ai.tools import LocalTool, input_schema, schema_for
from tests.sdk.helpers import assert_valid_schema, walk


class Tier(enum.IntEnum):
    FREE = 0
    PRO = 1


class Meta(TypedDict, total=False):
    source: str


@dataclasses.dataclass
class Tree:
    label: str
    kids: list[Tree] = dataclasses.field(default_factory=list)


class Account(BaseModel):
    name: str = Field(title="Account name", description="Shown to users.")
    tier: Tier = Tier.FREE
    meta: Meta = {}
    tree: Optional[Tree] = None
    site: Optional[AnyUrl] = None


def kitchen_sink(
    account: Account,
    ids: list[uuid.UUID],
    window: tuple[datetime.date, datetime.date],
    mode: Literal["a", "b"] = "a",
    weights: dict[str, float] = {},
    folder: Path = Path("out"),
    limit: Annotated[int, Field(ge=1, le=10, title="Limit")] = 5,
    extra: Any = None,
) -> Account:
    """Everything at once."""


def test_root_shape_and_meta_schema():
    schema = input_schema(kitchen_sink)
    assert list(schema)[:4] == ["type", "properties", "required", "additionalProperties"]
    assert schema["type"] == "object" and schema["additionalProperties"] is False
    assert "$schema" not in schema
    assert_valid_schema(
        schema,
        valid=({"account": {"name": "n", "tier": 1, "tree": {"label": "r", "kids": [{"label": "k"}]},
                            "site": "https://example.com"},
                "ids": ["12345678-1234-5678-1234-567812345678"], "window": ["2024-01-01", "2024-02-01"]},),
        invalid=({"account": {"name": "n"}, "ids": [], "window": ["2024-01-01"]},
                 {"account": {"name": "n", "tier": 3}, "ids": [], "window": ["2024-01-01", "2024-01-02"]},
                 {"account": {"name": "n"}, "ids": [], "window": ["2024-01-01", "2024-01-02"], "zzz": 1}),
    )


def test_no_title_anywhere_even_explicit_ones():
    schema = input_schema(kitchen_sink)
    assert_valid_schema(schema)  # checks every node for title and $schema
    text = repr(schema)
    assert "Account name" not in text and "'Limit'" not in text
    assert schema["properties"]["limit"] == {"type": "integer", "minimum": 1, "maximum": 10, "default": 5}
    assert schema["$defs"]["Account"]["properties"]["name"] == {"type": "string", "description": "Shown to users."}


def test_every_ref_resolves_and_defs_are_at_root_only():
    schema = input_schema(kitchen_sink)
    assert sorted(schema["$defs"]) == ["Account", "Meta", "Tree"]
    for where, node in walk(schema):
        if where != "#":
            assert "$defs" not in node, where


def test_properties_present_even_when_empty():
    assert input_schema(lambda: None)["properties"] == {}
    assert_valid_schema(input_schema(lambda: None), valid=({},), invalid=({"x": 1},))


def test_pydantic_leaf_types_have_no_title():
    assert schema_for(AnyUrl) == {"type": "string", "format": "uri", "minLength": 1}


@pytest.mark.parametrize(
    ("fn", "expected"),
    [
        (lambda: None, None),
        (kitchen_sink, {"$ref": "#/$defs/Account"}),
    ],
)
def test_output_schema_from_return_annotation(fn, expected):
    out = LocalTool(fn).output_schema
    if expected is None:
        assert out is None
    else:
        assert {k: v for k, v in out.items() if k != "$defs"} == expected
        assert_valid_schema(out)


def test_output_schema_none_for_none_return():
    def f() -> None:
        pass

    def g(x: int) -> Optional[str]:
        return None

    assert LocalTool(f).output_schema is None
    assert "output_schema" not in LocalTool(f).manifest()["spec"]
    assert LocalTool(g).output_schema == {"anyOf": [{"type": "string"}, {"type": "null"}]}


def test_pydantic_leaf_formats_outside_draft_2020_12_are_dropped():
    from pydantic import FilePath, SecretStr

    assert schema_for(SecretStr) == {"type": "string", "writeOnly": True}
    assert schema_for(FilePath) == {"type": "string", "format": "path"}  # pydantic's "file-path" dropped


def test_generated_manifests_pass_eai_tools_validate_strict():
    from enterprise_ai.validate import check_manifest

    import tests.sdk.test_schema_types as types_module

    for fn in (kitchen_sink, types_module.order, types_module._with_formats):
        findings = check_manifest(LocalTool(fn, name="formats").manifest(), strict=True)
        assert [(f.rule, f.message) for f in findings] == [], fn.__name__
