"""The `ban` invariants.

Bans: banned cards are not played (but with Loopholes), not offered, and never trigger from the Reserve.
"""

from __future__ import annotations

import dataclasses

from doubtspec.invariants.derived import (
    at_rest,
    card_kind,
    loopholes,
)
from doubtspec.invariants.shapes import (
    Invariant,
    StateInvariant,
    TransitionInvariant,
)
from doubtspec.model import engine
from doubtspec.model.actions import (
    Action,
    EndBuy,
    PlayReserve,
    PlayStandard,
)
from doubtspec.model.state import STATE_FIELDS, GameState, Phase
from doubtspec.rulebook import Section

S = Section


def _ban_play(before: GameState, action: Action, after: GameState) -> str | None:
    match action:
        case PlayStandard(card=card) if card_kind(before, card) in before.banned and not loopholes(before):
            return f"banned card {card} ({card_kind(before, card)}) played for its standard effect without Loopholes"
        case PlayReserve(card=card) if card_kind(before, card) in before.banned:
            return f"banned card {card} ({card_kind(before, card)}) played into the Reserve"
    return None


_COMPARED = tuple(name for name in STATE_FIELDS if name not in ("game", "c_reserve"))


def _ban_trigger(before: GameState, action: Action, after: GameState) -> str | None:
    if not isinstance(action, PlayStandard) or not before.banned:
        return None
    side = before.game.company_card(action.card).standard
    if side is None or side.trigger is None:
        return None
    silent = [c for c in before.c_reserve if card_kind(before, c) in before.banned
              and before.game.company_card(c).reserve is not None]
    if not silent:
        return None
    # The banned Reserve cards must act as if they were not there: play the same card with them
    # taken out of the Reserve, and the rest of the table must come out the same.
    without = dataclasses.replace(before, c_reserve=tuple(c for c in before.c_reserve if c not in silent))
    expected = engine.apply(without, action)
    for name in _COMPARED:
        if getattr(expected, name) != getattr(after, name):
            return (f"banned Reserve cards {silent} changed the resolution of {action}: {name} is "
                    f"{getattr(after, name)!r}, without them it would be {getattr(expected, name)!r}")
    return None


def _ban_offers(state: GameState) -> str | None:
    """At the start of each Play Phase, ban each kind in the hand in turn and see what the engine offers.

    Bans need a Goal achieved first, which generated games rarely reach early; asking the engine's
    legality about the same hand under each possible ban checks ban enforcement on every turn.
    """
    if (state.outcome is not None or state.pending or state.phase is not Phase.COMPANY_PLAY or state.plays
            or not state.c_hand):
        return None
    cards = state.cards.company
    kinds = sorted({cards[c].kind for c in state.c_hand} - set(state.banned))  # type: ignore[index]
    for kind in kinds:
        banned = tuple(sorted((*state.banned, kind)))
        loopholes = any(
            (side := cards[r].reserve) is not None and side.loopholes and cards[r].kind not in banned  # type: ignore[index]
            for r in state.c_reserve
        )
        offered = engine.legal_actions(dataclasses.replace(state, banned=banned))
        for action in offered:
            if isinstance(action, PlayReserve | PlayStandard) and cards[action.card].kind in banned:  # type: ignore[index]
                if isinstance(action, PlayStandard) and loopholes:
                    continue
                return f"with {kind} banned, the engine offers {action}"
    return None


def _trigger_offers(state: GameState) -> str | None:
    """At the start of each Play Phase with a Reserve, ban the Reserve's kinds and play the triggering cards.

    Banned cards in the Reserve need a Goal's ban after the card was played there, which generated games
    rarely order so; banning the kinds in the Reserve and playing each standard play that triggers (at
    most three) checks `ban.reserve-trigger` on every turn with a Reserve.
    """
    if not at_rest(state) or state.phase is not Phase.COMPANY_PLAY or state.plays or not state.c_reserve:
        return None
    kinds = {state.game.company_card(c).kind for c in state.c_reserve}
    kinds -= {state.game.company_card(c).kind for c in state.c_hand}  # leave the hand playable
    if not kinds:
        return None
    probe = dataclasses.replace(state, banned=tuple(sorted(kinds | set(state.banned))))
    tried = 0
    for action in engine.legal_actions(probe):
        if not isinstance(action, PlayStandard):
            continue
        side = state.game.company_card(action.card).standard
        if side is None or side.trigger is None:
            continue
        message = _ban_trigger(probe, action, engine.apply(probe, action))
        if message is not None:
            return f"with {sorted(kinds)} banned: {message}"
        tried += 1
        if tried >= 3:
            break
    return None


def _reshuffle_offers(state: GameState) -> str | None:
    """Before a Draw Phase that triggers a Reshuffle, ban the Reserve's kinds and play the Sequence.

    A banned card in the Reserve has no effect: its reshuffle effects are skipped and it goes to the
    trash pile like any other (ruling banned-reserve). Bans and a Reserve at a Reshuffle seldom meet in
    generated games; banning the Reserve's kinds (and emptying the deck into the discard pile, so that
    the Sequence runs at once under either draw-order ruling) checks the scoring (`scoring.demographics`)
    and the Reserve's resolution (`rule.draw-phase`) against it at every Reshuffle with a Reserve.
    """
    if (not at_rest(state) or state.phase is not Phase.COMPANY_BUY or not state.buys or not state.c_reserve
            or len(state.c_deck) >= state.cards.rules.company_hand_size):
        return None
    from doubtspec.invariants.groups.rule import reshuffled_check
    from doubtspec.invariants.groups.scoring import scoring_check

    kinds = {state.game.company_card(c).kind for c in state.c_reserve}
    probe = dataclasses.replace(state, banned=tuple(sorted(kinds | set(state.banned))), c_deck=(),
                                c_discard=tuple(sorted(state.c_deck + state.c_discard)))
    after = engine.apply(probe, EndBuy())
    message = scoring_check(probe, EndBuy(), after) or reshuffled_check(probe, EndBuy(), after)
    return None if message is None else f"with the Reserve's kinds {sorted(kinds)} banned: {message}"


INVARIANTS: tuple[Invariant, ...] = (
    TransitionInvariant("ban.play", "A banned card is played only for its standard effect, and only with Loopholes.",
                        (S.COMPANY_INTERFERENCE, S.MOVEMENT_INTERFERENCE), _ban_play),
    TransitionInvariant("ban.reserve-trigger", "A banned card in the Reserve never triggers.",
                        (S.COMPANY_INTERFERENCE, S.RESERVE_EFFECTS), _ban_trigger),
    StateInvariant("ban.offers",
                   "With any kind in the hand banned, no card of it is offered for play but a standard play with"
                   " Loopholes.",
                   (S.COMPANY_INTERFERENCE, S.MOVEMENT_INTERFERENCE), _ban_offers),
    StateInvariant("ban.trigger-offers", "With the Reserve's kinds banned, no play triggers a Reserve card.",
                   (S.COMPANY_INTERFERENCE, S.RESERVE_EFFECTS), _trigger_offers),
    StateInvariant("ban.reshuffle-offers", "A Reshuffle with the Reserve's kinds banned scores, seeds and resolves "
                   "the Reserve as if those cards had no effect.", (S.COMPANY_INTERFERENCE, S.RESHUFFLE_SEQUENCE),
                   _reshuffle_offers),
)
"""The `ban.*` invariants, in the order they are checked and listed."""
