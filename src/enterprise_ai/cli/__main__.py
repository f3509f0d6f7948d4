"""``python -m enterprise_ai.cli`` runs the CLI."""

from enterprise_ai.cli.main import run

run()
