"""The `eai` command-line interface: thin Typer adapters over core functions that return data."""
