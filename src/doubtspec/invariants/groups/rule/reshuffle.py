"""`rule.*` postconditions of the Company's Draw Phase and Reshuffle Sequence, and what-ifs of their boundaries."""

from __future__ import annotations

from collections import Counter

from doubtspec.invariants.derived import (
    CHOOSING_EFFECTS,
    at_rest,
    from_card_data,
    replace,
    reshuffle_probes,
    taken_out,
)
from doubtspec.invariants.groups.rule.frame import in_supply, minus, sorted_cards, unchanged_except
from doubtspec.invariants.shapes import Invariant, StateInvariant, TransitionInvariant
from doubtspec.model import engine
from doubtspec.model.actions import (
    Action,
    Chance,
    EndBuy,
    LobbyOn,
)
from doubtspec.model.cards import (
    AddDoubt,
    DoubtGroup,
    Lobby,
    ScoreProfit,
    TokenKind,
    Zone,
)
from doubtspec.model.state import TOKEN_INDEX, GameState, OutcomeReason, Phase
from doubtspec.model.steps import (
    CompanyDraw,
    DrawToHandSize,
    ResolveEffect,
    ResolveReserveCard,
    ScoreAndSeed,
    ShuffleDiscards,
)
from doubtspec.rulebook import Section

S = Section


def _draw_first(state: GameState) -> bool:
    return state.rulings.get("draw-order") == "draw-first"


def _draw_phase(before: GameState, action: Action, after: GameState) -> str | None:
    """On Your Go, Draw Phase: the hand is discarded; fewer than five cards in the deck trigger a Reshuffle."""
    if not isinstance(action, EndBuy):
        return None
    size = before.cards.rules.company_hand_size
    if len(before.c_deck) >= size:
        if after.reshuffles != before.reshuffles:
            return f"a Draw Phase with {len(before.c_deck)} cards in the deck triggered a Reshuffle"
        if after.c_hand or after.c_discard != sorted_cards(before.c_discard + before.c_hand):
            return f"{action} did not discard the hand {list(before.c_hand)}"
        return unchanged_except(before, after, ("c_hand", "c_discard", "phase", "pending"), action)
    # The hand is discarded before anything is drawn, whichever the draw-order: none of it is in the hand the
    # Sequence leaves (its step C draws from the deck, and the discards join the deck only in step D).
    kept = [card for card in before.c_hand if card in after.c_hand]
    if kept and after.outcome is None:
        return (f"a Draw Phase with {len(before.c_deck)} cards in the deck kept {kept} of the hand "
                f"{list(before.c_hand)}; the hand is discarded first (ruling draw-order="
                f"{before.rulings.get('draw-order')})")
    if _draw_first(before) and before.c_deck:
        # Ruling draw-order=draw-first: the deck's last cards are drawn before the Sequence runs.
        head = after.pending[0] if after.pending else None
        if (after.reshuffles != before.reshuffles or not isinstance(head, CompanyDraw)
                or head.count != len(before.c_deck)):
            return (f"a Draw Phase with {len(before.c_deck)} cards in the deck left {head} to come and "
                    f"{after.reshuffles - before.reshuffles} Reshuffles run; under ruling draw-order=draw-first "
                    "the deck's cards are drawn before the Reshuffle Sequence")
        return None
    if after.reshuffles != before.reshuffles + 1:
        return (f"a Draw Phase with {len(before.c_deck)} cards in the deck (fewer than {size}) ran "
                f"{after.reshuffles - before.reshuffles} Reshuffles")
    return reshuffled_check(before, action, after)


_MOVEMENT_SIDE = ("m_deck", "market", "m_hand", "tableau", "m_discard", "influence", "messaging", "agitation",
                  "flight", "flight_spent", "goals", "goal_agitation", "achieved")
"""The Movement's pieces, which the Company's Reshuffle Sequence leaves alone (the Profit lobbied onto its cards
by a reshuffle effect aside)."""


def reshuffled_check(before: GameState, action: Action, after: GameState) -> str | None:
    """Reshuffle Sequence C and D: the Reserve resolves right to left into the trash; the discards join the deck;
    the Movement's pieces do not move.

    Checked when the Sequence ran to its draw in one step: no Reserve card with reshuffle effects
    (they may need choices) and no Star Victory (which ends the game at once, ruling star-timing).
    """
    if after.outcome is not None and after.outcome.reason is OutcomeReason.STAR_VICTORY:
        return None
    # Movement Rules, Cards: the Movement's passives answer the Company's Reshuffle at Pacing, which follows the
    # Company's draw; nothing of the Movement's moves during the Sequence (its Lobbying aside: `lobby.*`).
    moved = [name for name in _MOVEMENT_SIDE if getattr(before, name) != getattr(after, name)]
    if moved:
        return (f"the Company's Reshuffle Sequence changed the Movement's {moved[0]} from "
                f"{getattr(before, moved[0])!r} to {getattr(after, moved[0])!r}; its passives come at Pacing")
    banned_stays = before.rulings.get("banned-reserve") == "stays-honoured"
    kept: list[int] = []
    trashed: list[int] = []
    for card in reversed(before.c_reserve):
        data = before.game.company_card(card)
        side = data.reserve
        banned = data.kind in before.banned
        if side is not None and side.on_reshuffle and not banned:
            return None
        if side is not None and side.stays and (banned_stays or not banned):
            kept.insert(0, card)
        else:
            trashed.append(card)
    if after.c_reserve != tuple(kept):
        return f"after the Reshuffle the Reserve holds {list(after.c_reserve)}; expected {kept}"
    if after.trash != before.trash + tuple(trashed):
        return (f"after the Reshuffle the trash pile is {list(after.trash)}; the Reserve's cards go on top from "
                f"right to left: {list(before.trash + tuple(trashed))}")
    # any draw still to come after the Sequence (step D's, or under draw-order=reshuffle-first the whole hand's)
    # finds the discards in the deck already
    drawing = after.pending and isinstance(after.pending[0], CompanyDraw | DrawToHandSize)
    if drawing or (after.outcome is not None and after.outcome.reason is OutcomeReason.MARGINALIZATION):
        deck = sorted_cards(before.c_deck + before.c_discard + before.c_hand)
        if after.c_discard or sorted_cards(after.c_deck + after.c_hand) != deck:
            return (f"after the Reshuffle the deck is {list(after.c_deck)} and the discard pile "
                    f"{list(after.c_discard)}; the discards join the deck")
    return None


def _reshuffle_trigger(before: GameState, action: Action, after: GameState) -> str | None:
    """Only the Draw Phase triggers the Reshuffle Sequence; a draw in the Play Phase reshuffles silently."""
    if after.reshuffles == before.reshuffles:
        return None
    if after.reshuffles != before.reshuffles + 1:
        return f"{action} ran {after.reshuffles - before.reshuffles} Reshuffles"
    message = _step_d_last(before, after)
    if message is not None:
        return f"{action}: {message}"
    if isinstance(action, EndBuy):
        return None  # `rule.draw-phase` checks the trigger's condition
    if isinstance(action, Chance) and before.phase is Phase.COMPANY_DRAW and _draw_first(before):
        return None
    return f"{action} in the {before.phase.value} phase triggered a Reshuffle"


def _step_d_last(before: GameState, after: GameState) -> str | None:
    """Reshuffle Sequence: the discards join the deck in step D, after the scoring, the seeding and the Reserve
    (under either draw-order). So while a choice of step C waits (a Reserve card still to resolve, or step D still to
    come), or once a third star has ended the game at step B, no card has joined the deck: it can only have lost the
    cards drawn first, and under draw-order=reshuffle-first, which draws nothing first, not even those."""
    waiting = any(isinstance(step, ResolveReserveCard | ShuffleDiscards) for step in after.pending)
    starred = after.outcome is not None and after.outcome.reason is OutcomeReason.STAR_VICTORY
    if not (waiting or starred):
        return None
    joined = Counter(after.c_deck) - Counter(before.c_deck)
    where = "the game ended at step B" if starred else "step C waits for a choice"
    if joined:
        return (f"cards {sorted(joined.elements())} joined the deck while {where}; the discards join it in step D, "
                "after the scoring, the seeding and the Reserve")
    left = Counter(before.c_deck) - Counter(after.c_deck)
    if left and not _draw_first(before):
        # Ruling draw-order=reshuffle-first: nothing is drawn before the Sequence, and the deck's last cards are
        # shuffled with the discards in step D.
        return (f"cards {sorted(left.elements())} left the deck while {where}; under ruling "
                "draw-order=reshuffle-first the deck keeps its last cards until step D")
    return None


def _draw_offers(state: GameState) -> str | None:
    """In each Buy Phase, play the Draw Phase with exactly five and with four cards left in the deck, and once
    with none left and a Reserve of at least two cards.

    Which deck sizes trigger the Reshuffle Sequence is decided once per turn, at whatever size the
    deck has; moving cards between the deck and the discard pile so that it holds the hand size, and
    one card fewer, asks the engine about both sides of the trigger every turn. With the deck emptied
    into the discard pile the Sequence runs at once under either draw-order ruling; the scoring of the
    table's Victims (`scoring.demographics`) and the Reserve's resolution into the trash pile, right to
    left (`reshuffled_check`; cards with a Reserve side and no reshuffle effects moved from the discard
    pile to fill it up to two), are checked on it every turn instead of at the few real Reshuffles.
    """
    if not at_rest(state) or state.phase is not Phase.COMPANY_BUY or not state.buys:
        return None
    size = state.cards.rules.company_hand_size
    cards = sorted_cards(state.c_deck + state.c_discard)
    if len(cards) < size:
        return None
    for deck_size in (size, size - 1):
        probe = replace(state, c_deck=cards[:deck_size], c_discard=cards[deck_size:])
        after = engine.apply(probe, EndBuy())
        coming = after.reshuffles > probe.reshuffles or any(isinstance(s, ScoreAndSeed) for s in after.pending)
        if coming is not (deck_size < size):
            return (f"a Draw Phase with {deck_size} cards in the deck {'ran' if coming else 'did not run'} the "
                    f"Reshuffle Sequence (it runs when fewer than {size} are left)")
        message = _draw_phase(probe, EndBuy(), after)
        if message is not None:
            return message
    company = state.game.company_card
    fillers = [c for c in cards if (side := company(c).reserve) is not None and not side.on_reshuffle
               and not side.stays][:max(0, 2 - len(state.c_reserve))]
    probe = replace(state, c_deck=(), c_discard=minus(cards, fillers),
                    c_reserve=(*state.c_reserve, *fillers))
    from doubtspec.invariants.groups.scoring import scoring_check

    after = engine.apply(probe, EndBuy())
    message = scoring_check(probe, EndBuy(), after) or reshuffled_check(probe, EndBuy(), after)
    if message is not None:
        return f"with the deck emptied into the discard pile and the Reserve {list(probe.c_reserve)}: {message}"
    return None


def _reshuffle_offers(state: GameState) -> str | None:
    """Before a Draw Phase that triggers a Reshuffle, score Profit at each threshold and one below it.

    Which Social Acceptance row seeds and whether a star is earned depend on the Profit scored, and
    generated games seldom score 12 or more; putting that many Victims among the Elderly (who score
    all and leave) and playing the Draw Phase asks the engine about every boundary of the chart and of
    the star threshold, checked by `scoring.demographics`' arithmetic. Last, every Victim of the supply
    among the Elderly: the supply is empty until step A returns the scored Victims, which step B then seeds.
    """
    if (not at_rest(state) or state.phase is not Phase.COMPANY_BUY or not state.buys
            or len(state.c_deck) >= state.cards.rules.company_hand_size or (_draw_first(state) and state.c_deck)):
        return None
    for card in state.c_reserve:
        reserve = state.game.company_card(card).reserve
        if reserve is not None and reserve.on_reshuffle:
            return None
    from doubtspec.invariants.groups.scoring import scoring_check

    rules, display = state.cards.rules, state.cards.display
    victims_total = sum(state.victims) + in_supply(state, TokenKind.VICTIMS)
    boundaries = {rules.star_threshold - 1, rules.star_threshold}
    for row in display.chart:
        boundaries |= {row.min_profit - 1, row.min_profit}
    supply = list(state.supply)
    for scored in sorted({b for b in boundaries if 0 <= b <= victims_total} | {victims_total}):
        supply[TOKEN_INDEX[TokenKind.VICTIMS]] = victims_total - scored
        probe = replace(state, victims=(0, 0, 0, scored), supply=tuple(supply))
        after = engine.apply(probe, EndBuy())
        message = scoring_check(probe, EndBuy(), after)
        if message is not None:
            return f"what if {scored} Elderly scored: {message}"
    return _star_offers(state, victims_total)


def _star_offers(state: GameState, victims_total: int) -> str | None:
    """The same Reshuffle with stars already earned: one is kept by a Sequence scoring below the threshold, and
    the last one to win, scored at the threshold, ends the game at once (ruling star-timing=immediately), before
    step D moves the discards into the deck."""
    from doubtspec.invariants.groups.scoring import scoring_check

    rules = state.cards.rules
    stars_left = in_supply(state, TokenKind.STARS)

    def probe(scored: int, stars: int) -> GameState | None:
        if not 0 <= scored <= victims_total or not state.stars <= stars <= state.stars + stars_left:
            return None
        supply = list(state.supply)
        supply[TOKEN_INDEX[TokenKind.VICTIMS]] = victims_total - scored
        supply[TOKEN_INDEX[TokenKind.STARS]] -= stars - state.stars
        return replace(state, victims=(0, 0, 0, scored), stars=stars, supply=tuple(supply))

    if rules.stars_to_win > 1 and (kept := probe(rules.star_threshold - 1, max(state.stars, 1))) is not None:
        message = scoring_check(kept, EndBuy(), engine.apply(kept, EndBuy()))
        if message is not None:
            return f"what if {kept.victims[-1]} Elderly scored with {kept.stars} star(s) already earned: {message}"
    last = probe(rules.star_threshold, rules.stars_to_win - 1)
    if last is not None and state.rulings.get("star-timing") == "immediately":
        after = engine.apply(last, EndBuy())
        scored = after.reshuffles == last.reshuffles + 1
        if scored and (after.outcome is None or after.outcome.reason is not OutcomeReason.STAR_VICTORY):
            return (f"what if {rules.star_threshold} Elderly scored with {last.stars} stars already earned: the game "
                    f"went on to {after.summary()}; under star-timing=immediately the last star wins at step B")
        message = _step_d_last(last, after) if scored else None
        if message is not None:
            return f"what if {rules.star_threshold} Elderly scored with {last.stars} stars already earned: {message}"
    return None


@from_card_data
def _resolved_reserve(state: GameState) -> tuple[tuple[int, int, bool], ...]:
    """(card, Profit its reshuffle effects score, whether it stays) for each Company card whose Reserve side
    stays or has reshuffle effects that only score Profit (effects that ask for a choice pause the Sequence)."""
    found = []
    for number, card in sorted(state.cards.company.items()):
        side = card.reserve if card is not None else None
        if side is None or not (side.stays or side.on_reshuffle):
            continue
        if all(isinstance(effect, ScoreProfit) for effect in side.on_reshuffle):
            found.append((int(number), sum(effect.count for effect in side.on_reshuffle
                                           if isinstance(effect, ScoreProfit)), side.stays))
    return tuple(found)


def _reserve_resolve_offers(state: GameState) -> str | None:
    """Before each Draw Phase, put each card whose Reserve side stays or scores at a Reshuffle in the Reserve
    and play the Sequence, against the same Sequence with that card on the trash pile already.

    Reshuffle Sequence C: an unbanned card's reshuffle effects resolve (here: the Profit it scores is the
    whole difference between the two Reshuffles, or what the supply has left after the scoring of steps A-B)
    and a card that says so stays in the Reserve, any other goes to the trash pile. Such cards seldom sit in
    the Reserve at a Reshuffle in generated games. The card's Profit comes in step C, after the chart's row and the
    star (step B) are decided, so the same Reshuffle is also played with the Demographics scoring just short of a
    boundary by the card's Profit (`_scoring_just_short`): both Reshuffles must seed alike; or, in the other rounds,
    with the last star to be earned (`_scoring_last_star`): the game ends before step C, the card unresolved.
    """
    if not at_rest(state) or state.phase is not Phase.COMPANY_BUY:
        return None
    profit_left = in_supply(state, TokenKind.PROFIT)
    for card, profit, stays in _resolved_reserve(state):
        if state.game.company_card(card).kind in state.banned or profit > profit_left:
            continue
        # the natural Reshuffle, and one built on a boundary (in turn with the round)
        built = _scoring_just_short(state, profit) if state.round % 2 else _scoring_last_star(state)
        for base in (state, built):
            message = _reserve_resolves(base, card, profit, stays) if base is not None else None
            if message is not None:
                return message
    return _reserve_doubt_offers(state)


def _scoring_just_short(state: GameState, profit: int) -> GameState | None:
    """`state` with no star yet and only Elderly Victims, as many as make the Sequence score `profit` short of a
    boundary (the star threshold or a chart row's least Profit; one in turn with the round): the Profit a Reserve
    card scores in step C must not reach the boundary for steps A and B. None when the supply cannot take the
    Victims back."""
    display, rules = state.cards.display, state.cards.rules
    boundaries = sorted({rules.star_threshold, *(row.min_profit for row in display.chart)} - {0})
    targets = [b - profit for b in boundaries if b - profit >= 0]
    if not targets:
        return None
    return _elderly_scoring(state, targets[state.round % len(targets)], stars=0)


def _scoring_last_star(state: GameState) -> GameState | None:
    """`state` one star short of the win and with only Elderly Victims, as many as score the star threshold: the
    Sequence ends the game when it earns the star (ruling star-timing), before its step C. None when the supply
    cannot give the Victims or the star."""
    rules = state.cards.rules
    return _elderly_scoring(state, rules.star_threshold, stars=rules.stars_to_win - 1, spare=1)


def _elderly_scoring(state: GameState, elderly: int, stars: int, spare: int = 0) -> GameState | None:
    """`state` with `elderly` Victims among the Elderly and none elsewhere (Scoring Demographics: each scores one
    Profit) and `stars` stars, the tokens moved to and from the supply; None when the supply would keep fewer than
    `spare` Victims or stars."""
    supply = list(state.supply)
    supply[TOKEN_INDEX[TokenKind.VICTIMS]] += sum(state.victims) - elderly
    supply[TOKEN_INDEX[TokenKind.STARS]] += state.stars - stars
    if min(supply[TOKEN_INDEX[TokenKind.VICTIMS]], supply[TOKEN_INDEX[TokenKind.STARS]]) < spare:
        return None
    victims = tuple(elderly if zone is Zone.ELDERLY else 0 for zone in Zone)
    return replace(state, victims=victims, stars=stars, supply=tuple(supply))


def _reserve_resolves(state: GameState, card: int, profit: int, stays: bool) -> str | None:
    """One Reshuffle with `card` at the Reserve's right end against the same with it on the trash pile
    (`_reserve_resolve_offers`), the card taken from wherever it is (a stack, or out of the game, included)."""
    probes = reshuffle_probes(taken_out(state, card), card, state.banned)
    if probes is None:
        return None
    with_card, without_card = (engine.apply(probe, EndBuy()) for probe in probes)
    if with_card.outcome is not None or without_card.outcome is not None:
        # a Star Victory ends the game in step B, before the Reserve resolves: the card is still there, unscored
        if with_card.outcome is not None and with_card.outcome.reason is OutcomeReason.STAR_VICTORY and (
                card not in with_card.c_reserve or with_card.profit != without_card.profit):
            return (f"a Reshuffle that earned the last star with card {card} at the Reserve's right end left it in "
                    f"{_where(with_card, card)} and {with_card.profit - without_card.profit} Profit more than with it "
                    "on the trash pile: the game ends in step B, before the Reserve resolves (step C)")
        return None
    if with_card.victims != without_card.victims or with_card.stars != without_card.stars:
        # steps A and B (the chart's row, the star) look at the Profit scored by the Demographics alone
        return (f"a Reshuffle with card {card} at the Reserve's right end seeded Victims {list(with_card.victims)} "
                f"and left {with_card.stars} stars; with it on the trash pile, {list(without_card.victims)} and "
                f"{without_card.stars}: its Profit (step C) comes after the seeding and the star (B)")
    # The Sequence's scoring comes first (steps A-B): the card's effects get what the supply has left.
    due = min(profit, in_supply(without_card, TokenKind.PROFIT))
    if with_card.profit - without_card.profit != due:
        return (f"a Reshuffle with card {card} at the Reserve's right end scored "
                f"{with_card.profit - without_card.profit} Profit more than with it on the trash pile; its "
                f"reshuffle effects score {profit}" + (f", {due} left in the supply" if due < profit else ""))
    return _destination(with_card, card, stays)


def _destination(after: GameState, card: int, stays: bool) -> str | None:
    """Reshuffle Sequence C: a resolved Reserve card goes to the trash pile unless its Reserve side says it stays."""
    if stays and (card not in after.c_reserve or card in after.trash):
        return f"card {card} stays in the Reserve at a Reshuffle, but it went to {_where(after, card)}"
    if not stays and card not in after.trash:
        return f"card {card} goes to the trash pile at a Reshuffle, but it went to {_where(after, card)}"
    return None


@from_card_data
def _doubting_reserve(state: GameState) -> tuple[tuple[int, DoubtGroup, int], ...]:
    """(card, group, count) for each Company card whose Reserve side's reshuffle effects are one Doubt effect."""
    found = []
    for number, card in sorted(state.cards.company.items()):
        side = card.reserve if card is not None else None
        if side is not None and len(side.on_reshuffle) == 1 and isinstance(side.on_reshuffle[0], AddDoubt):
            effect = side.on_reshuffle[0]
            found.append((int(number), effect.group, effect.count))
    return tuple(found)


def _sequence_through(probe: GameState, started: GameState | None = None) -> GameState:
    """The Draw Phase of `probe` played to the Movement's turn (or the end), the first option at each choice;
    `started` is `probe` after its EndBuy, when the caller has it already."""
    after = engine.apply(probe, EndBuy()) if started is None else started
    for _ in range(_SEQUENCE_STEPS):
        if after.outcome is not None or after.phase is Phase.MOVEMENT_TURN:
            break
        after = engine.apply(after, engine.legal_actions(after)[0])
    return after


_SEQUENCE_STEPS = 80
"""Steps a what-if Draw Phase may take (draws, Doubt and Lobbying choices, the Market's refill) before it stops."""


def _reserve_doubt_offers(state: GameState) -> str | None:
    """At each Buy Phase, a Reshuffle with each card whose reshuffle effect adds Doubt at the Reserve's right end,
    against the same Reshuffle with the card on the trash pile already.

    Reshuffle Sequence C: every card of the Reserve resolves its reshuffle effects, whether it then goes to the
    trash pile or stays. Such a card seldom lies in the Reserve at a Reshuffle in generated games (it may not be
    dealt at all: it is taken from wherever it is); the Sequence is played on with the first option of each
    choice, so the card must place one Doubt more for each of its tokens, as long as the columns of its group
    have a free space and the supply a token, and then go where `_destination` says (reshuffle effects are no
    reason to stay).
    """
    for card, group, count in _doubting_reserve(state):
        if state.game.company_card(card).kind in state.banned:
            continue
        probes = reshuffle_probes(taken_out(state, card), card, state.banned)
        if probes is None:
            continue
        # the card's Doubt is a choice of step C: the Sequence stops there, with the discards not yet in the deck
        started = engine.apply(probes[0], EndBuy())
        message = _step_d_last(probes[0], started) or _left_waits(probes[0], card)
        if message is not None:
            return f"a Reshuffle with card {card} at the Reserve's right end: {message}"
        with_card, without_card = _sequence_through(probes[0], started), _sequence_through(probes[1])
        if with_card.outcome is not None or without_card.outcome is not None:
            continue  # decided in step A or B, before the Reserve resolves
        free = sum(len(without_card.cards.display.doubt_values[z]) - without_card.doubt[z] for z in group.columns)
        expected = min(count, free, in_supply(without_card, TokenKind.DOUBT))
        placed = sum(with_card.doubt) - sum(without_card.doubt)
        if placed != expected:
            return (f"a Reshuffle with card {card} at the Reserve's right end placed {placed} Doubt more than with it "
                    f"on the trash pile; its reshuffle effect places {expected} (group {group.value})")
        side = state.game.company_card(card).reserve
        message = _destination(with_card, card, side is not None and side.stays)
        if message is not None:
            return message
    return _reserve_lobby_offers(state)


def _left_waits(probe: GameState, card: int) -> str | None:
    """Reshuffle Sequence C resolves the Reserve card by card from the right: while `card`, at the right end, waits
    for its Doubt choice, the card to its left has not resolved yet and is still in the Reserve.

    `probe` is one of `reshuffle_probes`; a card from the discard pile whose Reserve side does nothing at a Reshuffle
    is laid to the left of `card`, alone with it (the Reserve's other cards go to the discard pile), so that the
    choice met is `card`'s own. A Reserve of two is rare at a Reshuffle in generated games."""
    quiet = next((c for c in probe.c_discard if c != card and _quiet_reserve(probe, c)), None)
    if quiet is None:
        return None
    discard = sorted_cards(c for c in (*probe.c_discard, *probe.c_reserve) if c not in (quiet, card))
    started = engine.apply(replace(probe, c_reserve=(quiet, card), c_discard=discard), EndBuy())
    head = started.pending[0] if started.pending else None
    if started.outcome is not None or not isinstance(head, ResolveEffect) or not isinstance(head.effect, AddDoubt):
        return None  # decided before step C, or no Doubt to place: nothing waits
    if started.c_reserve[:1] != (quiet,):
        return (f"at its Doubt choice the Reserve held {list(started.c_reserve)}; card {quiet} to its left resolves "
                "after it (step C, right to left), so it is still there")
    return None


def _quiet_reserve(state: GameState, card: int) -> bool:
    """`card` has a Reserve side that neither stays nor has reshuffle effects: step C only trashes it."""
    side = state.game.company_card(card).reserve
    return side is not None and not side.stays and not side.on_reshuffle


@from_card_data
def _lobbying_reserve(state: GameState) -> tuple[tuple[int, int], ...]:
    """(card, Profit its later effects score) for each Company card whose Reserve side Lobbies at a Reshuffle.

    After the first Lobby token is placed, the card's next effects resolve within the same action up to the next one
    that may stop for a choice: the Profit they score (from the supply) is part of what that action changes. A card
    whose Profit could come after a choice that may resolve to nothing (or after a second token of the same Lobby) is
    left out: what its action scores depends on the state."""
    found = []
    for number, card in sorted(state.cards.company.items()):
        effects = card.reserve.on_reshuffle if card is not None and card.reserve is not None else ()
        lobbies = [(i, effect) for i, effect in enumerate(effects) if isinstance(effect, Lobby)]
        if not lobbies:
            continue
        first, lobby = lobbies[0]
        rest = effects[first + 1:]
        stop = next((i for i, effect in enumerate(rest) if isinstance(effect, CHOOSING_EFFECTS)), len(rest))
        later = [e for e in rest[stop:] if isinstance(e, ScoreProfit)]
        scored = sum(e.count for e in rest[:stop] if isinstance(e, ScoreProfit))
        if later or (scored and lobby.count > 1):
            continue
        found.append((int(number), scored))
    return tuple(found)


def _reserve_lobby_offers(state: GameState) -> str | None:
    """At each Buy Phase, a Reshuffle with each card that Lobbies at a Reshuffle alone in the Reserve (taken from
    wherever it is, the Company holding a Profit at least), played to its first Lobby choice: the token placed is
    one of the Company's own Profit (Interference (Company): the Company spends Profit to Lobby), not one from the
    supply. Such a card seldom lies in the Reserve at a Reshuffle in generated games."""
    supply_index = TOKEN_INDEX[TokenKind.PROFIT]
    for card, scores in _lobbying_reserve(state):
        if state.game.company_card(card).kind in state.banned:
            continue
        base = taken_out(state, card)
        base = replace(base, c_reserve=(), c_discard=sorted_cards((*base.c_discard, *base.c_reserve)))
        if base.profit < 1:
            supply = list(base.supply)
            if supply[supply_index] < 1:
                continue
            supply[supply_index] -= 1
            base = replace(base, profit=1, supply=tuple(supply))
        probes = reshuffle_probes(base, card, state.banned)
        if probes is None:
            continue
        after = engine.apply(probes[0], EndBuy())
        for _ in range(_SEQUENCE_STEPS):
            if after.outcome is not None or after.phase is Phase.MOVEMENT_TURN:
                break
            actions = engine.legal_actions(after)
            lobby = next((a for a in actions if isinstance(a, LobbyOn)), None)
            if lobby is None:
                after = engine.apply(after, actions[0])
                continue
            lobbied = engine.apply(after, lobby)
            scored = min(scores, after.supply[supply_index])  # the card's next effects, from what the supply holds
            if (lobbied.profit != after.profit - 1 + scored
                    or lobbied.supply[supply_index] != after.supply[supply_index] - scored):
                return (f"card {card}'s Lobby at a Reshuffle ({lobby}) took the Company's Profit from {after.profit} "
                        f"to {lobbied.profit} and the supply's from {after.supply[supply_index]} to "
                        f"{lobbied.supply[supply_index]}" + (f", its next effects scoring {scored}" if scored else "")
                        + ": the token is one of the Company's own Profit")
            break
    return _staying_order_offers(state)


@from_card_data
def _staying_cards(state: GameState) -> tuple[int, ...]:
    """The Company cards whose Reserve side stays in the Reserve at a Reshuffle, from the card data."""
    return tuple(sorted(n for n, c in state.cards.company.items()
                        if c is not None and c.reserve is not None and c.reserve.stays))


def _staying_order_offers(state: GameState) -> str | None:
    """At each Buy Phase, a Reshuffle with every card that stays at the Reserve's right end, unbanned, in an order
    turned with the round, played to the Movement's turn with the first option of each choice: they are still in
    the Reserve in that order (Reshuffle Sequence C: the Reserve resolves from the right, and a card that stays
    keeps its place). Two such cards seldom meet in the Reserve at a Reshuffle in generated games."""
    staying = _staying_cards(state)
    if len(staying) < 2:
        return None
    turn = state.round % len(staying)
    order = staying[turn:] + staying[:turn]
    base = state
    for card in order:
        base = taken_out(base, card)
    probe = replace(base, banned=(), c_deck=(), c_reserve=(*base.c_reserve, *order),
                    c_discard=sorted_cards(c for c in (*base.c_deck, *base.c_discard) if c not in order))
    after = _sequence_through(probe)
    if after.reshuffles != probe.reshuffles + 1 or (
            after.outcome is not None and after.outcome.reason is OutcomeReason.STAR_VICTORY):
        return None  # no Sequence, or one that ended at step B, before the Reserve resolves
    kept = tuple(card for card in after.c_reserve if card in order)
    if kept != order:
        return (f"a Reshuffle with cards {list(order)}, which stay, at the Reserve's right end (Reserve "
                f"{list(probe.c_reserve)}) left them in the Reserve as {list(kept)}: each keeps its place")
    return None


def _where(state: GameState, card: int) -> str:
    for name in ("c_reserve", "trash", "c_deck", "c_hand", "c_discard"):
        if card in getattr(state, name):
            return name
    return "nowhere the Company keeps cards"


INVARIANTS: tuple[Invariant, ...] = (
    TransitionInvariant("rule.draw-phase", "The Draw Phase discards the hand and triggers a Reshuffle exactly when "
                        "fewer than five cards are left in the deck.", (S.COMPANY_ON_YOUR_GO, S.RESHUFFLE_SEQUENCE),
                        _draw_phase),
    TransitionInvariant("rule.reshuffle-trigger", "Only the Draw Phase triggers the Reshuffle Sequence, once, and its "
                        "discards join the deck only in step D; a draw during the Play Phase reshuffles without it.",
                        (S.RESHUFFLE_SEQUENCE,), _reshuffle_trigger),
    StateInvariant("rule.draw-offers", "A Draw Phase with the hand size left in the deck draws; with one card "
                   "fewer it runs the Reshuffle Sequence, which scores the table's Victims and resolves the Reserve "
                   "as the rules say.", (S.COMPANY_ON_YOUR_GO, S.RESHUFFLE_SEQUENCE), _draw_offers),
    StateInvariant("rule.reshuffle-offers", "A Reshuffle scoring Profit at each boundary of the Social Acceptance "
                   "Chart and of the star threshold seeds and stars as the chart and the threshold say, and with "
                   "the whole supply on the display, seeds from the Victims it scored off.",
                   (S.SCORING_DEMOGRAPHICS, S.SEED_DEMOGRAPHICS), _reshuffle_offers),
    StateInvariant("rule.reserve-resolve-offers", "At a Reshuffle an unbanned Reserve card's reshuffle effects "
                   "(Profit, Doubt, Lobbying) resolve, whether it stays in the Reserve, if it says so, in its place, "
                   "or goes to the trash pile.",
                   (S.RESOLVE_RESERVE,), _reserve_resolve_offers),
)
"""The `rule.*` invariants of this module, in the order they are checked and listed."""
