"""``eai completion bash|zsh|fish``: shell completion scripts generated from the CLI itself.

The scripts are static: the command tree (groups, commands, options, enum choices) is read from the
Typer app when the script is generated and written into it, so a completion never starts Python.
``scripts/gen_completions.py`` writes the same text into ``completions/`` and a test fails when those
files are stale. :func:`command_tree` returns the data; :func:`render_script` turns it into a script.
"""

from __future__ import annotations

import enum
import typing
from dataclasses import dataclass, field
from typing import Any

import typer

SHELLS = ("bash", "zsh", "fish")

HELP = """Print a shell completion script for bash, zsh or fish.

Install it for the current user:

  bash:  eai completion bash > ~/.local/share/bash-completion/completions/eai
  zsh:   eai completion zsh > "${fpath[1]}/_eai"   (then restart zsh)
  fish:  eai completion fish > ~/.config/fish/completions/eai.fish

The script lists eai's commands, options and option values; it does not run eai while completing.
"""


class Shell(str, enum.Enum):
    bash = "bash"
    zsh = "zsh"
    fish = "fish"


@dataclass
class Node:
    """One command of the tree: its path (``["tools", "scan"]``), help line, options and children."""

    path: list[str]
    help: str = ""
    flags: list[str] = field(default_factory=list)  # options without a value
    valued: dict[str, list[str]] = field(default_factory=dict)  # option -> choices ([] = free value / file)
    takes_args: bool = False
    arg_choices: list[str] = field(default_factory=list)  # choices of an enum argument (else files)
    children: list[Node] = field(default_factory=list)


def _choices(param: Any) -> list[str]:
    annotation = getattr(getattr(param, "type_descriptor", None), "annotation", None)
    for _ in range(3):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if typing.get_origin(annotation) is typing.Literal:
            return [str(a) for a in typing.get_args(annotation)]
        if not args:
            break
        annotation = args[0]
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return [str(m.value) for m in annotation]
    return []


def _first_line(text: str | None) -> str:
    return (text or "").strip().splitlines()[0].strip() if (text or "").strip() else ""


def command_tree(app: typer.Typer | None = None) -> Node:
    """The command tree of ``app`` (the ``eai`` root app by default), hidden commands and options left out."""
    if app is None:
        from enterprise_ai.cli.main import app as root

        app = root
    command = typer.main.get_command(app)

    def build(cmd: Any, path: list[str]) -> Node:
        node = Node(path=path, help=_first_line(getattr(cmd, "help", None) or getattr(cmd, "short_help", None)))
        for param in cmd.params:
            if getattr(param, "hidden", False):
                continue
            if param.param_type_name == "argument":
                node.takes_args = True
                node.arg_choices += _choices(param)
                continue
            names = [*param.opts, *param.secondary_opts]
            if getattr(param, "is_flag", False) or getattr(param, "count", False):
                node.flags += names
            else:
                node.valued.update({name: _choices(param) for name in names})
        node.flags += ["-h", "--help"]
        for name, sub in sorted(getattr(cmd, "commands", {}).items()):
            if not getattr(sub, "hidden", False):
                node.children.append(build(sub, [*path, name]))
        return node

    return build(command, [])


def _walk(node: Node) -> list[Node]:
    return [node, *(n for child in node.children for n in _walk(child))]


def _case_table(node: Node, fn: str, value: Any) -> list[str]:
    lines = [f"{fn}() {{", '    case "$1" in']
    for n in _walk(node):
        text = value(n)
        if text:
            lines.append(f'        "{" ".join(n.path)}") echo "{text}" ;;')
    lines += ["    esac", "}"]
    return lines


def _shared_functions(root: Node) -> list[str]:
    lines = _case_table(root, "_eai_subcommands", lambda n: " ".join(c.path[-1] for c in n.children))
    lines += _case_table(root, "_eai_options", lambda n: " ".join([*n.flags, *n.valued]))
    lines += _case_table(root, "_eai_valued", lambda n: " ".join(n.valued))
    lines += ["_eai_choices() {", '    case "$1|$2" in']
    for n in _walk(root):
        for opt, choices in n.valued.items():
            if choices:
                lines.append(f'        "{" ".join(n.path)}|{opt}") echo "{" ".join(choices)}" ;;')
    lines += ["    esac", "}"]
    lines += _case_table(root, "_eai_args", lambda n: " ".join(n.arg_choices) or "@files" if n.takes_args else "")
    return lines


_WALK = """\
# Command path and whether the previous word is an option waiting for its value.
_eai_state() {
    local i w skip=0
    _eai_path=""
    for ((i = $1; i < $2; i++)); do
        w="${_eai_words[i]}"
        if ((skip)); then skip=0; continue; fi
        if [[ "$w" == -* ]]; then
            [[ "$w" != *=* && " $(_eai_valued "$_eai_path") " == *" $w "* ]] && skip=1
            continue
        fi
        [[ " $(_eai_subcommands "$_eai_path") " == *" $w "* ]] && _eai_path="${_eai_path:+$_eai_path }$w"
    done
}
"""


def _bash(root: Node, header: str) -> str:
    body = [header, *_shared_functions(root), _WALK, """\
_eai() {
    local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"
    local -a _eai_words=("${COMP_WORDS[@]}")
    _eai_state 1 "$COMP_CWORD"
    local choices
    if [[ "$prev" == -* && " $(_eai_valued "$_eai_path") " == *" $prev "* ]]; then
        choices="$(_eai_choices "$_eai_path" "$prev")"
        if [[ -n "$choices" ]]; then COMPREPLY=($(compgen -W "$choices" -- "$cur")); else COMPREPLY=($(compgen -f -- "$cur")); fi
        return
    fi
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "$(_eai_options "$_eai_path")" -- "$cur"))
        return
    fi
    COMPREPLY=($(compgen -W "$(_eai_subcommands "$_eai_path")" -- "$cur"))
    local args="$(_eai_args "$_eai_path")"
    if [[ "$args" == "@files" ]]; then COMPREPLY+=($(compgen -f -- "$cur"));
    elif [[ -n "$args" ]]; then COMPREPLY+=($(compgen -W "$args" -- "$cur")); fi
}
complete -o filenames -o bashdefault -F _eai eai
"""]
    return "\n".join(body)


def _zsh(root: Node, header: str) -> str:
    body = ["#compdef eai", header, *_shared_functions(root), _WALK.replace("local i w skip=0", "local i w skip=0\n    setopt localoptions ksharrays"), """\
_eai() {
    local cur="${words[CURRENT]}" prev="${words[CURRENT-1]}"
    local -a _eai_words
    _eai_words=("${words[@]}")
    _eai_state 1 "$((CURRENT - 1))"
    local choices
    if [[ "$prev" == -* && " $(_eai_valued "$_eai_path") " == *" $prev "* ]]; then
        choices="$(_eai_choices "$_eai_path" "$prev")"
        if [[ -n "$choices" ]]; then compadd -- ${=choices}; else _files; fi
        return
    fi
    if [[ "$cur" == -* ]]; then
        compadd -- ${=$(_eai_options "$_eai_path")}
        return
    fi
    compadd -- ${=$(_eai_subcommands "$_eai_path")}
    local args="$(_eai_args "$_eai_path")"
    if [[ "$args" == "@files" ]]; then _files; elif [[ -n "$args" ]]; then compadd -- ${=args}; fi
}
compdef _eai eai
"""]
    return "\n".join(body)


def _fish_quote(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _fish(root: Node, header: str) -> str:
    lines = [header, "complete -c eai -f"]
    for node in _walk(root):
        subs = " ".join(c.path[-1] for c in node.children)
        if node.path:
            cond = "; and ".join(f"__fish_seen_subcommand_from {p}" for p in node.path)
            cond += f"; and not __fish_seen_subcommand_from {subs}" if subs else ""
        else:
            cond = "__fish_use_subcommand"
        quoted = _fish_quote(cond)
        for child in node.children:
            lines.append(f"complete -c eai -n {quoted} -a {child.path[-1]} -d {_fish_quote(child.help)}")
        for opt in node.flags:
            flag = f"-l {opt[2:]}" if opt.startswith("--") else f"-s {opt[1:]}"
            lines.append(f"complete -c eai -n {quoted} {flag}")
        for opt, choices in node.valued.items():
            flag = f"-l {opt[2:]}" if opt.startswith("--") else f"-s {opt[1:]}"
            extra = f"-x -a {_fish_quote(' '.join(choices))}" if choices else "-r -F"
            lines.append(f"complete -c eai -n {quoted} {flag} {extra}")
        if node.arg_choices:
            lines.append(f"complete -c eai -n {quoted} -x -a {_fish_quote(' '.join(node.arg_choices))}")
        elif node.takes_args and node.path:
            lines.append(f"complete -c eai -n {quoted} -F")
    return "\n".join(lines) + "\n"


def render_script(shell: str, root: Node | None = None) -> str:
    """The completion script for ``shell`` (``bash``, ``zsh`` or ``fish``) of the command tree ``root``.

    Raises:
        enterprise_ai.errors.UsageError: an unknown shell.
    """
    from enterprise_ai.errors import UsageError

    if shell not in SHELLS:
        raise UsageError(f"unknown shell '{shell}': choose one of {', '.join(SHELLS)}")
    root = root or command_tree()
    header = f"# {shell} completion for eai. Generated from the CLI by scripts/gen_completions.py; do not edit."
    return {"bash": _bash, "zsh": _zsh, "fish": _fish}[shell](root, header)


def completion(shell: Shell = typer.Argument(..., help="bash, zsh or fish.")) -> None:
    """Print the completion script of ``shell`` on stdout."""
    typer.echo(render_script(shell.value), nl=False)
