"""Breakages of the rulings registry: a default reading changed, so that every default game plays another reading
and every check that reads the rulings in force follows it (only `rulings.defaults` can see it)."""

from __future__ import annotations

import dataclasses

from doubtspec.invariants.mutants.games_again import games_built_again
from doubtspec.invariants.mutants.mutant import Patch
from doubtspec.model import rulings as registry
from doubtspec.model.game import Game


def budget_payment_default_swapped() -> tuple[Patch, ...]:
    # The registry lists budget-payment's readings the other way round: a default game pays with any covering set.
    ruling = registry.BY_ID["budget-payment"]
    swapped = dataclasses.replace(ruling, choices=tuple(reversed(ruling.choices)))
    return ((registry, "BY_ID", {**registry.BY_ID, ruling.id: swapped}), *games_built_again(_made_again))


def _made_again(game: Game) -> Game:
    """The game made again from its cards and rulings, its readings worked out by the registry in force."""
    return Game(game.cards, game.rulings)
