"""Review: $ref tricks in embedded schemas, meta-schema findings, rule selection (check_manifest level)."""

from __future__ import annotations

import copy

import pytest

from enterprise_ai.validate import RULES, check_manifest
from enterprise_ai.validate.findings import select_rules
from tests.validate.conftest import BASE


def with_input(schema):
    doc = copy.deepcopy(BASE)
    doc["spec"]["input_schema"] = schema
    return doc


def found(doc, **kw):
    return [(f.rule, f.pointer) for f in check_manifest(doc, **kw)]


@pytest.mark.parametrize("where", [
    {"properties": {"a": {"$id": "http://127.0.0.1:9/y.json", "$ref": "#/$defs/x"}}},
    {"properties": {"a": {"$id": "y.json", "properties": {"b": {"$ref": "#/$defs/x"}}}}},
])
def test_an_embedded_id_that_rebases_local_refs_is_refused(where):
    schema = {"type": "object", "$defs": {"x": {"type": "string"}}, **where}
    rules = found(with_input(schema))
    assert ("schema.remote-ref", "/spec/input_schema/properties/a/$id") in rules, rules


def test_a_root_id_keeps_local_refs_local():
    schema = {"$id": "https://example.com/s.json", "type": "object", "$defs": {"x": {"type": "string"}},
              "properties": {"a": {"$ref": "#/$defs/x"}}}
    assert found(with_input(schema)) == []


def test_the_empty_ref_is_the_root_schema_not_a_remote_one():
    schema = {"type": "object", "properties": {"self": {"$ref": ""}}}
    assert found(with_input(schema)) == []


@pytest.mark.parametrize(("ref", "rule"), [
    ("#/$defs/missing", "schema.dangling-ref"),
    ("other.json#/x", "schema.remote-ref"),
    ("urn:example:thing", "schema.remote-ref"),
    ("https://json-schema.org/draft/2020-12/schema", "schema.remote-ref"),
    ("#/properties/a~1b", None),  # RFC 6901 escape of "a/b"
    ("#/properties/a~0c", None),  # and of "a~c"
])
def test_refs(ref, rule):
    schema = {"type": "object", "properties": {"a/b": {"type": "string"}, "a~c": {"type": "string"},
                                                "r": {"$ref": ref}}}
    expected = [] if rule is None else [(rule, "/spec/input_schema/properties/r/$ref")]
    assert found(with_input(schema)) == expected


def test_dynamic_ref_needs_a_dynamic_anchor():
    schema = {"type": "object", "properties": {"a": {"$dynamicRef": "#meta"}}}
    assert found(with_input(schema)) == [("schema.dangling-ref", "/spec/input_schema/properties/a/$dynamicRef")]
    schema["$dynamicAnchor"] = "meta"
    assert found(with_input(schema)) == []


def test_meta_schema_findings_are_not_repeated():
    schema = {"type": "object", "properties": {"a": {"items": [{"type": "string"}]}}}
    rules = found(with_input(schema))
    assert rules == [("schema.meta", "/spec/input_schema/properties/a/items")], rules


def test_type_message_uses_the_right_article():
    doc = with_input(True)
    messages = [f.message for f in check_manifest(doc)]
    assert any("give an object" in m for m in messages), messages


@pytest.mark.parametrize("rule", sorted(r for r in RULES if not RULES[r].loading))
def test_every_rule_can_be_disabled_and_enabled(rule):
    assert rule not in select_rules(disabled=[rule])
    assert rule in select_rules(enabled=[rule])


@pytest.mark.parametrize("rule", sorted(r for r in RULES if RULES[r].loading and r != "load.empty"))
def test_disabling_a_loading_rule_is_an_error_not_silently_ignored(rule):
    with pytest.raises(ValueError, match="cannot be disabled"):
        select_rules(disabled=[rule])


def test_the_empty_file_warning_can_be_disabled():
    assert "load.empty" not in select_rules(disabled=["load.empty"])
