"""Docstring reading for tool schemas: the tool description and one description per parameter.

The three common styles are recognised and auto-detected with `docstring-parser`_:

* Sphinx / reST: ``:param x: ...`` (also ``:keyword x:``, ``:param int x:``);
* Google: ``Args:`` / ``Arguments:`` / ``Parameters:``, ``Keyword Args:`` / ``Keyword Arguments:``,
  ``Other Parameters:``, with ``x (int): ...`` entries;
* NumPy: ``Parameters`` and ``Other Parameters`` sections underlined with dashes.

Rules (issue 2, point 3):

* the tool description is the *first paragraph* of the docstring only, never a section
  (``Args:``, ``Returns:``, ``Raises:``, ``Note:``, ``:param``, a NumPy header...);
* a parameter description spanning several lines is kept whole; the lines of one paragraph are
  joined with single spaces, paragraphs are separated by a blank line (``\\n\\n``);
* a docstring that does not parse is never fatal: it yields no parameter descriptions.

.. _docstring-parser: https://github.com/rr-/docstring_parser
"""

from __future__ import annotations

import functools
import inspect
import re
from dataclasses import dataclass, field

from docstring_parser import Docstring, DocstringStyle
from docstring_parser import google, numpydoc, rest

__all__ = ["ParsedDocstring", "first_paragraph", "parse_docstring"]

_GOOGLE_EXTRA = [
    ("Keyword Args", "param"),
    ("Keyword Arguments", "param"),
    ("Kwargs", "param"),
    ("Other Parameters", "param"),
    ("Other Params", "param"),
    ("Other Args", "param"),
    ("Other Arguments", "param"),
]
_GOOGLE_SINGULAR = ["Note", "Notes", "Warning", "Warnings", "See Also", "Todo", "References", "Example", "Examples"]

# A line that opens a docstring section: Google/NumPy titles ("Args:", "Returns"), or reST fields (":param").
_SECTION_TITLES = {
    title.lower()
    for title in [
        *(s.title for s in google.DEFAULT_SECTIONS),
        *(t for t, _ in _GOOGLE_EXTRA),
        *_GOOGLE_SINGULAR,
        *(s.title for s in numpydoc.DEFAULT_SECTIONS),
        "Yield", "Return", "Raise", "Methods", "Attention", "Caution", "Danger", "Hint", "Tip", "Important",
    ]
}
_FIELD_LINE = re.compile(r"^:\w[^:]*:")
# rest.parse finds sections only from a line of inspect.cleandoc(text) that starts with ":"; cleandoc only
# removes leading whitespace, so no line with ":" after optional whitespace means no section (a superset test).
_REST_FIELD = re.compile(r"^\s*:", flags=re.M)
_UNDERLINE = re.compile(r"^\s*-{3,}\s*$")


@dataclass(frozen=True)
class ParsedDocstring:
    """What a tool needs from a docstring.

    Attributes:
        description: the first paragraph, whitespace-normalised, or None when there is none.
        params: parameter name -> description (names without ``*``), in docstring order.
        returns: the description of the return value, or None.
    """

    description: str | None = None
    params: dict[str, str] = field(default_factory=dict)
    returns: str | None = None


def _google_parser() -> google.GoogleParser:
    sections = list(google.DEFAULT_SECTIONS)
    sections += [google.Section(t, k, google.SectionType.MULTIPLE) for t, k in _GOOGLE_EXTRA]
    sections += [google.Section(t, "notes", google.SectionType.SINGULAR) for t in _GOOGLE_SINGULAR
                 if t not in ("Example", "Examples")]
    return google.GoogleParser(sections)


_NUMPY = numpydoc.NumpydocParser()  # what numpydoc.parse uses, built once rather than on every call
_PARSERS = {
    DocstringStyle.REST: rest.parse,
    DocstringStyle.GOOGLE: _google_parser().parse,
    DocstringStyle.NUMPYDOC: _NUMPY.parse,
}


def _normalise(text: str | None) -> str | None:
    """Join the lines of each paragraph with one space; paragraphs are separated by a blank line."""
    if not text:
        return None
    paragraphs = re.split(r"\n\s*\n", inspect.cleandoc(text))
    joined = [" ".join(p.split()) for p in paragraphs]  # runs of spaces and tabs become one space
    out = "\n\n".join(p for p in joined if p)
    return out or None


def _is_section_start(lines: list[str], i: int) -> bool:
    line = lines[i].strip()
    if _FIELD_LINE.match(line):
        return True
    title = line[:-1] if line.endswith(":") else line
    if title.lower() not in _SECTION_TITLES:
        return False
    underlined = i + 1 < len(lines) and bool(_UNDERLINE.match(lines[i + 1]))  # NumPy header
    return line.endswith(":") or underlined


def _before_section(text: str | None) -> str | None:
    """``text`` up to the first line that opens a section (a Sphinx ``:param`` followed by a Google
    ``Returns:`` leaves the section in the last parameter's description otherwise)."""
    if not text:
        return text
    lines = text.splitlines()
    for i in range(len(lines)):
        if _is_section_start(lines, i) and not _FIELD_LINE.match(lines[i].strip()):
            return "\n".join(lines[:i])
    return text


@functools.lru_cache(maxsize=1024)
def first_paragraph(doc: str | None) -> str | None:
    """The first paragraph of ``doc`` (stopping at a blank line or at a section title), or None.

    Never raises. Lines are joined, and runs of whitespace collapsed, into single spaces. A docstring that starts with a section
    (``Args:``, ``:param x:``...) has no description.
    """
    if not doc or not doc.strip():
        return None
    lines = inspect.cleandoc(doc).splitlines()
    kept: list[str] = []
    for i, line in enumerate(lines):
        if not line.strip() or _is_section_start(lines, i):
            break
        kept.append(line.strip())
    return " ".join(" ".join(kept).split()) or None


def _best_parse(doc: str) -> Docstring | None:
    """Parse with every style and keep the one that found the most sections (docstring-parser's AUTO rule)."""
    results = []
    for style, parse in _PARSERS.items():
        if style is DocstringStyle.REST and _REST_FIELD.search(doc) is None:
            continue  # rest.parse would find no section: no parameter or return text, as with no result
        if style is DocstringStyle.NUMPYDOC and _NUMPY.titles_re.search(inspect.cleandoc(doc)) is None:
            continue  # the text _NUMPY.parse searches (it cleans again) has no section title: the same
        try:
            results.append(parse(doc))
        except Exception:  # ParseError or anything else: a docstring that does not parse is never fatal
            continue
    if not results:
        return None
    return max(results, key=lambda d: len(d.meta))  # max keeps the first of equals: REST, GOOGLE, NUMPYDOC


@functools.lru_cache(maxsize=1024)
def parse_docstring(doc: str | None) -> ParsedDocstring:
    """Read the description, the parameter descriptions and the return description of a docstring.

    Args:
        doc: the raw ``__doc__`` (indentation is cleaned here), or None.

    Returns:
        A :class:`ParsedDocstring`; empty when ``doc`` is empty or does not parse. Never raises.
    """
    if not doc or not doc.strip():
        return ParsedDocstring()
    description = first_paragraph(doc)
    parsed = _best_parse(inspect.cleandoc(doc))
    params: dict[str, str] = {}
    returns = None
    if parsed is not None:
        for p in parsed.params:
            text = _normalise(_before_section(p.description))
            if not text:
                continue
            for name in re.split(r"\s*,\s*", p.arg_name or ""):
                name = name.strip().lstrip("*")
                if name and name not in params:
                    params[name] = text
        if parsed.returns is not None:
            returns = _normalise(_before_section(parsed.returns.description))
    return ParsedDocstring(description=description, params=params, returns=returns)
