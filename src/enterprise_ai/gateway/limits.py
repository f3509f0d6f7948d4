"""Rate limits per (principal, tool) and daily quotas per principal, for the invoke chain.

API.md: ``429 rate_limited`` carries ``Retry-After: 60``, and ``429 quota_exceeded`` also carries
``Retry-After``. Public names: :class:`RateLimiter`, :class:`LimitExceeded`, :class:`Limit`.

Algorithms:

* **Rate limit** - a token bucket per ``(principal, tool)``: capacity ``requests_per_minute`` (the burst),
  refilled continuously at ``requests_per_minute / 60`` tokens per second. A call takes one token.
  ``Retry-After`` is the number of whole seconds until one token is back, rounded up, and never more
  than 60 (API.md's figure is the ceiling: a bucket always refills within a minute).
* **Quota** - a counter per principal for the current UTC day (a fixed window ``[00:00, 24:00)``).
  ``Retry-After`` is the number of seconds until the next UTC midnight.

A refused call consumes nothing: the rate limit is checked first, then the quota, and both are
consumed only when both allow the call. ``None`` or ``0`` for a limit means unlimited.
All methods are thread-safe (one lock; the work under it is a few arithmetic operations).
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from enterprise_ai.errors import EaiError, ErrorKind, UsageError

__all__ = ["Limit", "LimitExceeded", "RateLimiter"]

DAY_SECONDS = 86_400
MAX_RETRY_AFTER_RATE = 60  # API.md: "429 rate_limited (Retry-After: 60)"
_PRUNE_AT = 10_000  # buckets kept before full (idle) ones are dropped


class LimitExceeded(EaiError):
    """A call refused by a rate limit or a quota.

    Attributes:
        code: ``rate_limited`` or ``quota_exceeded`` (the API.md error codes, HTTP 429).
        retry_after: whole seconds (>= 1) to send in the ``Retry-After`` header.
        limit: the limit that was hit (requests per minute, or calls per day).
    """

    default_kind = ErrorKind.RATE_LIMITED

    def __init__(self, code: str, retry_after: int, limit: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.retry_after = retry_after
        self.limit = limit


@dataclass(frozen=True)
class Limit:
    """The limits that apply to one call: ``requests_per_minute`` and ``calls_per_day`` (None = unlimited)."""

    requests_per_minute: int | None = None
    calls_per_day: int | None = None


def _limit_value(raw: Any, where: str) -> int | None:
    if raw is None or raw == 0:
        return None
    if isinstance(raw, bool) or not isinstance(raw, int) or raw < 0:
        raise UsageError(f"{where}: expected a whole number >= 0 (0 or null = unlimited), got {raw!r}")
    return raw


def _limit_from(entry: Any, where: str) -> dict[str, int | None]:
    if not isinstance(entry, Mapping):
        raise UsageError(f"{where}: expected a mapping")
    unknown = set(entry) - {"requests_per_minute", "calls_per_day"}
    if unknown:
        raise UsageError(f"{where}: unknown key(s) {', '.join(sorted(map(str, unknown)))}")
    return {key: _limit_value(value, f"{where}.{key}") for key, value in entry.items()}


class RateLimiter:
    """Token buckets per (principal, tool) and daily counters per principal.

    Args:
        requests_per_minute: default rate limit of each (principal, tool) pair; None = unlimited.
        calls_per_day: default quota of each principal over all tools; None = unlimited.
        tools: per-tool overrides ``{tool: {"requests_per_minute": n}}``.
        principals: per-principal overrides ``{principal: {"requests_per_minute": n, "calls_per_day": n}}``.

    Precedence for the rate: the tool override, then the principal override, then the default.
    The quota comes from the principal override, then the default.
    """

    def __init__(
        self,
        requests_per_minute: int | None = None,
        calls_per_day: int | None = None,
        *,
        tools: Mapping[str, Mapping[str, int | None]] | None = None,
        principals: Mapping[str, Mapping[str, int | None]] | None = None,
    ) -> None:
        self.requests_per_minute = requests_per_minute or None
        self.calls_per_day = calls_per_day or None
        self.tools = {k: dict(v) for k, v in (tools or {}).items()}
        self.principals = {k: dict(v) for k, v in (principals or {}).items()}
        self._lock = threading.Lock()
        self._buckets: dict[tuple[str, str], tuple[float, float]] = {}  # (tokens, last refill time)
        self._days: dict[str, tuple[int, int]] = {}  # principal -> (UTC day number, calls)

    @classmethod
    def from_config(cls, config: Mapping[str, Any] | None) -> RateLimiter:
        """Build a limiter from the ``limits`` mapping of a gateway config file::

            requests_per_minute: 600       # per (principal, tool); 0 or null = unlimited
            calls_per_day: 100000          # per principal; 0 or null = unlimited
            tools:
              search-orders: {requests_per_minute: 30}
            principals:
              ci-agent: {requests_per_minute: 10, calls_per_day: 1000}

        Raises:
            UsageError: an unknown key or a value that is not a whole number >= 0 (the message names it).
        """
        config = config or {}
        if not isinstance(config, Mapping):
            raise UsageError("limits: expected a mapping")
        unknown = set(config) - {"requests_per_minute", "calls_per_day", "tools", "principals"}
        if unknown:
            raise UsageError(f"limits: unknown key(s) {', '.join(sorted(map(str, unknown)))}")
        tools = config.get("tools") or {}
        principals = config.get("principals") or {}
        if not isinstance(tools, Mapping) or not isinstance(principals, Mapping):
            raise UsageError("limits: 'tools' and 'principals' must be mappings")
        return cls(
            _limit_value(config.get("requests_per_minute"), "limits.requests_per_minute"),
            _limit_value(config.get("calls_per_day"), "limits.calls_per_day"),
            tools={str(k): _limit_from(v, f"limits.tools.{k}") for k, v in tools.items()},
            principals={str(k): _limit_from(v, f"limits.principals.{k}") for k, v in principals.items()},
        )

    def limit_for(self, principal: str, tool: str) -> Limit:
        """The :class:`Limit` that applies to ``principal`` calling ``tool``."""
        by_principal = self.principals.get(principal, {})
        by_tool = self.tools.get(tool, {})
        rpm = self.requests_per_minute
        if "requests_per_minute" in by_principal:
            rpm = by_principal["requests_per_minute"]
        if "requests_per_minute" in by_tool:
            rpm = by_tool["requests_per_minute"]
        per_day = by_principal.get("calls_per_day", self.calls_per_day)
        return Limit(rpm or None, per_day or None)

    def check(self, principal: str, tool: str, now: float | None = None) -> None:
        """Count one call of ``tool`` by ``principal``, or refuse it.

        Args:
            principal: the principal id (the quota is per principal, over all tools).
            tool: the tool name.
            now: the time in seconds since the epoch (``time.time()`` by default; tests inject a clock).

        Raises:
            LimitExceeded: ``rate_limited`` (bucket empty) or ``quota_exceeded`` (daily quota used up);
                nothing is consumed then.
        """
        now = time.time() if now is None else now
        limit = self.limit_for(principal, tool)
        if limit.requests_per_minute is None and limit.calls_per_day is None:
            return
        with self._lock:
            bucket_key = (principal, tool)
            tokens = 0.0
            if limit.requests_per_minute is not None:
                capacity = float(limit.requests_per_minute)
                rate = capacity / 60.0
                tokens, last = self._buckets.get(bucket_key, (capacity, now))
                tokens = min(capacity, tokens + max(0.0, now - last) * rate)
                if tokens < 1.0:
                    self._buckets[bucket_key] = (tokens, now)
                    wait = min(MAX_RETRY_AFTER_RATE, max(1, math.ceil((1.0 - tokens) / rate)))
                    raise LimitExceeded(
                        "rate_limited", wait, limit.requests_per_minute,
                        f"rate limit of {limit.requests_per_minute} calls per minute reached for tool {tool!r}",
                    )
            day = int(now // DAY_SECONDS)
            calls = 0
            if limit.calls_per_day is not None:
                stored_day, calls = self._days.get(principal, (day, 0))
                if stored_day != day:
                    calls = 0
                if calls >= limit.calls_per_day:
                    wait = max(1, math.ceil((day + 1) * DAY_SECONDS - now))
                    raise LimitExceeded(
                        "quota_exceeded", wait, limit.calls_per_day,
                        f"daily quota of {limit.calls_per_day} calls reached",
                    )
                self._days[principal] = (day, calls + 1)
            if limit.requests_per_minute is not None:
                if len(self._buckets) >= _PRUNE_AT:
                    self._prune(now)
                self._buckets[bucket_key] = (tokens - 1.0, now)

    def _prune(self, now: float) -> None:
        """Drop buckets idle for over a minute (they are full again, so forgetting them changes nothing)."""
        for key, (_, last) in list(self._buckets.items()):
            if now - last > 60.0:
                del self._buckets[key]

    def reset(self) -> None:
        """Forget every bucket and counter (tests, config reload)."""
        with self._lock:
            self._buckets.clear()
            self._days.clear()
