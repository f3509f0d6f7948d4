"""``eai schema``: print the Tool Manifest JSON Schema (Draft 2020-12) shipped in the package."""

from __future__ import annotations

import sys

HELP = """Print the Tool Manifest JSON Schema (Draft 2020-12) on standard output.

Give it to editors (yaml-language-server: $schema=...) or other validators, e.g.
`eai schema > tool-manifest.schema.json && check-jsonschema --schemafile tool-manifest.schema.json m.yaml`.
The same schema is what `eai tools validate` and the gateway check first. Exit code: 0.
"""


def schema() -> None:
    """Write the schema as indented JSON, ending with a newline."""
    from enterprise_ai.cli.render import to_json
    from enterprise_ai.validate.schema import manifest_schema

    sys.stdout.write(to_json(manifest_schema()) + "\n")
