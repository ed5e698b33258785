"""The `doubtspec` command: a Typer app whose commands are thin layers over library calls.

Errors become exit codes only here (`doubtspec.cli.exitcodes`): input errors exit 2 with the
file, line and field; anything unexpected exits 70.
"""

from __future__ import annotations

import sys

import typer
from rich.markup import escape

from doubtspec.cli import cards_cmd, fuzz_cmd, simulate_cmd, solve_cmd
from doubtspec.cli.common import err_console
from doubtspec.cli.exitcodes import ExitCode
from doubtspec.errors import InputError

app = typer.Typer(
    name="doubtspec",
    help="Rules-verification harness for the board game: fuzz the rules, simulate games, ask the solver.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)

for module in (cards_cmd, simulate_cmd, fuzz_cmd, solve_cmd):
    module.register(app)


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the app, translating doubtspec's errors into exit codes.

    Typer (in standalone mode) already exits 2 on usage errors; doubtspec's input errors exit 2
    with the file, line and field; anything unexpected is a bug and exits 70.
    """
    try:
        app(args=argv)
    except InputError as exc:
        err_console.print(f"[bold red]error:[/] {escape(exc.describe())}", highlight=False)
        sys.exit(ExitCode.BAD_INPUT)
    except Exception:
        err_console.print_exception()
        sys.exit(ExitCode.INTERNAL)
