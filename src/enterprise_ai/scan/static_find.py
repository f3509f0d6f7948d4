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
from enterprise_ai.scan.static_index import ParsedModule

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


def _kind(ev: Evaluator, module: ParsedModule, expr: ast.expr) -> str | None:
    name = ev.qualified(module, expr)
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
    for stmt in module.tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for dec in stmt.decorator_list:
                target = dec.func if isinstance(dec, ast.Call) and not dec.args else dec
                kind = _kind(ev, module, target)
                if kind and ev.qualified(module, target) not in EAI_LOCAL_TOOL:
                    keywords = dec.keywords if isinstance(dec, ast.Call) else []
                    others = [d for d in stmt.decorator_list if d is not dec]
                    found.append(Candidate(kind, stmt, keywords, stmt.lineno, others))
                    break
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign)) and isinstance(stmt.value, ast.Call):
            call = stmt.value
            inner = call.func
            if isinstance(inner, ast.Call) and (kind := _kind(ev, module, inner.func)) and len(call.args) == 1:
                keywords, fn_expr = inner.keywords, call.args[0]  # tool(...)(fn)
            elif (kind := _kind(ev, module, inner)) and len(call.args) == 1:
                keywords, fn_expr = call.keywords, call.args[0]  # tool(fn, ...)
            elif kind == "agents-client" and not call.args:
                found.append(Candidate(kind, None, call.keywords, stmt.lineno, []))  # declared without a function
                continue
            else:
                continue
            fn = module.defs.get(fn_expr.id) if isinstance(fn_expr, ast.Name) else None
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found.append(Candidate(kind, fn, keywords, fn.lineno, list(fn.decorator_list)))  # the import scan's line
            else:
                why = (f"the tool wraps `{ast.unparse(fn_expr)}`, not a function defined in this module: "
                       "it cannot be read statically and is not listed")
                found.append(Candidate(kind, None, keywords, stmt.lineno, [], unreadable=why))
    return found
