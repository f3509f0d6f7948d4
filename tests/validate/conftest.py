"""Fixtures of the validator tests: a valid manifest to mutate, and writers of test files."""

from __future__ import annotations

import copy
from typing import Any

import pytest

BASE: dict[str, Any] = {
    "apiVersion": "enterprise-ai.io/v1",
    "kind": "Tool",
    "metadata": {"name": "search-orders", "version": "0.1.0", "owner": "team@example.com"},
    "spec": {
        "description": "Search a customer's orders.",
        "action": "read",
        "input_schema": {
            "type": "object",
            "properties": {"customer_id": {"type": "string"}},
            "required": ["customer_id"],
            "additionalProperties": False,
        },
        "scopes_required": ["orders:read"],
        "data_classification": "internal",
        "risk_level": "minimal",
        "requires_approval": False,
        "side_effects": False,
        "idempotent": True,
        "endpoint": {"type": "http", "method": "POST", "url": "http://127.0.0.1:8000/tools/search-orders",
                     "timeout_seconds": 30},
    },
}

BASE_YAML = """apiVersion: enterprise-ai.io/v1
kind: Tool
metadata:
  name: search-orders
  version: 0.1.0
  owner: team@example.com
spec:
  description: Search a customer's orders.
  action: read
  input_schema:
    type: object
    properties:
      customer_id: {type: string}
    required: [customer_id]
    additionalProperties: false
  side_effects: false
  endpoint:
    type: http
    url: http://127.0.0.1:8000/tools/search-orders
"""


@pytest.fixture
def manifest() -> dict[str, Any]:
    """A fresh copy of a valid manifest."""
    return copy.deepcopy(BASE)
