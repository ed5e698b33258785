"""Exit codes of the `doubtspec` command, one meaning each (documented in the README)."""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    OK = 0
    """Done: no violation found, or the question was answered."""
    VIOLATION = 1
    """`doubtspec fuzz` or `replay` found an invariant violation (reports written)."""
    BAD_INPUT = 2
    """Bad usage: an unknown option, a malformed card file, trace or ruling."""
    UNKNOWN = 3
    """`doubtspec solve` could not decide within its time limit."""
    INTERNAL = 70
    """A bug in doubtspec itself (EX_SOFTWARE)."""
    INTERRUPTED = 130
    """Stopped by Ctrl-C (128 + SIGINT); SIGTERM gives 143 (128 + SIGTERM). Nothing half-written."""
    TERMINATED = 143
    """Stopped by SIGTERM."""
