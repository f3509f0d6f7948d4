"""eai: build, validate, register and govern tools for AI agents.

The SDK lives in :mod:`enterprise_ai.tools`; the command-line interface in
:mod:`enterprise_ai.cli`; the local Tool Gateway in :mod:`enterprise_ai.gateway`.
"""

__version__ = "0.1.0"
