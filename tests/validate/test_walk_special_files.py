"""A directory walk reads regular files only: a FIFO or a dangling link named *.yaml never blocks the run."""

from __future__ import annotations

import os

from enterprise_ai.validate.paths import expand_paths

GOOD = """apiVersion: enterprise-ai.io/v1
kind: Tool
metadata: {name: ok-tool, version: 0.1.0, owner: team@example.com}
spec:
  description: A valid tool.
  action: read
  input_schema: {type: object, properties: {}, additionalProperties: false}
  scopes_required: []
  data_classification: internal
  risk_level: minimal
  requires_approval: false
  side_effects: false
  idempotent: true
  endpoint: {type: builtin, handler: echo}
"""


def test_walk_skips_fifos_and_dangling_links(tmp_path):
    (tmp_path / "good.yaml").write_text(GOOD)
    os.mkfifo(tmp_path / "pipe.yaml")
    (tmp_path / "dangling.yaml").symlink_to(tmp_path / "missing.yaml")
    assert expand_paths([str(tmp_path)]) == [str(tmp_path / "good.yaml")]


def test_validate_over_a_directory_with_a_fifo_finishes(eai, tmp_path):
    (tmp_path / "good.yaml").write_text(GOOD)
    os.mkfifo(tmp_path / "pipe.yaml")
    proc = eai(["tools", "validate", str(tmp_path)], timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "1 file" in proc.stdout + proc.stderr
