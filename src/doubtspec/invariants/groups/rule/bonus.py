"""`rule.refresh-bonus-offers`: a Refresh Bonus turns a card face up and triggers nothing more.

Playing a Card: the new card takes the Bonuses aligned with the nearest face-up card, and a Refresh Bonus turns
the leftmost face-down card face up without triggering another Bonus. When that card lies between the new card
and the neighbour, it is the new card's nearest face-up card once turned, and a misreading of "cannot trigger
another Bonus" as "cannot trigger another Refresh" pays its aligned Bonuses too. `rule.movement-play` checks every
play, but generated games need three things at once for this: a Refresh aligned with the neighbour, the leftmost
face-down card between the two, and that card's facing edge sharing another kind with the new card (about one
game in a hundred). So the situation is built on each Movement turn.
"""

from __future__ import annotations

from doubtspec.invariants.derived import at_rest, replace
from doubtspec.invariants.groups.rule.frame import sorted_cards
from doubtspec.invariants.groups.rule.movement_play import movement_play_check
from doubtspec.invariants.shapes import Invariant, StateInvariant
from doubtspec.model import engine
from doubtspec.model.actions import End, MovementPlay
from doubtspec.model.cards import BonusKind, TokenKind
from doubtspec.model.state import TOKEN_INDEX, GameState, Phase
from doubtspec.rulebook import Section

S = Section


def _movement_turn_with_hand(state: GameState) -> bool:
    """The Movement's turn, nothing pending, a card in hand."""
    return at_rest(state) and state.phase is Phase.MOVEMENT_TURN and bool(state.m_hand)


def _facing(state: GameState, card: int, right: bool) -> tuple[BonusKind, ...]:
    """The edge of a Tableau card that faces a card played at the right end (its right edge) or the left."""
    data = state.game.movement_card(card)
    return data.right if right else data.left


def _probe(state: GameState, card: int, right: bool) -> tuple[GameState, MovementPlay] | None:
    """The Tableau rebuilt as the neighbour (face up, its facing edge with a Refresh) and, between it and the end
    `card` is played at, the one face-down card (its facing edge sharing a kind other than Refresh with `card`),
    both taken from the Market deck or discards, the old Tableau discarded; the Movement holding exactly the
    Influence tokens `card` costs (its Flight kept), so the play needs no flip. None when no such pair of cards
    is to be had."""
    data = state.game.movement_card(card)
    edge = data.left if right else data.right
    if BonusKind.REFRESH not in edge:
        return None
    others = set(edge) - {BonusKind.REFRESH}
    spare = sorted_cards(state.m_deck + state.m_discard)
    neighbour = next((c for c in spare if BonusKind.REFRESH in _facing(state, c, right)), None)
    between = next((c for c in spare if c != neighbour and others & set(_facing(state, c, right))), None)
    if neighbour is None or between is None:
        return None
    tableau = ((neighbour, True), (between, False)) if right else ((between, False), (neighbour, True))
    deck, discard = list(state.m_deck), list(state.m_discard) + [c for c, _ in state.tableau]
    for used in (neighbour, between):
        (deck if used in deck else discard).remove(used)
    supply = list(state.supply)
    influence = TOKEN_INDEX[TokenKind.INFLUENCE]
    supply[influence] += state.influence - data.influence
    if supply[influence] < 0:
        return None
    probe = replace(state, tableau=tableau, m_deck=tuple(deck), m_discard=sorted_cards(discard),
                    influence=data.influence, supply=tuple(supply))
    return probe, MovementPlay(card, (), End.RIGHT if right else End.LEFT)


def _refresh_bonus_offers(state: GameState) -> str | None:
    """On each Movement turn, each card in hand with a Refresh on an edge is played (as a what-if) at that end of a
    Tableau whose neighbour aligns a Refresh with it and whose only face-down card lies between the two, its facing
    edge sharing another Bonus with the new card; the play is checked by `rule.movement-play`."""
    if not _movement_turn_with_hand(state):
        return None
    for card in dict.fromkeys(state.m_hand):
        for right in (True, False):
            built = _probe(state, card, right)
            if built is None:
                continue
            probe, action = built
            if action not in engine.legal_actions(probe):
                return f"with exactly its {probe.influence} Influence in tokens, {action} is not offered"
            message = movement_play_check(probe, action, engine.apply(probe, action))
            if message is not None:
                shown = " ".join(f"{c}{'U' if up else 'D'}" for c, up in probe.tableau)
                return f"what if {action} were played onto the Tableau {shown} (U face up): {message}"
    return None


INVARIANTS: tuple[Invariant, ...] = (
    StateInvariant("rule.refresh-bonus-offers", "A Refresh Bonus that turns up the face-down card between a new card "
                   "and its neighbour triggers none of that card's Bonuses: the play does what `rule.movement-play` "
                   "says.", (S.PLAYING_A_CARD,), _refresh_bonus_offers, _movement_turn_with_hand),
)
"""The `rule.*` invariant of this module."""
