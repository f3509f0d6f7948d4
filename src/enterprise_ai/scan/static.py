"""The static scan: the tools of Python code, found by reading it, never importing or running it.

``eai tools scan --static [--strict]`` calls :func:`scan_static`. Every file is parsed with :mod:`ast`;
tools are recognised by name through the module's imports:

* ``enterprise_ai.tools.tool`` as ``@tool``, ``@tool(...)``, ``x = tool(fn, ...)`` or ``x = tool(...)(fn)``,
  under any alias (``from enterprise_ai.tools import tool as t``, ``import enterprise_ai.tools as eat``
  then ``@eat.tool``), and ``x = LocalTool(fn, ...)``;
* the agents SDK: ``@agents.tool``, ``@agents.tool(...)``, ``@agents.client_tool`` (and
  ``from agents import tool``), and ``x = agents.client_tool(name=..., input_schema=...)`` without a
  function. They are mapped by :mod:`enterprise_ai.integrations.agents`, as the import scan maps them.

Decorator options must be literals (``ast.literal_eval`` rules), module-level constants, or for
``annotations=ToolAnnotations(...)`` a call with literal keywords. Parameters are rebuilt by
:mod:`.static_function` and fed to the real ``LocalTool``, so the manifests are the import scan's,
byte for byte, whenever every annotation, default and option can be read.

What cannot be read is a ``warning`` naming the file, line, tool, parameter and reason (an ``error``
with ``ScanOptions.strict``), and the manifest carries a placeholder: an unresolved parameter or
result schema gets the keyword ``x-eai-unresolved`` (its reason) and accepts any value; a non-literal
default is left out (the parameter stays optional); a non-literal option is left at its default.
Unreadable files (syntax errors, over 1 MiB, too deeply nested, not a regular file such as a pipe,
a dangling link or a symlink loop) are errors, one per file, and the other files are still scanned.
"""

from __future__ import annotations

import ast
import dataclasses
import marshal
import os
import pickle
from pathlib import Path
from typing import Any

from enterprise_ai.errors import UsageError
from enterprise_ai.scan import _import, _paths
from enterprise_ai.scan.model import ScannedTool, ScanOptions, ScanProblem, ScanResult
from enterprise_ai.scan.static_agents import agents_manifest, takes_context
from enterprise_ai.scan.static_eval import Evaluator, Unresolved
from enterprise_ai.scan.static_find import AGENTS_ANNOTATIONS, Candidate, find_candidates
from enterprise_ai.scan.static_function import UNRESOLVED_KEY, make_stand_in, mark_placeholders
from enterprise_ai.scan.static_index import (
    ModuleIndex,
    ParseFailure,
    ParsedModule,
    find_module_file,
    iter_python_files,
    real_path,
)

def scan_static(paths: list[str], options: ScanOptions | None = None) -> ScanResult:
    """Find the tools under ``paths`` without importing them.

    Args:
        paths: ``.py`` files, directories (the import scan's walking rules) or dotted module names
            (found on the current directory and ``sys.path``, read, not imported).
        options: endpoint base URL, metadata and ``strict`` (placeholders become errors).

    Returns:
        A :class:`ScanResult` sorted by name then file, with the import scan's duplicate-name errors
        and client-tool notes, and one problem per unreadable file or unresolved item.

    Raises:
        UsageError: no path, a path that does not exist, a file that is not ``.py``, a bad option.
    """
    options = options or ScanOptions()
    _import._check_options(options)
    files = _files(paths)
    workers = _worker_count(len(files))
    import gc

    paused = gc.isenabled()
    gc.disable()  # see _scan_files; also while sorting: the result is acyclic, collections would find nothing
    try:
        if workers > 1:
            tools, problems = _scan_parallel(files, options, workers)
        else:
            tools, problems = _scan_files(files, options)
        tools = _import._dedupe(tools, problems)
        tools.sort(key=lambda t: (t.name, t.file, t.line))
    finally:
        if paused:
            gc.enable()
    return ScanResult(tools=tools, problems=problems)


FILES_PER_WORKER = 150
"""Below this many files per extra process, the scan stays in one process (forking costs ~10 ms)."""


def _worker_count(n_files: int) -> int:
    """Processes for ``n_files``: one per available CPU (at most 8), only where ``fork`` exists."""
    import multiprocessing
    import sys

    if not sys.platform.startswith("linux") or "fork" not in multiprocessing.get_all_start_methods():
        return 1
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, min(cpus, 8, n_files // FILES_PER_WORKER))


def _scan_files(files: list[Path], options: ScanOptions) -> tuple[list[ScannedTool], list[ScanProblem]]:
    """Scan ``files`` in this process (one index and evaluator shared by all of them).

    The cyclic garbage collector is paused meanwhile: the scan makes many small acyclic objects (AST
    nodes, schemas), and collecting them repeatedly costs 10-15 % of the time for nothing.
    """
    import gc

    from enterprise_ai.tools._typeschema import object_schema_cache

    paused = gc.isenabled()
    gc.disable()
    try:
        with object_schema_cache():  # the classes of the tree do not change during the scan
            return _scan_files_now(files, options)
    finally:
        if paused:
            gc.enable()


_TREE_ROOTS: list[Path] = []
"""The package roots of every file of a parallel scan, in file order; set by :func:`_scan_parallel`
before forking, so that a worker searches the roots of the other workers' files too (as one process does)."""


def _evaluators(files: list[Path]) -> Any:
    """A function giving the :class:`Evaluator` for a file: one per package root when the files span
    several roots, each searching its own root first. ``import models`` in ``svc_b/tools.py`` means
    ``svc_b/models.py`` (its root is first on ``sys.path`` for the import scan), never ``svc_a/models.py``;
    and the caches, keyed by dotted name, are not shared between files of the same name."""
    probe = ModuleIndex()
    roots = _TREE_ROOTS or list(dict.fromkeys(probe._module_name(path)[1] for path in files))
    by_root: dict[Path, Evaluator] = {}

    def evaluator_for(path: Path) -> Evaluator:
        root = probe._module_name(path)[1] if len(roots) > 1 else None
        if root not in by_root:
            index = ModuleIndex()
            if root is not None:
                index.roots = [root, *(r for r in roots if r != root)]
            by_root[root] = Evaluator(index)  # type: ignore[index]
        return by_root[root]  # type: ignore[index]

    return evaluator_for


def _scan_files_now(files: list[Path], options: ScanOptions) -> tuple[list[ScannedTool], list[ScanProblem]]:
    evaluator_for = _evaluators(files)
    tools: list[ScannedTool] = []
    problems: list[ScanProblem] = []
    for path in files:
        display = _import._display_path(str(path))
        evaluator = evaluator_for(path)
        index = evaluator.index
        try:
            module = index.add_file(path)
        except ParseFailure as exc:
            problems.append(ScanProblem(display, exc.message, line=exc.line))
            continue
        try:
            candidates = find_candidates(evaluator, module)
        except RecursionError:  # a decorator like `@a.b.c...` thousands of attributes long
            problems.append(ScanProblem(display, "the code is too deeply nested to read statically"))
            continue
        for candidate in candidates:
            try:
                _build(evaluator, module, candidate, display, options, tools, problems)
            except RecursionError:  # e.g. thousands of chained aliases A2 = A1, A1 = A0...
                problems.append(ScanProblem(display, "definitions nested too deeply to read statically",
                                            line=candidate.line, tool=candidate.fn.name if candidate.fn else None))
    return tools, problems


def _scan_parallel(files: list[Path], options: ScanOptions, workers: int) -> tuple[list[ScannedTool], list[ScanProblem]]:
    """Scan contiguous slices of ``files`` in forked processes; results are merged in file order.

    Each file's result depends only on the files it reads, so the merged result equals the
    one-process result. The SDK and pydantic are imported before forking, so children share them.
    The cyclic garbage collector is paused while the results are decoded (hundreds of thousands of
    new dicts and lists, acyclic: repeated collections would cost more than the decoding itself).
    """
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    import enterprise_ai.tools  # noqa: F401 - imported once, before the fork

    size = -(-len(files) // (workers * 4))  # several slices per process: a busy CPU does not hold the rest back
    chunks = [files[i : i + size] for i in range(0, len(files), size)]
    import gc

    probe = ModuleIndex()
    _TREE_ROOTS[:] = dict.fromkeys(probe._module_name(path)[1] for path in files)  # inherited by the workers
    paused = gc.isenabled()
    gc.freeze()  # objects of the parent stay out of the children's collections (fewer copy-on-write pages)
    gc.disable()
    tools: list[ScannedTool] = []
    problems: list[ScanProblem] = []
    try:
        with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork")) as pool:
            for blob in pool.map(_scan_chunk, chunks, [options] * len(chunks)):
                chunk_tools, chunk_problems = _decode_chunk(blob)
                tools += chunk_tools
                problems += chunk_problems
    finally:
        _TREE_ROOTS.clear()
        gc.unfreeze()
        if paused:
            gc.enable()
    return tools, problems


_TOOL_FIELDS = tuple(f.name for f in dataclasses.fields(ScannedTool))
_PROBLEM_FIELDS = tuple(f.name for f in dataclasses.fields(ScanProblem))


def _scan_chunk(files: list[Path], options: ScanOptions) -> bytes:
    """:func:`_scan_files` in a worker process, its result encoded for the parent.

    ``marshal`` (the fields of each tool and problem as a tuple) when every value is a plain dict,
    list, tuple, str, number, bool or None, as manifests are: it is several times faster than pickle
    both ways and gives back the same values and types. Anything else goes by pickle.
    """
    tools, problems = _scan_files(files, options)
    rows = ([tuple(getattr(t, n) for n in _TOOL_FIELDS) for t in tools],
            [tuple(getattr(p, n) for n in _PROBLEM_FIELDS) for p in problems])
    try:
        return b"M" + marshal.dumps(rows)
    except ValueError:  # an unmarshallable value (a str subclass...), or nested too deeply
        return b"P" + pickle.dumps((tools, problems), protocol=pickle.HIGHEST_PROTOCOL)


def _decode_chunk(blob: bytes) -> tuple[list[ScannedTool], list[ScanProblem]]:
    """The ``(tools, problems)`` that :func:`_scan_chunk` encoded."""
    if blob[:1] == b"P":
        return pickle.loads(blob[1:])  # noqa: S301 - written by our own forked worker
    tool_rows, problem_rows = marshal.loads(memoryview(blob)[1:])
    return [ScannedTool(*row) for row in tool_rows], [ScanProblem(*row) for row in problem_rows]


def _files(paths: list[str]) -> list[Path]:
    if not paths:
        raise UsageError("no path to scan: give .py files, directories or module names")
    files: list[Path] = []
    for arg in paths:
        if os.path.isdir(arg) or os.path.isfile(arg):
            if os.path.isfile(arg) and not arg.endswith(".py"):
                raise UsageError(f"{arg}: not a Python file (.py)")
            files += iter_python_files(Path(arg))
        elif _paths.looks_like_module_name(arg) and (found := find_module_file(arg)) is not None:
            files += iter_python_files(found.parent if found.name == "__init__.py" else found)
        else:
            raise UsageError(f"{arg}: no such file, directory or module")
    return list(dict.fromkeys(real_path(p) for p in files))


class _Report:
    """Problems of one tool, with the severity ``strict`` asks for."""

    def __init__(self, file: str, line: int, options: ScanOptions, problems: list[ScanProblem]) -> None:
        self.file, self.line, self.options, self.problems = file, line, options, problems

    def warn(self, tool: str, message: str, parameter: str | None = None) -> None:
        severity = "error" if self.options.strict else "warning"
        self.problems.append(ScanProblem(self.file, message, severity, self.line, tool, parameter))  # type: ignore[arg-type]

    def error(self, tool: str, message: str, parameter: str | None = None) -> None:
        self.problems.append(ScanProblem(self.file, message, "error", self.line, tool, parameter))


def _options(ev: Evaluator, module: ParsedModule, keywords: list[ast.keyword], tool: str, report: _Report) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for kw in keywords:
        if kw.arg is None:
            report.warn(tool, f"tool '{tool}': ** options cannot be read statically; they are left out")
            continue
        value = kw.value
        if (kw.arg == "annotations" and isinstance(value, ast.Name) and value.id not in module.ambiguous
                and isinstance(module.defs.get(value.id), ast.Call)):
            value = module.defs[value.id]  # type: ignore[assignment]  # HINTS = ToolAnnotations(...) at module level
        if kw.arg == "annotations" and isinstance(value, ast.Call) and ev.qualified(module, value.func) in AGENTS_ANNOTATIONS:
            node: ast.expr = ast.Dict(keys=[ast.Constant(k.arg) for k in value.keywords],
                                      values=[k.value for k in value.keywords])
            if value.args or any(k.arg is None for k in value.keywords):
                report.warn(tool, f"tool '{tool}': ToolAnnotations(...) must use keywords only; annotations left at the MCP defaults")
                continue
        else:
            node = kw.value
        try:
            values[kw.arg] = ev._plain(module, node)
        except Unresolved as exc:
            report.warn(tool, f"tool '{tool}': option {kw.arg}= cannot be read statically ({exc.reason}); "
                              "the manifest uses its default")
    return values


def endpoint_for(options: ScanOptions, name: str) -> dict[str, Any] | None:
    if not options.endpoint_base_url:
        return None
    return {"type": "http", "method": "POST", "url": f"{options.endpoint_base_url.rstrip('/')}/tools/{name}",
            "timeout_seconds": 30}


def _build(ev: Evaluator, module: ParsedModule, cand: Candidate, file: str, options: ScanOptions,
           tools: list[ScannedTool], problems: list[ScanProblem]) -> None:
    report = _Report(file, cand.line, options, problems)
    if cand.unreadable:
        target = cand.keywords and next((k.value for k in cand.keywords if k.arg == "name"), None)
        label = target.value if isinstance(target, ast.Constant) and isinstance(target.value, str) else "?"
        report.warn(label, cand.unreadable)
        return
    label = cand.fn.name if cand.fn is not None else "?"
    opts = _options(ev, module, cand.keywords, label, report)
    label = str(opts.get("name") or label)
    if cand.fn is not None and cand.fn.name in module.ambiguous:
        report.warn(label, f"tool '{label}': the function '{cand.fn.name}' is rebound or changed after its definition; "
                           "the manifest shows it as defined")
    for dec in cand.other_decorators:
        report.warn(label, f"tool '{label}': the decorator `{ast.unparse(dec)}` is not applied by the static scan; "
                           "if it changes the signature, the manifest may differ from the import scan's")
    stand_in = None
    if cand.fn is not None:
        skip = cand.kind != "eai" and takes_context(ev, module, cand.fn)
        if skip and cand.kind == "agents-client":  # the SDK raises SdkError (reference page, client_tool)
            report.error(label, f"client tool '{label}': a client tool declaration cannot take a ToolCallbackContext "
                                "(answer functions take it instead)")
            return
        stand_in = make_stand_in(ev, module, cand.fn, skip_first=skip)
        for param, reason in stand_in.unresolved.items():
            what = "the return annotation" if param == "return" else f"parameter '{param}'"
            report.warn(label, f"tool '{label}': {what} cannot be resolved statically ({reason}); "
                               f"placeholder schema with {UNRESOLVED_KEY}", None if param == "return" else param)
        for param, reason in stand_in.unknown_defaults.items():
            report.warn(label, f"tool '{label}': the default of parameter '{param}' is not a literal ({reason}); "
                               "the manifest leaves the default out", param)
    try:
        if cand.kind == "eai":
            name, manifest, source = _eai_manifest(stand_in, opts, options)
        else:
            name, manifest, source = agents_manifest(stand_in, cand.fn, cand.kind, opts, options)
    except Exception as exc:  # noqa: BLE001 - the import scan reports the same failure against the tool
        message = getattr(exc, "message", None) or f"{type(exc).__name__}: {exc}"
        report.error(label, message.splitlines()[0] if message else type(exc).__name__, getattr(exc, "parameter", None))
        return
    registrable = not (source == "agents-client" and not options.endpoint_base_url)
    tools.append(ScannedTool(name, manifest, file, cand.line, source, registrable))  # type: ignore[arg-type]


def _eai_manifest(stand_in: Any, opts: dict[str, Any], options: ScanOptions) -> tuple[str, dict[str, Any], str]:
    from enterprise_ai.tools import LocalTool

    local = LocalTool(stand_in.fn, **opts)
    manifest = local.manifest(endpoint=endpoint_for(options, local.name), **options.metadata)
    spec = manifest["spec"]
    mark_placeholders(spec["input_schema"], stand_in.unresolved)
    if "return" in stand_in.unresolved:
        _set_output_placeholder(spec, stand_in.unresolved["return"])
    return local.name, manifest, "eai"


def _set_output_placeholder(spec: dict[str, Any], reason: str) -> None:
    items = list(spec.items())
    at = next(i for i, (k, _) in enumerate(items) if k == "input_schema") + 1
    items.insert(at, ("output_schema", {UNRESOLVED_KEY: reason}))
    spec.clear()
    spec.update(items)
