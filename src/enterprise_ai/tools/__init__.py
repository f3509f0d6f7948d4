"""``enterprise_ai.tools``: expose Python functions as governed tools, and talk to a Tool Gateway.

Public names (the reference page of this module fixes their parameters and defaults):

* :func:`tool` - decorator turning a function into a :class:`LocalTool`;
* :class:`LocalTool` - a function with its input schema, Tool Manifest and OpenAI tool entry;
* :func:`schema_for`, :func:`input_schema`, :func:`tool_name` - the schema and naming helpers;
* :class:`ToolArgumentsError` (bad arguments to :meth:`LocalTool.invoke`) and :class:`ToolDefinitionError`
  (a function whose schema cannot be built, e.g. an unresolvable annotation);
* :class:`ToolsClient` - the HTTP client of the gateway's ``/v1/tools`` routes (imported lazily,
  so that ``import enterprise_ai.tools`` does not load httpx).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from enterprise_ai.tools._local import LocalTool, ToolArgumentsError, tool
from enterprise_ai.tools._schema import ToolDefinitionError, input_schema, schema_for, tool_name

if TYPE_CHECKING:  # pragma: no cover
    from enterprise_ai.tools._client import ToolsClient

__all__ = [
    "LocalTool",
    "ToolArgumentsError",
    "ToolDefinitionError",
    "ToolsClient",
    "input_schema",
    "schema_for",
    "tool",
    "tool_name",
]


_CLIENT_ERRORS = frozenset({
    "APIError", "APIConnectionError", "APITimeoutError", "APIStatusError", "BadRequestError",
    "AuthenticationError", "PermissionDeniedError", "NotFoundError", "ConflictError",
    "UnprocessableEntityError", "RateLimitError", "InternalServerError", "PaginationError",
    "PendingApprovalError", "ApprovalRejected",
})


def __getattr__(name: str) -> Any:
    if name == "ToolsClient":
        from enterprise_ai.tools._client import ToolsClient

        return ToolsClient
    if name in _CLIENT_ERRORS:  # the client's typed errors (enterprise_ai.tools._exceptions)
        from enterprise_ai.tools import _exceptions

        return getattr(_exceptions, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
