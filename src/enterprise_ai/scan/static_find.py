"""Recognising tool declarations among the top-level statements of a parsed module.

Names are matched through the module's imports (:meth:`Evaluator.qualified`), so every alias works:
``from enterprise_ai.tools import tool as t``, ``import enterprise_ai.tools as eat`` (``@eat.tool``),
``from agents import tool``, ``import agents as sdk`` (``@sdk.client_tool``). A name that merely looks
like ``tool`` but is defined in the module is not the SDK's decorator.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from enterprise_ai.scan.static_eval import Evaluator
from enterprise_ai.scan.static_index import ParsedModule, _absolute, _executed_statements

EAI_TOOL = {"enterprise_ai.tools.tool", "enterprise_ai.tools._local.tool"}
EAI_LOCAL_TOOL = {"enterprise_ai.tools.LocalTool", "enterprise_ai.tools._local.LocalTool"}
AGENTS_TOOL = {"agents.tool"}
AGENTS_CLIENT_TOOL = {"agents.client_tool"}
AGENTS_ANNOTATIONS = {"agents.ToolAnnotations"}


@dataclass
class Candidate:
    """A tool declaration found in a module: its kind, its ``def`` (None for a declaration without
    function), the option keywords, and the line reported (the ``def`` line, as the import scan
    reports it, also for ``x = tool(fn)``; the assignment line for a declaration without function)."""

    kind: str  # "eai" | "agents" | "agents-client"
    fn: ast.FunctionDef | ast.AsyncFunctionDef | None
    keywords: list[ast.keyword]
    line: int
    other_decorators: list[ast.expr]
    unreadable: str | None = None  # why the declaration cannot be read (it is then reported, not listed)


def _qualified_here(ev: Evaluator, module: ParsedModule, expr: ast.expr, here: dict[str, str]) -> str | None:
    """:meth:`Evaluator.qualified` at one statement: a name bound more than once in the module
    (``module.ambiguous``) means what its latest binding *before* that statement made it (``here``)."""
    root, attrs = expr, []
    while isinstance(root, ast.Attribute):
        attrs.append(root.attr)
        root = root.value
    if not (isinstance(root, ast.Name) and root.id in module.ambiguous):
        return ev.qualified(module, expr)
    base = here.get(root.id)
    return ".".join([base, *reversed(attrs)]) if base else None


def _track(module: ParsedModule, stmt: ast.stmt, here: dict[str, str], funcs: dict[str, ast.AST]) -> None:
    """Record the bindings ``stmt`` makes to names of ``module.ambiguous`` (in ``here``: the dotted name
    they stand for; in ``funcs``: the ``def`` a name holds, if any)."""
    bound: list[tuple[str, str]] = []
    if isinstance(stmt, ast.Try):  # `try: import ... except ImportError:` - read as the index reads it
        for inner in _executed_statements([stmt]):
            if inner is not stmt:
                _track(module, inner, here, funcs)
        return
    if isinstance(stmt, ast.Import):
        bound = [(a.asname or a.name.partition(".")[0], a.name if a.asname else a.name.partition(".")[0]) for a in stmt.names]
    elif isinstance(stmt, ast.ImportFrom):
        source = _absolute(module, stmt.level, stmt.module)
        bound = [(a.asname or a.name, f"{source}.{a.name}") for a in stmt.names if a.name != "*"]
    elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        bound = [(stmt.name, f"{module.name}.{stmt.name}")]
    elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        bound = [(t.id, f"{module.name}.{t.id}") for t in targets if isinstance(t, ast.Name)]
    for name, dotted in bound:
        if name in module.ambiguous:
            here[name] = dotted
            funcs.pop(name, None)
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name in module.ambiguous:
        funcs[stmt.name] = stmt


def _kind(ev: Evaluator, module: ParsedModule, expr: ast.expr, here: dict[str, str] | None = None) -> str | None:
    name = ev.qualified(module, expr) if here is None else _qualified_here(ev, module, expr, here)
    if name in EAI_TOOL or name in EAI_LOCAL_TOOL:
        return "eai"
    if name in AGENTS_TOOL:
        return "agents"
    if name in AGENTS_CLIENT_TOOL:
        return "agents-client"
    return None


def find_candidates(ev: Evaluator, module: ParsedModule) -> list[Candidate]:
    """The tool declarations among the top-level statements of ``module``, in source order."""
    found: list[Candidate] = []
    here: dict[str, str] = {}  # names bound more than once: what they mean at the current statement
    funcs: dict[str, ast.AST] = {}
    previous: ast.stmt | None = None
    for stmt in module.tree.body:
        if module.ambiguous and previous is not None:
            _track(module, previous, here, funcs)  # bindings take effect after their statement
        previous = stmt
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for dec in stmt.decorator_list:
                target = dec.func if isinstance(dec, ast.Call) and not dec.args else dec
                kind = _kind(ev, module, target, here)
                if kind and _qualified_here(ev, module, target, here) not in EAI_LOCAL_TOOL:
                    keywords = dec.keywords if isinstance(dec, ast.Call) else []
                    others = [d for d in stmt.decorator_list if d is not dec]
                    found.append(Candidate(kind, stmt, keywords, stmt.lineno, others))
                    break
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign)) and isinstance(stmt.value, ast.Call):
            call = stmt.value
            inner = call.func
            if isinstance(inner, ast.Call) and (kind := _kind(ev, module, inner.func, here)) and len(call.args) == 1:
                keywords, fn_expr = inner.keywords, call.args[0]  # tool(...)(fn)
            elif (kind := _kind(ev, module, inner, here)) and len(call.args) == 1:
                keywords, fn_expr = call.keywords, call.args[0]  # tool(fn, ...)
            elif kind == "agents-client" and not call.args:
                found.append(Candidate(kind, None, call.keywords, stmt.lineno, []))  # declared without a function
                continue
            else:
                continue
            fn = None
            if isinstance(fn_expr, ast.Name):  # the function the name holds at this statement
                fn = funcs.get(fn_expr.id) if fn_expr.id in module.ambiguous else module.defs.get(fn_expr.id)
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and fn.lineno > stmt.lineno:
                why = (f"the tool wraps `{fn_expr.id}`, defined further down (line {fn.lineno}): importing the "  # type: ignore[union-attr]
                       "module raises NameError; it is not listed")
                found.append(Candidate(kind, None, keywords, stmt.lineno, [], unreadable=why))
            elif isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found.append(Candidate(kind, fn, keywords, fn.lineno, list(fn.decorator_list)))  # the import scan's line
            else:
                why = (f"the tool wraps `{ast.unparse(fn_expr)}`, not a function defined in this module: "
                       "it cannot be read statically and is not listed")
                found.append(Candidate(kind, None, keywords, stmt.lineno, [], unreadable=why))
    return found
