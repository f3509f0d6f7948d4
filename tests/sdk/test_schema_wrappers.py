"""Issue 2, point 3, bullet 7: async functions, functools.wraps wrappers and functools.partial objects."""

from __future__ import annotations

import asyncio
import functools

from enterprise_ai.tools import LocalTool, input_schema, tool, tool_name


def retry(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)

    return wrapper


def async_retry(fn):
    @functools.wraps(fn)
    async def wrapper(*args, **kwargs):
        return await fn(*args, **kwargs)

    return wrapper


async def fetch_invoice(invoice_id: str, with_lines: bool = False) -> dict[str, str]:
    """Fetch one invoice.

    Args:
        invoice_id: The invoice number.
    """
    return {"id": invoice_id, "lines": str(with_lines)}


@retry
def cancel_order(order_id: int, reason: str = "customer") -> str:
    """Cancel an order.

    :param order_id: The order to cancel.
    """
    return f"{order_id}:{reason}"


def transfer(source: str, target: str, amount: float, *, currency: str = "EUR", note: str = "") -> str:
    """Move money between accounts.

    Args:
        source: Account to debit.
        target: Account to credit.
        amount: Amount in currency units.
        currency: ISO 4217 code.
        note: Free text.
    """
    return f"{source}->{target}:{amount}{currency}{note}"


def test_async_function_schema_and_coroutine():
    t = tool(fetch_invoice)
    assert t.is_async is True
    assert t.input_schema["required"] == ["invoice_id"]
    assert t.input_schema["properties"]["invoice_id"]["description"] == "The invoice number."
    assert t.output_schema == {"type": "object", "additionalProperties": {"type": "string"}}
    coro = t.invoke({"invoice_id": "F-1", "with_lines": "true"})
    assert asyncio.iscoroutine(coro)
    assert asyncio.run(coro) == {"id": "F-1", "lines": "True"}


def test_wrapped_async_function_is_async():
    assert tool(async_retry(fetch_invoice)).is_async is True
    assert tool(cancel_order).is_async is False


def test_wraps_follows_wrapped_for_signature_name_and_doc():
    t = tool(cancel_order)
    assert t.name == "cancel-order"
    assert t.description == "Cancel an order."
    assert t.input_schema == {
        "type": "object",
        "properties": {"order_id": {"type": "integer", "description": "The order to cancel."},
                       "reason": {"type": "string", "default": "customer"}},
        "required": ["order_id"],
        "additionalProperties": False,
    }
    assert t.invoke('{"order_id": "7"}') == "7:customer"


def test_partial_bound_arguments_disappear():
    bound = functools.partial(transfer, "acc-1", currency="USD")
    schema = input_schema(bound)
    assert list(schema["properties"]) == ["target", "amount", "note"]
    assert schema["required"] == ["target", "amount"]
    assert schema["properties"]["target"]["description"] == "Account to credit."
    t = LocalTool(bound)
    assert t.name == "transfer" == tool_name(bound)
    assert t.description == "Move money between accounts."
    assert t.__name__ == "transfer"
    assert t.invoke({"target": "acc-2", "amount": "5"}) == "acc-1->acc-2:5.0USD"


def test_nested_partial():
    bound = functools.partial(functools.partial(transfer, "a"), "b", note="n")
    assert list(input_schema(bound)["properties"]) == ["amount", "currency"]


def test_partial_of_async_function_is_async():
    t = LocalTool(functools.partial(fetch_invoice, with_lines=True))
    assert t.is_async is True
    assert list(t.input_schema["properties"]) == ["invoice_id"]
    assert asyncio.run(t.invoke({"invoice_id": "x"})) == {"id": "x", "lines": "True"}
