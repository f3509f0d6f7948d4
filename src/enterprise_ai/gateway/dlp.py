"""Data loss prevention (DLP): find sensitive values in JSON data, redact them or block the call.

The gateway scans the arguments of every invocation and then its result (issue 4, API.md: "Arguments and
results are only ever stored redacted"). Public names:

* :class:`DlpRule` - one detector (a precompiled regular expression plus an optional validator) and its action;
* :class:`DlpScanner` - a set of rules; :meth:`DlpScanner.scan` walks a JSON value and returns a
  :class:`DlpOutcome` (a deep-redacted copy, the detections, and whether a ``block`` rule fired);
* :func:`default_rules` - the built-in detectors, all with the action ``redact``.

Built-in detectors (applied in this order, each to the text left by the previous ones):

==================  ===========================================================================================
``bearer_token``    ``Bearer <token>`` (RFC 6750 ``b64token`` characters, 8+ characters, at least one digit,
                    so that prose like "bearer tokens" is left alone); the whole ``Bearer …`` is replaced.
``api_key``         common key shapes: ``sk-…`` (OpenAI, Anthropic, Stripe), ``AKIA…``/``ASIA…`` (AWS access key
                    ids), ``ghp_``/``gho_``/``ghu_``/``ghs_``/``ghr_``/``github_pat_…`` (GitHub), ``xox[abprs]-…``
                    (Slack), ``AIza…`` (Google); and the value of a generic ``api_key=…`` / ``apikey: …`` /
                    ``secret=…`` / ``access_token=…`` / ``password=…`` assignment (the name is kept).
``email``           an addr-spec ``local@domain.tld`` (RFC 5322 dot-atom subset).
``iban``            an IBAN, compact or printed in groups of four (ISO 13616), accepted only when its mod-97
                    check (ISO 7064) gives 1.
``payment_card``    13 to 19 digits, optionally separated by single spaces or dashes, accepted only when the
                    Luhn check passes (ISO/IEC 7812). Runs after ``iban`` so that IBAN digits are not misread.
==================  ===========================================================================================

Walk rules: dicts, lists/tuples and strings are walked; integers (not booleans) are scanned as their decimal
text (a card number sent as a JSON number is still found) and replaced by the redacted string when a rule
matches; other scalars are kept. **Dict keys are scanned too**: a key holding, say, an e-mail address would
otherwise reach the invocation record. A redacted key is renamed to its redacted text (``" (2)"``, ``" (3)"``…
is appended if two keys redact to the same text) and detection paths use the redacted key, so a path never
leaks the value. The input is never mutated.

Block rules: a match of a ``block`` rule sets :attr:`DlpOutcome.blocked` (the gateway answers
``403 dlp_blocked``); the match is still redacted in :attr:`DlpOutcome.value`, so that whatever is recorded of
a blocked call is safe.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from enterprise_ai.errors import UsageError

Action = Literal["redact", "block"]
ACTIONS: tuple[str, ...] = ("redact", "block")

__all__ = ["ACTIONS", "DlpOutcome", "DlpRule", "DlpScanner", "default_rules", "iban_valid", "luhn_valid"]


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

    Raises:
        ValueError: an unknown action, an empty type, or a pattern that does not compile.
    """

    type: str
    action: Action = "redact"
    pattern: str | re.Pattern[str] = ""
    validator: Callable[[str], bool] | None = None
    group: int = 0
    flags: int = 0
    regex: re.Pattern[str] = field(init=False, repr=False, compare=False)

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

    @property
    def placeholder(self) -> str:
        """The replacement text, ``[REDACTED:<type>]``."""
        return f"[REDACTED:{self.type}]"

    def with_action(self, action: Action) -> DlpRule:
        """A copy of this rule with another action."""
        return DlpRule(self.type, action, self.regex, self.validator, self.group)

    def redact(self, text: str) -> tuple[str, int]:
        """``(text with every valid match replaced, number of matches replaced)``."""
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
        rules.append(_ApiKeyRule(name, action, pattern, validator, group) if name == "api_key"
                     else DlpRule(name, action, pattern, validator, group))
    return rules


class _ApiKeyRule(DlpRule):
    """The ``api_key`` rule: a known key shape is replaced whole; a generic assignment keeps its name."""

    def redact(self, text: str) -> tuple[str, int]:
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
        return _ApiKeyRule(self.type, action, self.regex, self.validator, self.group)


@dataclass
class DlpOutcome:
    """What :meth:`DlpScanner.scan` found.

    Attributes:
        value: a deep copy of the scanned value with every match replaced by ``[REDACTED:<type>]``
            (the input itself when nothing matched anywhere).
        detections: one ``{"type", "path", "action"}`` per rule type and JSON pointer (RFC 6901) where it
            matched, in walk order (API.md ``dlp_detections``).
        blocked: True when a rule with the action ``block`` matched.
    """

    value: Any
    detections: list[dict[str, str]] = field(default_factory=list)
    blocked: bool = False


def _pointer_token(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


class DlpScanner:
    """A set of :class:`DlpRule` applied to JSON-like values.

    Args:
        rules: the rules, applied in order; ``None`` means :func:`default_rules` (all ``redact``).

    Thread-safe: a scanner holds only compiled patterns and is never changed by :meth:`scan`.
    """

    def __init__(self, rules: list[DlpRule] | None = None) -> None:
        self.rules: list[DlpRule] = list(default_rules() if rules is None else rules)

    @classmethod
    def from_config(
        cls, entries: Iterable[Mapping[str, Any]] | Mapping[str, Any] | None, *, include_defaults: bool = True
    ) -> DlpScanner:
        """Build a scanner from the ``dlp`` rules of a gateway config file.

        ``entries`` is a list of rules, or a mapping ``{"rules": [...], "include_defaults": bool}`` (the
        ``dlp:`` section of ``gateway.yaml``).

        Each entry is a mapping:

        * ``{type: email, action: block}`` - a built-in type without ``pattern`` changes its action;
        * ``{type: email, enabled: false}`` - removes a built-in rule;
        * ``{type: employee-id, pattern: "EMP-\\d{6}", action: redact, ignore_case: false}`` - a custom rule
          (or replaces the built-in rule of the same type); ``action`` defaults to ``redact``.

        Args:
            entries: the list (``None`` or empty gives the defaults).
            include_defaults: start from :func:`default_rules` (True) or from no rule at all.

        Raises:
            UsageError: an entry that is not a mapping, has no type, an unknown action or a bad pattern,
                or names an unknown built-in type without a pattern; the message names the entry index.
        """
        if isinstance(entries, Mapping):
            unknown = set(entries) - {"rules", "include_defaults"}
            if unknown:
                raise UsageError(f"dlp: unknown key(s) {', '.join(sorted(map(str, unknown)))}")
            include_defaults = bool(entries.get("include_defaults", include_defaults))
            entries = entries.get("rules") or []
        if entries is not None and (isinstance(entries, (str, bytes)) or not isinstance(entries, Iterable)):
            raise UsageError("dlp: expected a list of rules")
        rules: dict[str, DlpRule] = {r.type: r for r in default_rules()} if include_defaults else {}
        builtins = {r.type: r for r in default_rules()}
        for index, entry in enumerate(entries or []):
            where = f"dlp[{index}]"
            if not isinstance(entry, Mapping) or not isinstance(entry.get("type"), str) or not entry["type"]:
                raise UsageError(f"{where}: each DLP rule needs a 'type' (a non-empty string)")
            rule_type = entry["type"]
            if entry.get("enabled", True) is False:
                rules.pop(rule_type, None)
                continue
            action = entry.get("action", "redact")
            if action not in ACTIONS:
                raise UsageError(f"{where}: action must be 'redact' or 'block', not {action!r}")
            try:
                if entry.get("pattern"):
                    flags = re.IGNORECASE if entry.get("ignore_case") else 0
                    rules[rule_type] = DlpRule(rule_type, action, str(entry["pattern"]), flags=flags)
                elif rule_type in builtins:
                    rules[rule_type] = builtins[rule_type].with_action(action)
                else:
                    known = ", ".join(builtins)
                    raise UsageError(f"{where}: unknown DLP type {rule_type!r} without a pattern (built-in: {known})")
            except ValueError as exc:
                raise UsageError(f"{where}: {exc}") from None
        return cls(list(rules.values()))

    def scan_text(self, text: str) -> tuple[str, list[DlpRule]]:
        """``(redacted text, rules that matched)`` for one string."""
        matched: list[DlpRule] = []
        for rule in self.rules:
            text, count = rule.redact(text)
            if count:
                matched.append(rule)
        return text, matched

    def scan(self, value: Any, path: str = "") -> DlpOutcome:
        """Walk ``value`` and redact every match (see the module docstring for what is walked).

        Args:
            value: a JSON-like value (dict, list, str, int, float, bool, None; tuples are walked as lists).
            path: the JSON pointer of ``value`` itself, prefixed to every detection path (``""`` is the root;
                the gateway passes e.g. ``"/arguments"``).

        Returns:
            a :class:`DlpOutcome`; ``value`` is not mutated.
        """
        detections: list[dict[str, str]] = []
        seen: set[tuple[str, str]] = set()
        state = {"blocked": False}

        def record(rules: list[DlpRule], where: str) -> None:
            for rule in rules:
                if (rule.type, where) not in seen:
                    seen.add((rule.type, where))
                    detections.append({"type": rule.type, "path": where, "action": rule.action})
                if rule.action == "block":
                    state["blocked"] = True

        def walk(node: Any, where: str) -> Any:
            if isinstance(node, str):
                new, rules = self.scan_text(node)
                if rules:
                    record(rules, where)
                return new
            if isinstance(node, dict):
                out: dict[Any, Any] = {}
                changed = False
                for key, item in node.items():
                    new_key = key
                    if isinstance(key, str):
                        new_key, rules = self.scan_text(key)
                        if rules:
                            suffix = 2
                            base = new_key
                            while new_key in out or new_key in node and new_key != key:
                                new_key = f"{base} ({suffix})"
                                suffix += 1
                            record(rules, f"{where}/{_pointer_token(new_key)}")
                    child = walk(item, f"{where}/{_pointer_token(str(new_key))}")
                    changed = changed or child is not item or new_key != key
                    out[new_key] = child
                return out if changed else node
            if isinstance(node, (list, tuple)):
                items = [walk(item, f"{where}/{index}") for index, item in enumerate(node)]
                if any(new is not old for new, old in zip(items, node)):
                    return items
                return node
            if isinstance(node, int) and not isinstance(node, bool):
                text = str(node)
                new, rules = self.scan_text(text)
                if rules:
                    record(rules, where)
                    return new
                return node
            return node

        redacted = walk(value, path)
        return DlpOutcome(value=redacted, detections=detections, blocked=state["blocked"])
