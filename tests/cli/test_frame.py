"""The CLI frame: root options, exit codes, stdout/stderr discipline, fast help."""

from __future__ import annotations

import subprocess
import sys

from enterprise_ai import __version__
from enterprise_ai.cli.errors import EXIT_CODES, exit_code_for, message_for
from enterprise_ai.errors import EaiError, ErrorKind, UsageError


def test_version_goes_to_stdout(eai):
    proc = eai(["--version"])
    assert proc.returncode == 0
    assert proc.stdout.strip() == f"eai {__version__}"


def test_unknown_option_is_usage_error_exit_2(eai):
    proc = eai(["tools", "--no-such-option"])
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "--no-such-option" in proc.stderr


def test_exit_code_table_matches_documented_codes():
    documented = {
        ErrorKind.FINDINGS: 1,
        ErrorKind.USAGE: 2,
        ErrorKind.NOT_AUTHENTICATED: 3,
        ErrorKind.DENIED: 4,
        ErrorKind.NOT_FOUND: 5,
        ErrorKind.CONFLICT: 6,
        ErrorKind.RATE_LIMITED: 7,
        ErrorKind.PENDING: 8,
        ErrorKind.NETWORK: 9,
        ErrorKind.SERVER: 10,
    }
    for kind, code in documented.items():
        assert EXIT_CODES[kind] == code
        assert exit_code_for(EaiError("x", kind=kind)) == code
    assert exit_code_for(KeyboardInterrupt()) == 130
    assert exit_code_for(UsageError("bad")) == 2
    assert exit_code_for(ValueError("boom")) == 1
    assert message_for(ValueError("line one\nline two")) == "internal error: ValueError: line two"


def test_help_imports_no_heavy_library():
    code = (
        "import sys\n"
        "from enterprise_ai.cli.main import main\n"
        "try:\n"
        "    main(['--help'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "heavy = [m for m in ('httpx', 'jsonschema', 'pydantic', 'keyring', 'yaml', 'fastapi') if m in sys.modules]\n"
        "print('HEAVY=' + ','.join(heavy))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == "HEAVY="


def test_every_group_help_works(eai):
    for group in (["tools"], ["approvals"], ["auth"], ["gateway"]):
        proc = eai([*group, "--help"])
        assert proc.returncode == 0, proc.stderr
        assert "Usage" in proc.stdout
