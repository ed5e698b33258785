"""The `tableau` invariants. The Tableau's size limit."""

from __future__ import annotations

from doubtspec.invariants.derived import at_rest, legal, replace
from doubtspec.invariants.shapes import (
    Invariant,
    StateInvariant,
)
from doubtspec.model import engine
from doubtspec.model import legal as legality
from doubtspec.model.actions import End, MovementPlay, OrganizePlay
from doubtspec.model.state import GameState, Phase
from doubtspec.rulebook import Section

S = Section


def _tableau(state: GameState) -> str | None:
    limit = state.cards.rules.tableau_limit
    if len(state.tableau) > limit:
        return f"the Tableau holds {len(state.tableau)} cards, over the limit of {limit}"
    return None


def _full_applies(state: GameState) -> bool:
    """A Movement turn with a card in hand, and the Market deck holds the cards that fill the Tableau."""
    return (at_rest(state) and state.phase is Phase.MOVEMENT_TURN and bool(state.m_hand)
            and 0 <= state.cards.rules.tableau_limit - len(state.tableau) <= len(state.m_deck))


FULL_FACE_UP = 4
"""How many face-up cards the face-up half of `tableau.full-offers` lays in the full Tableau (fewer when the filler
is shorter; the Tableau's own face-up cards count, and stay face up)."""


def _face_up_filler(filler: tuple[int, ...], own_up: int) -> tuple[tuple[int, bool], ...]:
    """The filler of `_full_offers`' face-up half: face up from both ends inwards (the last card, the first, the one
    before the last, ...) until the Tableau holds `FULL_FACE_UP` face-up cards, the rest face down."""
    order: list[int] = []
    low, high = 0, len(filler) - 1
    while low <= high:
        order.append(high)
        if low < high:
            order.append(low)
        low, high = low + 1, high - 1
    up = set(order[:max(0, FULL_FACE_UP - own_up)])
    return tuple((card, i in up) for i, card in enumerate(filler))


def _full_offers(state: GameState) -> str | None:
    """On each Movement turn with a card in hand, fill the Tableau to its limit and play into it.

    A full Tableau takes many rounds of play; laying Market-deck cards face down until the Tableau holds
    its limit, every play the engine then offers (and every free play Organize would offer, one at least for
    each card in hand) must remove a card first, and each play is played through the engine and checked against
    `rule.movement-play` (at most three). Then some of the same cards face up: each play with each removal must be
    offered with the flips `rule.influence-payment-offers` works out from the other face-up cards, the removed card
    never among them.

    The face-up half asks what only a full Tableau can show: Spending Influence with a removal, where the card
    removed cannot pay and every other face-up card still can. Which sets of face-up cards may pay (none
    superfluous, tokens covering the rest) does not depend on the Tableau being full, and
    `rule.influence-payment-offers` asks it of the real Tableau on every sampled Movement turn. So the filler is
    laid face up only until the Tableau holds `FULL_FACE_UP` face-up cards, from both ends of the filler inwards:
    each removal of a face-up card leaves three others to pay with, each removal of a face-down one all four, and
    the filler's last place (the Tableau's right end) is face up whenever any filler card is. With every filler
    card face up the engine listed up to 2^7 flip sets for each removal of each play (about 4 ms a call) to ask
    the same question of more sets; the hand-written mutant `removed-card-pays` (the card removed may still be
    flipped) fails the narrower probe.
    """
    if not _full_applies(state):
        return None
    from doubtspec.invariants.groups.rule import influence_payment_check, movement_play_check

    limit = state.cards.rules.tableau_limit
    missing = limit - len(state.tableau)
    filler = state.m_deck[:missing]
    probe = replace(state, tableau=state.tableau + tuple((c, False) for c in filler),
                    m_deck=state.m_deck[missing:])
    plays = [a for a in engine.legal_actions(probe) if isinstance(a, MovementPlay)]
    # Organize's free play (Buying a Card > Organize) into the full Tableau, which generated games seldom reach.
    organize = [a for a in legality.organize_choices(probe) if isinstance(a, OrganizePlay)]
    offered: list[MovementPlay | OrganizePlay] = [*plays, *organize]
    for offer in offered:
        if offer.remove is None:
            return f"with {limit} cards in the Tableau, {offer} is offered without removing one first"
    # Organize's play is free but still a play (Buying a Card > Organize): the ninth card removes one like any other
    missing_hand = set(probe.m_hand) - {a.card for a in organize}
    if missing_hand:
        return (f"with {limit} cards in the Tableau, Organize offers no free play of {sorted(missing_hand)}: the "
                "play removes a card first, as any play into a full Tableau does")
    # Movement Cards: the player chooses which card to remove, whichever end the new one joins.
    everywhere = set(range(limit))
    for card in dict.fromkeys(probe.m_hand):
        for end in (End.LEFT, End.RIGHT):
            removals = {a.remove for a in organize if a.card == card and a.end is end}
            if removals != everywhere:
                return (f"with {limit} cards in the Tableau, Organize's free play of {card} at the "
                        f"{end.name.lower()} end may remove the cards at {sorted(r for r in removals if r is not None)}"
                        f"; any card of the Tableau may be removed")
    for action in plays[:3]:
        try:
            after = engine.apply(probe, action)
        except Exception as exc:  # the engine failing on a full Tableau is the finding
            return f"with {limit} cards in the Tableau, {action} raised {type(exc).__name__}: {exc}"
        message = movement_play_check(probe, action, after) or _tableau(after)
        if message is not None:
            return f"with {limit} cards in the Tableau: {message}"
    own_up = sum(1 for _, up in state.tableau if up)
    face_up = replace(probe, tableau=state.tableau + _face_up_filler(filler, own_up))
    message = influence_payment_check(face_up)
    return None if message is None else f"with {limit} cards in the Tableau, the new ones face up: {message}"


def _removal_offers(state: GameState) -> str | None:
    """Every play offered (a Movement play or Organize's free play) removes a Tableau card exactly when the
    Tableau is at its limit: below it nothing is removed, at it the ninth card never stays."""
    full = len(state.tableau) >= state.cards.rules.tableau_limit
    for action in legal(state):
        if isinstance(action, MovementPlay | OrganizePlay) and (action.remove is not None) is not full:
            return (f"{action} was offered with the Tableau at {len(state.tableau)} of "
                    f"{state.cards.rules.tableau_limit} cards: a card is removed exactly when it is full")
    return None


INVARIANTS: tuple[Invariant, ...] = (
    StateInvariant("tableau.limit", "The Tableau never holds more than eight cards.",
                   (S.MOVEMENT_CARDS, S.AGITATION_AND_GOALS), _tableau),
    StateInvariant("tableau.full-offers", "With the Tableau at its limit, every play (Organize's free one too, "
                   "offered for each card in hand, at either end with any card removed) removes a card first and "
                   "pays and places as the rules say.",
                   (S.MOVEMENT_CARDS, S.AGITATION_AND_GOALS, S.PLAYING_A_CARD),
                   _full_offers, _full_applies),
    StateInvariant("tableau.removal-offers", "A play removes a Tableau card exactly when the Tableau is at its "
                   "limit.", (S.MOVEMENT_CARDS, S.PLAYING_A_CARD), _removal_offers),
)
"""The `tableau.*` invariants, in the order they are checked and listed."""
