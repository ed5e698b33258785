"""Breakages of the rulings registry: a default reading changed, so that every default game plays another reading
and every check that reads the rulings in force follows it (only `rulings.defaults` can see it)."""

from __future__ import annotations

import dataclasses

from doubtspec.invariants.mutants.mutant import Patch
from doubtspec.model import engine
from doubtspec.model import rulings as registry
from doubtspec.model.cards import CardSet, load_cards
from doubtspec.model.game import Game
from doubtspec.model.rulings import DEFAULT_RULINGS, Rulings
from doubtspec.model.state import GameState


def budget_payment_default_swapped() -> tuple[Patch, ...]:
    # The registry lists budget-payment's readings the other way round: a default game pays with any covering set.
    ruling = registry.BY_ID["budget-payment"]
    swapped = dataclasses.replace(ruling, choices=tuple(reversed(ruling.choices)))
    return ((registry, "BY_ID", {**registry.BY_ID, ruling.id: swapped}), *_built_again())


def _built_again() -> tuple[Patch, ...]:
    """`engine.new_game` builds the `Game` it is given again, so that its readings follow the registry in force.

    A `Game` works its readings out once, when it is built; one built before the mutant was active (a test's
    fixture, a session's shipped set) would play the old default, where a process started under the mutant would
    play the new one, and this stands in for such a process. Each game is built again once, so that every example of
    a run plays the same `Game`.
    """
    original = engine.new_game
    again: dict[int, tuple[Game, Game]] = {}

    def new_game(cards: CardSet | Game | None = None, rulings: Rulings = DEFAULT_RULINGS) -> GameState:
        game = cards if isinstance(cards, Game) else Game(cards if cards is not None else load_cards(), rulings)
        found = again.get(id(game))
        if found is None or found[0] is not game:
            found = again[id(game)] = (game, Game(game.cards, game.rulings))
        return original(found[1])

    return ((engine, "new_game", new_game),)
