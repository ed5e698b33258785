"""The `reject` invariants.

Probes: illegal actions built for the current state, which the engine must reject untouched (the
machine draws one a step); and checks that try every such action of a kind, or of a changed state.
"""

from __future__ import annotations

from collections.abc import Callable

from doubtspec.errors import IllegalActionError
from doubtspec.invariants.derived import (
    at_rest,
    budget_of,
    buy_costs,
    card_kind,
    hand_limit,
    loopholes,
    replace,
)
from doubtspec.invariants.shapes import (
    Invariant,
    ProbeInvariant,
    StateInvariant,
)
from doubtspec.model import engine
from doubtspec.model.actions import (
    Action,
    Buy,
    BuySource,
    Chance,
    EndBuy,
    EndPlay,
    MovementBuy,
    Pass,
    PlayReserve,
    PlayStandard,
    Skip,
)
from doubtspec.model.state import NO_CARD, STATE_FIELDS, Actor, GameState, Phase, Side
from doubtspec.rulebook import Section

S = Section


def _rejected(state: GameState, action: Action) -> tuple[str | None, IllegalActionError | None]:
    snapshot = tuple(getattr(state, name) for name in STATE_FIELDS)
    try:
        engine.play(state, action)
    except IllegalActionError as error:
        if tuple(getattr(state, name) for name in STATE_FIELDS) != snapshot:
            return f"rejecting {action} changed the state", error
        return None, error
    return f"the engine accepted the illegal action {action} ({state.summary()})", None


def _rejects_citing(expected: dict[type, Section]) -> Callable[[GameState, Action], str | None]:
    """A probe check: the action is rejected, the state untouched, and the error names the rule that forbids it
    (`expected`, by the kind of action)."""

    def check(state: GameState, action: Action) -> str | None:
        message, error = _rejected(state, action)
        wanted = expected.get(type(action))
        if message is None and error is not None and wanted is not None and error.rule != wanted.value:
            return (f"{action} was rejected citing [{error.rule}] ({error.reason}); the rule that forbids it is "
                    f"{wanted.value}")
        return message

    return check


def _banned_candidates(state: GameState) -> list[Action]:
    if not at_rest(state) or state.phase is not Phase.COMPANY_PLAY or not state.banned:
        return []
    has_loopholes = loopholes(state)
    actions: list[Action] = []
    for card in state.c_hand:
        data = state.game.company_card(card)
        if data.kind not in state.banned:
            continue
        others = tuple(c for c in state.c_hand if c != card)
        if data.standard is not None and not has_loopholes:
            actions.append(PlayStandard(card, others if data.standard.cost else ()))
        if data.reserve is not None:
            actions.append(PlayReserve(card, others if data.reserve.cost else ()))
    return actions


def _banned_offers(state: GameState) -> str | None:
    """At the start of each Play Phase, ban each kind in the hand in turn and play its cards.

    Bans come from Goals, which generated games achieve late, so `reject.banned` seldom meets a banned
    card in hand; under each ban the checked `play` must refuse every card of the kind (a standard play
    only without Loopholes in the Reserve), leave the state untouched and name the ban.
    """
    if not at_rest(state) or state.phase is not Phase.COMPANY_PLAY or state.plays or not state.c_hand:
        return None
    check = _rejects_citing({PlayStandard: S.COMPANY_INTERFERENCE, PlayReserve: S.COMPANY_INTERFERENCE})
    for kind in sorted({card_kind(state, c) for c in state.c_hand} - set(state.banned)):
        probe = replace(state, banned=tuple(sorted((*state.banned, kind))))
        for action in _banned_candidates(probe):
            message = check(probe, action)
            if message is not None:
                return f"with {kind} banned: {message}"
    return None


def _full_hand_candidates(state: GameState) -> list[Action]:
    if not at_rest(state) or state.phase is not Phase.MOVEMENT_TURN or len(state.m_hand) < hand_limit(state):
        return []
    flip = tuple(i for i, (_, up) in enumerate(state.tableau) if up)
    return [MovementBuy(space, flip) for space, card in enumerate(state.market) if card != NO_CARD]


def _unaffordable_candidates(state: GameState) -> list[Action]:
    if not at_rest(state):
        return []
    if state.phase is Phase.COMPANY_BUY:
        total = budget_of(state, state.c_hand)
        return [Buy(source, index, state.c_hand) for source, index, cost in buy_costs(state) if cost > total]
    if state.phase is Phase.MOVEMENT_TURN and len(state.m_hand) < hand_limit(state):
        flip = tuple(i for i, (_, up) in enumerate(state.tableau) if up)
        means = state.influence + state.flight + sum(state.game.movement_card(state.tableau[i][0]).influence
                                                     for i in flip)
        return [MovementBuy(space, flip) for space, card in enumerate(state.market)
                if card != NO_CARD and state.cards.market[space].cost + state.market_profit[space] > means]
    return []


def _empty_space_rejected(state: GameState) -> str | None:
    """On each Movement turn below the hand limit, buy each empty Market space and the two spaces past the last.

    Each must be rejected, the state untouched, naming Buying a Card (there is no card to pay for). A
    check of its own rather than a probe the machine draws, so that adding it left the generated games
    as they were.
    """
    if not at_rest(state) or state.phase is not Phase.MOVEMENT_TURN or len(state.m_hand) >= hand_limit(state):
        return None
    check = _rejects_citing({MovementBuy: S.BUYING_A_CARD})
    spaces = [space for space, card in enumerate(state.market) if card == NO_CARD]
    for space in (*spaces, len(state.market), len(state.market) + 1):
        # An engine that raises instead of rejecting is reported by the machine as this check raising.
        message = check(state, MovementBuy(space, ()))
        if message is not None:
            return message
    return None


def _wrong_phase_applies(state: GameState) -> bool:
    """The Company's first state of its Play Phase and of its Buy Phase, at rest."""
    if not at_rest(state):
        return False
    return ((state.phase is Phase.COMPANY_PLAY and not state.plays)
            or (state.phase is Phase.COMPANY_BUY and not state.buys))


def _wrong_phase_rejected(state: GameState) -> str | None:
    """At the start of the Company's Play Phase, buy from each source and end the Buy Phase; at the start of its
    Buy Phase, play each card in hand (both sides, paid with the rest of the hand) and end the Play Phase.

    Each must be rejected, the state untouched, naming the Company's On Your Go (which orders the phases), not the
    rule the action would break in its own phase (its payment, the card's side): an engine that checks the payment
    before the phase names the wrong rule, and one that forgets the phase accepts the action."""
    if not _wrong_phase_applies(state):
        return None
    check = _rejects_citing(dict.fromkeys((Buy, EndBuy, PlayStandard, PlayReserve, EndPlay), S.COMPANY_ON_YOUR_GO))
    actions: list[Action]
    if state.phase is Phase.COMPANY_PLAY:
        actions = [*(Buy(source, 0, state.c_hand) for source in BuySource), EndBuy()]
    else:
        actions = [EndPlay()]
        for card in state.c_hand:
            others = tuple(c for c in state.c_hand if c != card)
            actions += [PlayStandard(card, others), PlayReserve(card, others)]
    for action in actions:
        message = check(state, action)
        if message is not None:
            return f"in the {state.phase.value} phase: {message}"
    return None


def _unpaid_play_applies(state: GameState) -> bool:
    """The Company's first state of its Play Phase, at rest, with a card in hand."""
    return at_rest(state) and state.phase is Phase.COMPANY_PLAY and not state.plays and bool(state.c_hand)


def _unpaid_play_rejected(state: GameState) -> str | None:
    """At the start of the Company's Play Phase, play each side of each card in hand that has a cost, paying nothing.

    The card is not banned (a banned card is `reject.banned`'s), so what forbids the play is its payment: each must
    be rejected, the state untouched, naming Spending Budget. An engine that tells a ban from a payment wrongly
    blames the ban for every play it refuses, and the probes, which play banned cards, never see it."""
    if not _unpaid_play_applies(state):
        return None
    check = _rejects_citing(dict.fromkeys((PlayStandard, PlayReserve), S.SPENDING_BUDGET))
    for card in state.c_hand:
        data = state.game.company_card(card)
        if data.kind in state.banned:
            continue
        actions: list[Action] = []
        if data.standard is not None and data.standard.cost > 0:
            actions.append(PlayStandard(card, ()))
        if data.reserve is not None and data.reserve.cost > 0:
            actions.append(PlayReserve(card, ()))
        for action in actions:
            message = check(state, action)
            if message is not None:
                return f"paying nothing: {message}"
    return None


def _out_of_turn_candidates(state: GameState) -> list[Action]:
    actor = engine.current_actor(state)
    match actor:
        case Actor.COMPANY:
            return [Pass(), Skip(Side.MOVEMENT), Chance(1)]
        case Actor.MOVEMENT:
            return [EndPlay(), EndBuy(), Skip(Side.COMPANY)]
        case Actor.CHANCE:
            return [EndPlay(), Pass()]
        case Actor.TERMINAL:
            return [Pass(), EndPlay(), Chance(1)]
    return []


_TURN_RULE = {Actor.COMPANY: S.COMPANY_ON_YOUR_GO, Actor.MOVEMENT: S.MOVEMENT_ON_YOUR_GO}
"""The rule an action out of turn breaks, by the side whose turn it is: that side's On Your Go."""


def _rejects_out_of_turn(state: GameState, action: Action) -> str | None:
    """The action is rejected, the state untouched, and (when a side is to act) the error names that
    side's turn, whatever the action is: the turn is the first reason, not the action's own rules."""
    message, error = _rejected(state, action)
    actor = engine.current_actor(state)
    wanted = _TURN_RULE.get(actor)
    if message is None and error is not None and wanted is not None:
        if error.rule != wanted.value:
            return (f"{action} out of turn was rejected citing [{error.rule}] ({error.reason}); the rule that "
                    f"forbids it is {wanted.value}")
        if f"{actor.value}'s turn" not in error.reason:
            # The right rule for another reason (a fallback's "not among the legal actions") tells the player nothing.
            return (f"{action} out of turn was rejected citing [{error.rule}] with the reason {error.reason!r}, "
                    f"which does not say that it is the {actor.value}'s turn")
    return message


INVARIANTS: tuple[Invariant, ...] = (
    ProbeInvariant("reject.banned", "Playing a banned card without Loopholes (or into the Reserve) is rejected, "
                   "naming the ban.", (S.COMPANY_INTERFERENCE,), _banned_candidates,
                   _rejects_citing({PlayStandard: S.COMPANY_INTERFERENCE, PlayReserve: S.COMPANY_INTERFERENCE})),
    StateInvariant("reject.banned-offers", "With each kind in the hand banned in turn, playing its cards is rejected, "
                   "naming the ban.", (S.COMPANY_INTERFERENCE,), _banned_offers),
    ProbeInvariant("reject.full-hand", "Buying with a full hand is rejected, naming the hand limit.",
                   (S.MOVEMENT_CARDS,), _full_hand_candidates, _rejects_citing({MovementBuy: S.MOVEMENT_CARDS})),
    ProbeInvariant("reject.unaffordable", "A purchase that cannot be paid for is rejected, naming the rule on paying.",
                   (S.BUYING_CARDS, S.BUYING_A_CARD, S.SPENDING_BUDGET, S.SPENDING_INFLUENCE),
                   _unaffordable_candidates,
                   _rejects_citing({Buy: S.BUYING_CARDS, MovementBuy: S.SPENDING_INFLUENCE})),
    StateInvariant("reject.empty-space", "Buying from a Market space with no card (or past the Market) is rejected, "
                   "naming the rule on buying.", (S.BUYING_A_CARD,), _empty_space_rejected),
    StateInvariant("reject.unpaid-play", "At the start of the Company's Play Phase, playing a card that is not banned "
                   "without paying its cost is rejected, naming the rule on spending Budget.", (S.SPENDING_BUDGET,),
                   _unpaid_play_rejected, _unpaid_play_applies),
    StateInvariant("reject.wrong-phase", "At the start of the Company's Play and Buy Phases, an action of the other "
                   "phase (a buy or ending the Buy Phase; a play or ending the Play Phase) is rejected, naming the "
                   "Company's turn.", (S.COMPANY_ON_YOUR_GO,), _wrong_phase_rejected, _wrong_phase_applies),
    ProbeInvariant("reject.out-of-turn", "An action by the side that is not to act is rejected, naming the turn "
                   "of the side that is and saying whose turn it is.", (S.COMPANY_ON_YOUR_GO, S.MOVEMENT_ON_YOUR_GO),
                   _out_of_turn_candidates, _rejects_out_of_turn),
)
"""The `reject.*` invariants, in the order they are checked and listed."""
