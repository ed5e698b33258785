"""The `hand` invariants.

Hand sizes: the Company's full hand at the start of its turn, Marginalization, the Movement's hand limit.
"""

from __future__ import annotations

from doubtspec.invariants.derived import (
    at_rest,
    from_card_data,
    hand_limit,
    replace,
)
from doubtspec.invariants.groups.liveness import over
from doubtspec.invariants.shapes import (
    Invariant,
    StateInvariant,
)
from doubtspec.model import engine
from doubtspec.model.actions import EndBuy, MovementBuy
from doubtspec.model.cards import DrawCards, HandSize, TokenKind
from doubtspec.model.state import NO_CARD, TOKEN_INDEX, GameState, OutcomeReason, Phase
from doubtspec.rulebook import Section

S = Section


def _company_hand(state: GameState) -> str | None:
    """The hand size at the start of each turn; more only by what the Reserve's reshuffle effects may draw in step C
    (ruling reshuffle-draw: step D draws only up to the hand size, and the cards drawn before it stay)."""
    if at_rest(state) and state.phase is Phase.COMPANY_PLAY and state.plays == 0:
        size = state.cards.rules.company_hand_size
        extra = _reshuffle_draws(state)
        if not size <= len(state.c_hand) <= size + extra:
            allowed = f"{size} to {size + extra}" if extra else f"{size}"
            return f"the Company's turn starts with {len(state.c_hand)} cards in hand, not {allowed}"
    return None


@from_card_data
def _reshuffle_draws(state: GameState) -> int:
    """The most cards the Reserve's reshuffle effects can draw in one Sequence: every such card's draws."""
    return sum(e.count for card in state.cards.company.values() if card.reserve is not None
               for e in card.reserve.on_reshuffle if isinstance(e, DrawCards))


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


def _movement_buy_offers(state: GameState) -> str | None:
    """On each Movement turn, ask which Market cards may be bought with a hand one below its limit and a full one.

    Cards reach the Movement's hand only by buying, so a rule that refuses buys below the limit keeps
    the hand small and breaks no limit; with the hand cut or filled (cards moved between the hand, the
    discard pile and the Market deck) and the Influence each space costs given from the supply, the engine must offer
    every Market card for sale without flipping below the limit (Movement Cards: the hand limit), and
    none at it.

    The same is asked with every hand-size Goal achieved as well (`_hand_goals_achieved`): each raises the limit by
    one, so the limit is the base plus their number.
    """
    if state.outcome is not None or state.pending or state.phase is not Phase.MOVEMENT_TURN:
        return None
    message = _buy_offers_at_limit(state)
    widened = _hand_goals_achieved(state)
    if message is None and widened is not None:
        message = _buy_offers_at_limit(widened)
        if message is not None:
            message = f"with every hand-size Goal achieved ({list(widened.achieved)}): {message}"
    return message


def _hand_goals_achieved(state: GameState) -> GameState | None:
    """`state` with every Goal that raises the hand size achieved (taken from the structure, the Profit and
    Agitation on it back to the supply); None when they are all achieved already.

    Movement Cards: each such Goal raises the limit by one, so with two of them the hand holds five; generated
    games seldom achieve both before the game ends.
    """
    wanted = [slot for slot, goal in enumerate(state.goals)
              if goal != NO_CARD and any(isinstance(e, HandSize) for e in state.game.goal(goal).effects)]
    if not wanted:
        return None
    supply = list(state.supply)
    supply[TOKEN_INDEX[TokenKind.PROFIT]] += sum(state.goal_profit[s] for s in wanted)
    supply[TOKEN_INDEX[TokenKind.AGITATION]] += sum(state.goal_agitation[s] for s in wanted)
    return replace(state, goals=tuple(NO_CARD if s in wanted else g for s, g in enumerate(state.goals)),
                   goal_profit=tuple(0 if s in wanted else p for s, p in enumerate(state.goal_profit)),
                   goal_agitation=tuple(0 if s in wanted else a for s, a in enumerate(state.goal_agitation)),
                   achieved=(*state.achieved, *(state.goals[s] for s in wanted)), supply=tuple(supply))


def _buy_offers_at_limit(state: GameState) -> str | None:
    """`_movement_buy_offers` for one state: the buys offered one below the hand limit and at it."""
    limit = hand_limit(state)
    cards = tuple(sorted(state.m_hand + state.m_discard + state.m_deck))
    if len(cards) < limit or limit < 1:
        return None
    spaces = [i for i, card in enumerate(state.market) if card != NO_CARD]
    price = max((state.cards.market[i].cost + state.market_profit[i] for i in spaces), default=0)
    short = max(0, price - state.influence)
    if short > state.supply_of(TokenKind.INFLUENCE):
        return None
    supply = list(state.supply)
    supply[TOKEN_INDEX[TokenKind.INFLUENCE]] -= short
    for held in (limit - 1, limit):
        # The hand's own cards first, then the discard pile's, then the Market deck's: the probe differs from
        # the state as little as it can, and each card leaves for the hand from where it was.
        ordered = sorted(cards, key=lambda c: (c not in state.m_hand, c not in state.m_discard, c))
        hand = tuple(sorted(ordered[:held]))
        probe = replace(state, m_hand=hand,
                        m_discard=tuple(c for c in state.m_discard if c not in hand),
                        m_deck=tuple(c for c in state.m_deck if c not in hand),
                        influence=state.influence + short, supply=tuple(supply))
        offered = {a.space for a in engine.legal_actions(probe) if isinstance(a, MovementBuy) and not a.flip}
        expected = set(spaces) if held < limit else set()
        if offered != expected:
            return (f"with {held} cards in hand (limit {limit}) and {probe.influence} Influence, the engine offers "
                    f"to buy from spaces {sorted(offered)} without flipping; expected {sorted(expected)}")
    return None


def _marginalization_offers(state: GameState) -> str | None:
    """Before a Draw Phase that triggers a Reshuffle, leave too few cards to refill the hand and play it out.

    Marginalization needs a deck thinned by trashing, which generated games rarely do; putting all but
    four of the Company's deck, discard pile and hand out of the game, and then all but five, and
    playing the Reshuffle to its end (first chance outcome each time) checks both sides of the rule, and
    that a game it ends is over (`liveness.over`).
    """
    if (not at_rest(state) or state.phase is not Phase.COMPANY_BUY or not state.buys
            or len(state.c_deck) >= state.cards.rules.company_hand_size):
        return None
    size = state.cards.rules.company_hand_size
    cards = tuple(sorted(state.c_deck + state.c_discard + state.c_hand))
    for keep, marginalized in ((size - 1, True), (size, False)):
        if len(cards) < keep:
            continue
        probe = replace(state, c_deck=(), c_hand=(), c_discard=cards[:keep],
                        c_removed=tuple(sorted(state.c_removed + cards[keep:])))
        probe = engine.apply(probe, EndBuy())
        while probe.outcome is None and probe.phase is Phase.COMPANY_DRAW:
            probe = engine.apply(probe, engine.legal_actions(probe)[0])
        ended = probe.outcome.reason if probe.outcome is not None else None
        if ended is not None and (unfinished := over(probe)) is not None:
            return f"a Reshuffle with {keep} cards left to draw from: {unfinished}"
        if ended is OutcomeReason.STAR_VICTORY or ended is OutcomeReason.PROFIT_VICTORY:
            continue  # decided earlier in the same Sequence
        if (ended is OutcomeReason.MARGINALIZATION) is not marginalized:
            return (f"a Reshuffle with {keep} cards left to draw from (the hand holds {size}) ended in "
                    f"{ended.value if ended is not None else 'no outcome'}")
    return None


INVARIANTS: tuple[Invariant, ...] = (
    StateInvariant("hand.company", "The Company starts each turn with a full hand (five cards; more only by what "
                   "reshuffle effects drew in step C).",
                   (S.COMPANY_SETUP, S.COMPANY_ON_YOUR_GO, S.RESHUFFLE_AND_DRAW), _company_hand),
    StateInvariant("hand.marginalization",
                   "Marginalization ends the game only when a Reshuffle left too few cards to refill the hand.",
                   (S.COMPANY_RULES, S.RESHUFFLE_AND_DRAW), _marginalization),
    StateInvariant("hand.movement", "The Movement's hand never exceeds three plus its hand-size Goals.",
                   (S.MOVEMENT_CARDS, S.AGITATION_AND_GOALS), _movement_hand),
    StateInvariant("hand.movement-buy-offers", "Below its hand limit the Movement may buy any Market card it can "
                   "pay for; at the limit, none.", (S.MOVEMENT_CARDS, S.BUYING_A_CARD), _movement_buy_offers),
    StateInvariant("hand.marginalization-offers",
                   "A Reshuffle that leaves fewer cards than the hand size ends in Marginalization; one that leaves "
                   "enough does not.", (S.COMPANY_RULES, S.RESHUFFLE_AND_DRAW), _marginalization_offers),
)
"""The `hand.*` invariants, in the order they are checked and listed."""
