"""Running the `doubtspec` command line in-process, for tests: exit code, stdout and stderr."""

from __future__ import annotations

import contextlib
import io

from doubtspec.cli.app import main


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
