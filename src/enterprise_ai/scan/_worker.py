"""The child process of the import scan: imports user modules and reports the tools they hold.

Run as ``python -m enterprise_ai.scan._worker`` by :mod:`enterprise_ai.scan._import`, never imported
by the CLI process. One worker imports every module of a scan (one interpreter start, not one per module).

Protocol:

* stdin: one JSON object ``{"targets": [...], "endpoint_base_url": str | null, "metadata": {...}}``.
  A target is ``{"kind": "file", "path": abs, "module": dotted, "root": dir}`` or
  ``{"kind": "module", "name": dotted}``.
* stdout: JSON Lines, flushed one by one so that the parent knows how far a killed worker got:
  ``{"event": "start", "index": i}`` before a target is imported; ``{"event": "done", "index": i,
  "tools": [...], "problems": [...]}`` after; ``{"event": "missing", "index": i}`` for a module name
  that does not exist; ``{"event": "end"}`` last.

Isolation: after reading the request, file descriptors 0, 1 and 2 point at ``os.devnull`` (so whatever
user code reads or prints, including its subprocesses, never reaches the CLI), and results travel on a
private duplicate of the original stdout. Modules are imported under their real dotted name, so
``if __name__ == "__main__":`` blocks do not run. The parent removes ``EAI_*`` variables from the
environment and enforces the timeout.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import json
import linecache
import os
import re
import sys
import types
from typing import IO, Any

from enterprise_ai.errors import EaiError
from enterprise_ai.scan import _paths


def _isolate() -> IO[str]:
    """Point fds 0/1/2 at the null device and return a text stream on a copy of the original stdout."""
    sys.stdout.flush()
    sys.stderr.flush()
    channel_fd = os.dup(1)  # non-inheritable: user subprocesses never see it
    null_in = os.open(os.devnull, os.O_RDONLY)
    null_out = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null_in, 0)
    os.dup2(null_out, 1)
    os.dup2(null_out, 2)
    os.close(null_in)
    os.close(null_out)
    return os.fdopen(channel_fd, "w", encoding="utf-8", newline="\n")


def _json_default(value: Any) -> Any:
    if hasattr(value, "value") and hasattr(type(value), "__members__"):  # an Enum member
        return value.value
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    return str(value)


def _error_text(exc: BaseException) -> str:
    """``<exception type>: <last line of its message>`` (just the type when the message is empty)."""
    if isinstance(exc, SyntaxError) and exc.msg:
        detail = exc.msg
    else:
        lines = str(exc).strip().splitlines()
        detail = lines[-1].strip() if lines else ""
    return f"{type(exc).__name__}: {detail}" if detail else type(exc).__name__


def _problem(
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
    import traceback

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


class _Collector:
    """Finds the tools of imported modules, each object once (by identity) across the whole scan."""

    def __init__(self, request: dict[str, Any]) -> None:
        from enterprise_ai.tools import LocalTool

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
                problem = _problem(file, exc, tool=label, line=line, prefix=f"cannot build the manifest of tool '{label}': ")
                if isinstance(exc, EaiError):  # our own errors already name the tool and the parameter
                    problem["message"] = f"cannot build the manifest: {exc.message}"
                problems.append(problem)
                continue
            registrable = not (source == "agents-client" and not self.base_url)
            tools.append(
                {"name": name, "manifest": manifest, "file": file, "line": line, "source": source, "registrable": registrable}
            )
        return tools, problems


def _use_root(root: str) -> None:
    """Put a package root first on ``sys.path`` (kept for later modules, so cross-imports work)."""
    if root in sys.path:
        sys.path.remove(root)
    sys.path.insert(0, root)
    importlib.invalidate_caches()


def _import_file(target: dict[str, Any]) -> types.ModuleType:
    """Import a file under its real dotted name; a same-named module from elsewhere is evicted first."""
    name, path = target["module"], target["path"]
    _use_root(target["root"])
    top = name.split(".")[0]
    cached = sys.modules.get(top)
    cached_file = getattr(cached, "__file__", None)
    if cached is not None and cached_file and not os.path.abspath(cached_file).startswith(target["root"] + os.sep):
        if top in sys.builtin_module_names or top in getattr(sys, "stdlib_module_names", ()):
            raise ImportError(f"the module name '{name}' is taken by the standard library: rename the file")
        for key in [k for k in sys.modules if k == top or k.startswith(top + ".")]:
            del sys.modules[key]
    module = importlib.import_module(name)
    loaded = getattr(module, "__file__", None)
    if not loaded or os.path.realpath(loaded) != os.path.realpath(path):
        raise ImportError(f"'{name}' resolves to {loaded or 'a built-in module'}, not to this file: rename the file")
    return module


def _modules_for_name(name: str) -> list[str] | None:
    """The module ``name`` and, for a package, its submodules (walking rules of :mod:`._paths`); None if absent."""
    try:
        spec = importlib.util.find_spec(name)
    except ModuleNotFoundError as exc:
        if exc.name and (name == exc.name or name.startswith(exc.name + ".")):
            return None
        raise
    if spec is None:
        return None
    names = [name]
    for location in spec.submodule_search_locations or ():
        for file in _paths.python_files(location):
            relative = os.path.relpath(file, location)[: -len(".py")].split(os.sep)
            if relative[-1] == "__init__":
                relative = relative[:-1]
            if relative:
                names.append(".".join([name, *relative]))
    return names


def _scan_target(collector: _Collector, target: dict[str, Any], emit: Any, index: int) -> None:
    tools: list[dict[str, Any]] = []
    problems: list[dict[str, Any]] = []
    if target["kind"] == "file":
        try:
            module = _import_file(target)
        except BaseException as exc:  # noqa: BLE001 - SystemExit and KeyboardInterrupt at import are failures too
            problems.append(_problem(target["path"], exc))
        else:
            tools, problems = collector.collect(module)
    else:
        try:
            names = _modules_for_name(target["name"])
        except BaseException as exc:  # noqa: BLE001
            problems.append(_problem(target["name"], exc))
            names = []
        if names is None:
            emit({"event": "missing", "index": index})
            return
        for name in names:
            try:
                module = importlib.import_module(name)
            except BaseException as exc:  # noqa: BLE001
                problems.append(_problem(_module_file(name), exc))
                continue
            found, trouble = collector.collect(module)
            tools += found
            problems += trouble
    emit({"event": "done", "index": index, "tools": tools, "problems": problems})


def _module_file(name: str) -> str:
    """The file a module name would load from (for messages), else the name itself."""
    try:
        spec = importlib.util.find_spec(name)
    except BaseException:  # noqa: BLE001
        spec = None
    origin = getattr(spec, "origin", None)
    return os.path.abspath(origin) if origin and os.path.isfile(origin) else name


def main() -> int:
    """Read the request on stdin, scan every target, write JSON Lines on the private channel."""
    request = json.loads(sys.stdin.buffer.read().decode("utf-8") or "{}")
    collector = _Collector(request)  # imports the SDK before user code can shadow anything
    channel = _isolate()

    def emit(event: dict[str, Any]) -> None:
        channel.write(json.dumps(event, ensure_ascii=False, default=_json_default) + "\n")
        channel.flush()

    for index, target in enumerate(request.get("targets", [])):
        emit({"event": "start", "index": index})
        try:
            _scan_target(collector, target, emit, index)
        except Exception as exc:  # noqa: BLE001 - a bug of ours must not be blamed on the user's module
            problem = _problem(target.get("path") or target.get("name", "?"), exc, prefix="internal error while scanning: ")
            emit({"event": "done", "index": index, "tools": [], "problems": [problem]})
    emit({"event": "end"})
    channel.close()
    return 0


if __name__ == "__main__":
    # os._exit: skip interpreter shutdown, where atexit handlers and finalizers of user modules would run.
    code = main()
    os._exit(code)
