"""`rule.*` postconditions of the Company's plays: what a play pays and resolves, and the Reserve cards it triggers.

Also the what-if plays the other Company modules build on: `moved_to_play` brings a card (and a Reserve card)
into place, `PLAY_STEPS` bounds how far a what-if play is followed, and `company_play_check` judges it.
"""

from __future__ import annotations

from doubtspec.invariants.derived import (
    ONE_STEP_EFFECTS,
    at_rest,
    budget_of,
    card_kind,
    loopholes_added,
    replace,
    trigger_pairs,
    within_reach,
)
from doubtspec.invariants.groups.rule.frame import in_supply, minus, sorted_cards, unchanged_except
from doubtspec.invariants.shapes import Invariant, StateInvariant, TransitionInvariant
from doubtspec.model import engine
from doubtspec.model.actions import Action, PlayReserve, PlayStandard
from doubtspec.model.cards import (
    AddVictims,
    CompanyEffect,
    Discount,
    DrawCards,
    NamedEffect,
    ScoreProfit,
    TokenKind,
    Zone,
)
from doubtspec.model.state import TOKEN_INDEX, GameState, Phase
from doubtspec.model.steps import Activate, CompanyDraw, Effect, FinishPlay, ResolveEffect, Step
from doubtspec.rulebook import Section

S = Section


def company_play_check(before: GameState, action: Action, after: GameState) -> str | None:
    """Standard and Reserve plays: the card and the payment leave the hand; the card's side is paid for."""
    if not isinstance(action, PlayStandard | PlayReserve) or before.pending:
        return None
    data = before.game.company_card(action.card)
    side = data.standard if isinstance(action, PlayStandard) else data.reserve
    if side is None:
        return f"{action} plays a side card {action.card} does not have"
    if action.card in action.pay:
        return f"{action} pays with the card it plays"
    paid = budget_of(before, action.pay)
    if paid < side.cost:
        return f"{action} pays {paid} Budget for a cost of {side.cost}"
    hand = minus(before.c_hand, (action.card, *action.pay))
    if after.plays != before.plays + 1:
        return f"{action} took the plays this turn from {before.plays} to {after.plays}"
    if isinstance(action, PlayReserve):
        # Reserve Effects: face up at the right end of the Reserve; nothing resolves yet.
        if after.c_hand != hand or after.c_discard != sorted_cards(before.c_discard + action.pay):
            return (f"{action} left hand {list(after.c_hand)} and discard {list(after.c_discard)}, expected "
                    f"{list(hand)} and {list(sorted_cards(before.c_discard + action.pay))}")
        if after.c_reserve != (*before.c_reserve, action.card):
            return f"{action} left the Reserve {list(after.c_reserve)}; the card goes at its right end"
        return unchanged_except(before, after, ("c_hand", "c_discard", "c_reserve", "plays"), action)
    # Standard Effects: the play's own effects and the Reserve cards it triggers resolve now; those
    # that need a choice (Doubt, Lobbying, Market removal, trashing) and the draws come as later steps.
    if after.c_hand != hand:
        return f"{action} left the hand {list(after.c_hand)}; expected {list(hand)}"
    if action.card not in after.c_in_play and action.card not in after.c_discard:
        return f"{action}: card {action.card} is neither resolving nor in the discard pile"
    if after.c_in_play not in (before.c_in_play, (*before.c_in_play, action.card)):
        # Spending Budget: the cards paid are discarded at once; only the card played waits for its effects.
        return (f"{action} left {list(after.c_in_play)} in play; only card {action.card} stays while its effects "
                f"resolve, the {len(action.pay)} cards paid go to the discard pile at once")
    if after.pending and after.pending[-1] != FinishPlay(action.card):
        # The card is discarded only once its effects and the Reserve cards it activates have resolved.
        return (f"{action}: {after.pending[-1]} waits behind the card's discard; the play ends with the card "
                f"discarded after everything it set off ({list(after.pending)})")
    problem = unchanged_except(before, after, ("c_hand", "c_discard", "c_in_play", "c_deck", "victims", "profit",
                                               "discount", "plays", "pending", "supply"), action)
    if problem is not None:
        return problem
    # the Reserve cards a play triggers queue effects of their own (under either trigger-timing)
    triggers = side.trigger is not None and any(
        (reserve := before.game.company_card(card).reserve) is not None and reserve.trigger is side.trigger
        for card in before.c_reserve)
    if not triggers:
        problem = _effects_in_order(action, side.effects, after.pending)
        if problem is not None:
            return problem
    if not after.pending and action.card in after.c_discard:
        return _standard_amounts(before, action, after, side.effects, side.trigger, side.icon)
    return None


def _effects_in_order(action: PlayStandard, printed: tuple[CompanyEffect, ...],
                      pending: tuple[Step, ...]) -> str | None:
    """Standard Effects: a card's effects resolve in their printed order, so the effects a play leaves queued (the
    one under way first, a draw under way standing for its draw effect) are the end of its printed list, in order.
    Not asked of a named effect, nor of a play that may trigger a Reserve card: both may queue effects of their
    own."""
    if any(isinstance(effect, NamedEffect) for effect in printed):
        return None
    queued: list[CompanyEffect | None] = []
    for step in pending:
        match step:
            case ResolveEffect(effect=effect) | Effect(effect=effect):
                queued.append(effect)
            case CompanyDraw():
                queued.append(None)
            case _:
                break
    tail = printed[len(printed) - len(queued):] if len(queued) <= len(printed) else None
    # by kind only: an effect under way may carry what is left of its amount
    if tail is None or any(not isinstance(p, DrawCards) if q is None else type(q) is not type(p)
                           for q, p in zip(queued, tail, strict=True)):
        shown = ["draw under way" if q is None else type(q).__name__ for q in queued]
        return (f"{action} left its effects queued as {shown}; they resolve in the printed order "
                f"{[type(p).__name__ for p in printed]}, so what is left is the end of that list")
    return None


def _triggers_first(state: GameState) -> bool:
    """Whether the Reserve cards a standard play triggers resolve before its own effects (ruling trigger-timing)."""
    return state.rulings.get("trigger-timing") == "before-effects"


def _standard_amounts(before: GameState, action: PlayStandard, after: GameState, effects: tuple[object, ...],
                      trigger: object, icon: object) -> str | None:
    """A play that resolved in one step: Victims, Profit and discounts are its effects' and its triggers'.

    The order matters only when a supply runs short: what resolves first takes what is left.
    """
    triggered: list[object] = []
    if trigger is not None:
        for card in before.c_reserve:
            data = before.game.company_card(card)
            reserve = data.reserve
            if reserve is not None and reserve.trigger is trigger and reserve.icon is icon \
                    and data.kind not in before.banned:
                triggered.extend(reserve.effects)
    everything = [*triggered, *effects] if _triggers_first(before) else [*effects, *triggered]
    victims = list(before.victims)
    victim_supply = in_supply(before, TokenKind.VICTIMS)
    profit_supply = in_supply(before, TokenKind.PROFIT)
    profit, discount = before.profit, before.discount
    for effect in everything:
        match effect:
            case AddVictims(zone=zone, count=count):
                got = min(count, victim_supply)
                victim_supply -= got
                victims[zone] += got
            case ScoreProfit(count=count):
                got = min(count, profit_supply)
                profit_supply -= got
                profit += got
            case Discount(amount=amount):
                discount += amount
    if after.victims != tuple(victims):
        return f"{action} left Victims {list(after.victims)}; its effects make {victims}"
    if after.profit != profit:
        return f"{action} left the Company {after.profit} Profit; its effects make {profit}"
    if after.discount != discount:
        return f"{action} left a discount of {after.discount}; its effects make {discount}"
    return None


def _trigger_timing(before: GameState, action: Action, after: GameState) -> str | None:
    """A standard play's trigger fires after all of the card's own effects, or before any of them.

    Under trigger-timing=after-effects the activation waits behind the card's effects: once it has fired, what
    is left of the play (before the card is discarded) can only be its Reserve cards' effects. Under
    before-effects it fires at once, so it is never left waiting when the play stops for a choice.
    """
    if not isinstance(action, PlayStandard) or before.pending:
        return None
    side = before.game.company_card(action.card).standard
    if side is None or side.trigger is None:
        return None
    waiting = Activate(side.trigger, side.icon) in after.pending
    if _triggers_first(before):
        if waiting:
            return (f"{action}: the Reserve cards its trigger activates wait behind the card's own effects; under "
                    f"trigger-timing=before-effects they resolve first")
        return None
    if waiting:
        return None
    # Every Reserve card that shares the trigger and the icon may have fired (bans are `ban.*`'s business).
    triggered = {effect for card in before.c_reserve
                 if (reserve := before.game.company_card(card).reserve) is not None
                 and reserve.trigger is side.trigger and reserve.icon is side.icon
                 for effect in reserve.effects}
    for step in after.pending:
        if step == FinishPlay(action.card):
            break
        own = (step.effect not in triggered if isinstance(step, Effect | ResolveEffect)
               else isinstance(step, CompanyDraw) and not any(isinstance(e, DrawCards) for e in triggered))
        if own:
            return (f"{action}: its trigger has fired while the card's own effect ({step}) is still to resolve; "
                    f"under trigger-timing=after-effects the Reserve cards activate after the card's effects")
    return _activation_order(before, action, after)


def _activation_order(before: GameState, action: PlayStandard, after: GameState) -> str | None:
    """Reserve Effects: the Reserve cards a play activates resolve from left to right, so what is left of them when
    the play stops for a choice is the tail of their effects in the Reserve's order (not checked where a draw is
    waiting, which stands in the queue as a draw rather than its effect)."""
    side = before.game.company_card(action.card).standard
    assert side is not None
    expected = [effect for card in before.c_reserve if card_kind(before, card) not in before.banned
                and (reserve := before.game.company_card(card).reserve) is not None
                and reserve.trigger is side.trigger and reserve.icon is side.icon for effect in reserve.effects]
    waiting: list[object] = []
    for step in after.pending:
        if step == FinishPlay(action.card):
            break
        if isinstance(step, CompanyDraw):
            return None
        if isinstance(step, Effect | ResolveEffect):
            waiting.append(step.effect)
    if waiting and waiting != expected[len(expected) - len(waiting):]:
        return (f"{action}: the Reserve cards' effects wait in the order {waiting}; from left to right they are "
                f"{expected}, of which the last {len(waiting)} are left")
    return None


def _trigger_pairs(state: GameState) -> tuple[tuple[int, int], ...]:
    """(standard card, Reserve card): for each Reserve side made only of `ONE_STEP_EFFECTS`, the first card whose
    standard play activates it (`derived.trigger_pairs`), in the Reserve cards' order."""
    chosen: dict[int, int] = {}
    for card, triggered in trigger_pairs(state):
        for reserve_card in triggered:
            reserve = state.game.company_card(reserve_card).reserve
            if reserve is not None and all(isinstance(e, ONE_STEP_EFFECTS) for e in reserve.effects):
                chosen.setdefault(reserve_card, card)
    return tuple((card, reserve_card) for reserve_card, card in sorted(chosen.items()))


def _trigger_offers(state: GameState) -> str | None:
    """At the start of each Play Phase, play a card whose trigger activates a Reserve card, both moved into place.

    A Reserve card activates when a standard play shares its Reserve side's trigger and icon (Reserve Effects);
    generated games seldom hold the matching pair at once. Four pairs a turn (in turn with the round), with no
    ban, are played with the first payment offered and checked by `rule.company-play`, whose amounts include
    the Reserve card's effects; then again with the played card banned and Loopholes in the Reserve.
    """
    if not at_rest(state) or state.phase is not Phase.COMPANY_PLAY or state.plays:
        return None
    pairs = _trigger_pairs(state)
    for k in range(min(4, len(pairs))):
        card, reserve_card = pairs[(4 * state.round + k) % len(pairs)]
        probe = moved_to_play(state, card, reserve_card)
        if probe is None:
            continue
        probe = replace(probe, banned=())
        play = next((a for a in engine.legal_actions(probe) if isinstance(a, PlayStandard) and a.card == card), None)
        if play is None:
            continue
        message = company_play_check(probe, play, engine.apply(probe, play))
        if message is not None:
            return f"with card {reserve_card} at the Reserve's right end: {message}"
        message = _loopholes_trigger(probe, card, reserve_card)
        if message is not None:
            return message
    return _two_reserve_cards(state)


def _two_reserve_cards(state: GameState) -> str | None:
    """A play that activates two Reserve cards whose Victims go to different Zones, both moved to the Reserve's
    right end (one such triple a turn, in turn with the round), with the Victims supply one token above what the
    card's own effects take: under trigger-timing=after-effects the last token goes to the left one of the two
    (Reserve Effects: left to right), as `rule.company-play`'s amounts say."""
    if _triggers_first(state):
        return None
    found = [(card, first, second) for card, triggered in trigger_pairs(state) for first in triggered
             for second in triggered if first != second and _victim_zones(state, first)
             and _victim_zones(state, second) and _victim_zones(state, first) != _victim_zones(state, second)]
    if not found:
        return None
    card, first, second = found[state.round % len(found)]
    probe = moved_to_play(state, card, first)
    probe = moved_to_play(probe, card, second) if probe is not None else None
    side = state.game.company_card(card).standard
    if probe is None or side is None:
        return None
    own = sum(e.count for e in side.effects if isinstance(e, AddVictims))
    supply = list(probe.supply)
    supply[TOKEN_INDEX[TokenKind.VICTIMS]] = own + 1
    probe = replace(probe, banned=(), supply=tuple(supply))
    play = next((a for a in engine.legal_actions(probe) if isinstance(a, PlayStandard) and a.card == card), None)
    if play is None:
        return None
    message = company_play_check(probe, play, engine.apply(probe, play))
    return None if message is None else (f"with cards {first} and {second} at the Reserve's right end and {own + 1} "
                                         f"Victims in the supply: {message}")


def _victim_zones(state: GameState, card: int) -> tuple[Zone, ...]:
    """The Zones the Victims effects of `card`'s Reserve side go to, in order (none without one)."""
    reserve = state.game.company_card(card).reserve
    return () if reserve is None else tuple(e.zone for e in reserve.effects if isinstance(e, AddVictims))


def _loopholes_trigger(probe: GameState, card: int, reserve_card: int) -> str | None:
    """The same play with the played card's kind banned and a Loopholes card (not banned) at the Reserve's left
    end: Loopholes lets the card be played for its standard side (Interference), and the play still triggers the
    Reserve card, whose kind is not banned, as `rule.company-play` counts it."""
    kind = card_kind(probe, card)
    if card_kind(probe, reserve_card) == kind:
        return None
    banned = replace(probe, banned=(kind,))
    # The hand stays whole: a Loopholes card taken from it would take its Budget from the play's payment.
    with_loopholes = loopholes_added(banned, (card, reserve_card, *probe.c_hand))
    if with_loopholes is None:
        return None
    play = next((a for a in engine.legal_actions(with_loopholes) if isinstance(a, PlayStandard) and a.card == card),
                None)
    if play is None:
        return f"with {kind} banned and Loopholes in the Reserve, card {card} cannot be played for its standard side"
    message = company_play_check(with_loopholes, play, engine.apply(with_loopholes, play))
    if message is None:
        return None
    return f"with card {reserve_card} in the Reserve, Loopholes beside it and {kind} banned: {message}"


def moved_to_play(state: GameState, card: int, reserve_card: int | None) -> GameState | None:
    """`state` with `card` in the hand, `reserve_card` (if any) at the Reserve's right end and the deck and the
    discard pile emptied onto the trash pile; None when a card is out of the Company's reach."""
    moving = {card} if reserve_card is None else {card, reserve_card}
    if not all(within_reach(state, c) for c in moving):
        return None
    rest = [c for c in (*state.c_deck, *state.c_discard) if c not in moving]
    reserve = tuple(c for c in state.c_reserve if c not in moving)
    return replace(
        state, c_deck=(), c_discard=(), c_hand=sorted_cards((*(c for c in state.c_hand if c not in moving), card)),
        c_reserve=reserve if reserve_card is None else (*reserve, reserve_card),
        trash=(*(c for c in state.trash if c not in moving), *rest),
        piles=tuple(tuple(c for c in pile if c not in moving) for pile in state.piles))


PLAY_STEPS = 16
"""Choices and draws a what-if play makes (the first option each time) before it gives up on the play."""


INVARIANTS: tuple[Invariant, ...] = (
    TransitionInvariant("rule.company-play",
                        "A play pays its side's cost from the hand (the cards paid discarded at once); a Reserve play "
                        "adds the card at the Reserve's right end; a standard play resolves exactly its effects and "
                        "triggers, the card discarded last; nothing else changes.",
                        (S.SPENDING_BUDGET, S.STANDARD_EFFECTS, S.RESERVE_EFFECTS), company_play_check),
    TransitionInvariant("rule.trigger-timing",
                        "A standard play's trigger activates the Reserve cards after all of the card's own effects "
                        "(ruling trigger-timing=after-effects) or before any of them (before-effects), from left to "
                        "right.",
                        (S.STANDARD_EFFECTS, S.RESERVE_EFFECTS), _trigger_timing),
    StateInvariant("rule.trigger-offers", "A standard play whose trigger and icon match a Reserve card's activates "
                   "it, a banned card played through Loopholes too, and two such cards from left to right: their "
                   "effects resolve with the play's (checked by `rule.company-play`).",
                   (S.STANDARD_EFFECTS, S.RESERVE_EFFECTS, S.COMPANY_INTERFERENCE), _trigger_offers),
)
"""The `rule.*` invariants of this module, in the order they are checked and listed."""
