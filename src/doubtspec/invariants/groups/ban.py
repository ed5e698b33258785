"""The `ban` invariants.

Bans: banned cards are not played (but with Loopholes), not offered, and never trigger from the Reserve.
"""

from __future__ import annotations

from doubtspec.invariants.derived import (
    at_rest,
    card_kind,
    from_card_data,
    loopholes,
    loopholes_added,
    replace,
    reshuffle_probes,
    trigger_pairs,
    within_reach,
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
from doubtspec.model.state import STATE_FIELDS, GameState, OutcomeReason, Phase
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
    without = replace(before, c_reserve=tuple(c for c in before.c_reserve if c not in silent))
    expected = engine.apply(without, action)
    for name in _COMPARED:
        if getattr(expected, name) != getattr(after, name):
            return (f"banned Reserve cards {silent} changed the resolution of {action}: {name} is "
                    f"{getattr(after, name)!r}, without them it would be {getattr(expected, name)!r}")
    return None


def _ban_offers(state: GameState) -> str | None:
    """At the start of each Play Phase, ban each kind in the hand in turn and see what the engine offers.

    Bans need a Goal achieved first, which generated games rarely reach early; asking the engine's
    legality about the same hand under each possible ban checks ban enforcement on every turn. The same
    again with a Loopholes card moved into the Reserve when none is there: it lets a banned card's
    standard effect be played, never its Reserve side. And again with a card whose Reserve side stays moved into
    the hand.
    """
    if (state.outcome is not None or state.pending or state.phase is not Phase.COMPANY_PLAY or state.plays
            or not state.c_hand):
        return None
    cards = state.cards.company
    probes = [state]
    if not any((side := cards[r].reserve) is not None and side.loopholes for r in state.c_reserve):  # type: ignore[index]
        loophole = next((n for n, c in sorted(cards.items()) if c is not None and c.reserve is not None
                         and c.reserve.loopholes and n not in state.c_hand), None)
        moved = _moved(state, state.c_hand[0], loophole) if loophole is not None else None
        if moved is not None:
            probes.append(moved)
    # A card whose Reserve side stays, in the hand: under banned-reserve=stays-honoured its staying is honoured
    # in the Reserve, and it is still never played while banned. Such cards are rarely bought, let alone held.
    stayer = next((n for n in _staying_cards(state) if n not in state.c_hand), None)
    held = _moved(state, stayer) if stayer is not None else None
    if held is not None:
        probes.append(held)
    for probe in probes:
        kinds = sorted({cards[c].kind for c in probe.c_hand} - set(probe.banned))  # type: ignore[index]
        for kind in kinds:
            banned = tuple(sorted((*probe.banned, kind)))
            loopholes = any(
                (side := cards[r].reserve) is not None and side.loopholes and cards[r].kind not in banned  # type: ignore[index]
                for r in probe.c_reserve
            )
            for action in engine.legal_actions(replace(probe, banned=banned)):
                if isinstance(action, PlayReserve | PlayStandard) and cards[action.card].kind in banned:  # type: ignore[index]
                    if isinstance(action, PlayStandard) and loopholes:
                        continue
                    where = ("" if probe is state else " with a staying card in the hand" if probe is held
                             else " and Loopholes in the Reserve")
                    return f"with {kind} banned{where}, the engine offers {action}"
    return None


def _trigger_offers(state: GameState) -> str | None:
    """At the start of each Play Phase, ban the Reserve's kinds and play the triggering cards.

    Banned cards in the Reserve need a Goal's ban after the card was played there, which generated games
    rarely order so; banning the kinds in the Reserve and playing each standard play that triggers (at
    most three) checks `ban.reserve-trigger` on every turn with a Reserve. On a turn without one, a
    card with a trigger is moved into the hand and a Reserve card it would trigger into the Reserve
    (from wherever the Company has them; on odd rounds one that stays in the Reserve, if any), and the
    Reserve card's kind is banned; that play is made
    once more with a Loopholes card added at the Reserve's left end, since Loopholes lets a banned card
    in the hand be played but leaves banned Reserve cards silent (Company Rules > Interference).
    """
    if not at_rest(state) or state.phase is not Phase.COMPANY_PLAY or state.plays:
        return None
    tried = 0
    if state.c_reserve:
        kinds = {state.game.company_card(c).kind for c in state.c_reserve}
        kinds -= {state.game.company_card(c).kind for c in state.c_hand}  # leave the hand playable
        if kinds:
            probe = replace(state, banned=tuple(sorted(kinds | set(state.banned))))
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
                    return None
    if tried:
        return None
    staying = set(_staying_cards(state))
    for card, triggered in trigger_pairs(state):
        # Reserve cards of another kind only: banning theirs leaves the card itself playable. On odd rounds a
        # card that stays in the Reserve comes first: under banned-reserve=stays-honoured it stays, and still
        # must not trigger.
        reserve_cards = sorted((r for r in triggered if card_kind(state, r) != card_kind(state, card)),
                               key=lambda r: state.round % 2 == 1 and r not in staying)
        for reserve_card in reserve_cards:
            moved = _moved(state, card, reserve_card)
            if moved is None:
                continue
            kind = state.game.company_card(reserve_card).kind
            probe = replace(moved, banned=tuple(sorted({kind, *state.banned})))
            plays = [a for a in engine.legal_actions(probe) if isinstance(a, PlayStandard) and a.card == card]
            if not plays:
                break
            play = min(plays, key=lambda a: len(a.pay))
            message = _ban_trigger(probe, play, engine.apply(probe, play))
            if message is not None:
                return f"with card {reserve_card} in the Reserve and {kind} banned: {message}"
            # The same with a Loopholes card (not banned) at the Reserve's left end: it lets banned cards in
            # the hand be played, but a banned card in the Reserve still does not trigger.
            with_loopholes = loopholes_added(probe, (card, reserve_card))
            again = [a for a in engine.legal_actions(with_loopholes) if isinstance(a, PlayStandard)
                     and a.card == card] if with_loopholes is not None else []
            if with_loopholes is not None and again:
                play = min(again, key=lambda a: len(a.pay))
                message = _ban_trigger(with_loopholes, play, engine.apply(with_loopholes, play))
                if message is not None:
                    return (f"with card {reserve_card} and Loopholes in the Reserve and {kind} banned: "
                            f"{message}")
            tried += 1
            break
        if tried >= 2:
            break
    return None


def _moved(state: GameState, card: int, reserve_card: int | None = None) -> GameState | None:
    """`state` with `card` in the hand and `reserve_card` (if any) at the Reserve's right end, taken from wherever
    the Company has them (deck, discard pile, hand, Reserve, trash pile, piles); None if either is out of reach."""
    moving = {card} if reserve_card is None else {card, reserve_card}
    if not all(within_reach(state, c) for c in moving):
        return None

    def rest(cards: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(c for c in cards if c not in moving)

    return replace(state, c_deck=rest(state.c_deck), c_discard=rest(state.c_discard),
                   c_hand=tuple(sorted((*rest(state.c_hand), card))),
                   c_reserve=rest(state.c_reserve) if reserve_card is None else (*rest(state.c_reserve), reserve_card),
                   trash=rest(state.trash),
                   piles=tuple(rest(pile) for pile in state.piles))


@from_card_data
def _staying_cards(state: GameState) -> tuple[int, ...]:
    """The Company cards whose Reserve side says it stays, lowest number first."""
    return tuple(sorted(n for n, c in state.cards.company.items()
                        if c is not None and c.reserve is not None and c.reserve.stays))


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

    company = state.game.company_card
    kinds = {company(c).kind for c in state.c_reserve}
    probe = replace(state, banned=tuple(sorted(kinds | set(state.banned))), c_deck=(),
                    c_discard=tuple(sorted(state.c_deck + state.c_discard)))
    after = engine.apply(probe, EndBuy())
    message = scoring_check(probe, EndBuy(), after) or reshuffled_check(probe, EndBuy(), after)
    if message is not None:
        return f"with the Reserve's kinds {sorted(kinds)} banned: {message}"
    # And with a card that says it stays put at the Reserve's right end (one in turn with the round), its kind
    # banned too: whether it stays (ruling banned-reserve) or not, step C goes on to the cards on its left.
    staying = [c for c in _staying_cards(state) if c not in state.c_reserve]
    if not staying:
        return None
    card = staying[state.round % len(staying)]
    probes = reshuffle_probes(state, card, tuple(sorted(kinds | {company(card).kind} | set(state.banned))))
    if probes is None:
        return None
    probe = probes[0]
    after = engine.apply(probe, EndBuy())
    message = reshuffled_check(probe, EndBuy(), after)
    return None if message is None else (f"with card {card} (it stays) at the Reserve's right end and the "
                                         f"Reserve's kinds banned: {message}")


def _silent_reshuffle_offers(state: GameState) -> str | None:
    """Before each Draw Phase, put a banned card with reshuffle effects in the Reserve and play the Sequence.

    A banned card has no effect (Company Interference), so a Reshuffle with it at the Reserve's right
    end must leave the table exactly as one where it had been on the trash pile already: that is where
    step C puts it first (ruling banned-reserve). Cards with reshuffle effects seldom sit in the
    Reserve when their kind is banned; moving each such card there (from wherever the Company has
    it), banning the Reserve's kinds and emptying the deck into the discard pile (so the Sequence runs
    at once), compares the two Reshuffles every turn. Under banned-reserve=stays-honoured a
    card that says it stays remains in the Reserve instead, and its reshuffle effects are still skipped:
    the two Reshuffles then differ only in where that card ends.
    """
    if not at_rest(state) or state.phase is not Phase.COMPANY_BUY:
        return None
    stays_honoured = state.rulings.get("banned-reserve") == "stays-honoured"
    company = state.game.company_card
    for card in _with_reshuffle_effects(state):
        side = company(card).reserve
        if side is None:
            continue
        staying = side.stays and stays_honoured
        kinds = {company(c).kind for c in (*state.c_reserve, card)} | set(state.banned)
        probes = reshuffle_probes(state, card, tuple(sorted(kinds)))
        if probes is None:
            continue
        in_reserve, trashed = probes
        with_card, without_card = engine.apply(in_reserve, EndBuy()), engine.apply(trashed, EndBuy())
        # A Star Victory in step A ends the game before step C: the card is still where it was put.
        ended = with_card.outcome is not None and with_card.outcome.reason is OutcomeReason.STAR_VICTORY
        if staying and not ended and card not in with_card.c_reserve:
            return (f"a Reshuffle with banned card {card}, which says it stays, at the Reserve's right end left the "
                    f"Reserve {list(with_card.c_reserve)}; under banned-reserve=stays-honoured it stays")
        for name in STATE_FIELDS:
            if name == "game" or ((ended or staying) and name in ("c_reserve", "trash")):
                continue
            if getattr(with_card, name) != getattr(without_card, name):
                return (f"a Reshuffle with banned card {card} at the Reserve's right end left {name} "
                        f"{getattr(with_card, name)!r}; with the card on the trash pile instead, "
                        f"{getattr(without_card, name)!r} (a banned card has no effect)")
    return None


@from_card_data
def _with_reshuffle_effects(state: GameState) -> tuple[int, ...]:
    """The Company cards whose Reserve side has reshuffle effects, from the card data."""
    return tuple(sorted(n for n, c in state.cards.company.items()
                        if c is not None and c.reserve is not None and c.reserve.on_reshuffle))


def _lasting(before: GameState, action: Action, after: GameState) -> str | None:
    """A ban lasts: no step lifts one (Movement Rules > Interference names no end to a ban, and no card or rule of
    the Company's takes a Banned token off its pile). Only a new game starts with none."""
    lifted = sorted(set(before.banned) - set(after.banned))
    if lifted:
        return f"{action} lifted the ban on {lifted}; a ban lasts for the rest of the game"
    return None


INVARIANTS: tuple[Invariant, ...] = (
    TransitionInvariant("ban.play", "A banned card is played only for its standard effect, and only with Loopholes.",
                        (S.COMPANY_INTERFERENCE, S.MOVEMENT_INTERFERENCE), _ban_play),
    TransitionInvariant("ban.lasting", "A ban, once placed, stays for the rest of the game.",
                        (S.MOVEMENT_INTERFERENCE,), _lasting),
    TransitionInvariant("ban.reserve-trigger", "A banned card in the Reserve never triggers.",
                        (S.COMPANY_INTERFERENCE, S.RESERVE_EFFECTS), _ban_trigger),
    StateInvariant("ban.offers",
                   "With any kind in the hand banned, no card of it is offered for play but a standard play with"
                   " Loopholes.",
                   (S.COMPANY_INTERFERENCE, S.MOVEMENT_INTERFERENCE), _ban_offers),
    StateInvariant("ban.trigger-offers", "With the Reserve's kinds banned, no play triggers a Reserve card, with "
                   "Loopholes in the Reserve or without.",
                   (S.COMPANY_INTERFERENCE, S.RESERVE_EFFECTS), _trigger_offers),
    StateInvariant("ban.reshuffle-offers", "A Reshuffle with the Reserve's kinds banned scores, seeds and resolves "
                   "the Reserve as if those cards had no effect.", (S.COMPANY_INTERFERENCE, S.RESHUFFLE_SEQUENCE),
                   _reshuffle_offers),
    StateInvariant("ban.silent-reshuffle-offers", "A Reshuffle with a banned card at the Reserve's right end ends as "
                   "if the card had been on the trash pile: its reshuffle effects do nothing.",
                   (S.COMPANY_INTERFERENCE, S.RESHUFFLE_SEQUENCE), _silent_reshuffle_offers),
)
"""The `ban.*` invariants, in the order they are checked and listed."""
