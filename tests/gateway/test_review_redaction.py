"""Review: after a mixed workload, no e-mail address or card number is anywhere in the SQLite files.

The workload puts the values everywhere a caller can: nested lists, dict keys, JSON integers and
floats, a run id, an agent name, an Idempotency-Key, approval comments, a failed upstream call,
refused calls (schema error quoting the value, DLP block) and idempotent replays.
"""

from __future__ import annotations

import secrets

from tests.gateway.test_redaction import _files, _luhn_card
from tests.support.gateway import manifest


def test_mixed_workload_leaves_nothing_unredacted_in_db_or_wal(gateway):
    email = f"rev.{secrets.token_hex(4)}@example.net"
    card = _luhn_card("5")
    spaced = " ".join(card[i:i + 4] for i in range(0, 16, 4))
    free, gated, down = gateway.unique("rev-free"), gateway.unique("rev-gated"), gateway.unique("rev-down")
    assert gateway.apply(manifest(free, input_schema={"type": "object"})).status_code == 201
    assert gateway.apply(manifest(gated, requires_approval=True, input_schema={"type": "object"})).status_code == 201
    down_endpoint = {"type": "http", "url": "http://127.0.0.1:9/tools/down", "timeout_seconds": 2}
    assert gateway.apply(manifest(down, endpoint=down_endpoint, input_schema={"type": "object"})).status_code == 201

    arguments = {"deep": [[{"k": [spaced, int(card)]}]], email: {"n": float(card)}, "as_float": float(card)}
    key = {"Idempotency-Key": f"key-{email}"}
    run_id = f"run {email}"
    ok = gateway.invoke(free, arguments, headers=key, run_id=run_id, agent=email)
    assert ok.status_code == 200, ok.text
    record = ok.json()
    assert card not in ok.text and email not in ok.text
    assert record["arguments"]["as_float"] == "[REDACTED:payment_card]"
    assert record["run_id"] == "run [REDACTED:email]" and record["agent"] == "[REDACTED:email]"
    replay = gateway.invoke(free, arguments, headers=key, run_id=run_id, agent=email)
    assert replay.content == ok.content and replay.headers.get("idempotent-replayed") == "true"
    listed = gateway.request("GET", "/v1/tools/invocations", params={"run_id": run_id}).json()["items"]
    assert [r["id"] for r in listed] == [record["id"]]  # the filter takes the caller's run id as given

    failed = gateway.invoke(down, {"card": spaced, "to": email}, run_id=run_id)
    assert failed.status_code == 200 and failed.json()["status"] == "failed"
    assert gateway.invoke(gated, {"bad": "TOPSECRET-7", "to": email}).status_code == 403
    pending = gateway.invoke(gated, {"card": card, "to": email})
    assert pending.status_code == 202
    approval_id = pending.json()["approval_id"]
    decided = gateway.request("POST", f"/v1/approvals/{approval_id}/approve", "admin",
                              json={"comment": f"ok, card {spaced} of {email}"})
    assert decided.status_code == 200 and email not in decided.text
    assert gateway.invoke(gated, {"card": card, "to": email}, approval_id=approval_id).json()["status"] == "succeeded"
    other = gateway.invoke(gated, {"x": email}).json()["approval_id"]
    assert gateway.request("POST", f"/v1/approvals/{other}/reject", "secoff",
                           json={"comment": f"not for {email}"}).status_code == 200
    typed = gateway.unique("rev-typed")
    assert gateway.apply(manifest(typed)).status_code == 201
    assert gateway.invoke(typed, {"text": int(card)}).status_code == 422  # the message quotes the number

    data = _files(gateway)
    for needle in (email, card, spaced, email.split("@")[0]):
        assert needle.encode() not in data, f"{needle!r} is stored unredacted"
