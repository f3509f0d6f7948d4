"""Issue 2, point 3, bullet 4: parameter descriptions from Sphinx, Google and NumPy docstrings."""

from __future__ import annotations

from typing import Annotated

import pytest
from pydantic import Field

from enterprise_ai.tools import LocalTool, input_schema
from enterprise_ai.tools._docstrings import first_paragraph, parse_docstring


def sphinx(query: str, limit: int = 10, *, sort: str = "date") -> None:
    """Search the orders of a customer.

    Matches are ranked by date.

    :param query: Free text matched against
        order lines and notes.
    :param int limit: Maximum number of orders.
    :keyword sort: Sort key.
    :returns: nothing.
    :raises ValueError: never.
    """


def google(query: str, limit: int = 10, *, sort: str = "date") -> None:
    """Search the orders of a customer.

    Matches are ranked by date.

    Args:
        query (str): Free text matched against
            order lines and notes.
        limit (int, optional): Maximum number of orders.

    Keyword Args:
        sort: Sort key.

    Returns:
        None: nothing.

    Raises:
        ValueError: never.

    Note:
        This note is not a description.
    """


def numpy(query: str, limit: int = 10, *, sort: str = "date") -> None:
    """Search the orders of a customer.

    Matches are ranked by date.

    Parameters
    ----------
    query : str
        Free text matched against
        order lines and notes.
    limit : int, optional
        Maximum number of orders.

    Other Parameters
    ----------------
    sort : str
        Sort key.

    Returns
    -------
    None
        nothing.
    """


@pytest.mark.parametrize("fn", [sphinx, google, numpy], ids=["sphinx", "google", "numpy"])
def test_each_style_gives_every_parameter_description(fn):
    props = input_schema(fn)["properties"]
    assert props["query"]["description"] == "Free text matched against order lines and notes."
    assert props["limit"]["description"] == "Maximum number of orders."
    assert props["sort"]["description"] == "Sort key."


@pytest.mark.parametrize("fn", [sphinx, google, numpy], ids=["sphinx", "google", "numpy"])
def test_tool_description_is_the_first_paragraph_only(fn):
    assert LocalTool(fn).description == "Search the orders of a customer."


def test_multi_line_first_paragraph_is_kept_whole():
    def f(x: int) -> None:
        """Refund an order
        after checking its payment.

        Args:
            x: the order.
        """

    assert LocalTool(f).description == "Refund an order after checking its payment."


@pytest.mark.parametrize(
    "doc",
    [
        "Args:\n    x: the order.",
        ":param x: the order.",
        "Returns:\n    int: a number.",
        "Raises:\n    ValueError: bad.",
        "Note:\n    careful.",
    ],
)
def test_a_docstring_starting_with_a_section_has_no_description(doc):
    assert first_paragraph(doc) is None

    def f(x: int) -> None:
        pass

    f.__doc__ = doc
    assert LocalTool(f).description == "f"  # falls back to the name


def test_summary_directly_followed_by_a_section_stops_there():
    assert first_paragraph("Do a thing.\nArgs:\n    x: y") == "Do a thing."
    assert first_paragraph("Do a thing.\n:param x: y") == "Do a thing."
    assert first_paragraph("Do a thing.\nParameters\n----------\nx : int") == "Do a thing."


def test_multi_paragraph_parameter_description_is_kept():
    parsed = parse_docstring(
        """Do.

        Parameters
        ----------
        x : int
            First paragraph
            continued.

            Second paragraph.
        """
    )
    assert parsed.params == {"x": "First paragraph continued.\n\nSecond paragraph."}


@pytest.mark.parametrize(
    "doc",
    [
        "Args:\n  x (int: broken\n    :param\n----\n",
        ":param: :type x: ::: \n",
        "Parameters\n----------\n : \n",
        "\x00\x01 weird \t\t text",
        "",
        None,
    ],
)
def test_docstring_that_does_not_parse_is_never_fatal(doc):
    def f(x: int) -> None:
        pass

    f.__doc__ = doc
    schema = input_schema(f)
    assert schema["properties"]["x"]["type"] == "integer"
    assert isinstance(LocalTool(f).description, str)


def test_annotated_field_description_wins_over_docstring_and_keeps_constraints():
    def f(
        limit: Annotated[int, Field(description="From Field.", ge=1, le=50)] = 10,
        name: Annotated[str, Field(min_length=2, max_length=5, pattern="^[a-z]+$")] = "ab",
    ) -> None:
        """Do.

        Args:
            limit: From the docstring.
            name: The name.
        """

    props = input_schema(f)["properties"]
    assert props["limit"] == {"type": "integer", "minimum": 1, "maximum": 50, "description": "From Field.",
                              "default": 10}
    assert props["name"]["description"] == "The name."
    assert (props["name"]["minLength"], props["name"]["maxLength"], props["name"]["pattern"]) == (2, 5, "^[a-z]+$")


def test_param_descriptions_only_for_known_parameters_and_no_return_leak():
    props = input_schema(google)["properties"]
    assert set(props) == {"query", "limit", "sort"}
    for prop in props.values():
        assert "nothing" not in prop["description"] and "never" not in prop["description"]


@pytest.mark.parametrize("title", ["Keyword Args", "Keyword Arguments", "Other Parameters", "Arguments", "Parameters"])
def test_google_parameter_section_titles(title):
    def f(a: int, *, b: int = 0) -> None:
        pass

    f.__doc__ = f"Do.\n\n{title}:\n    a: First.\n    b: Second.\n"
    props = input_schema(f)["properties"]
    assert (props["a"]["description"], props["b"]["description"]) == ("First.", "Second.")
