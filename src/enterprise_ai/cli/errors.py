"""The one place where exceptions become exit codes and one-line messages.

Exit codes (also in the README and in ``eai --help``):

====  ==========================================================================
code  meaning
====  ==========================================================================
0     success
1     findings: an invalid manifest, drift, a failed tool call (and internal errors)
2     usage: a bad argument, option or input file
3     not authenticated (401, or no token configured)
4     denied (403, a rejected approval)
5     not found (404)
6     conflict (409)
7     rate limited or over quota (429)
8     still pending (an approval not decided before the deadline)
9     network: connection refused, reset, timed out
10    server error (5xx)
130   interrupted (Ctrl-C)
====  ==========================================================================
"""

from __future__ import annotations

from enterprise_ai.errors import EaiError, ErrorKind

EXIT_OK = 0
EXIT_INTERRUPTED = 130

EXIT_CODES: dict[ErrorKind, int] = {
    ErrorKind.FAILURE: 1,
    ErrorKind.FINDINGS: 1,
    ErrorKind.USAGE: 2,
    ErrorKind.NOT_AUTHENTICATED: 3,
    ErrorKind.DENIED: 4,
    ErrorKind.NOT_FOUND: 5,
    ErrorKind.CONFLICT: 6,
    ErrorKind.RATE_LIMITED: 7,
    ErrorKind.PENDING: 8,
    ErrorKind.NETWORK: 9,
    ErrorKind.SERVER: 10,
}

EXIT_CODES_HELP = (
    "Exit codes: 0 ok, 1 findings (invalid manifest, drift, failed tool call), 2 usage, "
    "3 not authenticated, 4 denied, 5 not found, 6 conflict, 7 rate limited, 8 still pending, "
    "9 network, 10 server error, 130 interrupted."
)


def exit_code_for(exc: BaseException) -> int:
    """Exit code for an exception that reached the top of the CLI.

    :class:`EaiError` (and the client's API errors, which subclass it) map through
    :data:`EXIT_CODES`; ``KeyboardInterrupt`` gives 130; anything else is an internal error, 1.
    """
    if isinstance(exc, KeyboardInterrupt):
        return EXIT_INTERRUPTED
    if isinstance(exc, EaiError):
        return EXIT_CODES.get(exc.kind, 1)
    return 1


def message_for(exc: BaseException) -> str:
    """The one-line message shown on stderr for an exception (no traceback, no locals)."""
    if isinstance(exc, EaiError):
        return exc.message
    text = str(exc).strip().splitlines()
    detail = text[-1] if text else ""
    name = type(exc).__name__
    return f"internal error: {name}: {detail}" if detail else f"internal error: {name}"
