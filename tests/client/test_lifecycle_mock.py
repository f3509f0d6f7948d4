"""register/list/get/update/delete/invocations/approvals and validate --remote, against a scripted gateway."""

from __future__ import annotations

import json
import textwrap

import httpx

from enterprise_ai.tools._remote import remote_findings, to_pointer
from enterprise_ai.validate.loader import load_documents
from tests.client.conftest import MockGateway, err

MANIFEST = textwrap.dedent("""\
    apiVersion: enterprise-ai.io/v1
    kind: Tool
    metadata:
      name: echo-tool
      version: 0.1.0
      owner: team@example.com
    spec:
      description: Echo the input.
      action: read
      input_schema:
        type: object
        properties:
          text: {type: string}
      endpoint:
        type: builtin
        handler: echo
    """)


def _write(tmp_path, text=MANIFEST, name="echo.yaml"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_register_reports_apply_status_and_exit_code(gw, cli, tmp_path):
    path = _write(tmp_path)
    gw.on("POST /v1/tools", httpx.Response(201, json={"name": "echo-tool", "status": "draft", "apply_status": "created"}),
          httpx.Response(200, json={"name": "echo-tool", "status": "draft", "apply_status": "unchanged"}))
    code, out, _ = cli("tools", "register", str(path), "--exit-code")
    assert code == 1 and out.splitlines()[1].startswith("echo-tool\tcreated\tdraft")
    sent = gw.calls("POST /v1/tools")[0].json()
    assert sent["metadata"]["name"] == "echo-tool" and sent["spec"]["endpoint"] == {"type": "builtin", "handler": "echo"}
    code, out, _ = cli("tools", "apply", str(path), "--exit-code", "-o", "json")
    assert code == 0 and json.loads(out)[0]["result"] == "unchanged"


def test_dry_run_writes_nothing_and_diff_shows_changes(gw, cli, tmp_path):
    path = _write(tmp_path)
    live = json.loads(json.dumps(load_documents(path, source="x")[0].data))
    live["spec"]["description"] = "Old text."
    gw.on("GET /v1/tools/echo-tool", httpx.Response(200, json={"name": "echo-tool", "manifest": live}))
    gw.on("POST /v1/contracts/tool-manifest/validate",
          httpx.Response(200, json={"contract": "tool-manifest", "valid": True, "errors": []}))
    code, out, _ = cli("tools", "register", str(path), "--dry-run", "--diff", "--exit-code")
    assert code == 1
    assert "-  description: Old text.\n+  description: Echo the input.\n" in out
    assert "echo-tool\twould update" in out
    assert gw.calls("POST /v1/tools") == []


def test_dry_run_reports_server_errors_and_exits_1(gw, cli, tmp_path):
    path = _write(tmp_path)
    gw.on("GET /v1/tools/echo-tool", err(404, "tool_not_found"))
    gw.on("POST /v1/contracts/tool-manifest/validate", httpx.Response(200, json={
        "contract": "tool-manifest", "valid": False, "errors": [{"path": "/spec/endpoint", "message": "bad endpoint"}]}))
    code, out, errout = cli("tools", "register", str(path), "--dry-run")
    assert code == 1 and "echo-tool\tinvalid" in out and "/spec/endpoint: bad endpoint" in errout


def test_register_bad_file_is_usage_error_and_sends_nothing(gw, cli, tmp_path):
    path = _write(tmp_path, "a: 1\na: 2\n", "dup.yaml")
    code, _, errout = cli("tools", "register", str(path))
    assert code == 2 and "dup.yaml:2" in errout and gw.requests == []
    code, _, errout = cli("tools", "register", str(tmp_path / "missing.yaml"))
    assert code == 2 and "no such file" in errout


def test_list_follows_pages_and_get_update_delete(gw, cli):
    gw.on("GET /v1/tools",
          httpx.Response(200, json={"items": [{"name": "a", "status": "draft"}], "next_cursor": "c1"}),
          httpx.Response(200, json={"items": [{"name": "b", "status": "approved"}], "next_cursor": None}))
    code, out, _ = cli("tools", "list", "--status", "approved")
    assert code == 0 and out.splitlines()[1:] == ["a\tdraft\t\t\t\t", "b\tapproved\t\t\t\t"]
    assert "status=approved" in gw.requests[0].url and "cursor=c1" in gw.requests[1].url
    gw.on("PATCH /v1/tools/a", httpx.Response(202, json={"name": "a", "approval_id": "ap-7", "status": "draft"}))
    code, out, errout = cli("tools", "update", "a", "--status", "approved")
    assert code == 0 and "ap-7" in errout and gw.calls("PATCH /v1/tools/a")[0].json() == {"status": "approved"}
    code, _, errout = cli("tools", "update", "a")
    assert code == 2 and "nothing to change" in errout
    code, _, errout = cli("tools", "delete", "a")
    assert code == 2 and "--yes" in errout
    gw.on("DELETE /v1/tools/a", httpx.Response(204))
    code, _, errout = cli("tools", "delete", "a", "--yes")
    assert code == 0 and "deleted 'a'" in errout


def test_invocations_table_columns(gw, cli):
    record = {"id": "i1", "created_at": "2026-01-01T00:00:00Z", "tool": "echo", "actor": "dev", "status": "succeeded",
              "decision": "allow", "duration_ms": 3.2, "cost": {"amount": 0.01, "currency": "EUR"},
              "dlp_detections": [{"type": "email", "path": "/to", "action": "redact"}], "run_id": "r1"}
    gw.on("GET /v1/tools/invocations", httpx.Response(200, json={"items": [record], "next_cursor": None}))
    code, out, _ = cli("tools", "invocations", "--tool", "echo", "--run-id", "r1")
    assert code == 0
    header, row = out.splitlines()
    assert header == "TIME\tTOOL\tACTOR\tSTATUS\tDECISION\tDURATION\tCOST\tDLP\tRUN ID"
    assert row == "2026-01-01T00:00:00Z\techo\tdev\tsucceeded\tallow\t3 ms\t0.01 EUR\temail:redact\tr1"
    assert "tool=echo" in gw.requests[0].url and "run_id=r1" in gw.requests[0].url


def test_invocations_all_streams_every_page_as_json_lines(gw, cli):
    pages = [httpx.Response(200, json={"items": [{"id": f"i{p}{k}"} for k in range(3)],
                                       "next_cursor": f"c{p}" if p < 3 else None}) for p in range(4)]
    gw.on("GET /v1/tools/invocations", *pages)
    code, out, _ = cli("tools", "invocations", "--all", "-o", "json")
    assert code == 0
    assert [json.loads(line)["id"] for line in out.splitlines()] == [f"i{p}{k}" for p in range(4) for k in range(3)]


def test_approvals_commands(gw, cli):
    gw.on("GET /v1/approvals", httpx.Response(200, json={"items": [{"id": "ap-1", "kind": "invocation", "tool": "pay",
                                                                   "status": "pending"}], "next_cursor": None}))
    code, out, _ = cli("approvals", "list")
    assert code == 0 and "ap-1\tinvocation\tpay\tpending" in out and "status=pending" in gw.requests[-1].url
    gw.on("POST /v1/approvals/ap-1/approve", httpx.Response(200, json={"id": "ap-1", "status": "approved"}))
    code, out, errout = cli("approvals", "approve", "ap-1", "--comment", "ok", "-o", "json")
    assert code == 0 and json.loads(out)["status"] == "approved"
    assert gw.calls("POST /v1/approvals/ap-1/approve")[0].json() == {"comment": "ok"}
    gw.on("POST /v1/approvals/ap-1/reject", err(403, "self_approval_forbidden"))
    code, _, errout = cli("approvals", "reject", "ap-1")
    assert code == 4 and "self_approval_forbidden" in errout
    gw.on("GET /v1/approvals/ap-2", err(404, "approval_not_found"))
    assert cli("approvals", "get", "ap-2")[0] == 5


def test_remote_findings_are_placed_at_their_line(tmp_path):
    path = _write(tmp_path)
    docs = load_documents(path, source="echo.yaml")
    gw = MockGateway().on("POST /v1/contracts/tool-manifest/validate", httpx.Response(200, json={
        "contract": "tool-manifest", "valid": False,
        "errors": [{"path": "/spec/endpoint/handler", "message": "unknown handler"},
                   {"path": "$.spec.input_schema.properties", "message": "bad"}]}))
    from enterprise_ai.tools._client import ToolsClient

    with ToolsClient("http://gw.test", "t", http_client=gw.client()) as client:
        findings = remote_findings(docs, contract="tool-manifest", ctx_state=None, client=client)
    assert [(f.pointer, f.line, f.file, f.rule) for f in findings] == [
        ("/spec/endpoint/handler", 16, "echo.yaml", "manifest.schema"),
        ("/spec/input_schema/properties", 12, "echo.yaml", "manifest.schema")]
    assert findings[0].message == "gateway: unknown handler"


def test_to_pointer_forms():
    assert to_pointer("spec.items[0].x") == "/spec/items/0/x"
    assert to_pointer(["a", "b/c"]) == "/a/b~1c"
    assert to_pointer("") == "" and to_pointer("#/a") == "/a"


def test_remote_findings_read_rule_tags_and_warnings(tmp_path):
    docs = load_documents(_write(tmp_path), source="echo.yaml")
    gw = MockGateway().on("POST /v1/contracts/tool-manifest/validate", httpx.Response(200, json={
        "contract": "tool-manifest", "valid": False,
        "errors": [{"path": "/spec/endpoint", "message": "bad handler [endpoint.builtin-handler]"}],
        "warnings": [{"path": "/metadata/name", "message": "dots [export.name]"}]}))
    from enterprise_ai.tools._client import ToolsClient

    with ToolsClient("http://gw.test", "t", http_client=gw.client()) as client:
        findings = remote_findings(docs, contract="tool-manifest", ctx_state=None, client=client)
    assert [(f.rule, f.severity, f.message, f.line) for f in findings] == [
        ("endpoint.builtin-handler", "error", "gateway: bad handler", 14),
        ("export.name", "warning", "gateway: dots", 4)]


def test_invocations_follow_prints_new_records_oldest_first(gw, cli, monkeypatch):
    def rec(i):
        return {"id": f"i{i}", "tool": "echo", "status": "succeeded", "created_at": f"t{i}"}

    gw.on("GET /v1/tools/invocations",
          httpx.Response(200, json={"items": [rec(2), rec(1)], "next_cursor": None}),
          httpx.Response(200, json={"items": [rec(2), rec(1)], "next_cursor": None}),
          httpx.Response(200, json={"items": [rec(4), rec(3), rec(2)], "next_cursor": None}))
    polls = []

    def fake_sleep(seconds):
        polls.append(seconds)
        if len(polls) > 2:
            raise KeyboardInterrupt

    monkeypatch.setattr("time.sleep", fake_sleep)
    code, out, errout = cli("tools", "invocations", "--follow")
    assert code == 130
    assert [line.split("\t")[0] for line in out.splitlines()] == ["TIME", "t1", "t2", "t3", "t4"]


def test_register_python_file_scans_then_applies(gw, cli, tmp_path, monkeypatch):
    (tmp_path / "mytools.py").write_text(textwrap.dedent('''\
        from enterprise_ai.tools import tool

        @tool(scopes=["orders:read"])
        def find_order(order_id: str) -> dict:
            """Find one order."""
            return {"id": order_id}
        '''))
    monkeypatch.chdir(tmp_path)
    gw.on("POST /v1/tools", httpx.Response(201, json={"name": "find-order", "status": "draft", "apply_status": "created"}))
    code, out, errout = cli("tools", "register", "mytools.py", "-o", "json")
    assert code == 0, errout
    assert json.loads(out)[0] == {"tool": "find-order", "source": "mytools.py:4", "result": "created", "status": "draft"}
    sent = gw.calls("POST /v1/tools")[0].json()
    assert sent["spec"]["scopes_required"] == ["orders:read"]
    assert sent["spec"]["input_schema"]["required"] == ["order_id"]
