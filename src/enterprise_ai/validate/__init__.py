"""Manifest validation shared by ``eai tools validate``, ``eai tools register`` and the gateway.

Public names:

* :func:`load_documents` / :func:`iter_documents` - the one safe loader of manifest files
  (:mod:`.loader`); :class:`LoadedDocument` gives ``(line, column)`` for a JSON pointer;
* :func:`check_manifest` - every check of one manifest dict, no file positions needed (:mod:`.checker`);
* :func:`manifest_schema` - the Tool Manifest JSON Schema (Draft 2020-12) shipped in the package;
* :class:`Finding`, :data:`RULES` - findings and the rule catalogue (:mod:`.findings`);
* :mod:`.reporters` - text, json, github, junit and sarif output.

jsonschema is imported on first use, not by ``import enterprise_ai.validate``.
"""

from __future__ import annotations

from enterprise_ai.validate.checker import FileReport, check_manifest, validate_paths
from enterprise_ai.validate.findings import RULES, Finding, Rule
from enterprise_ai.validate.loader import LoadedDocument, LoadError, iter_documents, load_documents
from enterprise_ai.validate.schema import manifest_schema

__all__ = [
    "RULES",
    "FileReport",
    "Finding",
    "LoadError",
    "LoadedDocument",
    "Rule",
    "check_manifest",
    "iter_documents",
    "load_documents",
    "manifest_schema",
    "validate_paths",
]
