"""The `doubtspec` executable's entry point: signal handling from the first moment to the last.

Importing the command line pulls in Hypothesis, Z3 and Rich, which takes a noticeable fraction of
a second. A Ctrl-C or SIGTERM in that time must end the process like one a moment later (exit 130
or 143, one line, no traceback), but must not cut an extension module's import in half (Z3 then
prints errors from half-built objects at exit); so signals are only recorded during the imports,
and acted on right after them. The command itself handles them (`doubtspec.cli.app.main`); once it
has finished, a signal arriving while the interpreter shuts down is ignored: it changes nothing.
"""

from __future__ import annotations

import sys

from doubtspec import interrupts


def main() -> None:
    """Run `doubtspec.cli.app.main` with SIGINT and SIGTERM handled from start to exit."""
    interrupts.record_only()
    try:
        from doubtspec.cli.app import main as run

        if interrupts.received() is not None:
            print("interrupted while starting: nothing done", file=sys.stderr)
            sys.exit(interrupts.exit_code())
        run()
    finally:
        interrupts.ignored_from_now()
