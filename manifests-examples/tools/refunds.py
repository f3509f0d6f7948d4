"""Refunds for the payments team: a write action on confidential data, approved by a human first.

``issue_refund`` moves money back to a customer, so every call waits for an approval
(``requires_approval``) and the gateway only lets agents holding ``refunds:write`` ask for one.
"""

from __future__ import annotations

import datetime as dt
import uuid
from dataclasses import dataclass, field
from enum import Enum
from typing import Annotated, Optional

from pydantic import Field

from enterprise_ai.tools import tool


class RefundReason(str, Enum):
    DAMAGED = "damaged"
    NOT_DELIVERED = "not_delivered"
    WRONG_ITEM = "wrong_item"
    GOODWILL = "goodwill"


@dataclass
class RefundReceipt:
    """What the payment provider answered."""

    refund_id: str
    order_id: str
    amount_cents: int
    status: str = "pending"
    created_at: dt.datetime = field(default_factory=lambda: dt.datetime.now(dt.timezone.utc))


@tool(
    action="write",
    scopes=["refunds:write"],
    data_classification="confidential",
    requires_approval=True,
    idempotent=True,
    risk_level="limited",
    owner="payments@example.com",
    version="1.2.0",
)
def issue_refund(
    order_id: str,
    amount_cents: Annotated[int, Field(gt=0, le=500_000, description="Amount to refund, in cents of the order currency.")],
    reason: RefundReason,
    note: Annotated[str, Field(max_length=500)] = "",
    idempotency_key: Optional[uuid.UUID] = None,
) -> RefundReceipt:
    """Refund part or all of an order to the customer's original payment method.

    Refunding twice with the same ``idempotency_key`` refunds once.

    Args:
        order_id: Order to refund, such as ``O-2001``.
        reason: Why the customer is refunded; ``goodwill`` needs a note.
        note: Free text kept with the refund, shown to the approver.
        idempotency_key: Makes a retried refund safe.

    Raises:
        ValueError: a goodwill refund without a note.
    """
    if reason is RefundReason.GOODWILL and not note:
        raise ValueError("a goodwill refund needs a note")
    key = idempotency_key or uuid.uuid4()
    return RefundReceipt(refund_id=f"R-{key.hex[:8]}", order_id=order_id, amount_cents=amount_cents)
