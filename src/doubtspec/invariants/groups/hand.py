"""The `hand` invariants.

Hand sizes: the Company's full hand at the start of its turn, Marginalization, the Movement's hand limit.
"""

from __future__ import annotations

from doubtspec.invariants.derived import (
    at_rest,
    hand_limit,
)
from doubtspec.invariants.shapes import (
    Invariant,
    StateInvariant,
)
from doubtspec.model.state import GameState, OutcomeReason, Phase
from doubtspec.rulebook import Section

S = Section


def _company_hand(state: GameState) -> str | None:
    if at_rest(state) and state.phase is Phase.COMPANY_PLAY and state.plays == 0:
        size = state.cards.rules.company_hand_size
        if len(state.c_hand) != size:
            return f"the Company's turn starts with {len(state.c_hand)} cards in hand, not {size}"
    return None


def _marginalization(state: GameState) -> str | None:
    if state.outcome is None or state.outcome.reason is not OutcomeReason.MARGINALIZATION:
        return None
    size = state.cards.rules.company_hand_size
    if len(state.c_hand) >= size:
        return f"Marginalization with {len(state.c_hand)} cards in hand (the hand size is {size})"
    if state.c_deck or state.c_discard:
        return (f"Marginalization while cards remained to draw: deck {list(state.c_deck)}, "
                f"discard {list(state.c_discard)}")
    if state.reshuffles == 0:
        return "Marginalization without a Reshuffle"
    return None


def _movement_hand(state: GameState) -> str | None:
    limit = hand_limit(state)
    if len(state.m_hand) > limit:
        return f"the Movement holds {len(state.m_hand)} cards, over its hand limit of {limit}"
    return None


INVARIANTS: tuple[Invariant, ...] = (
    StateInvariant("hand.company", "The Company starts each turn with a full hand (five cards).",
                   (S.COMPANY_SETUP, S.COMPANY_ON_YOUR_GO, S.RESHUFFLE_AND_DRAW), _company_hand),
    StateInvariant("hand.marginalization",
                   "Marginalization ends the game only when a Reshuffle left too few cards to refill the hand.",
                   (S.COMPANY_RULES, S.RESHUFFLE_AND_DRAW), _marginalization),
    StateInvariant("hand.movement", "The Movement's hand never exceeds three plus its hand-size Goals.",
                   (S.MOVEMENT_CARDS, S.AGITATION_AND_GOALS), _movement_hand),
)
"""The `hand.*` invariants, in the order they are checked and listed."""
