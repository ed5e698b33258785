"""How promising a state is for each query: the score the witness hunt ranks a round's states by.

A score only orders states of the same round within one hunt; it needs no units and no proof,
only a direction. Each adds up what the target is made of: stars and the Profit the display will
score for the Company; Goal points, Agitation and the Goals in the way for the Movement.
"""

from __future__ import annotations

from doubtspec.model.movement import COVERED_BY, face_up_icons
from doubtspec.model.state import NO_CARD, GameState
from doubtspec.solver.hunt import Progress

# Profit per Victim still to be scored, by Zone (Children, Adults, Middle Age, Elderly): what the
# Scoring Demographics step pays for it over the Reshuffles to come, less the Victims it removes.
_ZONE_WORTH = (2.0, 1.5, 1.0, 1.0)


def _display_worth(state: GameState) -> float:
    return sum(w * v for w, v in zip(_ZONE_WORTH, state.victims, strict=False))


def _deck_quality(state: GameState) -> float:
    budget = state.game.budget
    cards = state.c_deck + state.c_hand + state.c_discard
    return sum(budget[c] for c in cards) / max(1, len(cards))


def stars(state: GameState) -> float:
    return 100.0 * state.stars + _display_worth(state) + 3.0 * _deck_quality(state) + 0.1 * state.profit


def profit(state: GameState) -> float:
    return 2.0 * state.profit + _display_worth(state) + 3.0 * _deck_quality(state)


def defeat(state: GameState) -> float:
    budget = state.game.budget
    return -float(sum(budget[c] for c in state.c_hand)) - 0.1 * len(state.c_deck)


def movement_strength(state: GameState) -> float:
    """What the Movement holds towards its next Goals: Agitation, face-up icons, Influence, cards."""
    icons = face_up_icons(state.game, state.tableau)
    return (state.agitation + 2.0 * icons.agitation + 0.5 * state.influence + 0.3 * icons.research
            + 0.2 * len(state.tableau) + 0.2 * len(state.m_hand))


def movement_win(state: GameState) -> float:
    return 20.0 * state.points() + movement_strength(state)


def _blockers(goals: tuple[int, ...], place: int) -> int:
    """Goals still lying over `place`, directly or through the Goals that cover them."""
    above = {c for c in COVERED_BY[place] if goals[c] != NO_CARD}
    frontier = list(above)
    while frontier:
        for c in COVERED_BY[frontier.pop()]:
            if goals[c] != NO_CARD and c not in above:
                above.add(c)
                frontier.append(c)
    return len(above)


def goal(number: int) -> Progress:
    def score(state: GameState) -> float:
        if number in state.achieved:
            return 1e6
        if number not in state.goals:
            return -1e6
        place = state.goals.index(number)
        return (-10.0 * _blockers(state.goals, place) + 3.0 * state.goal_agitation[place]
                + 5.0 * len(state.achieved) + movement_strength(state))
    return score

