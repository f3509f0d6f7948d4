"""The safe loader: YAML and JSON refusals, positions, caps and encodings (issue 3, "Done when")."""

from __future__ import annotations

import json
import time
import tracemalloc
from pathlib import Path

import pytest

from enterprise_ai.validate import LoadError, iter_documents, load_documents
from enterprise_ai.validate.findings import Finding
from tests.validate.conftest import BASE, BASE_YAML

@pytest.fixture(autouse=True, params=["libyaml", "python"])
def parser(request, monkeypatch):
    """Every test runs with libyaml's parser and with PyYAML's pure-Python one (the fallback)."""
    import yaml

    from enterprise_ai.validate import _yaml_events

    if request.param == "python":
        monkeypatch.setattr(_yaml_events, "_Loader", yaml.SafeLoader)
    elif not getattr(yaml, "__with_libyaml__", False):
        pytest.skip("libyaml is not available")
    return request.param


BOMB = "".join(
    f"{name}: &{name} [{', '.join([f'*{prev}'] * 9) if prev else ', '.join(['lol'] * 9)}]\n"
    for prev, name in zip([None, *"abcdefgh"], "abcdefghi")
)


def findings(text: str | bytes, source: str = "m.yaml", **kw) -> list[Finding]:
    return [item for item in iter_documents(text, source=source, **kw) if isinstance(item, Finding)]


def test_plain_yaml_loads_with_positions():
    [doc] = load_documents(BASE_YAML, source="m.yaml")
    assert doc.data["spec"]["input_schema"]["required"] == ["customer_id"]
    assert (doc.source, doc.index) == ("m.yaml", 0)
    assert doc.position("/spec/action") == (9, 3)
    assert doc.position("/spec/input_schema/required/0") == (14, 16)
    assert doc.position("/spec/endpoint/missing") == doc.position("/spec/endpoint") == (17, 3)
    assert doc.position("") == (1, 1)


def test_duplicate_key_names_both_lines():
    [finding] = findings("a: 1\nb:\n  c: 2\n  c: 3\n")
    assert (finding.rule, finding.line, finding.column, finding.pointer) == ("load.duplicate-key", 4, 3, "/b/c")
    assert "line 4" in finding.message and "first at line 3" in finding.message


def test_alias_bomb_is_refused_fast_with_little_memory():
    tracemalloc.start()
    start = time.perf_counter()
    result = list(iter_documents(BOMB, source="bomb.yaml"))
    elapsed = time.perf_counter() - start
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert [(f.rule, f.line) for f in result] == [("load.alias", 1)]
    assert elapsed < 2 and peak < 5_000_000


def test_alias_alone_is_refused():
    [finding] = findings("a: 1\nb: *x\n")
    assert finding.rule in ("load.alias", "load.syntax")  # an undefined alias is a parse error in libyaml
    [finding] = findings("a: &x 1\nb: 2\n")
    assert (finding.rule, finding.line) == ("load.alias", 1)


def test_python_tag_constructs_nothing(tmp_path):
    marker = tmp_path / "pwned"
    text = f'owner: !!python/object/apply:os.system ["touch {marker}"]\nname: x\n'
    [finding] = findings(text)
    assert (finding.rule, finding.line, finding.pointer) == ("load.tag", 1, "/owner")
    assert not marker.exists()
    assert findings("a: !!python/name:os.system\n")[0].rule == "load.tag"
    assert findings("a: !custom 1\n")[0].rule == "load.tag"


def test_core_tags_are_allowed():
    [doc] = load_documents("a: !!str 3.10\nb: !!int '7'\nc: !!float 1\n", source="m.yaml")
    assert doc.data == {"a": "3.10", "b": 7, "c": 1.0}
    assert findings("a: !!int nope\n")[0].rule == "load.tag"


def test_yaml_12_booleans_and_numbers():
    [doc] = load_documents("country: NO\na: yes\nb: off\nc: on\nd: true\ne: False\nf: 3.10\ng: 0o17\nh: ~\ni: 1_000\nj: 2024-01-02\n",
                           source="m.yaml")
    assert doc.data == {"country": "NO", "a": "yes", "b": "off", "c": "on", "d": True, "e": False, "f": 3.1,
                        "g": 15, "h": None, "i": "1_000", "j": "2024-01-02"}
    assert doc.raw["/f"] == "3.10"


@pytest.mark.parametrize("value", [".nan", ".inf", "-.Inf", "1e999"])
def test_yaml_non_finite_numbers_are_refused(value):
    [finding] = findings(f"a: 1\nb: {value}\n")
    assert (finding.rule, finding.line) == ("load.non-finite", 2)


def test_bom_is_accepted_and_positions_unchanged():
    [doc] = load_documents(b"\xef\xbb\xbf" + BASE_YAML.encode(), source="bom.yaml")
    assert doc.data["metadata"]["name"] == "search-orders"
    assert doc.position("/spec/action") == (9, 3)


def test_latin1_file_is_a_clear_encoding_error(tmp_path):
    path = tmp_path / "latin1.yaml"
    path.write_bytes("name: x\nowner: ren\u00e9@example.com\n".encode("latin-1"))
    [finding] = findings(path, source=str(path))
    assert (finding.rule, finding.line, finding.column) == ("load.encoding", 2, 11)
    assert "UTF-8" in finding.message and "0xE9" in finding.message


def test_utf16_is_refused():
    [finding] = findings("a: 1\n".encode("utf-16"))
    assert finding.rule == "load.encoding" and "UTF-16" in finding.message


def test_size_cap(tmp_path):
    path = tmp_path / "big.yaml"
    path.write_text("# " + "x" * (2 * 1024 * 1024) + "\na: 1\n")
    [finding] = findings(path, source="big.yaml")
    assert (finding.rule, finding.line) == ("load.too-large", 1)
    assert "--max-bytes" in finding.message
    [doc] = load_documents(path, source="big.yaml", max_bytes=3 * 1024 * 1024)
    assert doc.data == {"a": 1}


@pytest.mark.parametrize("text", ["[" * 10_000 + "]" * 10_000, "a:\n" + "".join("  " * i + "- \n" for i in range(1, 100))])
def test_deep_yaml_is_refused(text):
    start = time.perf_counter()
    [finding] = findings(text)
    assert finding.rule == "load.too-deep" and finding.line is not None
    assert time.perf_counter() - start < 2


def test_deep_json_is_refused():
    text = '{"a": ' + "[" * 10_000 + "]" * 10_000 + "}"
    [finding] = findings(text, source="deep.json")
    assert finding.rule == "load.too-deep"
    [finding] = findings('{"a": ' + "[" * 70 + "]" * 70 + "}", source="deep.json")
    assert finding.rule == "load.too-deep"


def test_json_duplicate_keys_nan_infinity():
    text = '{\n  "a": 1,\n  "b": {"c": 1,\n    "c": 2}\n}\n'
    [finding] = findings(text, source="m.json")
    assert (finding.rule, finding.line, finding.pointer) == ("load.duplicate-key", 4, "/b/c")
    assert "first at line 3" in finding.message
    for bad, line in (('{\n"a": NaN}', 2), ('{"a":\n\n -Infinity}', 3), ('{"a": 1e400}', 1)):
        [finding] = findings(bad, source="m.json")
        assert (finding.rule, finding.line) == ("load.non-finite", line), bad


def test_json_syntax_error_position():
    [finding] = findings('{\n  "a": 1,\n}\n', source="m.json")
    assert (finding.rule, finding.line) == ("load.syntax", 3)


def test_json_positions_and_lists():
    text = json.dumps([BASE, BASE], indent=2)
    docs = load_documents(text, source="m.json")
    assert [d.index for d in docs] == [0, 1]
    line = text.splitlines().index('    "kind": "Tool",', 30) + 1
    assert docs[1].position("/kind") == (line, 5)


def test_a_refused_document_does_not_stop_the_next():
    text = "a: &x 1\n---\n" + BASE_YAML
    items = list(iter_documents(text, source="m.yaml"))
    assert isinstance(items[0], Finding) and items[0].document == 0
    assert items[1].index == 1 and items[1].data["kind"] == "Tool"
    assert items[1].position("/kind") == (4, 1)


def test_load_documents_raises_load_error():
    with pytest.raises(LoadError) as info:
        load_documents("a: 1\na: 2\n", source="dup.yaml")
    assert info.value.finding.rule == "load.duplicate-key"
    assert str(info.value).startswith("dup.yaml:2:1: duplicate key")


def test_empty_file_warns():
    [finding] = findings("# nothing\n---\n")
    assert (finding.rule, finding.severity) == ("load.empty", "warning")
    assert load_documents("", source="e.yaml") == []


def test_unreadable_path(tmp_path):
    [finding] = findings(tmp_path / "missing.yaml", source="missing.yaml")
    assert finding.rule == "load.read"


def test_non_string_keys_are_refused():
    assert findings("? [a, b]\n: 1\n")[0].rule == "load.syntax"


def test_path_objects_and_str_are_not_confused(tmp_path: Path):
    path = tmp_path / "m.yaml"
    path.write_text("a: 1\n")
    assert load_documents(path, source="m.yaml")[0].data == {"a": 1}
    assert load_documents(str(path), source="x.yaml")[0].data == str(path)
