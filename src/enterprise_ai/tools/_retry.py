"""Retry policy of :class:`~enterprise_ai.tools.ToolsClient`: what is retried, and how long to wait.

What is retried (at most ``max_retries`` times, :data:`DEFAULT_MAX_RETRIES` by default):

* a connection that could not be opened (refused, DNS, connect or pool timeout), on ANY request:
  nothing reached the server, so nothing can happen twice;
* a failure after the request was sent (read/write timeout, connection reset, broken response) and
  a :data:`RETRYABLE_STATUSES` answer (429, 502, 503, 504), only on *retry-safe* requests: reads
  (``GET``) and ``POST /v1/tools/{name}/invoke``, which always carries an ``Idempotency-Key`` (API.md:
  a retry with the same key and body replays the first response). A ``PATCH``, ``DELETE`` or
  approval decision is never sent twice.

How long to wait before retry ``n`` (1-based):

* the server's ``Retry-After`` when present: delay-seconds or an HTTP-date (RFC 9110 §10.2.3);
  a value above :data:`RETRY_AFTER_CAP_SECONDS` is not slept on: the client fails fast with the
  :class:`~enterprise_ai.tools._exceptions.RateLimitError` (or 5xx error), whose ``retry_after``
  says when to come back. Waiting minutes inside a CLI call or a CI step hides the problem.
* otherwise exponential backoff ``min(BACKOFF_MAX, BACKOFF_BASE * 2**(n-1))`` reduced by a random
  jitter of up to :data:`JITTER_FRACTION`, so that many clients do not retry in step.
"""

from __future__ import annotations

import email.utils
import random
import time
from datetime import datetime, timezone

#: retries after the first attempt (so 3 attempts in all)
DEFAULT_MAX_RETRIES = 2
#: longest ``Retry-After`` (seconds) the client sleeps on; above it the error is raised at once
RETRY_AFTER_CAP_SECONDS = 60.0
#: first backoff delay (seconds) when the server gives no ``Retry-After``
BACKOFF_BASE_SECONDS = 0.5
#: longest backoff delay (seconds)
BACKOFF_MAX_SECONDS = 8.0
#: a backoff delay is multiplied by a random factor in ``[1 - JITTER_FRACTION, 1]``
JITTER_FRACTION = 0.25
#: statuses retried on retry-safe requests (RFC 9110: 429 Too Many Requests, 502, 503, 504)
RETRYABLE_STATUSES = frozenset({429, 502, 503, 504})


def sleep(seconds: float) -> None:
    """Wait between attempts (a module function so that tests can replace it)."""
    time.sleep(seconds)


def parse_retry_after(value: str | None, *, now: datetime | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header value (RFC 9110 §10.2.3).

    Args:
        value: ``"120"`` (delay-seconds) or an HTTP-date (``"Wed, 21 Oct 2015 07:28:00 GMT"``).
        now: the current time (UTC), for tests; the system clock by default.

    Returns:
        the delay in seconds (0 for a date in the past), or None when absent or unparsable.
    """
    if value is None:
        return None
    value = value.strip()
    if value.isdigit():
        return float(int(value))
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None:  # pragma: no cover - older Pythons
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    current = now or datetime.now(timezone.utc)
    return max(0.0, (when - current).total_seconds())


def backoff_delay(retry_number: int, *, rng: random.Random | None = None) -> float:
    """Exponential backoff with jitter, in seconds, before retry ``retry_number`` (1-based)."""
    base = min(BACKOFF_MAX_SECONDS, BACKOFF_BASE_SECONDS * (2 ** max(0, retry_number - 1)))
    factor = 1.0 - JITTER_FRACTION * (rng or random).random()
    return base * factor


def retry_delay(retry_number: int, retry_after: float | None, *, cap: float = RETRY_AFTER_CAP_SECONDS) -> float | None:
    """Seconds to sleep before retry ``retry_number``, or None to fail fast (``Retry-After`` > ``cap``)."""
    if retry_after is not None:
        return None if retry_after > cap else retry_after
    return backoff_delay(retry_number)
