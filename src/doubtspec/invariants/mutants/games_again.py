"""Games built again under a mutant: for breakages that act when a `Game` is made, not when it is played."""

from __future__ import annotations

from collections.abc import Callable

from doubtspec.invariants.mutants.mutant import Patch
from doubtspec.model import engine
from doubtspec.model.cards import CardSet, load_cards
from doubtspec.model.game import Game
from doubtspec.model.rulings import DEFAULT_RULINGS, Rulings
from doubtspec.model.state import GameState


def games_built_again(rebuild: Callable[[Game], Game]) -> tuple[Patch, ...]:
    """`engine.new_game` plays `rebuild` of the game it is given, made once per game.

    A `Game` reads its card file and works its readings out when it is made; one made before the mutant was active
    (a test's fixture, a session's shipped set) would never meet the breakage, where a process started under the
    mutant would, and this stands in for such a process. Each game is rebuilt once, so that every example of a run
    plays the same `Game`.
    """
    original = engine.new_game
    again: dict[int, tuple[Game, Game]] = {}

    def new_game(cards: CardSet | Game | None = None, rulings: Rulings = DEFAULT_RULINGS) -> GameState:
        game = cards if isinstance(cards, Game) else Game(cards if cards is not None else load_cards(), rulings)
        found = again.get(id(game))
        if found is None or found[0] is not game:
            found = again[id(game)] = (game, rebuild(game))
        return original(found[1])

    return ((engine, "new_game", new_game),)
