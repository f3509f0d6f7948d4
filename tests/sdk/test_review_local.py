"""Review of ``tool_name``, docstring reading and ``LocalTool.invoke``; ``test_bug_*`` failed before the review."""

from __future__ import annotations

import functools
import sys
import typing
from typing import Optional

if sys.version_info >= (3, 11):
    from typing import NotRequired, Required

    StdTypedDict = typing.TypedDict
else:  # typing.TypedDict understands Required/NotRequired from Python 3.11 on
    from typing_extensions import NotRequired, Required
    from typing_extensions import TypedDict as StdTypedDict

import pytest
from pydantic import Field

from enterprise_ai.tools import LocalTool, ToolArgumentsError, input_schema, tool, tool_name


def _named(name: str):
    def f() -> None:
        pass

    f.__name__ = name
    return f


@pytest.mark.parametrize(
    ("name", "expected"),
    [("_private", "-private"), ("__dunder__", "--dunder--"), ("a__b", "a--b"), ("trailing_", "trailing-"),
     ("x.y", "x.y"), ("Search Orders!", "search-orders-"), ("", "tool")],
)
def test_bug_tool_name_follows_the_reference_page_exactly(name, expected):
    # The page: lower case, '-' for '_' and for any character other than letters, digits, '.' and '-';
    # 'tool' when empty. Nothing about stripping or collapsing dashes (the old code stripped them, and
    # turned an empty __name__ into "function").
    assert tool_name(_named(name)) == expected


def test_tool_name_of_partial_and_callable_object():
    class Lookup:
        def __call__(self, key: str) -> str:
            return key

    def search_orders(q: str, limit: int) -> None:
        pass

    assert tool_name(functools.partial(search_orders, limit=3)) == "search-orders"
    assert tool_name(Lookup()) == "lookup"


def test_bug_sphinx_params_followed_by_a_google_section_do_not_swallow_it():
    def f(query: str, limit: int = 5) -> list[str]:
        """Search orders.

        :param query: Free text.
        :param limit: Maximum rows,
            at most 100.

        Returns:
            The order ids.

        Raises:
            ValueError: never.
        """
        return []

    props = input_schema(f)["properties"]
    assert props["query"]["description"] == "Free text."
    assert props["limit"]["description"] == "Maximum rows, at most 100."  # was "... Returns: The order ids. ..."
    assert LocalTool(f).description == "Search orders."


def test_bug_tabs_and_runs_of_spaces_in_descriptions_are_collapsed():
    def f(query: str) -> None:
        pass

    f.__doc__ = "Search\torders  now.\n\n\tArgs:\n\t\tquery: the\t text.\n"
    assert LocalTool(f).description == "Search orders now."
    assert input_schema(f)["properties"]["query"]["description"] == "the text."


def test_description_is_never_a_section():
    def only_returns() -> int:
        """Returns:
            a number.
        """
        return 1

    def only_note() -> None:
        """Note:
            internal.
        """

    assert LocalTool(only_returns).description == "only-returns"
    assert LocalTool(only_note, name="n").description == "n"


def test_bug_field_default_factory_gives_a_fresh_value_per_call():
    @tool
    def collect(seen: list[int] = Field(default_factory=list)) -> list[int]:
        seen.append(1)
        return seen

    first, second = collect.invoke({}), collect.invoke("")
    assert first == [1] and second == [1] and first is not second  # was [1, 1] (one shared list)


class _Line(StdTypedDict, total=False):
    sku: Required[str]
    qty: int


class _Order(StdTypedDict):
    id: int
    lines: NotRequired[list[_Line]]
    parent: Optional[_Line]


def test_bug_typing_typeddict_arguments_are_coerced_like_the_others():
    # pydantic refuses typing.TypedDict before Python 3.12; the value was checked without coercion, so
    # "7" was refused for an int here while it is accepted everywhere else.
    @tool
    def place(order: _Order, by_sku: dict[str, _Line] = {}) -> tuple:  # noqa: B006
        return order, by_sku

    order, by_sku = place.invoke({"order": {"id": "7", "lines": [{"sku": "A", "qty": "2"}], "parent": None},
                                  "by_sku": {"A": {"sku": "A", "qty": "3"}}})
    assert order == {"id": 7, "lines": [{"sku": "A", "qty": 2}], "parent": None}
    assert by_sku == {"A": {"sku": "A", "qty": 3}}
    with pytest.raises(ToolArgumentsError) as info:
        place.invoke({"order": {"id": 1, "lines": [{"qty": 1}], "parent": None}})
    assert [e["path"] for e in info.value.errors] == ["/order/lines/0/sku"]


class _Tree(StdTypedDict):
    label: str
    kids: list[_Tree]


def test_recursive_typing_typeddict_is_still_validated():
    @tool
    def walk(tree: _Tree) -> str:
        return tree["label"]

    assert walk.invoke({"tree": {"label": "root", "kids": [{"label": "k", "kids": []}]}}) == "root"
    with pytest.raises(ToolArgumentsError) as info:
        walk.invoke({"tree": {"label": "root", "kids": [{"label": 3, "kids": []}]}})
    assert info.value.errors[0]["path"].startswith("/tree/kids/0")


@pytest.mark.parametrize(
    ("arguments", "fragment"),
    [("[1, 2]", "JSON object"), ("3", "JSON object"), ("null", "JSON object"), ("{", "not valid JSON"),
     ({"n": 1, "zzz": 2}, "/zzz: unexpected argument"), ({}, "/n: missing required argument"),
     ({"n": "x"}, "/n: Input should be a valid integer")],
)
def test_invoke_errors_name_the_argument(arguments, fragment):
    @tool
    def count(n: int, label: Optional[str] = None) -> int:
        return n

    with pytest.raises(ToolArgumentsError, match=fragment.replace("[", r"\[")):
        count.invoke(arguments)
    assert count.invoke('{"n": "4"}') == 4


def test_invoke_empty_means_no_arguments():
    @tool
    def ping() -> str:
        return "pong"

    assert ping.invoke("") == ping.invoke("  ") == ping.invoke(None) == ping.invoke({}) == ping.invoke("{}") == "pong"


def test_bug_async_wrapper_of_a_sync_function_is_async():
    import asyncio

    def asyncify(fn):
        @functools.wraps(fn)
        async def wrapper(*args, **kwargs):
            return fn(*args, **kwargs)

        return wrapper

    @tool
    @asyncify
    def double(x: int) -> int:
        return 2 * x

    assert double.is_async  # was False: only the innermost function was looked at
    assert asyncio.run(double.invoke({"x": "3"})) == 6
    assert input_schema(double)["required"] == ["x"]


def test_bug_cache_wrapper_without_docstring_does_not_borrow_its_class_doc():
    @tool
    @functools.cache
    def rate(currency: str) -> float:
        return 1.0

    @tool
    @functools.lru_cache(maxsize=8)
    def documented(currency: str) -> float:
        """Exchange rate of a currency."""
        return 1.0

    assert rate.description == "rate"  # was "Create a cached callable that wraps another function."
    assert documented.description == "Exchange rate of a currency."
    assert rate.invoke({"currency": "EUR"}) == 1.0 and rate.input_schema["required"] == ["currency"]


def test_class_based_decorator_is_followed():
    class Logged:
        def __init__(self, fn):
            functools.update_wrapper(self, fn)

        def __call__(self, *args, **kwargs):
            return self.__wrapped__(*args, **kwargs)

    @tool
    @Logged
    def lookup(key: str, n: int = 1) -> str:
        """Look up a key.

        Args:
            key: The key.
        """
        return f"{key}{n}"

    assert (lookup.name, lookup.description) == ("lookup", "Look up a key.")
    assert lookup.input_schema["properties"]["key"] == {"type": "string", "description": "The key."}
    assert lookup.invoke('{"key": "k", "n": "2"}') == "k2"
