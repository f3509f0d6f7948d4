"""``eai tools ...``: one Typer group; each concern registers its commands from its own module.

Modules: :mod:`.scan` (scan), :mod:`.validate` (validate), :mod:`.lifecycle` (register/apply, list,
get, update, delete, invoke, invocations), :mod:`.serve` (serve), :mod:`.export` (export).
"""

from __future__ import annotations

import typer

app = typer.Typer(no_args_is_help=True, help="Scan, validate, register, invoke and inspect tools.")

# Imported in the order the commands appear in `eai tools --help`; each import registers its commands.
from enterprise_ai.cli.tools import scan  # noqa: E402,F401,I001
from enterprise_ai.cli.tools import validate  # noqa: E402,F401
from enterprise_ai.cli.tools import lifecycle  # noqa: E402,F401
from enterprise_ai.cli.tools import export  # noqa: E402,F401
from enterprise_ai.cli.tools import serve  # noqa: E402,F401
