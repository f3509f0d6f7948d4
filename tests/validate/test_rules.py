"""check_manifest: the schema, every rule beyond it, and the switches (disable, enable, strict)."""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator

import pytest

from enterprise_ai.validate import RULES, check_manifest, manifest_schema
from enterprise_ai.validate.schema import offline_registry


def rules_of(findings) -> list[tuple[str, str]]:
    return [(f.rule, f.pointer) for f in findings]


def test_valid_manifest_has_no_finding(manifest):
    assert check_manifest(manifest) == []


def test_local_tool_manifest_is_valid():
    tools = pytest.importorskip("enterprise_ai.tools")

    def search_orders(customer_id: str, limit: int = 10) -> list[dict]:
        """Search a customer's orders.

        :param customer_id: the customer.
        :param limit: at most this many orders.
        """
        return []

    local = tools.tool(search_orders)
    assert check_manifest(local.manifest()) == []
    assert check_manifest(local.manifest(endpoint={"type": "builtin", "handler": "echo"}, labels={"team": "x"})) == []


def test_schema_is_draft_2020_12_and_cached():
    schema = manifest_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "changed"
    assert manifest_schema()["title"] == "Tool Manifest v1"


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda m: m["spec"].update(action="remove"), ("manifest.schema", "/spec/action")),
        (lambda m: m["spec"].pop("endpoint"), ("manifest.schema", "/spec")),
        (lambda m: m["spec"].update(side_effect=True), ("manifest.schema", "/spec/side_effect")),
        (lambda m: m["metadata"].update(name="Bad_Name"), ("manifest.schema", "/metadata/name")),
        (lambda m: m["metadata"].update(version="1.0"), ("manifest.schema", "/metadata/version")),
        (lambda m: m["metadata"].update(labels={"a": ["x"]}), ("manifest.schema", "/metadata/labels/a")),
        (lambda m: m["metadata"].update(labels={"a": 1}), ("manifest.quote-string", "/metadata/labels/a")),
        (lambda m: m.update(apiVersion="v2"), ("manifest.schema", "/apiVersion")),
        (lambda m: m["metadata"].update(version=3.1), ("manifest.quote-string", "/metadata/version")),
        (lambda m: m["spec"]["input_schema"].update(type="objekt"), ("schema.meta", "/spec/input_schema/type")),
        (lambda m: m["spec"].update(output_schema={"type": "array", "items": {"minItems": -1}}),
         ("schema.meta", "/spec/output_schema/items/minItems")),
        (lambda m: m["spec"]["input_schema"]["properties"]["customer_id"].update(pattern="(["),
         ("schema.meta", "/spec/input_schema/properties/customer_id/pattern")),
        (lambda m: m["spec"]["input_schema"].update(type="array"), ("schema.input-object", "/spec/input_schema/type")),
        (lambda m: m["spec"]["input_schema"]["properties"].update(x={"$ref": "other.json#/a"}),
         ("schema.remote-ref", "/spec/input_schema/properties/x/$ref")),
        (lambda m: m["spec"]["input_schema"]["properties"].update(x={"$ref": "#/$defs/Nope"}),
         ("schema.dangling-ref", "/spec/input_schema/properties/x/$ref")),
        (lambda m: m["spec"]["input_schema"]["properties"].update(x={"type": "string", "format": "phone"}),
         ("schema.unknown-format", "/spec/input_schema/properties/x/format")),
        (lambda m: m["spec"]["endpoint"].update(url="file:///etc/passwd"), ("endpoint.http-url", "/spec/endpoint/url")),
        (lambda m: m["spec"]["endpoint"].update(url="localhost:8000/x"), ("endpoint.http-url", "/spec/endpoint/url")),
        (lambda m: m["spec"].update(endpoint={"type": "mcp", "mcp_server": " "}),
         ("endpoint.mcp-server", "/spec/endpoint/mcp_server")),
        (lambda m: m["spec"].update(endpoint={"type": "builtin", "handler": "shell"}),
         ("endpoint.builtin-handler", "/spec/endpoint/handler")),
        (lambda m: m["spec"].update(endpoint={"type": "sandbox", "command": [" "]}),
         ("endpoint.sandbox-command", "/spec/endpoint/command/0")),
        (lambda m: m["spec"].update(risk_level="unacceptable"), ("risk.unacceptable", "/spec/risk_level")),
        (lambda m: m["spec"].update(risk_level="high"), ("governance.high-risk-approval", "/spec/requires_approval")),
        (lambda m: m["spec"].update(action="delete", side_effects=False, idempotent=False),
         ("governance.delete-side-effects", "/spec/side_effects")),
        (lambda m: m["spec"].update(side_effects=True), ("governance.read-side-effects", "/spec/side_effects")),
        (lambda m: m["metadata"].update(name="orders.search"), ("export.name", "/metadata/name")),
        (lambda m: m["spec"].update(description="x" * 1025), ("export.description-length", "/spec/description")),
    ],
)
def test_each_rule(manifest, change, expected):
    change(manifest)
    found = check_manifest(manifest)
    assert rules_of(found) == [expected]
    finding = found[0]
    assert finding.severity == RULES[expected[0]].severity
    assert finding.file is None and finding.line is None and finding.message


def test_quote_string_message_says_to_quote(manifest):
    manifest["metadata"]["version"] = 3.1
    [finding] = check_manifest(manifest, raw={"/metadata/version": "3.10"})
    assert 'quote it ("3.10")' in finding.message


def test_missing_mcp_server_is_one_schema_finding(manifest):
    manifest["spec"]["endpoint"] = {"type": "mcp"}
    assert rules_of(check_manifest(manifest)) == [("manifest.schema", "/spec/endpoint")]


def test_local_refs_and_anchors_resolve(manifest):
    schema = manifest["spec"]["input_schema"]
    schema["$defs"] = {"Id": {"type": "string"}, "A": {"$anchor": "thing", "type": "integer"}}
    schema["properties"].update(a={"$ref": "#/$defs/Id"}, b={"$ref": "#thing"}, c={"$ref": "#"},
                                d={"$ref": "#/properties/customer_id"})
    assert check_manifest(manifest) == []


def test_property_named_format_is_not_a_format(manifest):
    manifest["spec"]["input_schema"]["properties"]["format"] = {"type": "string", "enum": ["pdf", "csv"]}
    assert check_manifest(manifest) == []


def test_disable_enable_strict(manifest):
    manifest["spec"]["risk_level"] = "high"
    assert check_manifest(manifest, disabled=["governance.high-risk-approval"]) == []
    [warning] = check_manifest(manifest)
    assert warning.severity == "warning"
    [strict] = check_manifest(manifest, strict=True)
    assert strict.severity == "error"
    manifest["spec"]["input_schema"]["additionalProperties"] = True
    assert "schema.open-object" in [f.rule for f in check_manifest(manifest, enabled=["schema.open-object"])]
    assert "schema.open-object" not in [f.rule for f in check_manifest(manifest)]
    with pytest.raises(ValueError, match="unknown rule id"):
        check_manifest(manifest, disabled=["no.such-rule"])


def test_not_an_object_does_not_crash():
    assert [f.rule for f in check_manifest([1, 2])] == ["manifest.schema"]
    assert [f.rule for f in check_manifest({"spec": "x"})][:1] == ["manifest.schema"]


class _Counting(http.server.BaseHTTPRequestHandler):
    requests: list[str] = []

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        type(self).requests.append(self.path)
        body = b'{"type": "string"}'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def schema_server() -> Iterator[tuple[str, list[str]]]:
    """An http.server on 127.0.0.1 (ephemeral port) serving x.json, recording every request."""
    requests: list[str] = []
    handler = type("Handler", (_Counting,), {"requests": requests})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/x.json", requests
    finally:
        server.shutdown()
        server.server_close()


def test_remote_ref_is_never_fetched(manifest, schema_server, eai, tmp_path):
    url, requests = schema_server
    manifest["spec"]["input_schema"]["properties"]["customer_id"] = {"$ref": url}
    manifest["spec"]["output_schema"] = {"$ref": url + "#/definitions/x"}
    assert rules_of(check_manifest(manifest)) == [
        ("schema.remote-ref", "/spec/input_schema/properties/customer_id/$ref"),
        ("schema.remote-ref", "/spec/output_schema/$ref"),
    ]
    import json

    path = tmp_path / "remote.json"
    path.write_text(json.dumps(manifest, indent=2))
    proc = eai(["tools", "validate", path])
    assert proc.returncode == 1
    assert f"{path}:" in proc.stdout and "schema.remote-ref" in proc.stdout
    # A validator built on the offline registry cannot fetch either.
    from jsonschema import Draft202012Validator
    from referencing.exceptions import Unresolvable

    validator = Draft202012Validator({"$ref": url}, registry=offline_registry())
    with pytest.raises(Unresolvable):
        validator.is_valid("x")
    assert requests == []


def test_pure_python_path_gives_the_same_findings(manifest, monkeypatch):
    """Without jsonschema-rs, jsonschema alone gives the same findings (the rs path is only faster)."""
    from enterprise_ai.validate import schema as schemas

    broken = []
    for change in (
        lambda m: m["spec"].update(action="remove", side_effect=1),
        lambda m: m["metadata"].update(version=3.1, name="Bad"),
        lambda m: m["spec"].update(endpoint={"type": "mcp"}),
        lambda m: m["spec"]["input_schema"].update(type="objekt", required="x"),
        lambda m: m.pop("kind"),
    ):
        doc = __import__("copy").deepcopy(manifest)
        change(doc)
        broken.append(doc)
    fast = [[f.to_dict() for f in check_manifest(doc)] for doc in broken]
    monkeypatch.setattr(schemas, "fast_validators", lambda: (None, None, None))
    slow = [[f.to_dict() for f in check_manifest(doc)] for doc in broken]
    assert fast == slow
    assert all(fast)


def test_foreign_dollar_schema_is_reported_not_fetched(manifest, schema_server):
    url, requests = schema_server
    manifest["spec"]["input_schema"]["$schema"] = url
    manifest["spec"]["output_schema"] = {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object"}
    assert rules_of(check_manifest(manifest)) == [
        ("schema.meta", "/spec/input_schema/$schema"),
        ("schema.meta", "/spec/output_schema/$schema"),
    ]
    manifest["spec"]["input_schema"]["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    del manifest["spec"]["output_schema"]
    assert check_manifest(manifest) == []
    assert requests == []
