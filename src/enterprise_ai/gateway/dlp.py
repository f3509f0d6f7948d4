"""Data loss prevention (DLP): find sensitive values in JSON data, redact them or block the call.

The gateway scans the arguments of every invocation and then its result (issue 4, API.md: "Arguments and
results are only ever stored redacted"). Public names:

* :class:`DlpRule` - one detector (a precompiled regular expression plus an optional validator) and its action;
* :class:`DlpScanner` - a set of rules; :meth:`DlpScanner.scan` walks a JSON value and returns a
  :class:`DlpOutcome` (a deep-redacted copy, the detections, and whether a ``block`` rule fired);
* :func:`default_rules` - the built-in detectors, all with the action ``redact``.

:class:`DlpRule`, :func:`default_rules` and the validators live in :mod:`enterprise_ai.gateway.dlp_rules`.

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

Walk rules: dicts, lists/tuples and strings are walked; integers (not booleans), and floats with an integral
value (``4111111111111111.0``, ``4.111111111111111e15``), are scanned as their decimal integer text (a card
number sent as a JSON number is still found) and replaced by the redacted string when a rule matches; other
scalars are kept. **Dict keys are scanned too**: a key holding, say, an e-mail address would
otherwise reach the invocation record. A redacted key is renamed to its redacted text (``" (2)"``, ``" (3)"``…
is appended if two keys redact to the same text) and detection paths use the redacted key, so a path never
leaks the value. The input is never mutated.

Block rules: a match of a ``block`` rule sets :attr:`DlpOutcome.blocked` (the gateway answers
``403 dlp_blocked``); the match is still redacted in :attr:`DlpOutcome.value`, so that whatever is recorded of
a blocked call is safe.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from enterprise_ai.errors import UsageError
from enterprise_ai.gateway.dlp_rules import ACTIONS, Action, DlpRule, default_rules, iban_valid, luhn_valid

__all__ = ["ACTIONS", "Action", "DlpOutcome", "DlpRule", "DlpScanner", "default_rules", "iban_valid", "luhn_valid"]


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


def _number_text(number: int | float) -> str | None:
    """The digits a rule should see in a JSON number: an integer's decimal text, and the same for a float
    with an integral value (``4111111111111111.0`` or ``4.111111111111111e15``, as a JSON number may carry a
    card number); None for other floats (NaN, infinities and fractions hold no identifier)."""
    if isinstance(number, int):
        return str(number)
    if number != number or number in (float("inf"), float("-inf")) or not number.is_integer():
        return None
    return str(int(number))


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
            if isinstance(node, (int, float)) and not isinstance(node, bool):
                text = _number_text(node)
                if text is None:
                    return node
                new, rules = self.scan_text(text)
                if rules:
                    record(rules, where)
                    return new
                return node
            return node

        redacted = walk(value, path)
        return DlpOutcome(value=redacted, detections=detections, blocked=state["blocked"])
