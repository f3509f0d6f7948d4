"""The egress allow-list: which URLs the gateway may call for ``http`` (and ``mcp``) endpoints.

Issue 4: "``http`` POSTs the arguments as JSON to an egress-allowed URL"; MANIFEST.md: an http endpoint
has an http(s) URL. Public names: :class:`EgressPolicy`, :data:`LOOPBACK`.

Allow-list entries (one string each):

* ``http://127.0.0.1:*`` - scheme, host, any port (``:*``), any path;
* ``https://api.example.com`` - no port means the scheme's default port only (443 here, 80 for http);
* ``https://api.example.com:8443/v1/`` - a URL prefix: the path must be ``/v1`` or start with ``/v1/``
  (matching is per path segment, so ``/v1evil`` is not under ``/v1``);
* a trailing ``*`` on a path is the same prefix (``http://127.0.0.1:*/*`` is ``http://127.0.0.1:*``);
* ``https://*.example.com`` - ``*.`` matches one or more labels in front of ``example.com`` (not the bare
  ``example.com``);
* an entry without a scheme (``*.example.com``, ``localhost:*``, ``10.0.0.5:8080``) allows both http and https;
* ``*`` allows every http(s) URL (an open gateway; not for production).

A URL is refused before any pattern is tried when it is not a well-formed ``http``/``https`` URL: another
scheme, no host, userinfo (``user:pass@host`` tricks such as ``http://127.0.0.1@evil.example``), a
backslash, whitespace or control characters, a percent-encoded host, an invalid port, or a path with dot
segments (``/v1/../admin``, ``%2e``) that a server could resolve outside an allowed prefix, or a non-ASCII
host (IDNA maps ``ⓛocalhost`` to ``localhost``: internationalised names must be written in punycode). Hosts are
compared lower-case, without a trailing dot; IPv6 literals are written in brackets (``http://[::1]:*``).
Nothing is resolved: a pattern matches names, not addresses (so ``http://2130706433/`` is not
``127.0.0.1``, and is refused by the default policy).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

__all__ = ["LOOPBACK", "EgressPolicy"]

LOOPBACK: tuple[str, ...] = ("http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*",
                             "https://127.0.0.1:*", "https://localhost:*", "https://[::1]:*")
"""The default allow-list: the loopback interface, any port, http and https."""

_SCHEMES = ("http", "https")
_DEFAULT_PORTS = {"http": 80, "https": 443}
_BAD_CHARS = re.compile(r"[\x00-\x20\x7f\\]")
_ENTRY = re.compile(r"^(?:(?P<scheme>[A-Za-z][A-Za-z0-9+.\-]*)://)?(?P<host>\[[0-9A-Fa-f:.]+\]|[^/:\[\]]+)"
                    r"(?::(?P<port>\*|\d{1,5}))?(?P<path>/.*)?$")


@dataclass(frozen=True)
class _Rule:
    schemes: tuple[str, ...]
    host: str  # lower case; "*.suffix" for a wildcard
    port: int | None  # None = any port; -1 = the scheme's default port
    path: str  # "" = any path; else a prefix without the trailing "/"
    source: str


def _normalize_host(host: str) -> str:
    return host.lower().rstrip(".")


class EgressPolicy:
    """An allow-list of URL patterns (see the module docstring for their syntax).

    Args:
        allow: the entries; ``None`` means :data:`LOOPBACK`. An empty list allows nothing.

    Raises:
        ValueError: an entry that is not a pattern of the documented syntax (the message quotes it).
    """

    def __init__(self, allow: Iterable[str] | None = None) -> None:
        self.allow: list[str] = list(LOOPBACK if allow is None else allow)
        self._any = "*" in self.allow
        self._rules = [self._parse(entry) for entry in self.allow if entry != "*"]

    @staticmethod
    def _parse(entry: str) -> _Rule:
        match = _ENTRY.match(entry.strip()) if isinstance(entry, str) else None
        if match is None:
            raise ValueError(f"egress: bad allow-list entry {entry!r}")
        scheme = (match["scheme"] or "").lower()
        if scheme and scheme not in _SCHEMES:
            raise ValueError(f"egress: allow-list entry {entry!r}: only http and https URLs can be allowed")
        host = _normalize_host(match["host"])
        if "*" in host and not (host.startswith("*.") and "*" not in host[2:] and len(host) > 2):
            raise ValueError(f"egress: allow-list entry {entry!r}: a host wildcard must be a leading '*.'")
        port_text = match["port"]
        port = None if port_text == "*" else (-1 if port_text is None else int(port_text))
        path = (match["path"] or "").removesuffix("*").rstrip("/")
        return _Rule((scheme,) if scheme else _SCHEMES, host, port, path, entry)

    def allows(self, url: str) -> bool:
        """True when ``url`` is a well-formed http(s) URL matched by an allow-list entry; never raises."""
        return self.match(url) is not None

    def match(self, url: str) -> str | None:
        """The allow-list entry that allows ``url``, or None (refused; see the module docstring)."""
        if not isinstance(url, str) or _BAD_CHARS.search(url):
            return None
        try:
            parts = urlsplit(url)
            port = parts.port
        except ValueError:
            return None
        scheme = parts.scheme.lower()
        if scheme not in _SCHEMES or "@" in parts.netloc or not parts.hostname or "%" in parts.netloc:
            return None
        host = _normalize_host(parts.hostname)
        if not host.isascii():  # IDNA would map it to another name: internationalised hosts go in punycode
            return None
        if ":" in host:  # IPv6 literal: urlsplit strips the brackets
            host = f"[{host}]"
        effective_port = port if port is not None else _DEFAULT_PORTS[scheme]
        path = parts.path or "/"
        if "%2e" in path.lower() or any(segment in (".", "..") for segment in path.split("/")):
            return None
        if self._any:
            return "*"
        for rule in self._rules:
            if scheme not in rule.schemes:
                continue
            if rule.host.startswith("*."):
                if not host.endswith(rule.host[1:]) or host.startswith("."):
                    continue
            elif host != rule.host:
                continue
            if rule.port == -1 and effective_port != _DEFAULT_PORTS[scheme]:
                continue
            if rule.port is not None and rule.port != -1 and effective_port != rule.port:
                continue
            if rule.path and not (path == rule.path or path.startswith(rule.path + "/")):
                continue
            return rule.source
        return None
