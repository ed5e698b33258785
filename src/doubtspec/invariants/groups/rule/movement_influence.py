"""`rule.*` checks of Spending Influence: the face-up cards a play or a buy may be paid with by flipping."""

from __future__ import annotations

import functools

from doubtspec.invariants.derived import at_rest, hand_limit, legal, replace
from doubtspec.invariants.shapes import Invariant, StateInvariant
from doubtspec.model import engine
from doubtspec.model.actions import End, MovementBuy, MovementPlay
from doubtspec.model.cards import TokenKind
from doubtspec.model.state import NO_CARD, TOKEN_INDEX, GameState, Phase
from doubtspec.rulebook import Section

S = Section


def _flip_offers(state: GameState) -> str | None:
    """On each Movement turn, ask which buys the engine offers paid by flipping one face-up card.

    Spending Influence: a face-up Tableau card may be flipped for its Influence value, and tokens pay the
    rest. With the Movement's Influence tokens back in the supply (its Flight kept), every Market card
    that the tokens alone cannot pay but one face-up card's value and the tokens can must be offered for
    that one flip (a single flip is never superfluous), while the hand is below its limit.
    """
    if (not at_rest(state) or state.phase is not Phase.MOVEMENT_TURN or len(state.m_hand) >= hand_limit(state)
            or not any(up for _, up in state.tableau)):
        return None
    supply = list(state.supply)
    supply[TOKEN_INDEX[TokenKind.INFLUENCE]] += state.influence
    probe = replace(state, influence=0, supply=tuple(supply))
    offered = {(a.space, a.flip) for a in engine.legal_actions(probe) if isinstance(a, MovementBuy)}
    tokens = probe.flight
    for position, (card, up) in enumerate(probe.tableau):
        value = probe.game.movement_card(card).influence
        if not up or value <= 0:
            continue
        for space, market_card in enumerate(probe.market):
            cost = probe.cards.market[space].cost + probe.market_profit[space]
            if market_card != NO_CARD and tokens < cost <= value + tokens and (space, (position,)) not in offered:
                return (f"with {tokens} Flight and no Influence tokens, buying space {space} (cost {cost}) by "
                        f"flipping Tableau card {position} (value {value}) is not offered")
    return None


def _payments(up: list[tuple[int, int]], cost: int, tokens: int) -> set[tuple[int, ...]]:
    """Spending Influence under ruling influence-payment=shortfall-tokens: the sets of face-up cards
    (position, Influence) that may be flipped for `cost`, tokens (Influence and Flight) paying the shortfall.

    A set is allowed when it has no superfluous card (without its smallest card it would not cover the cost
    by itself) and the tokens cover what it leaves; flipping nothing is allowed when the tokens cover all.
    """
    positions = [p for p, _ in up]
    return {tuple(sorted(positions[i] for i in chosen))
            for chosen in _payment_indices(tuple(v for _, v in up), cost, tokens)}


@functools.lru_cache(maxsize=4096)
def _payment_indices(values: tuple[int, ...], cost: int, tokens: int) -> tuple[tuple[int, ...], ...]:
    """`_payments` by index into `values` (the face-up cards' Influence): a function of the numbers alone,
    kept for the next Tableau with the same values (a full face-up Tableau has 256 subsets to try)."""
    allowed: list[tuple[int, ...]] = []
    for mask in range(1 << len(values)):
        chosen = [i for i in range(len(values)) if mask >> i & 1]
        value = sum(values[i] for i in chosen)
        if chosen and value - min(values[i] for i in chosen) >= cost:
            continue
        if cost - value <= tokens:
            allowed.append(tuple(chosen))
    return tuple(allowed)


def influence_payment_check(state: GameState) -> str | None:
    """On each Movement turn, every play and buy is offered with exactly the flip sets Spending Influence allows.

    Worked out from the Tableau and the card data (`_payments`) for each card in the hand (with each
    removal when the Tableau is full: the removed card cannot pay; at each end of a Tableau that holds any
    card, Playing a Card) and, below the hand limit, each
    Market card at its space's cost plus its Lobbying.
    """
    if not at_rest(state) or state.phase is not Phase.MOVEMENT_TURN:
        return None
    # Playing a Card: a card joins either end of a Tableau that holds any, so each play is asked at each end;
    # into an empty Tableau the two ends are one place, and a play offered at either end counts.
    ends: tuple[End | None, ...] = (End.LEFT, End.RIGHT) if state.tableau else (None,)
    offered: dict[tuple[str, int, int | None, End | None], set[tuple[int, ...]]] = {}
    for action in legal(state):
        if isinstance(action, MovementPlay):
            end = action.end if state.tableau else None
            offered.setdefault(("play", action.card, action.remove, end), set()).add(tuple(sorted(action.flip)))
        elif isinstance(action, MovementBuy):
            offered.setdefault(("buy", action.space, None, None), set()).add(tuple(sorted(action.flip)))
    tokens = state.influence + state.flight
    full = len(state.tableau) >= state.cards.rules.tableau_limit
    wanted: list[tuple[tuple[str, int, int | None, End | None], int, int | None]] = []
    for card in state.m_hand:
        removals: list[int | None] = list(range(len(state.tableau))) if full else [None]
        wanted.extend((("play", card, r, end), state.game.movement_card(card).influence, r)
                      for r in removals for end in ends)
    if len(state.m_hand) < hand_limit(state):
        wanted.extend((("buy", space, None, None), state.cards.market[space].cost + state.market_profit[space], None)
                      for space, card in enumerate(state.market) if card != NO_CARD)
    known: dict[tuple[int, int | None], set[tuple[int, ...]]] = {}
    for key, cost, removed in wanted:
        if (cost, removed) not in known:
            up = [(pos, state.game.movement_card(c).influence) for pos, (c, face) in enumerate(state.tableau)
                  if face and pos != removed]
            known[cost, removed] = _payments(up, cost, tokens)
        expected, got = known[cost, removed], offered.get(key, set())
        if got != expected:
            what = f"playing card {key[1]}" if key[0] == "play" else f"buying space {key[1]}"
            tail = "" if removed is None else f" (removing Tableau card {removed})"
            if key[3] is not None:
                tail += f" at the {key[3].name.lower()} end"
            extra, missing = sorted(got - expected), sorted(expected - got)
            return (f"{what}{tail} at cost {cost} with {tokens} tokens: flips {[list(f) for f in extra]} offered "
                    f"and {[list(f) for f in missing]} not, against Spending Influence (none superfluous)")
    # Nothing else: a card not in the hand, a removal below the limit, an empty space, a buy at the hand limit.
    stray = sorted(set(offered) - {key for key, _, _ in wanted}, key=repr)
    if stray:
        kind, which, removed, end = stray[0]
        noun = "card" if kind == "play" else "space"
        return (f"{kind} of {noun} {which} offered (removal {removed}, end {end}), "
                "which no play or buy of the hand, Tableau and Market allows")
    return None


INVARIANTS: tuple[Invariant, ...] = (
    StateInvariant("rule.flip-offers", "A Market card the Movement's tokens cannot pay is offered for one flipped "
                   "face-up card whose Influence covers the rest.", (S.SPENDING_INFLUENCE, S.BUYING_A_CARD),
                   _flip_offers),
    StateInvariant("rule.influence-payment-offers", "Every Movement play (at either end of a Tableau that holds "
                   "any card) and buy is offered with exactly the sets of face-up cards to flip that have no "
                   "superfluous card and leave tokens enough for the rest.",
                   (S.SPENDING_INFLUENCE, S.PLAYING_A_CARD, S.BUYING_A_CARD), influence_payment_check),
)
"""The `rule.*` invariants of this module, in the order they are checked and listed."""
