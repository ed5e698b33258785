"""The `doubtspec` command: a Typer app whose commands are thin layers over library calls.

Errors become exit codes only here (`doubtspec.cli.exitcodes`): input errors exit 2 with the
file, line and field; an interrupt (Ctrl-C or SIGTERM) exits 130 or 143 with one line saying what
was done; anything unexpected exits 70.
"""

from __future__ import annotations

import sys
from importlib.metadata import PackageNotFoundError, version
from typing import Annotated

import typer

from doubtspec import interrupts
from doubtspec.cli import cards_cmd, fuzz_cmd, simulate_cmd, solve_cmd
from doubtspec.cli.common import err_console, text
from doubtspec.cli.exitcodes import ExitCode
from doubtspec.errors import InputError, Interrupted

app = typer.Typer(
    name="doubtspec",
    help="Rules-verification harness for the board game: fuzz the rules, simulate games, ask the solver.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
    # Plain help: option types are shown as metavars (PATH, ID=CHOICE), flags as bare flags.
    rich_markup_mode=None,
)

for module in (cards_cmd, simulate_cmd, fuzz_cmd, solve_cmd):
    module.register(app)


def _version() -> str:
    try:
        return version("doubtspec")
    except PackageNotFoundError:  # running from a source tree that is not installed
        return "unknown"


def _print_version(value: bool) -> None:
    if value:
        print(f"doubtspec {_version()}")
        raise typer.Exit()


@app.callback()
def _root(
    show_version: Annotated[bool, typer.Option("--version", callback=_print_version, is_eager=True,
                                               help="Print the version and exit.")] = False,
) -> None:
    """Rules-verification harness for the board game: fuzz the rules, simulate games, ask the solver."""


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the app, translating doubtspec's errors into exit codes.

    Typer (in standalone mode) already exits 2 on usage errors; doubtspec's input errors exit 2
    with the file, line and field; an interrupt exits 128 + the signal number after one line on
    stderr; anything unexpected is a bug and exits 70.
    """
    with interrupts.installed():
        try:
            app(args=argv)
        except InputError as exc:
            # One unwrapped line, so that the file, line and field stay together (and can be copied).
            err_console.print(f"[bold red]error:[/] {text(exc.describe())}", highlight=False, soft_wrap=True)
            sys.exit(ExitCode.BAD_INPUT)
        except Interrupted as stop:
            err_console.print(f"[yellow]interrupted:[/] {text(stop.summary)}", highlight=False, soft_wrap=True)
            sys.exit(interrupts.exit_code())
        except KeyboardInterrupt:
            err_console.print("[yellow]interrupted[/]", highlight=False)
            sys.exit(interrupts.exit_code())
        except SystemExit as done:
            if interrupts.received() is not None and done.code == ExitCode.INTERRUPTED:
                err_console.print("[yellow]interrupted[/]", highlight=False)
                sys.exit(interrupts.exit_code())
            raise
        except Exception:
            if interrupts.received() is not None:
                # Whatever broke did so while stopping; the interrupt, not the breakage, is the news.
                err_console.print("[yellow]interrupted[/]", highlight=False)
                sys.exit(interrupts.exit_code())
            err_console.print_exception()
            sys.exit(ExitCode.INTERNAL)
