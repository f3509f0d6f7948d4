"""Customer records for the privacy team: a confidential lookup and a high-risk erasure.

``delete_customer`` erases a customer for good (GDPR article 17 requests, proven fraud, duplicates):
action ``delete``, risk ``high``, restricted data, a human approval on every call, and two scopes.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal, Optional

from pydantic import BaseModel

from enterprise_ai.tools import tool

ErasureReason = Literal["gdpr_request", "fraud", "duplicate"]


class Address(BaseModel):
    street: str
    city: str
    postal_code: str
    country: str


class Customer(BaseModel):
    customer_id: str
    name: str
    email: str
    created_at: dt.date
    shipping_addresses: list[Address] = []
    loyalty_tier: Literal["none", "silver", "gold"] = "none"


class Erasure(BaseModel):
    customer_id: str
    erased_at: dt.datetime
    ticket: Optional[str] = None


@tool(scopes=["customers:read"], data_classification="confidential", owner="privacy@example.com")
def get_customer(customer_id: str) -> Customer:
    """Read a customer's profile and shipping addresses.

    Parameters
    ----------
    customer_id : str
        Customer identifier, such as ``C-1042``.
    """
    return Customer(customer_id=customer_id, name="Ada Martin", email="ada@example.com", created_at=dt.date(2023, 5, 1))


@tool(
    action="delete",
    scopes=["customers:delete", "privacy:erase"],
    data_classification="restricted",
    risk_level="high",
    requires_approval=True,
    owner="privacy@example.com",
)
def delete_customer(customer_id: str, reason: ErasureReason, ticket: Optional[str] = None, dry_run: bool = False) -> Erasure:
    """Erase a customer and everything attached to them; this cannot be undone.

    Orders are kept for accounting, with the customer's name, email and addresses removed.

    :param customer_id: Customer to erase, such as ``C-1042``.
    :param reason: Why: a GDPR erasure request, proven fraud, or a duplicate account.
    :param ticket: Support or privacy ticket that asked for the erasure.
    :param dry_run: Report what would be erased, and erase nothing.
    """
    return Erasure(customer_id=customer_id, erased_at=dt.datetime.now(dt.timezone.utc), ticket=ticket)
