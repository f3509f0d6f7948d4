"""Bridges between other tool SDKs and the Tool Manifest.

* :mod:`enterprise_ai.integrations.agents` - tools written with the agents SDK (``agents.tool``,
  ``agents.client_tool``), mapped as MANIFEST.md says. Importing it does not import the agents SDK.
"""
