"""Running the `doubtspec` command line for tests: in-process (exit code, stdout and stderr), or the installed
executable's path for a process of its own."""

from __future__ import annotations

import contextlib
import io
import sys
from pathlib import Path

from doubtspec.cli.app import main

DOUBTSPEC = Path(sys.executable).parent / "doubtspec"
"""The installed `doubtspec` command, beside the interpreter running the tests."""


def run_cli(*args: str) -> tuple[int, str, str]:
    """`doubtspec ARGS...` through `doubtspec.cli.app.main` (exit codes as the executable gives them)."""
    out, err = io.StringIO(), io.StringIO()
    code: object = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(list(args))
        except SystemExit as done:
            code = done.code
    return (int(code) if isinstance(code, int) else 0 if code is None else 2), out.getvalue(), err.getvalue()
