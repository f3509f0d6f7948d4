"""Without the [gateway] extra, the commands that need it say how to install it (exit 2), not a traceback."""

from __future__ import annotations

import subprocess
import sys

from pathlib import Path

import pytest

from tests.support.cli import clean_env

EXAMPLES = str(Path(__file__).resolve().parents[2] / "manifests-examples" / "tools")

BLOCK_EXTRA = """
import sys
class _Block:
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in ('fastapi', 'uvicorn'):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
sys.meta_path.insert(0, _Block())
from enterprise_ai.cli.main import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize(
    "args",
    [
        ["gateway", "serve", "--port", "0"],
        ["tools", "serve", EXAMPLES, "--port", "0"],
        ["dev", EXAMPLES, "--insecure-storage", "--data-dir", "unused"],
    ],
    ids=["gateway-serve", "tools-serve", "dev"],
)
def test_missing_gateway_extra_is_a_usage_error_with_the_install_command(args, tmp_path):
    env = clean_env({"EAI_CONFIG_DIR": str(tmp_path / "cfg")})
    proc = subprocess.run(
        [sys.executable, "-c", BLOCK_EXTRA, *args],
        capture_output=True, text=True, env=env, timeout=60, cwd=tmp_path,
    )
    assert proc.returncode == 2, proc.stderr
    assert "'gateway' extra" in proc.stderr
    assert "pip install 'eai[gateway]'" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert proc.stdout == ""
