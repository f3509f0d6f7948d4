"""Order search for the commerce team: read-only tools over the order book.

Scan them with ``eai tools scan manifests-examples/tools``. The in-memory order book below stands in
for the team's database, so that the tools also run as they are (``search_orders("C-1042")``).
"""

from __future__ import annotations

import datetime as dt
from enum import Enum
from typing import Literal, Optional, TypedDict

from enterprise_ai.tools import tool

Currency = Literal["EUR", "USD", "GBP"]


class OrderStatus(str, Enum):
    """Where an order is in its life."""

    PENDING = "pending"
    PAID = "paid"
    SHIPPED = "shipped"
    DELIVERED = "delivered"
    CANCELLED = "cancelled"


class OrderLine(TypedDict):
    sku: str
    quantity: int
    unit_price_cents: int


class Order(TypedDict):
    order_id: str
    customer_id: str
    status: OrderStatus
    currency: Currency
    total_cents: int
    placed_at: dt.datetime
    lines: list[OrderLine]


class OrderPage(TypedDict, total=False):
    orders: list[Order]
    next_cursor: str


_ORDERS: list[Order] = [
    {
        "order_id": "O-2001",
        "customer_id": "C-1042",
        "status": OrderStatus.DELIVERED,
        "currency": "EUR",
        "total_cents": 4990,
        "placed_at": dt.datetime(2025, 3, 2, 10, 15, tzinfo=dt.timezone.utc),
        "lines": [{"sku": "MUG-01", "quantity": 2, "unit_price_cents": 1495}, {"sku": "TEA-12", "quantity": 1, "unit_price_cents": 2000}],
    },
    {
        "order_id": "O-2002",
        "customer_id": "C-1042",
        "status": OrderStatus.SHIPPED,
        "currency": "EUR",
        "total_cents": 12900,
        "placed_at": dt.datetime(2025, 4, 18, 16, 40, tzinfo=dt.timezone.utc),
        "lines": [{"sku": "KETTLE-3", "quantity": 1, "unit_price_cents": 12900}],
    },
]


@tool(scopes=["orders:read"], owner="commerce@example.com")
def search_orders(
    customer_id: str,
    status: Optional[OrderStatus] = None,
    placed_after: Optional[dt.datetime] = None,
    sort: Literal["newest", "oldest"] = "newest",
    limit: int = 20,
) -> OrderPage:
    """Search a customer's orders.

    Returns at most ``limit`` orders; ask again with a narrower filter for more.

    Args:
        customer_id: Customer identifier, such as ``C-1042``.
        status: Only orders in this status.
        placed_after: Only orders placed after this instant (ISO 8601, with a time zone).
        sort: ``newest`` first (the default) or ``oldest`` first.
        limit: Largest number of orders returned.
    """
    found = [
        order
        for order in _ORDERS
        if order["customer_id"] == customer_id
        and (status is None or order["status"] == status)
        and (placed_after is None or order["placed_at"] > placed_after)
    ]
    found.sort(key=lambda order: order["placed_at"], reverse=sort == "newest")
    return {"orders": found[:limit]}


@tool(scopes=["orders:read"], owner="commerce@example.com")
def get_order(order_id: str) -> Optional[Order]:
    """Read one order with its lines, or nothing when the identifier is unknown.

    :param order_id: Order identifier, such as ``O-2001``.
    """
    return next((order for order in _ORDERS if order["order_id"] == order_id), None)
