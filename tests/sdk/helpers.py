"""Shared checks for the SDK schema tests."""

from __future__ import annotations

import importlib.util
import sys
import textwrap
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator


def walk(node: Any, path: str = "#"):
    """Yield (json-pointer-ish path, dict) for every dict in a JSON document."""
    if isinstance(node, dict):
        yield path, node
        for key, value in node.items():
            yield from walk(value, f"{path}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from walk(value, f"{path}/{i}")


def assert_valid_schema(schema: dict[str, Any], valid: tuple = (), invalid: tuple = ()) -> None:
    """Draft 2020-12 meta-schema check, no title/$schema noise, every $ref local and resolving, samples."""
    Draft202012Validator.check_schema(schema)
    defs = schema.get("$defs", {})
    for where, node in walk(schema):
        assert "$schema" not in node, where
        if "properties" in node:
            assert not any(k == "title" for k in node if k != "properties"), where
        else:
            assert "title" not in node, where
        if "$ref" in node:
            ref = node["$ref"]
            assert ref.startswith("#/$defs/"), ref
            assert ref.removeprefix("#/$defs/") in defs, f"dangling {ref} at {where}"
    validator = Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)
    for instance in valid:
        errors = list(validator.iter_errors(instance))
        assert not errors, (instance, [e.message for e in errors])
    for instance in invalid:
        assert list(validator.iter_errors(instance)), f"{instance!r} should be invalid"


def load_module(tmp_path: Path, name: str, source: str):
    """Write ``source`` to ``tmp_path/<name>.py`` and import it under a unique module name."""
    file = tmp_path / f"{name}.py"
    file.write_text(textwrap.dedent(source), encoding="utf-8")
    module_name = f"_eai_sdk_test_{name}_{abs(hash(str(tmp_path)))}"
    spec = importlib.util.spec_from_file_location(module_name, file)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module
