"""Review: YAML and JSON subtleties a CI pipeline meets (defects found by the validate review)."""

from __future__ import annotations

import json

import pytest

from enterprise_ai.validate import Finding, LoadError, check_manifest, iter_documents, load_documents
from tests.validate.conftest import BASE, BASE_YAML


def items(text: str | bytes, kind: str = "yaml") -> list:
    data = text.encode("utf-8") if isinstance(text, str) else text
    return list(iter_documents(data, source=f"m.{kind}", kind=kind))


def findings(text: str | bytes, kind: str = "yaml") -> list[tuple[str, int | None, int | None, str]]:
    return [(f.rule, f.line, f.column, f.pointer) for f in items(text, kind) if isinstance(f, Finding)]


def datas(text: str | bytes, kind: str = "yaml") -> list:
    return [d.data for d in items(text, kind) if not isinstance(d, Finding)]


@pytest.mark.parametrize(
    ("text", "line", "column", "pointer"),
    [
        ("a: 1\n1: x\n", 2, 1, ""),
        ("a:\n  null: y\n", 2, 3, "/a"),
        ("~: y\n", 1, 1, ""),
        ("true: y\n", 1, 1, ""),
        ("1.5: y\n", 1, 1, ""),
        ("!!int 7: y\n", 1, 1, ""),
    ],
)
def test_a_key_that_is_not_a_string_is_refused(text, line, column, pointer):
    found = findings(text)
    assert found == [("load.ambiguous", line, column, pointer)], found
    message = [f for f in items(text) if isinstance(f, Finding)][0].message
    assert "quote" in message


def test_quoted_keys_that_look_like_numbers_are_strings():
    assert datas('"1": x\n\'null\': y\n!!str 2: z\n') == [{"1": "x", "null": "y", "2": "z"}]


def test_a_merge_key_is_refused_not_taken_as_a_plain_key():
    found = findings("a: {x: 1}\nb:\n  <<: {y: 2}\n  z: 3\n")
    assert found == [("load.ambiguous", 3, 3, "/b")]
    assert datas('b:\n  "<<": 1\n') == [{"b": {"<<": 1}}]  # quoted: an ordinary key


@pytest.mark.parametrize("value", ["0777", "-012", "+00"])
def test_a_leading_zero_integer_is_ambiguous(value):
    # YAML 1.1 (PyYAML.safe_load, many tools) reads 0777 as octal 511; YAML 1.2 as 777.
    assert findings(f"a: 1\nb: {value}\n") == [("load.ambiguous", 2, 4, "/b")]


def test_unambiguous_numbers_still_load():
    assert datas("a: 0\nb: -0\nc: 0.5\nd: 0o17\ne: 10\nf: 0.0\n") == [
        {"a": 0, "b": 0, "c": 0.5, "d": 15, "e": 10, "f": 0.0}
    ]


def test_a_nul_byte_has_a_line_and_column():
    found = findings("a: 1\nb: x\x00y\n")
    assert found == [("load.encoding", 2, 5, "")], found


def test_utf16_without_a_bom_is_named():
    found = [f for f in items("a: 1\n".encode("utf-16-le")) if isinstance(f, Finding)]
    assert [(f.rule, f.line) for f in found] == [("load.encoding", 1)]
    assert "UTF-16" in found[0].message


def test_utf32_is_not_called_utf16():
    found = [f for f in items("a: 1\n".encode("utf-32")) if isinstance(f, Finding)]
    assert [f.rule for f in found] == ["load.encoding"] and "UTF-32" in found[0].message


@pytest.mark.parametrize("kind", ["yaml", "json"])
def test_a_bom_in_the_middle_is_named_with_its_line(kind):
    text = "a: 1\n\ufeffb: 2\n" if kind == "yaml" else '{"a": 1,\n\ufeff"b": 2}'
    found = [f for f in items(text, kind) if isinstance(f, Finding)]
    assert [(f.rule, f.line, f.column) for f in found] == [("load.encoding", 2, 1)]
    assert "byte order mark" in found[0].message


@pytest.mark.parametrize("escape", ["\\ud800", "\\udfff", "x\\ud83dy"])
def test_a_lone_surrogate_escape_in_json_is_refused_with_its_position(escape):
    text = '{"a": 1,\n "b": "' + escape + '"}'
    column = text.split("\n")[1].index("\\u") + 1  # the escape itself
    assert findings(text, "json") == [("load.encoding", 2, column, "/b")]


def test_a_surrogate_pair_in_json_is_fine():
    assert datas('{"a": "\\ud83d\\ude00"}', "json") == [{"a": "\U0001F600"}]


def test_a_lone_surrogate_in_a_json_key_is_refused():
    found = findings('{"a": {"\\ud800": 1}}', "json")
    assert [f[0] for f in found] == ["load.encoding"]


def test_yaml_leaves_timestamps_sexagesimals_and_underscores_as_strings():
    assert datas("a: 2026-01-01\nb: 1:30\nc: 1_000\nd: 2026-01-01T10:00:00Z\n") == [
        {"a": "2026-01-01", "b": "1:30", "c": "1_000", "d": "2026-01-01T10:00:00Z"}
    ]


def test_multi_document_files_with_empty_and_comment_only_documents():
    text = "---\n# only a comment\n---\n---\na: 1\n---\nb: |\n  ---\n  text\n"
    assert datas(text) == [{"a": 1}, {"b": "---\ntext\n"}]


def test_crlf_positions_are_the_same_as_lf():
    lf = findings("a: 1\nb:\n  c: 1\n  c: 2\n")
    crlf = findings("a: 1\r\nb:\r\n  c: 1\r\n  c: 2\r\n")
    assert lf == crlf == [("load.duplicate-key", 4, 3, "/b/c")]


def test_load_documents_raises_for_an_ambiguous_key():
    with pytest.raises(LoadError) as info:
        load_documents(b"1: x\n", source="m.yaml")
    assert "m.yaml:1:1" in str(info.value) and "load.ambiguous" in str(info.value)


def test_schema_messages_show_json_literals_not_python_reprs():
    doc = json.loads(json.dumps(BASE))
    doc["metadata"]["owner"] = None
    doc["spec"]["description"] = True
    messages = " ".join(f.message for f in check_manifest(doc))
    assert "None" not in messages and "True" not in messages, messages
    assert "null" in messages and "true" in messages


def test_base_yaml_still_loads():
    assert len(datas(BASE_YAML)) == 1


def _json_kind_position(text: str) -> tuple[int | None, int | None]:
    from enterprise_ai.validate.checker import check_document
    from enterprise_ai.validate.findings import select_rules

    (document,) = [d for d in items(text, "json") if not isinstance(d, Finding)]
    found = [f for f in check_document(document, select_rules(), False) if f.pointer == "/kind"]
    return found[0].line, found[0].column


@pytest.mark.parametrize("text", [
    json.dumps({"description": "smile \U0001F600", "kind": "X"}),           # json.dumps writes a surrogate pair
    json.dumps({"description": "a\u2028b\x85c", "kind": "X"}, ensure_ascii=False),  # not line breaks in JSON
    json.dumps({"k" * 1100: 1, "kind": "X"}),                                # longer than a YAML simple key
    '{"x\\/y": 1, "kind": "X"}',
])
def test_json_positions_survive_what_yaml_reads_differently(text):
    assert _json_kind_position(text) == (1, text.index('"kind"') + 1)


def test_json_duplicate_keys_on_one_line_name_both_columns():
    text = '{"a": {"b": 1, "b": 2}}'
    (finding,) = [f for f in items(text, "json") if isinstance(f, Finding)]
    assert (finding.rule, finding.line, finding.column, finding.pointer) == ("load.duplicate-key", 1, 16, "/a/b")
    assert "first at line 1, column 8" in finding.message


@pytest.mark.parametrize("char", ["\x85", "\u2028", "\u2029"])
def test_yaml_11_line_breaks_are_refused_not_counted_as_lines(char):
    # PyYAML counts them as line breaks (YAML 1.1), editors and YAML 1.2 do not: every line after would be off.
    text = f"a: 'x{char}y'\nb: 1\n"
    assert findings(text) == [("load.ambiguous", 1, 6, "")]
    assert datas(f'a: "x\\Ly"\n') == [{"a": "x\u2028y"}]  # the escape is fine


def test_a_yaml_11_directive_is_refused_and_12_accepted():
    assert findings("%YAML 1.1\n---\ncountry: NO\n") == [("load.ambiguous", 1, 1, "")]
    assert datas("%YAML 1.2\n---\ncountry: NO\n") == [{"country": "NO"}]
