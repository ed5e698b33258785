"""The `tableau` invariants. The Tableau's size limit."""

from __future__ import annotations

from doubtspec.invariants.shapes import (
    Invariant,
    StateInvariant,
)
from doubtspec.model.state import GameState
from doubtspec.rulebook import Section

S = Section


def _tableau(state: GameState) -> str | None:
    limit = state.cards.rules.tableau_limit
    if len(state.tableau) > limit:
        return f"the Tableau holds {len(state.tableau)} cards, over the limit of {limit}"
    return None


INVARIANTS: tuple[Invariant, ...] = (
    StateInvariant("tableau.limit", "The Tableau never holds more than eight cards.",
                   (S.MOVEMENT_CARDS, S.AGITATION_AND_GOALS), _tableau),
)
"""The `tableau.*` invariants, in the order they are checked and listed."""
