"""Arguments and results are stored only redacted: no e-mail address or card number reaches the SQLite files."""

from __future__ import annotations

import secrets

from tests.support.gateway import manifest


def _luhn_card(prefix: str = "4") -> str:
    digits = [int(c) for c in prefix + "".join(str(secrets.randbelow(10)) for _ in range(14 - len(prefix) + 1))]
    total = 0
    for index, digit in enumerate(reversed(digits)):
        if index % 2 == 0:
            digit *= 2
            digit -= 9 if digit > 9 else 0
        total += digit
    return "".join(map(str, digits)) + str((10 - total % 10) % 10)


def _files(gateway) -> bytes:
    paths = [gateway.db_path, gateway.db_path.with_name("gateway.sqlite3-wal"),
             gateway.db_path.with_name("gateway.sqlite3-shm")]
    return b"".join(p.read_bytes() for p in paths if p.exists())


def test_no_email_or_card_number_in_the_sqlite_files(gateway):
    email = f"jane.{secrets.token_hex(4)}@example.org"
    card = _luhn_card()
    spaced = " ".join(card[i:i + 4] for i in range(0, 16, 4))
    text = f"refund {spaced} to {email}"
    echo, gated = gateway.unique("pii"), gateway.unique("pii-gated")
    assert gateway.apply(manifest(echo)).status_code == 201
    assert gateway.apply(manifest(gated, requires_approval=True)).status_code == 201

    ok = gateway.invoke(echo, {"text": text}, headers={"Idempotency-Key": gateway.unique("k")})
    assert ok.status_code == 200
    assert ok.json()["result"] == {"text": "refund [REDACTED:payment_card] to [REDACTED:email]"}
    assert {d["type"] for d in ok.json()["dlp_detections"]} == {"email", "payment_card"}
    # a denied call records its arguments too, and a schema message quoting the value
    assert gateway.invoke(echo, {"text": int(card)}).status_code == 422
    assert gateway.invoke(echo, {"text": f"{email} TOPSECRET-1"}).status_code == 403
    # an approval request keeps the arguments, redacted
    approval_id = gateway.invoke(gated, {"text": text}).json()["approval_id"]
    assert gateway.request("POST", f"/v1/approvals/{approval_id}/approve", "admin2").status_code == 200
    assert gateway.invoke(gated, {"text": text}, approval_id=approval_id).json()["status"] == "succeeded"

    data = _files(gateway)
    assert b"[REDACTED:email]" in data  # the records are there...
    for secret in (email, card, spaced, card[-8:]):
        assert secret.encode() not in data, secret  # ...without the values
