"""The `doubtspec` executable's entry point: signal handling first, then the (slow) imports.

Importing the command line pulls in Hypothesis, Z3 and Rich, which takes a noticeable fraction of
a second; a Ctrl-C or SIGTERM in that time must end the process like one a moment later (exit 130
or 143, no traceback), so the handler is installed before anything heavy is imported.
"""

from __future__ import annotations

import sys

from doubtspec import interrupts


def main() -> None:
    """Run `doubtspec.cli.app.main` with SIGINT and SIGTERM handled from the very start."""
    with interrupts.installed():
        try:
            from doubtspec.cli.app import main as run
        except KeyboardInterrupt:
            print("interrupted while starting", file=sys.stderr)
            sys.exit(interrupts.exit_code())
        run()
