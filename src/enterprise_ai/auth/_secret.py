"""A value that must never be shown: bearer tokens."""

from __future__ import annotations

#: characters of a token shown by ``eai auth status`` (the last ones)
VISIBLE_SUFFIX = 4


class Secret:
    """Holds a secret string; ``repr``, ``str`` and format never show it.

    Use :meth:`reveal` at the one place the value is needed (building the ``Authorization``
    header). ``Secret("abc")`` prints as ``Secret('***')``, so a traceback, a log line or a
    debugger's locals view of a client shows no token.
    """

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        if isinstance(value, Secret):
            value = value.reveal()
        self._value = str(value)

    def reveal(self) -> str:
        """The secret value itself."""
        return self._value

    @property
    def last4(self) -> str:
        """The last :data:`VISIBLE_SUFFIX` characters (what ``eai auth status`` shows)."""
        return self._value[-VISIBLE_SUFFIX:] if len(self._value) > 2 * VISIBLE_SUFFIX else ""

    def __repr__(self) -> str:
        return "Secret('***')"

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        return repr(self)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Secret) and other._value == self._value

    def __hash__(self) -> int:
        return hash(self._value)

    def __bool__(self) -> bool:
        return bool(self._value)

    def __reduce__(self) -> object:  # never pickled into a file or a child process by accident
        raise TypeError("a Secret cannot be pickled")
