"""Breakages of the card loader: the engine plays the cards it is given, so a card read wrongly is a rule broken
everywhere that card is played, and only a check that reads the card file itself can see it (`cards.file`)."""

from __future__ import annotations

from doubtspec.invariants.mutants.games_again import games_built_again
from doubtspec.invariants.mutants.mutant import Patch
from doubtspec.model import cards
from doubtspec.model.cards import Zone
from doubtspec.model.game import Game


def elderly_icon_loaded_as_middle_age() -> tuple[Patch, ...]:
    # The loader looks a `victims` effect's zone up in this table: the Elderly key is taken for Middle Age.
    zones = {**cards.ZONE_BY_KEY, "elderly": Zone.MIDDLE_AGE}
    return ((cards, "ZONE_BY_KEY", zones), *games_built_again(_reloaded))


def _reloaded(game: Game) -> Game:
    """The game with its card file loaded again, by whatever loader is in force."""
    loaded = cards.parse_cards(game.cards.text, game.cards.source) if game.cards.text else game.cards
    return Game(loaded, game.rulings)
