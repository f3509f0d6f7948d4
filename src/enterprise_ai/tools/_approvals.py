"""``client.approvals``: the ``/v1/approvals`` routes of API.md (ext) on a :class:`~enterprise_ai.tools.ToolsClient`."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

if TYPE_CHECKING:  # pragma: no cover
    from enterprise_ai.tools._client import ToolsClient


def path_segment(value: str) -> str:
    """A URL path segment, percent-encoded: a name (``a/b``, ``..``) never escapes its segment.

    Raises:
        UsageError (exit 2): an empty name or id, which would address the collection instead
            (``DELETE /v1/tools/`` is not ``DELETE /v1/tools/NAME``).
    """
    text = str(value)
    if not text.strip():
        from enterprise_ai.errors import UsageError

        raise UsageError("a name or id cannot be empty")
    return quote(text, safe="")


_seg = path_segment


class Approvals:
    """``/v1/approvals`` (API.md, ext): reached as ``client.approvals``."""

    def __init__(self, client: ToolsClient) -> None:
        self._client = client

    def list(self, status: str | None = None, tool: str | None = None, **page: Any) -> Any:
        """One page of approvals, newest first: ``{"items": [...], "next_cursor": str | None}``.

        Args:
            status: only ``pending``, ``approved``, ``rejected``, ``expired`` or ``consumed`` ones.
            tool: only approvals about this tool.
            **page: ``limit`` (1-500) and ``cursor``.
        """
        return self._client._request("GET", "/v1/approvals", params={"status": status, "tool": tool, **page}, expect=dict)

    def iter(self, status: str | None = None, tool: str | None = None, *, limit: int | None = None) -> Iterator[Any]:
        """Every approval, page after page (see :meth:`ToolsClient.iter_tools` for the cursor rule)."""
        return self._client._paginate(lambda **p: self.list(status=status, tool=tool, **p), limit)

    def get(self, approval_id: str) -> Any:
        """One approval: kind, tool, requested_by, arguments (redacted), status, decided_by, comment."""
        return self._client._request("GET", f"/v1/approvals/{_seg(approval_id)}", expect=dict)

    def approve(self, approval_id: str, comment: str | None = None) -> Any:
        """Approve (needs ``tenant_admin`` or ``security_officer``, never the requester: 403 ``self_approval_forbidden``)."""
        return self._decide(approval_id, "approve", comment)

    def reject(self, approval_id: str, comment: str | None = None) -> Any:
        """Reject; 409 ``approval_not_pending`` when it was already decided."""
        return self._decide(approval_id, "reject", comment)

    def _decide(self, approval_id: str, verb: str, comment: str | None) -> Any:
        body = {"comment": comment} if comment is not None else {}
        return self._client._request("POST", f"/v1/approvals/{_seg(approval_id)}/{verb}", json_body=body, expect=dict)
