"""Rebuild Enum, TypedDict, dataclass and pydantic model classes from their parsed definition.

The class is rebuilt as a real class so that the SDK's own schema code
(:func:`enterprise_ai.tools.schema_for`) reads it exactly as it reads the imported class: the static
scan then gives byte-identical schemas. Only the parts that shape a schema are kept, and each is
evaluated statically by :class:`~enterprise_ai.scan.static_eval.Evaluator`: bases, class keywords
(``total=False``), the docstring, annotated fields with literal defaults (``Field(...)``,
``field(default_factory=list)``), literal attributes (enum members, ``model_config``) and the
``@dataclass`` decorator. Methods are dropped (validators do not change the JSON Schema). A small
class statement is generated with those objects bound to placeholder names, and ``exec`` runs only
that generated code: no line of the user's file is executed.
"""

from __future__ import annotations

import ast
import dataclasses
import enum
import typing
from typing import Any

from enterprise_ai.scan.static_eval import Evaluator, Unresolved
from enterprise_ai.scan.static_index import ParsedModule


def _dataclass_decorators() -> set[Any]:
    decorators: set[Any] = {dataclasses.dataclass}
    try:
        import pydantic.dataclasses

        decorators.add(pydantic.dataclasses.dataclass)
    except ImportError:  # pragma: no cover
        pass
    return decorators


def _decorator(ev: Evaluator, module: ParsedModule, node: ast.expr) -> Any:
    allowed = _dataclass_decorators()
    if isinstance(node, ast.Call):
        func = ev.eval(module, node.func)
        if func not in allowed or node.args:
            raise Unresolved(f"the class decorator `{ast.unparse(node)}` is not a dataclass decorator")
        kwargs = {k.arg: ev._plain(module, k.value) for k in node.keywords if k.arg}
        if len(kwargs) != len(node.keywords):
            raise Unresolved("a dataclass decorator with ** arguments")
        return func(**kwargs)
    func = ev.eval(module, node)
    if func not in allowed:
        raise Unresolved(f"the class decorator `{ast.unparse(node)}` is not a dataclass decorator")
    return func


def _kind(cls: Any) -> str | None:
    if isinstance(cls, type) and issubclass(cls, enum.Enum):
        return "enum"
    try:
        from typing_extensions import is_typeddict
    except ImportError:  # pragma: no cover
        is_typeddict = typing.is_typeddict
    if typing.is_typeddict(cls) or is_typeddict(cls):
        return "typeddict"
    if dataclasses.is_dataclass(cls):
        return "dataclass"
    try:
        import pydantic

        if isinstance(cls, type) and issubclass(cls, pydantic.BaseModel):
            return "pydantic"
    except ImportError:  # pragma: no cover
        pass
    if isinstance(cls, type) and issubclass(cls, tuple) and hasattr(cls, "_fields"):
        return "namedtuple"
    return None


def build_class(ev: Evaluator, module: ParsedModule, node: ast.ClassDef) -> Any:
    """A real class equivalent, for schema purposes, to ``node`` (raises :class:`Unresolved`)."""
    namespace: dict[str, Any] = {"__name__": module.name, "__builtins__": {"__build_class__": __build_class__}}

    def bind(value: Any) -> str:
        key = f"_eai_{len(namespace)}"
        namespace[key] = value
        return key

    if node.type_params if hasattr(node, "type_params") else False:  # pragma: no cover - 3.12 syntax
        raise Unresolved(f"class {node.name} is generic")
    lines = [f"@{bind(_decorator(ev, module, d))}" for d in node.decorator_list]
    bases = [bind(ev.eval(module, b)) for b in node.bases]
    for kw in node.keywords:
        if kw.arg is None or kw.arg == "metaclass":
            raise Unresolved(f"class {node.name} uses a metaclass or ** keywords")
        bases.append(f"{kw.arg}={bind(ev._plain(module, kw.value))}")
    lines.append(f"class {node.name}({', '.join(bases)}):")
    body = list(node.body)
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
        lines.append(f"    {body.pop(0).value.value!r}")  # type: ignore[attr-defined]
    local: set[str] = set()  # names the class body has bound so far (`DEFAULT = SLOW`, `x: int = LIMIT`)

    def value(expr: ast.expr) -> str:
        if isinstance(expr, ast.Name) and expr.id in local:
            return expr.id  # the generated class body binds it too, to the same value
        return bind(ev._plain(module, expr))

    for stmt in body:
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            line = f"    {stmt.target.id}: {bind(ev.annotation(module, stmt.annotation))}"
            if stmt.value is not None:
                line += f" = {value(stmt.value)}"
                local.add(stmt.target.id)
            lines.append(line)
        elif isinstance(stmt, ast.Assign) and all(isinstance(t, ast.Name) for t in stmt.targets):
            bound = value(stmt.value)
            lines.extend(f"    {t.id} = {bound}" for t in stmt.targets)  # type: ignore[attr-defined]
            local.update(t.id for t in stmt.targets)  # type: ignore[attr-defined]
        elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Pass)):
            continue  # methods and validators do not shape the JSON Schema
        elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
            continue  # attribute docstrings, `...`
        else:
            raise Unresolved(f"class {node.name} has a statement the static scan cannot read (line {stmt.lineno})")
    if len(lines) == 1 + len(node.decorator_list) or lines[-1].endswith(":"):
        lines.append("    pass")
    try:
        exec(compile("\n".join(lines) + "\n", f"<eai static {module.name}.{node.name}>", "exec", dont_inherit=True), namespace)  # noqa: S102 - generated code only
    except Exception as exc:  # noqa: BLE001 - the class statement fails as the user's would
        detail = (str(exc).strip().splitlines() or [""])[0]
        raise Unresolved(f"class {node.name} cannot be rebuilt: {type(exc).__name__}: {detail}") from None
    cls = namespace[node.name]
    if _kind(cls) is None:
        raise Unresolved(
            f"class {node.name} is not an Enum, TypedDict, NamedTuple, dataclass or pydantic model"
        )
    return cls
