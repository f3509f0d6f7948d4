"""Egress allow-list matching, including URLs built to trick a parser (enterprise_ai.gateway.egress)."""

from __future__ import annotations

import pytest

from enterprise_ai.gateway.egress import EgressPolicy

DEFAULT = EgressPolicy()


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8000/tools/echo",
        "http://127.0.0.1/",
        "https://localhost:8443/x",
        "http://LOCALHOST.:9000/x",
        "http://[::1]:8000/tools/x",
    ],
)
def test_default_policy_allows_loopback(url: str) -> None:
    assert DEFAULT.allows(url)


@pytest.mark.parametrize(
    "url",
    [
        "http://example.com/",
        "ftp://127.0.0.1/file",
        "file:///etc/passwd",
        "gopher://127.0.0.1:70/",
        "http://127.0.0.1@evil.example/",  # userinfo: the host is evil.example
        "http://user:pw@127.0.0.1/",  # userinfo refused outright
        "http://evil.example#@127.0.0.1/",
        "http://evil.example?@127.0.0.1/",
        "http://127.0.0.1\\@evil.example/",  # backslash confusion
        "http://127.0.0.1.evil.example/",
        "http://localhost.evil.example:80/",
        "http://2130706433/",  # 127.0.0.1 as a number: names are compared, not resolved
        "http://0x7f.0.0.1/",
        "http://127.0.0.1:99999/",  # invalid port
        "http://127.0.0.1:80 /",
        "http:///path-only",
        "http://%31%32%37.0.0.1/",
        "http://127.0.0.1/tools/../admin",
        "//127.0.0.1/x",
        "http://\u24dbocalhost:8000/",  # IDNA maps it to localhost: non-ASCII hosts are refused
        "http://127\u30020\u30020\u30021/",
        "",
        None,
    ],
)
def test_default_policy_refuses(url: object) -> None:
    assert not DEFAULT.allows(url)  # type: ignore[arg-type]


def test_host_wildcards_ports_and_path_prefixes() -> None:
    policy = EgressPolicy(
        ["https://*.example.com", "https://api.partner.test:8443/v1/", "internal.test:*", "http://127.0.0.1:*/*"]
    )
    assert policy.allows("https://a.example.com/x")
    assert policy.allows("https://a.b.example.com:443/x")
    assert not policy.allows("https://example.com/")  # *. needs at least one label
    assert not policy.allows("https://evilexample.com/")
    assert not policy.allows("https://a.example.com:8443/")  # no port in the entry: default port only
    assert not policy.allows("http://a.example.com/")  # scheme given: https only
    assert policy.allows("https://api.partner.test:8443/v1")
    assert policy.allows("https://api.partner.test:8443/v1/orders?q=1")
    assert not policy.allows("https://api.partner.test:8443/v1evil")
    assert not policy.allows("https://api.partner.test:8443/v2/orders")
    assert not policy.allows("https://api.partner.test/v1/orders")
    assert policy.allows("http://internal.test:1234/") and policy.allows("https://internal.test/")
    assert policy.allows("http://127.0.0.1:5/anything")
    assert policy.match("https://a.example.com/") == "https://*.example.com"


def test_empty_and_open_policies_and_bad_entries() -> None:
    assert not EgressPolicy([]).allows("http://127.0.0.1/")
    assert EgressPolicy(["*"]).allows("https://anything.test/")
    assert not EgressPolicy(["*"]).allows("ftp://anything.test/")
    for bad in ["ftp://x.test", "https://a.*.example.com", "http://x.test:port", "https://"]:
        with pytest.raises(ValueError):
            EgressPolicy([bad])
