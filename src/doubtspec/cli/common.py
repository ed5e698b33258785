"""Options and helpers shared by every command: the card file, the rulings, the console."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from doubtspec.model.cards import load_cards
from doubtspec.model.game import Game
from doubtspec.model.rulings import Rulings

console = Console()
err_console = Console(stderr=True)

CardsOption = Annotated[
    Path | None,
    typer.Option("--cards", help="Card file (TOML) to use instead of the shipped provisional set.",
                 dir_okay=False),
]
RulingOption = Annotated[
    list[str] | None,
    typer.Option("--ruling", help="Choose a reading of an open rule, ID=CHOICE (see `doubtspec rulings`); repeatable."),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON instead of tables.")]


def load_game(cards: Path | None, rulings: list[str] | None) -> Game:
    """The game for a command's `--cards` and `--ruling` options; raises `InputError` on bad input."""
    return Game(load_cards(cards), Rulings.parse(rulings or []))
