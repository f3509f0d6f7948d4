"""The root of every error `eai` raises on purpose, and the kinds the CLI maps to exit codes.

Exception tree (each class below adds only a default :class:`ErrorKind`)::

    EaiError                  kind given per instance (default ErrorKind.FAILURE)
    ├── UsageError            ErrorKind.USAGE: a bad argument, option or input file
    ├── FindingsError         ErrorKind.FINDINGS: invalid manifests, drift, a failed tool call
    └── (enterprise_ai.tools._exceptions.APIError and its subclasses, the HTTP client errors)

Core functions raise these and never print or exit; the CLI turns the kind into an
exit code in one place (:mod:`enterprise_ai.cli.errors`).
"""

from __future__ import annotations

import enum


class ErrorKind(str, enum.Enum):
    """What went wrong, independent of how it is shown. The CLI maps each to an exit code."""

    FAILURE = "failure"  # findings, drift, a failed tool call, an internal error -> 1
    FINDINGS = "findings"  # -> 1
    USAGE = "usage"  # -> 2
    NOT_AUTHENTICATED = "not_authenticated"  # -> 3
    DENIED = "denied"  # -> 4
    NOT_FOUND = "not_found"  # -> 5
    CONFLICT = "conflict"  # -> 6
    RATE_LIMITED = "rate_limited"  # -> 7
    PENDING = "pending"  # -> 8
    NETWORK = "network"  # -> 9
    SERVER = "server"  # -> 10


class EaiError(Exception):
    """Base class of every error `eai` raises on purpose.

    Args:
        message: one line, shown to the user as is (never rich markup).
        kind: the :class:`ErrorKind`; defaults to the class attribute ``default_kind``.
        hint: optional second line telling the user what to do next.
    """

    default_kind: ErrorKind = ErrorKind.FAILURE

    def __init__(self, message: str, *, kind: ErrorKind | None = None, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.kind = kind or self.default_kind
        self.hint = hint

    def __str__(self) -> str:  # pragma: no cover - trivial
        return self.message


class UsageError(EaiError):
    """A bad argument, option or input (exit code 2)."""

    default_kind = ErrorKind.USAGE


class FindingsError(EaiError):
    """The command ran but found problems: invalid manifests, drift, a failed call (exit code 1)."""

    default_kind = ErrorKind.FINDINGS
