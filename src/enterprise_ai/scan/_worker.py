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

import importlib
import importlib.util
import json
import os
import sys
import types
from typing import IO, Any

from enterprise_ai.scan import _paths
from enterprise_ai.scan._collect import Collector, problem_record


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


def _use_root(root: str) -> None:
    """Put a package root first on ``sys.path`` (kept for later modules, so cross-imports work)."""
    if root in sys.path:
        sys.path.remove(root)
    sys.path.insert(0, root)
    importlib.invalidate_caches()


def _import_file(target: dict[str, Any], preloaded: frozenset[str]) -> types.ModuleType:
    """Import a file under its real dotted name; a same-named user module from elsewhere is evicted first.

    ``preloaded`` names the modules loaded before any user code (the standard library, eai and its
    dependencies): a file named like one of them cannot be imported under its name, and is reported.
    """
    name, path = target["module"], target["path"]
    _use_root(target["root"])
    top = name.split(".")[0]
    cached = sys.modules.get(top)
    cached_file = getattr(cached, "__file__", None)
    if cached is not None and cached_file and not os.path.abspath(cached_file).startswith(target["root"] + os.sep):
        if top in preloaded or top in getattr(sys, "stdlib_module_names", ()):
            raise ImportError(f"the module name '{top}' is already taken by {cached_file}: rename the file")
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


def _scan_target(collector: Collector, target: dict[str, Any], emit: Any, index: int, preloaded: frozenset[str]) -> None:
    tools: list[dict[str, Any]] = []
    problems: list[dict[str, Any]] = []
    if target["kind"] == "file":
        try:
            module = _import_file(target, preloaded)
        except BaseException as exc:  # noqa: BLE001 - SystemExit and KeyboardInterrupt at import are failures too
            problems.append(problem_record(target["path"], exc))
        else:
            tools, problems = collector.collect(module)
    else:
        try:
            names = _modules_for_name(target["name"])
        except BaseException as exc:  # noqa: BLE001
            problems.append(problem_record(target["name"], exc))
            names = []
        if names is None:
            emit({"event": "missing", "index": index})
            return
        for name in names:
            try:
                module = importlib.import_module(name)
            except BaseException as exc:  # noqa: BLE001
                problems.append(problem_record(_module_file(name), exc))
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
    collector = Collector(request)  # imports the SDK before user code can shadow anything
    channel = _isolate()
    preloaded = frozenset(name.split(".")[0] for name in sys.modules)

    def emit(event: dict[str, Any]) -> None:
        channel.write(json.dumps(event, ensure_ascii=False, default=_json_default) + "\n")
        channel.flush()

    for index, target in enumerate(request.get("targets", [])):
        emit({"event": "start", "index": index})
        try:
            _scan_target(collector, target, emit, index, preloaded)
        except Exception as exc:  # noqa: BLE001 - a bug of ours must not be blamed on the user's module
            problem = problem_record(target.get("path") or target.get("name", "?"), exc, prefix="internal error while scanning: ")
            emit({"event": "done", "index": index, "tools": [], "problems": [problem]})
    emit({"event": "end"})
    channel.close()
    return 0


if __name__ == "__main__":
    # os._exit: skip interpreter shutdown, where atexit handlers and finalizers of user modules would run.
    code = main()
    os._exit(code)
