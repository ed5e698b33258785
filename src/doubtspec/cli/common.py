"""Options and helpers shared by every command: the card file, the rulings, the console, checks.

Anything a user wrote (a card name, a path, a report's message) is passed through `escape`
before it reaches a Rich console, so that `[red]` in a file name is shown, not interpreted.
"""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from doubtspec.errors import OptionError
from doubtspec.model.cards import load_cards
from doubtspec.model.game import Game
from doubtspec.model.rulings import Rulings

# No emoji codes: a `:x:` in a path or a card name is text, not a picture.
console = Console(emoji=False)
err_console = Console(stderr=True, emoji=False)

CardsOption = Annotated[
    Path | None,
    typer.Option("--cards", metavar="PATH", help="Card file (TOML) to use instead of the shipped provisional set.",
                 dir_okay=False),
]
RulingOption = Annotated[
    list[str] | None,
    typer.Option("--ruling", metavar="ID=CHOICE",
                 help="Choose a reading of an open rule (see `doubtspec rulings`); repeatable, once per ruling."),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON instead of tables.")]


def text(value: object) -> str:
    """`value` as text safe to embed in Rich markup (user-provided strings are shown as written)."""
    return escape(str(value))


def check_rulings(specs: Iterable[str]) -> list[str]:
    """The `--ruling` values, refusing one ruling chosen twice (which one should win is not clear)."""
    seen: dict[str, str] = {}
    result = []
    for spec in specs:
        rid, sep, _ = spec.partition("=")
        rid = rid.strip()
        if sep and rid in seen and seen[rid] != spec:
            raise OptionError(f"ruling {rid!r} is chosen twice ({seen[rid]!r} and {spec!r}); give it once",
                              field="--ruling")
        seen.setdefault(rid, spec)
        result.append(spec)
    return result


def load_game(cards: Path | None, rulings: list[str] | None) -> Game:
    """The game for a command's `--cards` and `--ruling` options; raises `InputError` on bad input."""
    specs = check_rulings(rulings or [])
    return Game(load_cards(cards), Rulings.parse(specs))


def finite_seconds(value: float | None, option: str) -> float | None:
    """A time option's value, refusing NaN, infinities, zero and negative numbers before any work."""
    if value is not None and (not math.isfinite(value) or value <= 0):
        raise OptionError(f"expected a positive, finite number of seconds, got {value}", field=option)
    return value


def seconds_since_start() -> float | None:
    """Seconds since this process started, when it runs as the `doubtspec` command (Linux /proc; else None), so
    that a command's time budget pays for its start-up (Python, the libraries, the card file) as the user's clock
    does."""
    if Path(sys.argv[0]).name != "doubtspec":
        return None  # called in-process (the tests): only the command's own work is charged
    try:
        ticks = int(Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()[19])
        uptime = float(Path("/proc/uptime").read_text().split()[0])
        return max(0.0, uptime - ticks / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError):
        return None


def seconds_callback(option: str) -> Callable[[float | None], float | None]:
    """A Typer callback checking a time option (`finite_seconds`), for commands that declare one."""

    def check(value: float | None) -> float | None:
        return finite_seconds(value, option)

    return check
