"""`rule.chance-offers`: what every chance event may turn up, and how likely each outcome is.

The postconditions check what a chance outcome does once it is drawn; nothing there asks whether the engine drew
from the right cards. A deal that leaves a card out, or always puts some cards first, moves every piece where the
rules say and passes every conservation law, yet changes the games that can happen (a Goal that can never lie in
the first row, a stack that is never dealt). So each chance step's outcomes are worked out here from the state and
the card data alone, never from the engine's own step fields, and compared with what the engine offers.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations

from doubtspec.invariants.shapes import Invariant, StateInvariant
from doubtspec.model import engine
from doubtspec.model.actions import Chance
from doubtspec.model.state import NO_CARD, Actor, GameState
from doubtspec.model.steps import CompanyDraw, DealGoal, DealStack, DrawToHandSize, FillMarket, GoalSplit
from doubtspec.rulebook import Section

S = Section

SPLIT_GOALS = frozenset(range(1, 7))
"""Movement Set-Up 2: G1-G6 are shuffled and split in two."""
SET_ASIDE_GOALS = frozenset({7, 8, 9})
"""Movement Set-Up 2: G7-G9 are set aside, then shuffled into one half of the split."""
FIRST_STACK_PLACES = 6
"""Movement Set-Up 2: the half with G7-G9 (three of G1-G6 and G7-G9) lies on top, so it fills the first six places
of the structure (the row of four and the first two of the row of three) before the other half is dealt."""


def _chance_step(state: GameState) -> bool:
    """A chance event is next (the game not over)."""
    return engine.current_actor(state) is Actor.CHANCE


def _expected(state: GameState) -> tuple[str, Counter[int]] | str | None:
    """What the pending chance step may turn up, as (what it deals, each outcome with the copies it stands for),
    from the state and the card data; a message where the state itself is already wrong; None for a step this
    check does not know."""
    step = state.pending[0]
    match step:
        case CompanyDraw() | DrawToHandSize():
            # On Your Go (Draw Phase) and Company Set-Up 4: the top card of a shuffled deck, any card in it
            return "a card of the Company's deck", Counter(state.c_deck)
        case FillMarket():
            # Movement Set-Up 3, Pacing 2 and Organize: the top card of the shuffled Market deck
            return "a card of the Market deck", Counter(state.m_deck)
        case DealStack():
            # Company Set-Up 2: the odd/even pairs are shuffled and dealt; a stack is any pair not yet dealt
            dealt = {odd for odd, _ in state.stacks}
            return "a stack not yet dealt", Counter(odd for odd, _ in state.cards.stack_pairs if odd not in dealt)
        case GoalSplit():
            # Movement Set-Up 2: which three of G1-G6 end in the half that G7-G9 do not join (any three alike)
            return "a split of G1-G6", Counter(a * 100 + b * 10 + c for a, b, c in combinations(sorted(SPLIT_GOALS), 3))
        case DealGoal(slot=slot):
            placed = tuple(g for g in state.goals if g != NO_CARD)
            if state.goals[:slot] != placed or len(placed) != slot:
                return f"Goal place {slot} is dealt next, but the places dealt are {list(state.goals)}"
            left = set(range(1, 10)) - set(placed)
            if slot >= FIRST_STACK_PLACES:
                return "a Goal of the second half", Counter(left)
            # the first half: G7-G9 not dealt yet, and as many of G1-G6 as the half still holds (which three are
            # in it the split decided, so only the count and G7-G9 are known from the table)
            return "a Goal of the first half", Counter(left & SET_ASIDE_GOALS)
    return None


def _chance_offers(state: GameState) -> str | None:
    """Every chance outcome is as likely as the cards it stands for, and the outcomes are exactly the cards the
    rule deals from (for the Goals' first half: G7-G9 not yet dealt among as many Goals as the half still holds)."""
    if not _chance_step(state):
        return None
    outcomes = engine.chance_outcomes(state)
    first = outcomes[0][1] if outcomes else Fraction(0)
    # one probability for all, which the engine shares as one object: the identity test is the fast path
    if first * len(outcomes) != 1 or not all(p is first or p == first for _, p in outcomes):
        return f"the chance outcomes' probabilities are {[str(p) for _, p in outcomes]}, not equal summing to 1"
    offered = Counter(action.outcome for action, _ in outcomes if isinstance(action, Chance))
    expected = _expected(state)
    if expected is None or isinstance(expected, str):
        return expected
    what, cards = expected
    step = state.pending[0]
    if isinstance(step, DealGoal) and step.slot < FIRST_STACK_PLACES:
        size = FIRST_STACK_PLACES - step.slot
        split = {g for g in offered if g in SPLIT_GOALS}
        dealt = {g for g in state.goals if g != NO_CARD}
        if (sum(offered.values()) != size or max(offered.values(), default=0) > 1 or not cards <= offered
                or split & dealt or len(split) != size - sum(cards.values())):
            return (f"Goal place {step.slot} offers {sorted(offered)}: {what} is one of the {size} Goals the half "
                    f"still holds, G7-G9 not yet dealt ({sorted(cards)}) among them")
        return None
    if offered != cards:
        return f"the chance step offers {sorted(offered.elements())}; {what} is one of {sorted(cards.elements())}"
    return None


INVARIANTS: tuple[Invariant, ...] = (
    StateInvariant("rule.chance-offers", "Every chance event deals from exactly the cards its rule shuffles (the "
                   "deck drawn from, the Market deck, the stacks not yet dealt, the Goals of the half being dealt, "
                   "G7-G9 in the first), each card as likely as any other.",
                   (S.COMPANY_SETUP, S.MOVEMENT_SETUP, S.COMPANY_ON_YOUR_GO, S.RESHUFFLE_AND_DRAW, S.PACING),
                   _chance_offers, _chance_step),
)
"""The `rule.*` invariant of this module."""
