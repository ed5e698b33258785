"""Breakages of the card loader: the engine plays the cards it is given, so a card read wrongly is a rule broken
everywhere that card is played, and only a check that reads the card file itself can see it (`cards.file`)."""

from __future__ import annotations

from doubtspec.invariants.mutants.mutant import Patch
from doubtspec.model import cards, engine
from doubtspec.model.cards import CardSet, Zone
from doubtspec.model.game import Game
from doubtspec.model.rulings import DEFAULT_RULINGS, Rulings
from doubtspec.model.state import GameState


def elderly_icon_loaded_as_middle_age() -> tuple[Patch, ...]:
    # The loader looks a `victims` effect's zone up in this table: the Elderly key is taken for Middle Age.
    zones = {**cards.ZONE_BY_KEY, "elderly": Zone.MIDDLE_AGE}
    return ((cards, "ZONE_BY_KEY", zones), *_loaded_again())


def _loaded_again() -> tuple[Patch, ...]:
    """`engine.new_game` loads the card file of the game it is given again (with whatever loader is in force).

    A run handed a `Game` loaded before the mutant was active (a test's fixture, a session's shipped set) would
    otherwise never meet the broken loader; a process started under it would, and this stands in for one. Each
    game is loaded again once, so that every example of a run plays the same `Game`.
    """
    original = engine.new_game
    again: dict[int, tuple[Game, Game]] = {}

    def new_game(given: CardSet | Game | None = None, rulings: Rulings = DEFAULT_RULINGS) -> GameState:
        game = given if isinstance(given, Game) else Game(given if given is not None else cards.load_cards(), rulings)
        found = again.get(id(game))
        if found is None or found[0] is not game:
            loaded = cards.parse_cards(game.cards.text, game.cards.source) if game.cards.text else game.cards
            found = (game, Game(loaded, game.rulings))
            again[id(game)] = found
        return original(found[1])

    return ((engine, "new_game", new_game),)
