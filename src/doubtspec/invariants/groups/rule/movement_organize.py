"""`rule.*` postconditions of Organize (Buying a Card > Organize): the free play from the hand, and the
Market refill the buy leaves."""

from __future__ import annotations

from doubtspec.invariants.derived import at_rest, replace
from doubtspec.invariants.groups.rule.frame import in_supply, sorted_cards
from doubtspec.invariants.groups.rule.movement_play import Table
from doubtspec.invariants.shapes import Invariant, StateInvariant, TransitionInvariant
from doubtspec.model import engine
from doubtspec.model.actions import Action, End, MovementBuy, OrganizePlay, Skip
from doubtspec.model.cards import MarketAction, TokenKind
from doubtspec.model.state import NO_CARD, TOKEN_INDEX, Actor, GameState, Phase, Side
from doubtspec.model.steps import Organize
from doubtspec.rulebook import Section

S = Section


def _organize_play(before: GameState, action: Action, after: GameState) -> str | None:
    """Buying a Card > Organize: a card from the hand played for free at the chosen end, with its Bonuses."""
    if not isinstance(action, OrganizePlay):
        return None
    table = Table.of(before)
    table.place(before, action.card, action.end is End.RIGHT, action.remove)
    problem = table.compare(after, action)
    if problem is not None:
        return problem
    if action.card in after.m_hand or after.m_discard != sorted_cards(table.discard):
        return f"{action} left hand {list(after.m_hand)} and discard {list(after.m_discard)}"
    if any(isinstance(step, Organize) for step in after.pending):
        return f"{action} left another free play of Organize pending: the space gives one"
    return None


def _organize_offers(state: GameState) -> str | None:
    """On each Movement turn, buy the Organize space's card and play a card from the hand (if any) at each end.

    The free play of Organize is offered only after buying that one space's card with a hand to play
    from, which generated games seldom do and the steering rarely follows with a play; giving the
    Movement the Influence the space costs (from the supply) and buying it, every card of the hand
    must be offered, at both ends of a Tableau that holds any card, removing a Tableau card exactly when the
    Tableau is at its limit (Tableau), and
    each end's first free play must do what `rule.organize-play` says. Then the Market the buy's refill
    leaves, also with the Market deck spent (`_organize_refills`); with an empty hand, only that.
    """
    if not at_rest(state) or state.phase is not Phase.MOVEMENT_TURN:
        return None
    spaces = [i for i, space in enumerate(state.cards.market)
              if space.action is MarketAction.ORGANIZE and state.market[i] != NO_CARD]
    if not spaces:
        return None
    space = spaces[0]
    short = max(0, state.cards.market[space].cost + state.market_profit[space] - state.influence)
    if short > in_supply(state, TokenKind.INFLUENCE):
        return None
    # Two Influence to spare after the buy (as far as the supply holds them): the free play must not spend them.
    short += min(2, in_supply(state, TokenKind.INFLUENCE) - short)
    supply = list(state.supply)
    supply[TOKEN_INDEX[TokenKind.INFLUENCE]] -= short
    probe = replace(state, influence=state.influence + short, supply=tuple(supply))
    buy = MovementBuy(space, ())
    if buy not in engine.legal_actions(probe):
        return None
    if not state.m_hand:
        # Nothing to play for free, but the buy still refills the Market before its card is taken.
        return _organize_refills(probe, space)
    bought = engine.apply(probe, buy)
    plays = [a for a in engine.legal_actions(bought) if isinstance(a, OrganizePlay)] if bought.pending else []
    # What is offered, checked before what it does: a play that does the wrong thing correctly is only
    # caught here (the postcondition below follows the action's own choice of a card to remove).
    limit = state.cards.rules.tableau_limit
    full = len(bought.tableau) >= limit
    unoffered = sorted(set(bought.m_hand) - {a.card for a in plays})
    if unoffered:
        return f"after buying the Organize space {space}: no free play of hand cards {unoffered} is offered"
    if bought.tableau:  # Tableau: a card joins either end of a Tableau that holds any
        for end in (End.LEFT, End.RIGHT):
            missing = sorted(set(bought.m_hand) - {a.card for a in plays if a.end is end})
            if missing:
                return (f"after buying the Organize space {space}: no free play of hand cards {missing} at the "
                        f"{end.name.lower()} end of a Tableau of {len(bought.tableau)} cards is offered")
    wrong = next((a for a in plays if (a.remove is not None) is not full), None)
    if wrong is not None:
        return (f"after buying the Organize space {space}: {wrong} is offered with the Tableau at "
                f"{len(bought.tableau)} of {limit} cards: a card is removed exactly when it is full")
    for end in (End.LEFT, End.RIGHT):
        play = next((a for a in plays if a.end is end), None)
        if play is not None:
            message = _organize_play(bought, play, engine.apply(bought, play))
            if message is not None:
                return f"after buying the Organize space {space}: {message}"
    return _organize_refills(probe, space)


def _organize_refills(probe: GameState, space: int) -> str | None:
    """Buy the Organize space's card (the free play declined) and check the Market the refill leaves, with
    another space emptied, with the Market deck as it is, spent into the discards, and spent with them.

    Buying a Card > Organize: the empty spaces are refilled before the space's card is taken, so that
    space stays empty until Pacing, and the price is paid with tokens, the Flight held first, whose spending
    nothing before Pacing gives back (Spending Influence; ruling flight; Pacing, step 3); Movement Cards >
    Discard: a spent Market deck is renewed from the Movement's discards, and nothing refills a space when both
    are spent.
    Generated games never spend the Market deck and seldom hold Flight here, and the refill follows the buy
    over several steps that no postcondition sees at once.
    """
    other = next((i for i, card in enumerate(probe.market)
                  if i != space and card != NO_CARD and not probe.market_profit[i]), None)
    if other is None:
        return None
    # As if the Company had removed the other space's card (it goes to the Movement's discards).
    market = tuple(NO_CARD if i == other else card for i, card in enumerate(probe.market))
    gapped = replace(probe, market=market,
                     m_discard=sorted_cards((*probe.m_discard, probe.market[other])))
    if in_supply(gapped, TokenKind.FLIGHT):
        # One Flight held, so that the buy spends it (Flight pays first: ruling flight) and only Pacing gives
        # it back (Pacing, step 3): generated games seldom hold Flight when they buy the Organize space.
        supply = list(gapped.supply)
        supply[TOKEN_INDEX[TokenKind.FLIGHT]] -= 1
        gapped = replace(gapped, flight=gapped.flight + 1, supply=tuple(supply))
    pooled = sorted_cards(gapped.m_deck + gapped.m_discard)
    for where, base in (("", gapped),
                        (" with the Market deck spent into the discards", replace(
                            gapped, m_deck=(), m_discard=pooled)),
                        (" with the Market deck and the discards spent", replace(
                            gapped, m_deck=(), m_discard=()))):
        message = _organize_refill(base, space)
        if message is not None:
            return f"buying the Organize space {space}{where}: {message}"
    return None


def _organize_refill(before: GameState, space: int) -> str | None:
    """`_organize_refills` for one Market: the buy and its refill followed to the Company's turn, which begins only
    once the refill is drawn and the card taken (at each draw the phase is still the Movement's)."""
    buy = MovementBuy(space, ())
    card = before.market[space]
    state = engine.apply(before, buy)
    if Skip(Side.MOVEMENT) in engine.legal_actions(state):
        state = engine.apply(state, Skip(Side.MOVEMENT))
    deck, discard = len(state.m_deck), len(state.m_discard)  # the free play declined, the refill to come
    while state.outcome is None and state.pending and engine.current_actor(state) is Actor.CHANCE:
        if state.phase is not Phase.MOVEMENT_TURN or state.market[space] != card:
            # Buying a Card: the refill and the card's taking finish the Movement's buy; the Company's turn follows.
            return (f"at a draw of the refill the phase is {state.phase.value} and space {space} holds "
                    f"{state.market[space]}: the refill comes before the card {card} is taken, and the Company's "
                    "turn after both")
        state = engine.apply(state, engine.legal_actions(state)[0])
    # Spending Influence and ruling flight: tokens pay the price, Flight first; the Flight spent comes back only at
    # Pacing.
    cost = before.cards.market[space].cost + before.market_profit[space]
    flight = min(before.flight, cost)
    paid = (before.influence - (cost - flight), before.flight - flight, before.flight_spent + flight)
    if (state.influence, state.flight, state.flight_spent) != paid:
        return (f"the buy and its refill left Influence, Flight and Flight spent at "
                f"{(state.influence, state.flight, state.flight_spent)}; paying {cost} from "
                f"{(before.influence, before.flight, before.flight_spent)} (Flight first) leaves {paid} until Pacing")
    if state.outcome is None and not engine.legal_actions(state):
        return f"left no legal move (next step: {state.pending[0] if state.pending else None})"
    if state.market[space] != NO_CARD:
        return (f"the space was refilled with card {state.market[space]}; the empty spaces are refilled before "
                "its card is taken, so it stays empty")
    if card not in state.m_hand:
        return f"card {card} did not reach the hand {list(state.m_hand)}"
    gaps = [i for i, held in enumerate(before.market) if held == NO_CARD and i != space]
    moved = [i for i, held in enumerate(before.market) if held != NO_CARD and i != space
             and state.market[i] != held]
    if moved:
        return f"the cards of spaces {moved} changed to {[state.market[i] for i in moved]}; only the gaps refill"
    refilled = sum(1 for i in gaps if state.market[i] != NO_CARD)
    wanted = min(len(gaps), deck + discard)
    if refilled != wanted:
        return (f"{refilled} of the {len(gaps)} empty spaces {gaps} were refilled from a Market deck of {deck} and "
                f"{discard} discards; {wanted} are")
    left = (deck - wanted, discard) if wanted <= deck else (deck + discard - wanted, 0)
    if (len(state.m_deck), len(state.m_discard)) != left:
        return (f"the refill left a Market deck of {len(state.m_deck)} and {len(state.m_discard)} discards; drawing "
                f"{wanted} from {deck} (the discards shuffled in only once it is spent) leaves {left[0]} and "
                f"{left[1]}")
    return None


INVARIANTS: tuple[Invariant, ...] = (
    TransitionInvariant("rule.organize-play", "An Organize play puts a card from the hand at the chosen end for free, "
                        "with the Bonuses aligned with the adjacent face-up card.",
                        (S.BUYING_A_CARD, S.PLAYING_A_CARD), _organize_play),
    StateInvariant("rule.organize-offers", "Buying the Organize space's card offers a free play from the hand at "
                   "either end, which does what `rule.organize-play` says; the other empty spaces are refilled, "
                   "from the discards once the Market deck is spent, before the space's card is taken, so it stays "
                   "empty, and the Flight spent on the buy stays spent.",
                   (S.BUYING_A_CARD, S.PLAYING_A_CARD, S.MOVEMENT_CARDS, S.SPENDING_INFLUENCE, S.PACING),
                   _organize_offers),
)
"""The `rule.*` invariants of this module, in the order they are checked and listed."""
