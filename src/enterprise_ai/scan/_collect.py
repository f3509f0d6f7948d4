"""What the import worker reports for an imported module: its tools, their places, and errors.

Part of the worker process (:mod:`enterprise_ai.scan._worker`): runs next to user code, returns
JSON-able records. A tool is a module-level :class:`~enterprise_ai.tools.LocalTool`, or an object
with a ``tool_definition`` (an agents-SDK tool) converted by
:func:`enterprise_ai.integrations.agents.manifest_from_agents_tool` when that module is importable.
Each object is reported once per scan (by identity), with the file and ``def`` line of its function.
"""

from __future__ import annotations

import functools
import linecache
import os
import re
import traceback
import types
from typing import Any

from enterprise_ai.errors import EaiError


def _error_text(exc: BaseException) -> str:
    """``<exception type>: <last line of its message>`` (just the type when the message is empty)."""
    if isinstance(exc, SyntaxError) and exc.msg:
        detail = exc.msg
    else:
        lines = str(exc).strip().splitlines()
        detail = lines[-1].strip() if lines else ""
    return f"{type(exc).__name__}: {detail}" if detail else type(exc).__name__


def problem_record(
    file: str, exc: BaseException, *, tool: str | None = None, line: int | None = None, prefix: str = "import failed: "
) -> dict[str, Any]:
    """A problem record for ``exc`` raised while importing ``file`` (or building a tool's manifest)."""
    if isinstance(exc, SyntaxError) and exc.filename and exc.lineno:
        file, line = exc.filename, exc.lineno
    elif line is None:
        tb = exc.__traceback__
        while tb is not None:  # the deepest frame that runs the module's own code
            if os.path.abspath(tb.tb_frame.f_code.co_filename) == file:
                line = tb.tb_lineno
            tb = tb.tb_next
    return {
        "file": file,
        "line": line,
        "message": prefix + _error_text(exc),
        "tool": tool,
        "parameter": getattr(exc, "parameter", None) if isinstance(getattr(exc, "parameter", None), str) else None,
        "traceback": "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)),
    }


def _unwrap(fn: Any) -> Any:
    """The function under ``functools.wraps`` layers, ``functools.partial`` objects and bound methods."""
    for _ in range(100):
        if isinstance(fn, functools.partial):
            fn = fn.func
        elif getattr(fn, "__wrapped__", None) is not None:
            fn = fn.__wrapped__
        elif isinstance(fn, types.MethodType):
            fn = fn.__func__
        else:
            break
    return fn


def _def_line(file: str, first: int) -> int:
    """The ``def`` line at or after ``first`` (``co_firstlineno`` points at the first decorator)."""
    for number in range(first, first + 200):
        text = linecache.getline(file, number)
        if not text:
            break
        if text.lstrip().startswith(("def ", "async def ")):
            return number
    return first


def _location(obj: Any, module: types.ModuleType, attribute: str) -> tuple[str, int]:
    """File and line of a tool: its function's ``def`` when there is one, else its name in the module."""
    for candidate in (getattr(obj, "fn", None), getattr(obj, "function", None), getattr(obj, "func", None)):
        fn = _unwrap(candidate) if candidate is not None else None
        code = getattr(fn, "__code__", None)
        if code is None and fn is not None and not isinstance(fn, type):
            code = getattr(getattr(type(fn), "__call__", None), "__code__", None)
        if code is not None and os.path.isfile(code.co_filename):
            return os.path.abspath(code.co_filename), _def_line(code.co_filename, code.co_firstlineno)
    file = os.path.abspath(getattr(module, "__file__", None) or module.__name__)
    pattern = re.compile(rf"^(async\s+def\s+|def\s+)?{re.escape(attribute)}\b")
    for number, text in enumerate(linecache.getlines(file), start=1):
        if pattern.match(text):
            return file, number
    return file, 1


class Collector:
    """Finds the tools of imported modules, each object once (by identity) across the whole scan."""

    def __init__(self, request: dict[str, Any]) -> None:
        from pydantic import TypeAdapter  # noqa: F401 - the SDK's lazy import, loaded before user code
        from enterprise_ai.tools import LocalTool

        # Everything schema building needs is loaded now, before user code: a user file named like one
        # of these modules (pydantic.py) is then reported instead of shadowing the real one.
        self.local_tool = LocalTool
        self.base_url: str | None = request.get("endpoint_base_url")
        self.metadata: dict[str, Any] = request.get("metadata") or {}
        self.seen: dict[int, Any] = {}  # id -> object, kept alive so that ids stay unique
        self._agents_converter: Any = None
        self._agents_loaded = False

    def endpoint(self, name: str) -> dict[str, Any] | None:
        """``POST <base>/tools/<name>`` with a 30-second timeout when a base URL was given, else None."""
        if not self.base_url:
            return None
        url = f"{self.base_url.rstrip('/')}/tools/{name}"
        return {"type": "http", "method": "POST", "url": url, "timeout_seconds": 30}

    def agents_converter(self) -> Any:
        if not self._agents_loaded:
            self._agents_loaded = True
            try:
                from enterprise_ai.integrations.agents import manifest_from_agents_tool
            except ImportError:
                manifest_from_agents_tool = None
            self._agents_converter = manifest_from_agents_tool
        return self._agents_converter

    @staticmethod
    def is_agents_tool(obj: Any) -> bool:
        if isinstance(obj, (type, types.ModuleType)) or type(obj).__module__ == "unittest.mock":
            return False
        try:
            definition = getattr(obj, "tool_definition", None)
            if isinstance(definition, dict):
                return isinstance(definition.get("name"), str)
            return definition is not None and isinstance(getattr(definition, "name", None), str)
        except Exception:  # noqa: BLE001 - a lazy proxy that fails on attribute access is not a tool
            return False

    def collect(self, module: types.ModuleType) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        tools: list[dict[str, Any]] = []
        problems: list[dict[str, Any]] = []
        for attribute, obj in list(vars(module).items()):
            if id(obj) in self.seen:
                continue
            if isinstance(obj, self.local_tool):
                kind = "eai"
            elif self.is_agents_tool(obj) and self.agents_converter() is not None:
                kind = "agents"
            else:
                continue
            self.seen[id(obj)] = obj
            file, line = _location(obj, module, attribute)
            try:
                if kind == "eai":
                    name = obj.name
                    manifest, source = obj.manifest(endpoint=self.endpoint(name), **self.metadata), "eai"
                else:
                    convert = self.agents_converter()
                    manifest, source = convert(obj, endpoint=None, **self.metadata)
                    endpoint = self.endpoint(manifest["metadata"]["name"])
                    if endpoint is not None:
                        manifest, source = convert(obj, endpoint=endpoint, **self.metadata)
                    name = manifest["metadata"]["name"]
            except Exception as exc:  # noqa: BLE001 - reported against the tool, the scan goes on
                tool_name = getattr(obj, "name", None)
                label = tool_name if isinstance(tool_name, str) else attribute
                problem = problem_record(file, exc, tool=label, line=line, prefix=f"cannot build the manifest of tool '{label}': ")
                if isinstance(exc, EaiError):  # our own errors already name the tool and the parameter
                    problem["message"] = f"cannot build the manifest: {exc.message}"
                problems.append(problem)
                continue
            registrable = not (source == "agents-client" and not self.base_url)
            tools.append(
                {"name": name, "manifest": manifest, "file": file, "line": line, "source": source, "registrable": registrable}
            )
        return tools, problems
