"""Rate limits and quotas with an injected clock (enterprise_ai.gateway.limits)."""

from __future__ import annotations

import threading

import pytest

from enterprise_ai.errors import UsageError
from enterprise_ai.gateway.limits import LimitExceeded, RateLimiter

DAY = 86_400.0
T0 = 1_000 * DAY + 3_600.0  # 01:00 UTC on some day


def test_bucket_allows_a_burst_then_refills() -> None:
    limiter = RateLimiter(requests_per_minute=3)
    for _ in range(3):
        limiter.check("alice", "echo", now=T0)
    with pytest.raises(LimitExceeded) as info:
        limiter.check("alice", "echo", now=T0)
    assert (info.value.code, info.value.retry_after, info.value.limit) == ("rate_limited", 20, 3)
    limiter.check("bob", "echo", now=T0)  # other principal: own bucket
    limiter.check("alice", "other", now=T0)  # other tool: own bucket
    with pytest.raises(LimitExceeded):
        limiter.check("alice", "echo", now=T0 + 19.9)
    limiter.check("alice", "echo", now=T0 + 20.0)  # one token back after 60/3 s


def test_retry_after_is_capped_at_60_and_at_least_1() -> None:
    slow = RateLimiter(requests_per_minute=1)
    slow.check("p", "t", now=T0)
    with pytest.raises(LimitExceeded) as info:
        slow.check("p", "t", now=T0 + 0.5)
    assert info.value.retry_after == 60
    fast = RateLimiter(requests_per_minute=6000)
    for _ in range(6000):
        fast.check("p", "t", now=T0)
    with pytest.raises(LimitExceeded) as info:
        fast.check("p", "t", now=T0)
    assert info.value.retry_after == 1


def test_daily_quota_resets_at_utc_midnight_and_refusals_consume_nothing() -> None:
    limiter = RateLimiter(requests_per_minute=2, calls_per_day=3)
    limiter.check("p", "a", now=T0)
    limiter.check("p", "a", now=T0)
    with pytest.raises(LimitExceeded, match="rate limit"):
        limiter.check("p", "a", now=T0)  # refused by the rate: does not count against the quota
    limiter.check("p", "b", now=T0)
    with pytest.raises(LimitExceeded) as info:
        limiter.check("p", "c", now=T0)
    assert info.value.code == "quota_exceeded"
    assert info.value.retry_after == int(DAY - 3_600)  # until the next UTC midnight
    with pytest.raises(LimitExceeded):
        limiter.check("p", "c", now=T0 + DAY - 3_601)
    limiter.check("p", "c", now=T0 + DAY - 3_600)  # next day
    limiter.check("q", "c", now=T0)  # quota is per principal


def test_overrides_and_unlimited() -> None:
    limiter = RateLimiter.from_config({
        "requests_per_minute": 100,
        "calls_per_day": 0,
        "tools": {"slow-tool": {"requests_per_minute": 1}},
        "principals": {"ci": {"requests_per_minute": 2, "calls_per_day": 5}},
    })
    assert limiter.limit_for("ci", "x").requests_per_minute == 2
    assert limiter.limit_for("ci", "slow-tool").requests_per_minute == 1  # the tool override wins
    assert limiter.limit_for("alice", "x").calls_per_day is None
    assert limiter.limit_for("ci", "x").calls_per_day == 5
    unlimited = RateLimiter()
    for _ in range(1000):
        unlimited.check("p", "t", now=T0)


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"rpm": 1}, "unknown key"),
        ({"requests_per_minute": -1}, "limits.requests_per_minute"),
        ({"requests_per_minute": "10"}, "limits.requests_per_minute"),
        ({"tools": {"t": {"calls_per_hour": 1}}}, "limits.tools.t"),
        ({"principals": {"p": {"calls_per_day": 1.5}}}, "limits.principals.p.calls_per_day"),
    ],
)
def test_bad_config_names_the_field(config: dict, message: str) -> None:
    with pytest.raises(UsageError, match=message.replace(".", r"\.")):
        RateLimiter.from_config(config)


def test_thread_safe_counting() -> None:
    limiter = RateLimiter(requests_per_minute=500)
    allowed: list[int] = []
    lock = threading.Lock()

    def worker() -> None:
        count = 0
        for _ in range(100):
            try:
                limiter.check("p", "t", now=T0)
                count += 1
            except LimitExceeded:
                pass
        with lock:
            allowed.append(count)

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(allowed) == 500
