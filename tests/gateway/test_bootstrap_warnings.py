"""A restart with a config tells the operator what the data directory keeps from earlier starts."""

from __future__ import annotations

import hashlib

from enterprise_ai.gateway.config import GatewayConfig, PrincipalConfig
from enterprise_ai.gateway.server import bootstrap


def test_first_start_admin_and_tenant_kept_are_warned_about(tmp_path):
    first = bootstrap(GatewayConfig(), tmp_path)
    assert first.admin_token and first.warnings == []

    config = GatewayConfig(
        tenant="acme",
        principals=[PrincipalConfig(id="alice", token_sha256=hashlib.sha256(b"t").hexdigest(), roles=["developer"])],
    )
    again = bootstrap(config, tmp_path)
    assert again.admin_token is None and again.tenant == "default"
    assert len(again.warnings) == 2
    assert "tenant 'default' is kept" in again.warnings[0] and "'acme' is ignored" in again.warnings[0]
    assert "can still call: admin" in again.warnings[1]


def test_a_fresh_data_directory_gives_no_warning(tmp_path):
    config = GatewayConfig(
        tenant="acme",
        principals=[PrincipalConfig(id="alice", token_sha256=hashlib.sha256(b"t").hexdigest(), roles=["developer"])],
    )
    assert bootstrap(config, tmp_path).warnings == []
