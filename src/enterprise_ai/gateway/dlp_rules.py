"""DLP rules: :class:`DlpRule`, the built-in detectors (:func:`default_rules`) and their validators.

Used by :mod:`enterprise_ai.gateway.dlp` (the scanner, which re-exports every public name here); the table of
built-in detectors and what they match is in that module's docstring.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

Action = Literal["redact", "block"]
ACTIONS: tuple[str, ...] = ("redact", "block")

__all__ = ["ACTIONS", "Action", "DlpRule", "default_rules", "iban_valid", "luhn_valid"]


def luhn_valid(text: str) -> bool:
    """True when the digits of ``text`` (other characters ignored) pass the Luhn check (ISO/IEC 7812-1)."""
    digits = [int(c) for c in text if c.isdigit()]
    if not 13 <= len(digits) <= 19:
        return False
    total = 0
    for index, digit in enumerate(reversed(digits)):
        if index % 2 == 1:
            digit *= 2
            if digit > 9:
                digit -= 9
        total += digit
    return total % 10 == 0


def iban_valid(text: str) -> bool:
    """True when ``text`` (spaces ignored, any case) is an IBAN whose ISO 7064 mod-97 check gives 1.

    Length 15-34, two letters, two check digits, then letters and digits (ISO 13616-1).
    """
    compact = text.replace(" ", "").upper()
    if not 15 <= len(compact) <= 34 or not re.fullmatch(r"[A-Z]{2}\d{2}[A-Z0-9]+", compact):
        return False
    rearranged = compact[4:] + compact[:4]
    number = "".join(str(int(c, 36)) for c in rearranged)
    return int(number) % 97 == 1


@dataclass(frozen=True)
class DlpRule:
    """One detector and what to do with its matches.

    Args:
        type: the detection type, reported in detections and in the ``[REDACTED:<type>]`` placeholder.
        action: ``redact`` (replace the match, let the call go on) or ``block`` (also refuse the call).
        pattern: a regular expression (text or compiled); text is compiled once here.
        validator: optional ``fn(matched_text) -> bool``; a match it rejects is not a detection (Luhn, mod-97).
        group: the group of the pattern that is replaced (0, the default, is the whole match); lets a rule
            keep context, e.g. ``api_key=`` before the redacted value.
        flags: ``re`` flags used when ``pattern`` is text.
        hint: optional cheap pre-check, a regular expression every match contains (``@`` for e-mail addresses)
            or ``fn(text) -> bool``; a text failing it is skipped without running ``pattern`` (speed only: a
            hint must never reject a text the pattern would match).

    Raises:
        ValueError: an unknown action, an empty type, or a pattern that does not compile.
    """

    type: str
    action: Action = "redact"
    pattern: str | re.Pattern[str] = ""
    validator: Callable[[str], bool] | None = None
    group: int = 0
    flags: int = 0
    hint: str | Callable[[str], Any] | None = None
    regex: re.Pattern[str] = field(init=False, repr=False, compare=False)
    _hint: Callable[[str], Any] | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.type:
            raise ValueError("a DLP rule needs a type")
        if self.action not in ACTIONS:
            raise ValueError(f"DLP rule {self.type!r}: action must be 'redact' or 'block', not {self.action!r}")
        if not self.pattern:
            raise ValueError(f"DLP rule {self.type!r}: a pattern is required")
        try:
            regex = self.pattern if isinstance(self.pattern, re.Pattern) else re.compile(self.pattern, self.flags)
        except re.error as exc:
            raise ValueError(f"DLP rule {self.type!r}: bad pattern: {exc}") from None
        if self.group > regex.groups:
            raise ValueError(f"DLP rule {self.type!r}: the pattern has no group {self.group}")
        object.__setattr__(self, "regex", regex)
        try:
            check = re.compile(self.hint).search if isinstance(self.hint, str) else self.hint
            object.__setattr__(self, "_hint", check or None)
        except re.error as exc:
            raise ValueError(f"DLP rule {self.type!r}: bad hint: {exc}") from None

    @property
    def placeholder(self) -> str:
        """The replacement text, ``[REDACTED:<type>]``."""
        return f"[REDACTED:{self.type}]"

    def with_action(self, action: Action) -> DlpRule:
        """A copy of this rule with another action."""
        return DlpRule(self.type, action, self.regex, self.validator, self.group, hint=self.hint)

    def redact(self, text: str) -> tuple[str, int]:
        """``(text with every valid match replaced, number of matches replaced)``."""
        if self._hint is not None and not self._hint(text):
            return text, 0
        count = 0
        placeholder = self.placeholder

        def replace(match: re.Match[str]) -> str:
            nonlocal count
            target = match.group(self.group)
            if target is None or (self.validator is not None and not self.validator(target)):
                return match.group(0)
            count += 1
            if self.group == 0:
                return placeholder
            whole, start = match.group(0), match.start(0)
            return whole[: match.start(self.group) - start] + placeholder + whole[match.end(self.group) - start :]

        result = self.regex.sub(replace, text)
        return result, count


_TOKEN_CHARS = r"A-Za-z0-9\-._~+/"
_KEY_PREFIXES = ("sk-", "AKIA", "ASIA", "gh", "github_pat_", "xox", "AIza")
_KEY_NAMES = ("key", "secret", "token", "password")


def _api_key_hint(text: str) -> bool:
    if any(prefix in text for prefix in _KEY_PREFIXES):
        return True
    lower = text.lower()
    return any(name in lower for name in _KEY_NAMES)


_HINTS: dict[str, str | Callable[[str], Any]] = {
    "bearer_token": r"(?i)bearer",
    "api_key": _api_key_hint,
    "email": r"@",
    "iban": r"\d\d",
    "payment_card": r"\d[ \-]?\d[ \-]?\d[ \-]?\d",
}
_DEFAULT_PATTERNS: dict[str, tuple[str, Callable[[str], bool] | None, int]] = {
    "bearer_token": (rf"\b[Bb][Ee][Aa][Rr][Ee][Rr][ \t]+(?=[A-Za-z\-._~+/]*\d)[{_TOKEN_CHARS}]{{8,}}=*", None, 0),
    "api_key": (
        r"(?<![A-Za-z0-9])(?:"
        r"sk-[A-Za-z0-9_\-]{16,}"
        r"|(?:AKIA|ASIA)[0-9A-Z]{16}"
        r"|gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,}"
        r"|xox[abprs]-[A-Za-z0-9\-]{10,}"
        r"|AIza[0-9A-Za-z_\-]{35}"
        r")(?![A-Za-z0-9])"
        r"|(?i:\b(?:api[_\-]?key|secret(?:[_\-]?key)?|access[_\-]?token|password)\b[\"']?\s*[:=]\s*[\"']?)"
        r"([^\s\"'&,;]{6,})",
        None,
        0,
    ),
    "email": (r"(?<![\w.+\-])[A-Za-z0-9!#$%&'*+/=?^_`{|}~\-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~\-]+)*"
              r"@(?:[A-Za-z0-9](?:[A-Za-z0-9\-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}\b", None, 0),
    "iban": (r"\b[A-Za-z]{2}\d{2}(?: ?[A-Za-z0-9]{4}){2,7}(?: ?[A-Za-z0-9]{1,3})?\b", iban_valid, 0),
    "payment_card": (r"(?<![\d\-])\d(?:[ \-]?\d){12,18}(?![\d])", luhn_valid, 0),
}


def default_rules(action: Action = "redact") -> list[DlpRule]:
    """The built-in detectors (see the module docstring), in the order they are applied."""
    rules = []
    for name, (pattern, validator, group) in _DEFAULT_PATTERNS.items():
        kind = _ApiKeyRule if name == "api_key" else DlpRule
        rules.append(kind(name, action, pattern, validator, group, hint=_HINTS[name]))
    return rules


class _ApiKeyRule(DlpRule):
    """The ``api_key`` rule: a known key shape is replaced whole; a generic assignment keeps its name."""

    def redact(self, text: str) -> tuple[str, int]:
        if self._hint is not None and not self._hint(text):
            return text, 0
        count = 0
        placeholder = self.placeholder

        def replace(match: re.Match[str]) -> str:
            nonlocal count
            count += 1
            value_start = match.start(1)
            if value_start < 0:
                return placeholder
            return match.group(0)[: value_start - match.start(0)] + placeholder

        return self.regex.sub(replace, text), count

    def with_action(self, action: Action) -> DlpRule:
        return _ApiKeyRule(self.type, action, self.regex, self.validator, self.group, hint=self.hint)
