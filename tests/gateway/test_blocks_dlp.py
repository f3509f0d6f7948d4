"""DLP detectors, redaction paths and block actions (enterprise_ai.gateway.dlp)."""

from __future__ import annotations

import copy

import pytest

from enterprise_ai.errors import UsageError
from enterprise_ai.gateway.dlp import DlpRule, DlpScanner, iban_valid, luhn_valid

SCANNER = DlpScanner()


def redacted(text: str) -> str:
    return SCANNER.scan(text).value


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("write to jane.doe+tag@mail.example.co.uk today", "email"),
        ("card 4111 1111 1111 1111 exp 12/29", "payment_card"),
        ("card 4111-1111-1111-1111", "payment_card"),
        ("amex 378282246310005", "payment_card"),
        ("pay DE89 3704 0044 0532 0130 00 now", "iban"),
        ("GB82WEST12345698765432", "iban"),
        ("fr: FR1420041010050500013M02606", "iban"),
        ("Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.sig-nature_9", "bearer_token"),
        ("key sk-proj-AbCdEfGhIjKlMnOp1234", "api_key"),
        ("aws AKIAIOSFODNN7EXAMPLE", "api_key"),
        ("gh ghp_" + "A1b2" * 9, "api_key"),
        ("https://x.test/?api_key=abcdef123456&q=1", "api_key"),
    ],
)
def test_each_detector_finds_and_redacts(text: str, kind: str) -> None:
    outcome = SCANNER.scan({"v": text})
    assert outcome.detections == [{"type": kind, "path": "/v", "action": "redact"}]
    assert f"[REDACTED:{kind}]" in outcome.value["v"]
    assert outcome.blocked is False


@pytest.mark.parametrize(
    "text",
    [
        "4111 1111 1111 1112",  # Luhn fails
        "1234567890123",  # 13 digits, Luhn fails
        "order 2024-01-15 ref 12345",
        "phone +33 6 12 34 56 78",
        "uuid 123e4567-e89b-12d3-a456-426614174000",
        "DE89 3704 0044 0532 0130 01",  # mod-97 fails
        "bearer tokens are described in RFC 6750",
        "not an email: user@localhost or @handle",
        "sk-short",
        "41111111111111111111111",  # too many digits for a card
    ],
)
def test_lookalikes_are_left_alone(text: str) -> None:
    outcome = SCANNER.scan(text)
    assert outcome.value == text
    assert outcome.detections == []


def test_luhn_and_iban_checks() -> None:
    assert luhn_valid("4111111111111111") and luhn_valid("5555 5555 5555 4444")
    assert not luhn_valid("4111111111111112") and not luhn_valid("411111111111")  # 12 digits
    assert iban_valid("DE89370400440532013000") and iban_valid("de89 3704 0044 0532 0130 00")
    assert not iban_valid("DE89370400440532013001") and not iban_valid("DE89")


def test_generic_assignment_keeps_the_name() -> None:
    assert redacted('{"api_key": "zzzz-secret-9"}') == '{"api_key": "[REDACTED:api_key]"}'
    assert redacted("password=hunter22 next") == "password=[REDACTED:api_key] next"


def test_deep_walk_paths_and_no_mutation() -> None:
    data = {
        "customer": {"emails": ["a@example.com", "ok"], "a/b": "x@example.org", "t~": "b@example.net"},
        "card": 4111111111111111,
        "flag": True,
        "n": 42,
        "mixed": ["4111 1111 1111 1111 and a@example.com"],
    }
    before = copy.deepcopy(data)
    outcome = SCANNER.scan(data, "/arguments")
    assert data == before
    assert outcome.value == {
        "customer": {"emails": ["[REDACTED:email]", "ok"], "a/b": "[REDACTED:email]", "t~": "[REDACTED:email]"},
        "card": "[REDACTED:payment_card]",
        "flag": True,
        "n": 42,
        "mixed": ["[REDACTED:payment_card] and [REDACTED:email]"],
    }
    assert outcome.detections == [
        {"type": "email", "path": "/arguments/customer/emails/0", "action": "redact"},
        {"type": "email", "path": "/arguments/customer/a~1b", "action": "redact"},
        {"type": "email", "path": "/arguments/customer/t~0", "action": "redact"},
        {"type": "payment_card", "path": "/arguments/card", "action": "redact"},
        {"type": "email", "path": "/arguments/mixed/0", "action": "redact"},
        {"type": "payment_card", "path": "/arguments/mixed/0", "action": "redact"},
    ]


def test_keys_are_scanned_and_paths_never_leak() -> None:
    outcome = SCANNER.scan({"bob@example.com": 1, "eve@example.com": 2, "plain": "x"})
    assert outcome.value == {"[REDACTED:email]": 1, "[REDACTED:email] (2)": 2, "plain": "x"}
    assert "example.com" not in repr(outcome.detections)
    assert [d["path"] for d in outcome.detections] == ["/[REDACTED:email]", "/[REDACTED:email] (2)"]


def test_clean_input_is_returned_as_is() -> None:
    data = {"a": [1, "b", {"c": None}]}
    assert SCANNER.scan(data).value is data


def test_block_action_blocks_and_still_redacts() -> None:
    scanner = DlpScanner.from_config([{"type": "payment_card", "action": "block"}])
    outcome = scanner.scan({"note": "mail a@example.com", "pan": "4111111111111111"})
    assert outcome.blocked is True
    assert outcome.value == {"note": "mail [REDACTED:email]", "pan": "[REDACTED:payment_card]"}
    assert {"type": "payment_card", "path": "/pan", "action": "block"} in outcome.detections
    assert scanner.scan({"note": "a@example.com"}).blocked is False


def test_config_custom_rule_disable_and_errors() -> None:
    scanner = DlpScanner.from_config(
        {"rules": [{"type": "employee_id", "pattern": r"EMP-\d{6}", "action": "block"},
                   {"type": "email", "enabled": False}]}
    )
    outcome = scanner.scan("EMP-123456 wrote to a@example.com")
    assert outcome.value == "[REDACTED:employee_id] wrote to a@example.com"
    assert outcome.blocked
    assert DlpScanner.from_config(None).scan("a@example.com").value == "[REDACTED:email]"
    with pytest.raises(UsageError, match=r"dlp\[0\].*action"):
        DlpScanner.from_config([{"type": "email", "action": "drop"}])
    with pytest.raises(UsageError, match=r"dlp\[1\].*unknown DLP type"):
        DlpScanner.from_config([{"type": "email"}, {"type": "passport"}])
    with pytest.raises(UsageError, match=r"dlp\[0\].*bad pattern"):
        DlpScanner.from_config([{"type": "x", "pattern": "("}])


def test_rule_validation() -> None:
    with pytest.raises(ValueError):
        DlpRule("x", "delete", "a")  # type: ignore[arg-type]
    rule = DlpRule("digits", "redact", r"(\d+)-(\d+)", group=2)
    assert rule.redact("12-34 and 5-6") == ("12-[REDACTED:digits] and 5-[REDACTED:digits]", 2)


def test_hints_never_change_results() -> None:
    """The cheap pre-checks (``hint``) only skip texts the full patterns would not match anyway."""
    corpus = [
        "Bearer abc123def456", "bearer x", "sk-abcdefghijklmnop1234", "AKIAIOSFODNN7EXAMPLE", "token: abcdef1",
        "Secret_Key = zzzzzzzz", "a@b.co", "x@y", "DE89370400440532013000", "4111-1111-1111-1111", "4 1 1 1",
        "5555555555554444", "GB82 WEST 1234 5698 7654 32", "ghp_" + "x" * 36, "xoxb-1234567890-abc", "plain text",
    ]
    with_hints = DlpScanner()
    plain = DlpScanner([type(r)(r.type, r.action, r.regex, r.validator, r.group) for r in with_hints.rules])
    assert all(r.hint for r in with_hints.rules) and not any(r.hint for r in plain.rules)
    for text in corpus:
        assert with_hints.scan(text).value == plain.scan(text).value, text
