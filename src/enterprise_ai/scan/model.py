"""Result types shared by the import scan and the static scan (both return a :class:`ScanResult`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

ToolSource = Literal["eai", "agents", "agents-client"]
Severity = Literal["error", "warning", "note"]


@dataclass
class ScannedTool:
    """One tool found in the code.

    Attributes:
        name: ``metadata.name`` of the manifest.
        manifest: the Tool Manifest (a JSON-able dict, key order as :meth:`LocalTool.manifest` gives it).
        file: the source file, as a path relative to the current directory when possible.
        line: 1-based line of the function definition (``def``), or of the ``x = tool(fn)`` assignment.
        source: ``eai`` for ``enterprise_ai.tools.tool``; ``agents`` for ``agents.tool``;
            ``agents-client`` for ``agents.client_tool`` (answered outside the gateway).
        registrable: False for a client tool given no endpoint: listed, but skipped by ``register``.
    """

    name: str
    manifest: dict[str, Any]
    file: str
    line: int
    source: ToolSource = "eai"
    registrable: bool = True


@dataclass
class ScanProblem:
    """Something a scan could not do or had to guess.

    Attributes:
        file: the source file (or module name) concerned.
        message: one line, saying what is wrong and, where it can, what to change.
        severity: ``error`` fails the scan (exit 1); ``warning`` does under ``--strict``; ``note`` never.
        line: 1-based line, when known.
        tool: the tool name, when the problem is about one tool.
        parameter: the parameter name, when the problem is about one parameter.
    """

    file: str
    message: str
    severity: Severity = "error"
    line: int | None = None
    tool: str | None = None
    parameter: str | None = None

    def location(self) -> str:
        """``file:line`` (or ``file``) for messages."""
        return f"{self.file}:{self.line}" if self.line else self.file


@dataclass
class ScanResult:
    """Everything a scan found: tools in a stable order (by name, then file), and problems."""

    tools: list[ScannedTool] = field(default_factory=list)
    problems: list[ScanProblem] = field(default_factory=list)

    @property
    def errors(self) -> list[ScanProblem]:
        return [p for p in self.problems if p.severity == "error"]

    @property
    def warnings(self) -> list[ScanProblem]:
        return [p for p in self.problems if p.severity == "warning"]


@dataclass
class ScanOptions:
    """Options applied to every scanned tool.

    Attributes:
        endpoint_base_url: when set, every http endpoint becomes ``POST <base>/tools/<name>``
            (``LocalTool.manifest``'s default is ``http://127.0.0.1:8000``).
        metadata: extra ``metadata`` fields merged into each manifest (``owner``, ``version``, ``labels``...).
        timeout: seconds allowed to the child process importing user modules (import scan only).
        strict: turn scan warnings into errors (static scan placeholders).
    """

    endpoint_base_url: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    timeout: float = 60.0
    strict: bool = False
