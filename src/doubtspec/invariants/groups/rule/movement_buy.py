"""`rule.*` postconditions of a Movement buy: the price with its Lobbying, the space's Action (the icons it
counts, Refresh), and the card taken into the hand."""

from __future__ import annotations

from doubtspec.invariants.derived import at_rest, hand_limit, legal, replace
from doubtspec.invariants.groups.rule.frame import TURN_START, in_supply, minus, sorted_cards, unchanged_except
from doubtspec.invariants.groups.rule.movement_play import MOVEMENT_TABLE, Table, movement_turn
from doubtspec.invariants.shapes import Invariant, StateInvariant, TransitionInvariant
from doubtspec.model import engine
from doubtspec.model.actions import Action, MovementBuy
from doubtspec.model.cards import MarketAction, TokenKind
from doubtspec.model.legal import choice_actions
from doubtspec.model.state import NO_CARD, TOKEN_INDEX, GameState, Phase
from doubtspec.model.steps import Agitation, Messaging, Organize
from doubtspec.rulebook import Section

S = Section


def _movement_buy(before: GameState, action: Action, after: GameState) -> str | None:
    """Buying a Card: pay the space's cost plus one per Profit on the card; the Profit goes back; the
    space's Action; then the card to the hand."""
    if not isinstance(action, MovementBuy):
        return None
    space = before.cards.market[action.space]
    lobbied = before.market_profit[action.space]
    table = Table.of(before)
    problem = table.pay(before, action.flip, space.cost + lobbied)
    if problem is not None:
        return f"{action}: {problem}"
    returned = in_supply(after, TokenKind.PROFIT) - in_supply(before, TokenKind.PROFIT)
    if returned != lobbied or after.profit != before.profit:
        return f"{action}: the {lobbied} Profit on the card go back to the Company's supply"
    card = before.market[action.space]
    frame = [*MOVEMENT_TABLE, "m_hand", "market", "market_profit", *TURN_START]
    match space.action:
        case MarketAction.REFRESH:
            table.refresh(1)
        case MarketAction.RESEARCH:
            table.gain(TokenKind.INFLUENCE, 2 * table.face_up(before, "research"))
        case MarketAction.MESSAGING | MarketAction.AGITATION:
            # A choice follows, worked with the icons of the cards face up once the payment is made.
            return (table.compare(after, action) or _action_icons(before, action, after, space.action, table)
                    or _card_waits(before, action, after, space.action)
                    or unchanged_except(before, after, (*frame, "m_deck", "m_discard"), action))
        case _:
            # Organize is a choice that follows; here only the payment is done.
            return (table.compare(after, action) or _card_waits(before, action, after, space.action)
                    or unchanged_except(before, after, (*frame, "m_deck", "m_discard"), action))
    problem = table.compare(after, action)
    if problem is not None:
        return problem
    if after.m_hand != sorted_cards((*before.m_hand, card)) or after.market[action.space] != NO_CARD:
        return f"{action}: card {card} goes from space {action.space} to the hand after the Action"
    return unchanged_except(before, after, frame, action)


_CHOICE_STEPS: dict[MarketAction, type[Messaging] | type[Agitation] | type[Organize]] = {
    MarketAction.MESSAGING: Messaging,
    MarketAction.AGITATION: Agitation,
    MarketAction.ORGANIZE: Organize,
}
"""Buying a Card: the spaces whose Action is a choice made after the buy, each with its choice step."""


def _card_waits(before: GameState, action: MovementBuy, after: GameState, kind: MarketAction) -> str | None:
    """Buying a Card: the space's Action is completed in full before its card is taken into the hand, so while the
    Action's choice is pending the card still lies on its space, the hand is as it was, and the Company's turn has
    not begun."""
    step = _CHOICE_STEPS.get(kind)
    if step is None or after.outcome is not None or not after.pending or not isinstance(after.pending[0], step):
        return None
    card = before.market[action.space]
    if after.market[action.space] != card or after.m_hand != before.m_hand:
        return (f"{action}: card {card} is taken from space {action.space} before its {kind.value} Action is "
                "done")
    if after.phase is not before.phase:
        return (f"{action}: the {after.phase.value} phase began before the {kind.value} Action is done; the "
                "Company's turn follows the Movement's action")
    return None


_ICON_STEPS: dict[MarketAction, tuple[str, type[Messaging] | type[Agitation]]] = {
    MarketAction.MESSAGING: ("messaging", Messaging),
    MarketAction.AGITATION: ("agitation", Agitation),
}
"""Buying a Card: the Actions worked with the icons of face-up Tableau cards, each with its icon and its choice step."""


def _action_icons(before: GameState, action: MovementBuy, after: GameState, kind: MarketAction,
                  table: Table) -> str | None:
    """Buying a Card, Messaging and Agitation: the Action counts every icon of its kind on the cards face up after
    the payment (`table`), a card with two icons twice, a face-down card (one just flipped to pay included) never.

    The choice that follows carries that count; a choice with nothing to choose passes by itself, so when none
    is pending the same count must leave nothing to choose either.
    """
    icon, step_type = _ICON_STEPS[kind]
    icons = table.face_up(before, icon)
    head = after.pending[0] if after.pending else None
    if isinstance(head, step_type):
        if head.icons != icons:
            return (f"{action}: the {kind.value} Action counts {head.icons} icons; the cards face up after the "
                    f"payment show {icons}")
        return None
    if after.outcome is None and choice_actions(after, step_type(icons=icons)):
        return (f"{action}: the {kind.value} Action passed with nothing to choose, yet the {icons} icons of the cards "
                "face up after the payment give it choices")
    return None


def _action_icons_offers(state: GameState) -> str | None:
    """On each Movement turn below the hand limit, buy each Messaging and Agitation space with a Tableau that shows
    the Action's icons face up (a card with two of them among them) and face down, paid with tokens and once more
    by flipping a face-up card with the icons.

    Buying a Card: Messaging and Agitation are worked with the icons of face-up Tableau cards, counted icon by icon;
    flipped cards, those flipped to pay for the buy among them, do not act (Cards). Generated games seldom buy these
    spaces with such a Tableau: the Movement's cards off the Tableau (in turn with the round) are laid at its right
    end, the one with the most icons face up and another with the icons face down, and the Movement is given the
    space's price in Influence from the supply. Each buy is checked by `rule.movement-buy`.
    """
    if not movement_turn(state) or len(state.m_hand) >= hand_limit(state):
        return None
    movement = state.game.movement_card
    index = TOKEN_INDEX[TokenKind.INFLUENCE]
    off = sorted({*state.m_deck, *state.m_discard})
    room = state.cards.rules.tableau_limit - len(state.tableau)
    for space, market_card in enumerate(state.market):
        kind = state.cards.market[space].action
        if market_card == NO_CARD or kind not in _ICON_STEPS or room < 2:
            continue
        icon = _ICON_STEPS[kind][0]
        showing = [c for c in off if getattr(movement(c).icons, icon)]
        if len(showing) < 2:
            continue
        most = max(getattr(movement(c).icons, icon) for c in showing)
        strong = [c for c in showing if getattr(movement(c).icons, icon) == most]
        up = strong[state.round % len(strong)]
        rest = [c for c in showing if c != up]
        down = rest[state.round % len(rest)]
        price = state.cards.market[space].cost + state.market_profit[space]
        short = max(0, price - state.influence)
        if short > state.supply[index]:
            continue
        supply = list(state.supply)
        supply[index] -= short
        probe = replace(state, tableau=(*state.tableau, (down, False), (up, True)),
                        m_deck=minus(state.m_deck, (up, down)), m_discard=minus(state.m_discard, (up, down)),
                        influence=state.influence + short, supply=tuple(supply))
        flipped = len(probe.tableau) - 1
        offered = [a for a in engine.legal_actions(probe) if isinstance(a, MovementBuy) and a.space == space
                   and a.flip in ((), (flipped,))]
        for buy in offered:
            message = _movement_buy(probe, buy, engine.apply(probe, buy))
            if message is not None:
                return (f"what if the Tableau were {list(probe.tableau)} with {probe.influence} Influence: "
                        f"{message}")
    return None


def _refresh_offers(state: GameState) -> str | None:
    """On each Movement turn below the hand limit, buy each Refresh space by flipping the leftmost face-up card that
    can pay for it.

    Buying a Card: Refresh turns the leftmost face-down card of the Tableau face up, once the buy is paid for, so a
    card just flipped to pay is refreshed at once when no face-down card lies to its left. Generated games pick a
    Refresh buy paid so only now and then; the buy offered with the leftmost flip (and the fewest cards flipped
    with it) is made as a what-if and checked by `rule.movement-buy`.
    """
    if not movement_turn(state) or len(state.m_hand) >= hand_limit(state):
        return None
    spaces = state.cards.market
    for space, card in enumerate(state.market):
        if card == NO_CARD or spaces[space].action is not MarketAction.REFRESH:
            continue
        flipped = [a for a in legal(state) if isinstance(a, MovementBuy) and a.space == space and a.flip]
        if not flipped:
            continue
        buy = min(flipped, key=lambda a: (min(a.flip), len(a.flip), a.flip))
        message = _movement_buy(state, buy, engine.apply(state, buy))
        if message is not None:
            return f"what if the Movement bought the Refresh space {space} by flipping {list(buy.flip)}: {message}"
    return None


def _lobbied_buy_offers(state: GameState) -> str | None:
    """On each Movement turn below the hand limit, buy each Market card with one, two and three Profit on it.

    Buying a Card: a card costs its space's cost plus one Influence per Profit the Company lobbied onto
    it, and that Profit goes back. Generated games seldom have the Movement buy a lobbied card, so the
    Profit is put on from the supply and the Movement given exactly the price in tokens: the buy paid with
    tokens alone must be offered at the price, not at one less, and do what `rule.movement-buy` says. Two
    Market cards a turn, in turn with the round, so that every space is bought within a few rounds at a
    third of the cost; the hand goes to the discard pile first (a buy does not depend on it, and without it
    the engine lists no plays).

    The price is paid in Influence tokens alone, except for one Profit count a round (in turn with the
    round) where Flight pays all but one Influence of it, as far as the Flight tokens go: under ruling
    flight each Flight token pays one Influence, the Lobbying's included, and games seldom hold Flight
    before a lobbied card. That buy is also made by flipping a face-up card (`_flip_with_flight`).
    """
    if not at_rest(state) or state.phase is not Phase.MOVEMENT_TURN or len(state.m_hand) >= hand_limit(state):
        return None
    state = replace(state, m_hand=(), m_discard=sorted_cards(state.m_discard + state.m_hand))
    profit, influence, flight = (TOKEN_INDEX[k] for k in (TokenKind.PROFIT, TokenKind.INFLUENCE, TokenKind.FLIGHT))
    spaces = [space for space, card in enumerate(state.market) if card != NO_CARD]
    for space in sorted({spaces[(2 * state.round + k) % len(spaces)] for k in range(min(2, len(spaces)))}):
        for lobbied in range(1, 4):
            price = state.cards.market[space].cost + lobbied
            supply = list(state.supply)
            in_flight = 0
            if lobbied == 1 + state.round % 3:
                in_flight = min(price - 1, supply[flight] + state.flight)
            supply[profit] -= lobbied - state.market_profit[space]
            supply[influence] -= price - in_flight - state.influence
            supply[flight] += state.flight - in_flight
            if supply[profit] < 0 or supply[influence] < 0:
                continue
            probe = replace(
                state, market_profit=(*state.market_profit[:space], lobbied, *state.market_profit[space + 1:]),
                influence=price - in_flight, flight=in_flight, supply=tuple(supply))
            tokens = f"{price - in_flight} Influence tokens" + (f" and {in_flight} Flight" if in_flight else "")
            buy = MovementBuy(space, ())
            if buy not in engine.legal_actions(probe):
                return (f"with {lobbied} Profit on space {space} (cost {state.cards.market[space].cost}), buying "
                        f"it with {tokens} is not offered")
            supply[influence] += 1
            short = replace(probe, influence=price - in_flight - 1, supply=tuple(supply))
            if buy in engine.legal_actions(short):
                return (f"with {lobbied} Profit on space {space} (cost {state.cards.market[space].cost}), buying "
                        f"it with one Influence token less than {tokens} is offered")
            message = _movement_buy(probe, buy, engine.apply(probe, buy))
            if message is not None:
                return f"buying space {space} with {lobbied} Profit on it: {message}"
            if in_flight:
                message = _flip_with_flight(probe, space)
                if message is not None:
                    return f"buying space {space} with {lobbied} Profit on it: {message}"
    return None


def _flip_with_flight(probe: GameState, space: int) -> str | None:
    """The Flight-paid buy of `_lobbied_buy_offers` paid by flipping the leftmost face-up card that has Influence
    instead: a single flip is never superfluous and the tokens cover the rest, so it must be offered, and Flight
    pays only the shortfall the card leaves (Spending Influence, ruling flight), never the whole price."""
    position = next((p for p, (card, up) in enumerate(probe.tableau)
                     if up and probe.game.movement_card(card).influence > 0), None)
    if position is None:
        return None
    buy = MovementBuy(space, (position,))
    if buy not in engine.legal_actions(probe):
        return f"flipping Tableau card {position} with {probe.flight} Flight is not offered"
    return _movement_buy(probe, buy, engine.apply(probe, buy))


INVARIANTS: tuple[Invariant, ...] = (
    TransitionInvariant("rule.movement-buy", "A Movement buy pays the space's cost plus its Lobbying, returns the "
                        "Profit, resolves the space's Action (Messaging and Agitation with the icons face up after "
                        "the payment) and takes the card into the hand once the Action is done.",
                        (S.BUYING_A_CARD, S.SPENDING_INFLUENCE), _movement_buy),
    StateInvariant("rule.action-icons-offers", "Buying a Messaging or Agitation space works its Action with every "
                   "icon of its kind on the cards face up once the buy is paid for, and none of the face-down ones.",
                   (S.BUYING_A_CARD, S.MOVEMENT_CARDS), _action_icons_offers, movement_turn),
    StateInvariant("rule.refresh-offers", "Buying a Refresh space by flipping the leftmost face-up card that pays "
                   "for it refreshes the leftmost face-down card once the buy is paid, the card just flipped included.",
                   (S.BUYING_A_CARD, S.SPENDING_INFLUENCE), _refresh_offers, movement_turn),
    StateInvariant("rule.lobbied-buy-offers", "A Market card with one, two or three Profit on it is offered for "
                   "its space's cost plus its Profit in Influence (Flight paying part of it on some turns), not one "
                   "less, and buying it does what `rule.movement-buy` says.",
                   (S.BUYING_A_CARD, S.COMPANY_INTERFERENCE, S.SPENDING_INFLUENCE), _lobbied_buy_offers),
)
"""The `rule.*` invariants of this module, in the order they are checked and listed."""
