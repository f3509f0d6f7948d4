"""The ``eai`` root command: global options, command groups, and the top-level error handler.

Every command group lives in its own module and only parses options, calls a core function
that returns data, and hands the data to :mod:`enterprise_ai.cli.render`. Exceptions are
turned into one-line messages and exit codes here, and only here (see :mod:`enterprise_ai.cli.errors`).
Heavy libraries (httpx, jsonschema, pydantic, keyring) are imported inside commands, never at
module level, so that ``eai --help`` stays fast.
"""

from __future__ import annotations

import sys
from typing import Optional

import typer

from enterprise_ai import __version__
from enterprise_ai.cli import approvals, auth, completion, dev, gateway, schema
from enterprise_ai.cli import tools as tools_group
from enterprise_ai.cli.errors import EXIT_CODES_HELP, exit_code_for, message_for
from enterprise_ai.cli.state import CliState

app = typer.Typer(
    name="eai",
    help=(
        "Build, validate, register and govern tools for AI agents.\n\n"
        "Turns @tool functions into Tool Manifests, validates them, and drives their life on a "
        "Tool Gateway (register, discover, invoke, approve, inspect invocations).\n\n" + EXIT_CODES_HELP
    ),
    no_args_is_help=True,
    # Plain help and usage errors: rendering them with rich imports ~60 ms of modules (rich.markdown,
    # rich.traceback...) and `eai --help` must stay under 150 ms (bench/bench_cli.py).
    rich_markup_mode=None,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

app.add_typer(tools_group.app, name="tools", help="Scan, validate, register, invoke and inspect tools.")
app.add_typer(approvals.app, name="approvals", help="List, approve and reject approval requests.")
app.add_typer(auth.app, name="auth", help="Log in to a gateway, show and remove stored credentials.")
app.add_typer(gateway.app, name="gateway", help="Run the local Tool Gateway.")
app.command("dev", help=dev.HELP)(dev.dev)
app.command("schema", help=schema.HELP)(schema.schema)
app.command("completion", help=completion.HELP)(completion.completion)


def _version_callback(value: bool) -> None:
    if value:
        typer.echo(f"eai {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    ctx: typer.Context,
    version: Optional[bool] = typer.Option(  # noqa: UP007 - Typer needs Optional on 3.10
        None, "--version", callback=_version_callback, is_eager=True, help="Print the version and exit."
    ),
    debug: bool = typer.Option(False, "--debug", help="Log requests and steps to stderr; show tracebacks."),
    no_color: bool = typer.Option(False, "--no-color", help="No colours (also NO_COLOR=1)."),
) -> None:
    """Root options shared by every command."""
    state = ctx.obj if isinstance(ctx.obj, CliState) else CliState()
    state.debug = state.debug or debug
    state.no_color = state.no_color or no_color
    ctx.obj = state
    if state.debug:
        import logging  # only with --debug: keeps start-up fast

        logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="%(name)s: %(message)s")
        logging.getLogger("enterprise_ai").setLevel(logging.DEBUG)


def _json_escape(exc: UnicodeError) -> tuple[str, int]:
    """Codec error handler: a character the stream cannot encode becomes a JSON ``\\u`` escape (four hex digits)."""
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    out = []
    for char in exc.object[exc.start : exc.end]:
        code = ord(char)
        if code > 0xFFFF:  # UTF-16 surrogate pair, as JSON writes it (RFC 8259 §7)
            code -= 0x10000
            out.append(f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}")
        else:
            out.append(f"\\u{code:04x}")
    return "".join(out), exc.end


def _safe_streams() -> None:
    """On a stdout/stderr that cannot encode all of Unicode (PYTHONIOENCODING=ascii, a legacy console),
    write unencodable characters as ``\\u`` escapes (four hex digits) instead of failing: JSON output stays valid JSON."""
    import codecs

    for stream in (sys.stdout, sys.stderr):
        encoding = getattr(stream, "encoding", None) or "utf-8"
        try:
            "\u00e9\U0001f600".encode(encoding)
        except UnicodeEncodeError:
            try:
                codecs.lookup_error("eai-json-escape")
            except LookupError:
                codecs.register_error("eai-json-escape", _json_escape)
            if hasattr(stream, "reconfigure"):
                stream.reconfigure(errors="eai-json-escape")
        except LookupError:  # an unknown encoding name: leave the stream alone
            pass


def main(argv: list[str] | None = None) -> int:
    """Run the CLI and return its exit code (the console script exits with it).

    Args:
        argv: arguments without the program name; ``sys.argv[1:]`` by default.

    Usage errors are reported by Typer itself (exit 2); every other exception is reported
    here as one line on stderr, with a traceback only under ``--debug`` (never local variables).
    """
    args = list(sys.argv[1:] if argv is None else argv)
    _safe_streams()
    state = CliState(debug="--debug" in args)
    completion.enable()  # _EAI_COMPLETE=complete_<shell> eai ... prints TAB candidates
    try:
        app(args=args, prog_name="eai", obj=state)
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except (KeyboardInterrupt, Exception) as exc:  # noqa: BLE001 - the one top-level handler
        from enterprise_ai.cli import render

        if state.debug and not isinstance(exc, KeyboardInterrupt):
            import traceback

            traceback.print_exception(type(exc), exc, exc.__traceback__, file=sys.stderr)
        if isinstance(exc, KeyboardInterrupt):
            render.error_line("interrupted", state)
        else:
            render.error_line(message_for(exc), state, getattr(exc, "hint", None))
        code = exit_code_for(exc)
    try:
        sys.stdout.flush()
    except (BrokenPipeError, ValueError):  # pragma: no cover - stdout closed by a pager
        pass
    return code


def run() -> None:  # pragma: no cover - thin wrapper
    sys.exit(main())


if __name__ == "__main__":  # pragma: no cover
    run()
