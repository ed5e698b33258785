"""`rule.*` postconditions of Pacing, which follows the Company's Reshuffle Sequence and no other Draw Phase."""

from __future__ import annotations

from doubtspec.invariants.derived import at_rest, replace
from doubtspec.invariants.groups.rule.frame import minus, sorted_cards, unchanged_except
from doubtspec.invariants.groups.rule.movement_play import Table
from doubtspec.invariants.shapes import Invariant, StateInvariant, TransitionInvariant
from doubtspec.model import engine
from doubtspec.model.actions import Action, EndBuy, LobbyOn, LobbyWhere
from doubtspec.model.cards import TokenKind
from doubtspec.model.state import NO_CARD, TOKEN_INDEX, GameState, Phase
from doubtspec.rulebook import Section

S = Section


def _pacing(before: GameState, action: Action, after: GameState) -> str | None:
    """Pacing, after the Company's Reshuffle Sequence: passives (and Refresh passives), the Market's shift, Flight.

    Checked on the step that ends the Company's turn after a Reshuffle (its last draw): it runs step 1
    and the shift of step 2, and stops at the refill's first draw, or, with nothing to refill, runs on
    to step 3 and the Movement's turn.
    """
    if (before.phase is not Phase.COMPANY_DRAW or after.outcome is not None
            or after.phase not in (Phase.PACING, Phase.MOVEMENT_TURN) or not _reshuffled_this_turn(before)):
        return None
    table = Table.of(before)
    influence = messaging = agitation = refreshes = 0
    for card, up in before.tableau:
        if up:
            passive = before.game.movement_card(card).passive
            influence, messaging = influence + passive.influence, messaging + passive.messaging
            agitation, refreshes = agitation + passive.agitation, refreshes + passive.refresh
    for goal in before.achieved:
        passive = before.game.goal(goal).passive
        influence, messaging = influence + passive.influence, messaging + passive.messaging
        agitation += passive.agitation
    table.gain(TokenKind.INFLUENCE, influence)
    table.gain(TokenKind.MESSAGING, messaging)
    table.gain(TokenKind.AGITATION, agitation)
    table.refresh(refreshes)
    if after.phase is Phase.MOVEMENT_TURN:
        table.flight, table.flight_spent = table.flight + table.flight_spent, 0
    problem = table.compare(after, action)
    if problem is not None:
        return f"Pacing: {problem}"
    # Step 2: the cards close up in reading order and keep their Lobbying; the refill draws come later.
    # A Lobby of a reshuffle effect may be the step's action (when step D has nothing left to draw): its Profit
    # goes onto the card before the shift.
    lobbied = list(before.market_profit)
    if isinstance(action, LobbyOn) and action.where is LobbyWhere.MARKET:
        lobbied[action.index] += 1
    held = [(c, p) for c, p in zip(before.market, lobbied, strict=True) if c != NO_CARD]
    shifted = [(c, p) for c, p in zip(after.market, after.market_profit, strict=True)][:len(held)]
    if shifted != held:
        return f"Pacing shifted the Market {list(before.market)} to {list(after.market)}; the cards close up in order"
    return None


def _reshuffled_this_turn(state: GameState) -> bool:
    """Whether the Company's Draw Phase in progress ran the Reshuffle Sequence (Pacing follows it)."""
    return state.phase is Phase.COMPANY_DRAW and _sequence_ran(state)


def _sequence_ran(state: GameState) -> bool:
    """Whether the Company's last Draw Phase (or the one in progress) ran the Reshuffle Sequence.

    Read from the Company's discard pile, not from the engine's pending steps (an engine that forgot
    Pacing would say no): the Sequence shuffles the discards into the deck, while any other Draw
    Phase discards at least the card bought that turn (a turn without a buy is an Economic Defeat).
    """
    return not state.c_discard


def _pacing_refill(before: GameState, action: Action, after: GameState) -> str | None:
    """Pacing: after the Company's Reshuffle Sequence and before the Movement's turn, the Market moves up
    and is refilled and the spent Flight comes back; after any other Draw Phase none of Pacing happens: no
    passive gains or refreshes, no shift, no Flight back, the step that draws the last card changing nothing
    but the Company's deck and hand and the turn (`rule.pacing` checks the passives and the shift on the step
    that starts Pacing).

    Checked on the step that starts the Movement's turn; whether a Sequence ran: `_sequence_ran`.
    """
    if (after.outcome is not None or after.phase is not Phase.MOVEMENT_TURN
            or before.phase not in (Phase.COMPANY_DRAW, Phase.PACING) or after.round != before.round + 1):
        return None
    if not _sequence_ran(after):
        if before.phase is Phase.PACING:
            return "Pacing ran after a Draw Phase without the Reshuffle Sequence"
        if after.market != before.market or after.flight_spent != before.flight_spent:
            return ("a Draw Phase without the Reshuffle Sequence changed the Market or the spent Flight, which "
                    "only Pacing does")
        # Nor do the passives act (step 1): the last card drawn hands the turn over and changes nothing else.
        changed = unchanged_except(before, after, ("c_deck", "c_hand", "phase", "pending", "round"), action)
        if changed is not None:
            return f"a Draw Phase without the Reshuffle Sequence ended as only Pacing may: {changed}"
        return None
    if after.flight_spent:
        return f"after Pacing {after.flight_spent} spent Flight tokens were not reclaimed"
    held = [card for card in after.market if card != NO_CARD]
    empty = len(after.market) - len(held)
    if after.market != tuple(held) + (NO_CARD,) * empty:
        return f"after Pacing the Market {list(after.market)} has an empty space before a card (ruling market-shift)"
    if empty and (after.m_deck or after.m_discard):
        return (f"after Pacing {empty} Market spaces are empty while the Market deck or the discards hold cards "
                "(ruling market-shift)")
    return None


def _first_buy(state: GameState) -> bool:
    """The Company's first buy of a turn (where `rule.pacing-offers` plays its Reshuffle)."""
    return at_rest(state) and state.phase is Phase.COMPANY_BUY and state.buys == 1


def _pacing_offers(state: GameState) -> str | None:
    """At the Company's first buy of a turn, play its Draw Phase through a Reshuffle and the Pacing after it, with
    a Tableau whose first card to be refreshed has a token passive, and the Market deck spent into the discards.

    Pacing step 1 gains the token passives of the cards face up before the Refresh passives flip any
    (`rule.pacing`); step 2 refills the Market, and a spent Market deck is renewed from the Movement's
    discards (Movement Cards > Discard; `rule.pacing-refill`). Generated games reach few Reshuffles, seldom
    with such a Tableau, and never with the Market deck spent: here the Company's deck goes to its
    discards (so the Sequence runs at once), a card with a Refresh passive lies face up and, at the
    Tableau's left end, one with a token passive face down (both taken from the Movement's cards off
    the Market), a Market card without Lobbying goes to the discards as if removed, and the Market deck
    joins them. Each step up to the Movement's turn (first chance outcome and first choice) is checked.
    """
    if not _first_buy(state):
        return None
    probe = _pacing_tableau(state)
    gap = next((i for i, card in enumerate(state.market) if card != NO_CARD and not state.market_profit[i]), None)
    if probe is None or gap is None:
        return None
    market = tuple(NO_CARD if i == gap else card for i, card in enumerate(probe.market))
    probe = replace(probe, m_deck=(), m_discard=sorted_cards((*probe.m_deck, *probe.m_discard, probe.market[gap])),
                    market=market)
    message = _through_pacing(probe)
    if message is not None:
        return (f"what if the Tableau were {list(probe.tableau)} and the Market {list(probe.market)} with the "
                f"Market deck spent into the discards: {message}")
    return _cascade_pacing(state) or _full_market_pacing(state)


def _cascade_pacing(state: GameState) -> str | None:
    """The Reshuffle's Pacing with a Refresh passive face up and, at the Tableau's left end, a second card with a
    Refresh passive face down before a face-down card with a token passive: step 1 counts the Refresh passives
    of the cards face up before any is flipped, so the flipped card's own Refresh flips nothing more this
    Pacing. Two Refresh cards in one Tableau, the second face down, is a rare table in generated games."""
    probe = _pacing_tableau(state, cascade=True)
    if probe is None:
        return None
    message = _through_pacing(probe)
    return None if message is None else f"what if the Tableau were {list(probe.tableau)}: {message}"


def _full_market_pacing(state: GameState) -> str | None:
    """The Reshuffle's Pacing with the Market full (its gaps filled from the Market deck) and a Flight token spent
    (from the supply): Pacing step 3 gives the Flight back whether or not step 2 has a space to refill. A full
    Market at a Reshuffle is rare in generated games (the Movement's buy leaves a space empty until Pacing)."""
    gaps = [i for i, card in enumerate(state.market) if card == NO_CARD]
    flight = TOKEN_INDEX[TokenKind.FLIGHT]
    if len(gaps) > len(state.m_deck) or state.supply[flight] < 1:
        return None
    market, deck = list(state.market), list(state.m_deck)
    for i in gaps:
        market[i] = deck.pop()
    supply = list(state.supply)
    supply[flight] -= 1
    probe = replace(state, market=tuple(market), m_deck=tuple(deck), flight_spent=state.flight_spent + 1,
                    supply=tuple(supply))
    message = _through_pacing(probe)
    return None if message is None else f"what if the Market were full and a Flight token spent: {message}"


def _through_pacing(probe: GameState) -> str | None:
    """`probe`'s Draw Phase and Pacing played to the Movement's turn with the first option at each step, each step
    checked by `rule.pacing` and `rule.pacing-refill`. The Company's deck goes to its discards first, so that the
    Draw Phase runs the Reshuffle Sequence at once under either draw-order ruling."""
    action: Action = EndBuy()
    before = replace(probe, c_deck=(), c_discard=sorted_cards(probe.c_deck + probe.c_discard))
    after = engine.apply(before, action)
    for _ in range(100):
        message = _pacing(before, action, after) or _pacing_refill(before, action, after)
        if message is not None:
            return message
        if after.outcome is not None or (after.phase is Phase.MOVEMENT_TURN and not after.pending):
            return None
        before, action = after, engine.legal_actions(after)[0]
        after = engine.apply(before, action)
    return "the Draw Phase and Pacing did not reach the Movement's turn in 100 steps"


def _pacing_tableau(state: GameState, cascade: bool = False) -> GameState | None:
    """`state` with a card with a Refresh passive face up in the Tableau and, at its left end, one with a token
    passive (and no Refresh passive) face down, all taken from the Movement's cards off the Market (in turn
    with the round); with `cascade`, a second Refresh card face down before the token card. None if it has no
    such cards. Tableau cards beyond the limit go to the discards."""
    movement = state.game.movement_card
    cards = sorted({*state.m_deck, *state.m_discard, *state.m_hand, *(c for c, _ in state.tableau)})
    refreshers = [c for c in cards if movement(c).passive.refresh]
    earners = [c for c in cards if not movement(c).passive.refresh and (
        (p := movement(c).passive).influence or p.messaging or p.agitation)]
    if len(refreshers) < 1 + cascade or not earners:
        return None
    refresher, earner = refreshers[state.round % len(refreshers)], earners[state.round % len(earners)]
    hidden: tuple[int, ...] = (earner,)
    if cascade:
        hidden = (refreshers[(state.round + 1) % len(refreshers)], earner)
    chosen = (*hidden, refresher)
    rest = [(c, up) for c, up in state.tableau if c not in chosen]
    keep = state.cards.rules.tableau_limit - len(chosen)
    tableau = (*((c, False) for c in hidden), *rest[:keep], (refresher, True))
    return replace(
        state, tableau=tableau, m_deck=minus(state.m_deck, chosen), m_hand=minus(state.m_hand, chosen),
        m_discard=sorted_cards((*minus(state.m_discard, chosen), *(c for c, _ in rest[keep:]))))


INVARIANTS: tuple[Invariant, ...] = (
    TransitionInvariant("rule.pacing", "Pacing after a Reshuffle gains the face-up Tableau's and the Goals' "
                        "passives, refreshes, closes up the Market in order and reclaims Flight.",
                        (S.PACING,), _pacing),
    StateInvariant("rule.pacing-offers", "A Reshuffle's Pacing, with a face-down token-passive card first to be "
                   "refreshed and the Market deck spent, gains only the face-up cards' passives before refreshing "
                   "and refills the Market from the discards; with a face-down Refresh card first, flips only what "
                   "the face-up Refresh passives count (`rule.pacing`, `rule.pacing-refill`).",
                   (S.PACING, S.MOVEMENT_CARDS), _pacing_offers, _first_buy),
    TransitionInvariant("rule.pacing-refill", "The Company's Reshuffle Sequence, and only it, is followed by "
                        "Pacing: the Movement's turn starts with the Market moved up and refilled and the spent "
                        "Flight back; after any other Draw Phase it starts with no passive gained, nothing "
                        "refreshed and the Market as it was.", (S.PACING,), _pacing_refill),
)
"""The `rule.*` invariants of this module, in the order they are checked and listed."""
