"""`rule.setup`: both sides' Set-Up, checked at the Movement's first decision and, for its order, at each of its
steps; `rule.start-offers`: the choice of the starting card; `rule.turn-numbering`: the count of rounds that starts
after it; `rule.first-turn`: who takes the first turn."""

from __future__ import annotations

from doubtspec.invariants.derived import at_rest
from doubtspec.invariants.groups.rule.frame import sorted_cards
from doubtspec.invariants.shapes import Invariant, StateInvariant, TransitionInvariant
from doubtspec.model import engine
from doubtspec.model.actions import Action, ChooseStart
from doubtspec.model.state import NO_CARD, GameState, Phase
from doubtspec.model.steps import ChooseStartingCard, CompanyDraw, DealGoal, FillMarket, GoalSplit
from doubtspec.rulebook import Section

S = Section


def _setup(state: GameState) -> str | None:
    """Company and Movement Set-Up, checked at the Movement's first decision.

    That decision is the only state at rest in the Movement's turn of round 1: the Movement takes one action a
    turn, and every choice it leaves is pending. The state is found by nothing else, so that a Set-Up that
    leaves a card or token in the wrong place cannot hide its first decision from the check.
    """
    if state.phase is Phase.SETUP and state.outcome is None and state.pending:
        return _setup_order(state)
    if not at_rest(state) or state.round != 1 or state.phase is not Phase.MOVEMENT_TURN:
        return None
    cards, rules, display = state.cards, state.cards.rules, state.cards.display
    left = _left_from_setup(state)
    if left:
        return f"Set-Up left {', '.join(left)}; nothing of these is dealt, bought or played before the first turn"
    if sorted_cards(state.c_hand + state.c_deck) != sorted_cards(cards.starting_deck) or len(state.c_hand) != \
            rules.company_hand_size:
        return f"Set-Up dealt the hand {list(state.c_hand)} from the deck {list(state.c_deck)}"
    for i, pile in enumerate(state.piles):
        if pile != tuple(sorted(cards.piles[i].cards, reverse=True)):
            return f"pile {i} was laid out as {list(pile)}; the lowest number goes on top (ruling pile-order)"
    pairs = set(cards.stack_pairs)
    if len(state.stacks) != rules.stacks_dealt or any(len(s) != 2 or (s[0], s[1]) not in pairs or s[1] != s[0] + 1
                                                      for s in state.stacks):
        return f"Set-Up dealt the stacks {list(state.stacks)}: {rules.stacks_dealt} odd/even pairs, the even on top"
    # Company Set-Up 2: the pairs not dealt leave the game; the trash pile holds only cards removed in play.
    dealt = {(s[0], s[1]) for s in state.stacks}
    undealt = sorted(card for pair in cards.stack_pairs if pair not in dealt for card in pair)
    if state.trash or sorted(state.c_removed) != undealt:
        return (f"Set-Up left the trash pile {list(state.trash)} and out of the game {sorted(state.c_removed)}; the "
                f"pairs not dealt ({undealt}) leave the game and the trash pile starts empty")
    if (state.victims != display.setup_victims or state.doubt != display.setup_doubt or state.profit
            or state.stars or state.influence != rules.movement_starting_influence):
        return (f"Set-Up left Victims {list(state.victims)}, Doubt {list(state.doubt)}, Profit {state.profit}, "
                f"stars {state.stars} and Influence {state.influence}")
    if len(state.tableau) != 1:
        return f"the Tableau starts as {list(state.tableau)}: one starting card"
    start, up = state.tableau[0]
    if not up or start not in cards.movement_starting:
        return f"the Tableau starts with {state.tableau[0]}, not a face-up starting card"
    # Movement Set-Up 3: the starting cards not chosen are shuffled into the deck the Market is filled from.
    strays = [c for c in cards.movement_starting if c != start and c not in state.m_deck and c not in state.market]
    if strays:
        return f"the starting cards {strays} not chosen are neither in the Movement's deck nor on the Market"
    if NO_CARD in state.market and state.m_deck:
        return f"Set-Up left Market spaces empty with {len(state.m_deck)} cards in the deck"
    upper = {g for g in state.goals[:6]}
    if NO_CARD in state.goals or not {7, 8, 9} <= upper or len(set(state.goals)) != 9:
        return f"the Goal structure was dealt as {list(state.goals)}: G7-G9 and three others in the first six places"
    return None


_MOVEMENT_SETUP_STEPS = (ChooseStartingCard, GoalSplit, DealGoal, FillMarket)
"""The steps of Movement Set-Up, in its order: the starting card (1), the Goals (2), the Market (3)."""


def _setup_order(state: GameState) -> str | None:
    """Set-Up's steps in the rulebook's order, asked at each of its chance events and choices.

    The first decision shows where Set-Up put everything, not in which order: a Set-Up that deals the same pieces
    in another order leaves the same table. Company Set-Up deals its stacks (step 2) before it draws its hand
    (step 5), and the Movement does not begin its Set-Up until the Company's Market is formed; the Movement then
    chooses its starting card (1), forms its Goals (2) and only then its Market (3). What a step sees of the steps
    before it is what each of those chance events may depend on.
    """
    head = state.pending[0]
    step = type(head).__name__
    dealt = len(state.stacks)
    wanted = state.cards.rules.stacks_dealt
    if isinstance(head, (CompanyDraw, *_MOVEMENT_SETUP_STEPS)) and dealt != wanted:
        return (f"Set-Up's {step} came with {dealt} of the Company's {wanted} stacks dealt; the stacks (Company "
                f"Set-Up 2) come before the first hand, and the Movement's Set-Up waits for the Company's Market")
    if isinstance(head, _MOVEMENT_SETUP_STEPS[1:]) and len(state.tableau) != 1:
        return f"Set-Up's {step} came with the Tableau {list(state.tableau)}; the starting card comes first"
    if isinstance(head, FillMarket) and NO_CARD in state.goals:
        return (f"a Market card is drawn with the Goal structure {list(state.goals)} not yet dealt; the Goals "
                f"(Movement Set-Up 2) are formed before the Market (3)")
    if isinstance(head, (GoalSplit, DealGoal)) and any(card != NO_CARD for card in state.market):
        return (f"the Goals are dealt with the Market {list(state.market)} already drawn; the Goals (Movement Set-Up "
                f"2) are formed before the Market (3)")
    return None


def _left_from_setup(state: GameState) -> list[str]:
    """What the first decision holds that neither side's Set-Up gives it: Movement Set-Up gives the Movement its
    Tableau's card, a Market and two Influence, no hand and no other token; Company Set-Up gives the Company a
    hand and a deck, and nothing in its discard pile, Reserve or play, no ban and no Lobbying."""
    left = [f"{name} {value}" for name, value in (
        ("the Movement's hand", list(state.m_hand)), ("the Movement's discard pile", list(state.m_discard)),
        ("Messaging", state.messaging), ("Agitation", state.agitation), ("Flight", state.flight),
        ("Flight spent", state.flight_spent), ("Goals achieved", list(state.achieved)),
        ("the Company's discard pile", list(state.c_discard)), ("the Reserve", list(state.c_reserve)),
        ("cards in play", list(state.c_in_play)), ("bans", list(state.banned)), ("plays", state.plays),
        ("buys", state.buys), ("a discount", state.discount), ("Reshuffles", state.reshuffles),
    ) if value]
    if any(state.goal_agitation) or any(state.goal_profit) or any(state.market_profit):
        left.append(f"tokens on the Goals ({list(state.goal_agitation)}, {list(state.goal_profit)}) or on the "
                    f"Market ({list(state.market_profit)})")
    return left


def _choosing_start(state: GameState) -> bool:
    """The Movement's choice of its starting card is pending."""
    return state.outcome is None and bool(state.pending) and isinstance(state.pending[0], ChooseStartingCard)


def _start_offers(state: GameState) -> str | None:
    """Movement Set-Up 1: the Tableau may start with any one of the starting cards, and with nothing else. It is
    the Movement's first step: the Company's Set-Up, its hand drawn last, is done, and no Goal or Market card is
    dealt yet (Movement Set-Up 2 and 3 follow)."""
    if not _choosing_start(state):
        return None
    size = min(state.cards.rules.company_hand_size, len(state.c_deck) + len(state.c_hand))
    if len(state.c_hand) != size:
        return (f"the Movement chooses its starting card with the Company holding {len(state.c_hand)} cards; the "
                f"Company's Set-Up, which draws its hand of {size}, comes first")
    dealt = [name for name, places in (("Goals", state.goals), ("Market", state.market))
             if any(card != NO_CARD for card in places)]
    if dealt:
        return (f"the Movement chooses its starting card with the {' and the '.join(dealt)} dealt already; they "
                "follow the choice (Movement Set-Up 2 and 3)")
    offered = sorted(a.card for a in engine.legal_actions(state) if isinstance(a, ChooseStart))
    expected = sorted(state.cards.movement_starting)
    if offered != expected:
        return f"the starting cards offered are {offered}; the card file's are {expected}"
    return None


def _turn_numbering(before: GameState, action: Action, after: GameState) -> str | None:
    """Ruling turn-numbering (round N is the Movement's Nth turn, then the Company's Nth): the round is 0
    through Set-Up and goes up by one as each Movement turn begins, at no other step; an ending names it.

    `rule.setup` and the solver's questions ("by turn N") find their turn by this count, so a count that
    starts one off hides Set-Up from the one and shifts every answer of the other.
    """
    if before.phase is Phase.SETUP and before.round != 0:
        return f"round {before.round} during Set-Up; the first Movement turn is round 1"
    begins = after.phase is Phase.MOVEMENT_TURN and before.phase is not Phase.MOVEMENT_TURN
    if after.round != before.round + begins:
        return (f"{action} took the round from {before.round} to {after.round}"
                f"{' as a Movement turn began' if begins else ' with no Movement turn begun'}")
    if before.outcome is None and after.outcome is not None and after.outcome.round != after.round:
        return f"the game ended in round {after.round}, but its outcome names round {after.outcome.round}"
    return None


def _first_turn(before: GameState, action: Action, after: GameState) -> str | None:
    """Company Set-Up 5 and Movement Set-Up: the Company's opponent moves first, so the step that ends Set-Up
    leaves the Movement to decide its first turn (round 1, nothing pending), never the Company.

    `rule.setup` looks at that first decision only when it comes, and the rounds (`rule.turn-numbering`) count
    Movement turns, so a Set-Up that hands the first turn to the Company breaks neither.
    """
    if before.phase is not Phase.SETUP or after.phase is Phase.SETUP or after.outcome is not None:
        return None
    if after.phase is not Phase.MOVEMENT_TURN or after.pending or after.round != 1:
        return (f"Set-Up ended with {action} in the {after.phase.value} phase, round {after.round}"
                f"{', with ' + type(after.pending[0]).__name__ + ' pending' if after.pending else ''}; the Movement "
                "takes the game's first turn")
    return None


INVARIANTS: tuple[Invariant, ...] = (
    StateInvariant("rule.setup", "Set-Up deals the Company's hand, piles and stacks, the display, the starting "
                   "card, the Market and the Goal structure as the rules say, in their order (the stacks before "
                   "the hand, the Company's before the Movement's, the Goals before the Market), and puts nothing "
                   "anywhere else.",
                   (S.COMPANY_SETUP, S.MOVEMENT_SETUP), _setup),
    StateInvariant("rule.start-offers", "The Movement may start its Tableau with any one of the card file's "
                   "starting cards, and no other card, once the Company's hand is drawn and before any Goal or "
                   "Market card is dealt.", (S.MOVEMENT_SETUP,), _start_offers, _choosing_start),
    TransitionInvariant("rule.turn-numbering", "The round is 0 through Set-Up and goes up by one exactly when a "
                        "Movement turn begins; a game's outcome names the round it ended in.",
                        (S.MOVEMENT_ON_YOUR_GO, S.MOVEMENT_SETUP), _turn_numbering),
    TransitionInvariant("rule.first-turn", "Set-Up ends with the Movement to take the game's first turn (round 1, "
                        "nothing pending); the Company's first turn follows it.",
                        (S.COMPANY_SETUP, S.MOVEMENT_SETUP), _first_turn),
)
"""The `rule.*` invariants of this module, in the order they are checked and listed."""
