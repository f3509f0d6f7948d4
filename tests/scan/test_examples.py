"""``manifests-examples/``: the committed manifests never drift from the example tools, which work."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "manifests-examples"


def test_committed_manifests_match_the_example_tools(eai):
    proc = eai(["tools", "scan", "manifests-examples/tools", "--out", "manifests-examples/manifests", "--check"], cwd=REPO)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout == ""


def test_examples_cover_read_write_and_delete_with_their_governance_settings():
    specs = {p.stem: yaml.safe_load(p.read_text(encoding="utf-8"))["spec"] for p in (EXAMPLES / "manifests").glob("*.yaml")}
    assert specs["search-orders"]["action"] == "read" and specs["search-orders"]["side_effects"] is False
    refund = specs["issue-refund"]
    assert (refund["action"], refund["requires_approval"], refund["data_classification"]) == ("write", True, "confidential")
    assert refund["input_schema"]["properties"]["amount_cents"]["exclusiveMinimum"] == 0
    delete = specs["delete-customer"]
    assert (delete["action"], delete["risk_level"], delete["requires_approval"]) == ("delete", "high", True)
    assert delete["scopes_required"] == ["customers:delete", "privacy:erase"]


def test_example_tools_run_as_written(monkeypatch):
    spec = importlib.util.spec_from_file_location("eai_example_orders", EXAMPLES / "tools" / "orders.py")
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)  # annotations resolve against the module
    spec.loader.exec_module(module)
    page = module.search_orders.invoke({"customer_id": "C-1042", "sort": "oldest", "limit": 1})
    assert [order["order_id"] for order in page["orders"]] == ["O-2001"]
    assert module.get_order.invoke('{"order_id": "O-404"}') is None


def test_committed_manifests_pass_the_validator(eai):
    proc = eai(["tools", "validate", "manifests-examples/manifests"], cwd=REPO)
    assert proc.returncode == 0, proc.stdout + proc.stderr
