"""The exception hierarchy: one root, input errors apart from rule errors.

Only the command line turns these into exit codes (see `doubtspec.cli`).
"""

from __future__ import annotations

from pathlib import Path


class DoubtspecError(Exception):
    """Root of every error doubtspec raises on purpose."""


class InputError(DoubtspecError):
    """Bad input from outside the engine: a card file, a trace, an option.

    Carries where the problem is (file, line, field) so that a designer can fix it without
    reading a traceback.
    """

    def __init__(
        self,
        message: str,
        *,
        path: Path | str | None = None,
        line: int | None = None,
        field: str | None = None,
    ) -> None:
        self.message = message
        self.path = None if path is None else str(path)
        self.line = line
        self.field = field
        super().__init__(self.describe())

    def describe(self) -> str:
        """The error as one line: `file:line: field: message`."""
        where = ""
        if self.path is not None:
            where = self.path
            if self.line is not None:
                where += f":{self.line}"
            where += ": "
        if self.field is not None:
            where += f"{self.field}: "
        return where + self.message


class CardFileError(InputError):
    """A card file that cannot be read or does not describe a valid set."""


class TraceError(InputError):
    """A trace file that cannot be read or does not replay."""


class OptionError(InputError):
    """A command-line option or ruling choice that is not valid."""


class RuleError(DoubtspecError):
    """An attempt to break the rules of the game."""


class IllegalActionError(RuleError):
    """An action that is not legal in the state it was applied to.

    Names the action, the rulebook section that forbids it and a summary of the state. The
    state the action was applied to is never changed (states are immutable).
    """

    def __init__(self, action: str, rule: str, reason: str, state_summary: str) -> None:
        self.action = action
        self.rule = rule
        self.reason = reason
        self.state_summary = state_summary
        super().__init__(f"illegal action {action!r}: {reason} [{rule}] in state {state_summary}")


class Interrupted(BaseException):
    """A command stopped by Ctrl-C or SIGTERM, with a one-line summary of what it had done.

    A `BaseException`, like the `KeyboardInterrupt` it replaces, so that no `except Exception`
    on the way up mistakes it for a failure of the work it interrupted.
    """

    def __init__(self, summary: str) -> None:
        self.summary = summary
        super().__init__(summary)
