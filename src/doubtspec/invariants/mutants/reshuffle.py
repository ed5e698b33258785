"""Breakages of the Company's Draw Phase and Reshuffle Sequence: when it runs, the Reserve's step C, scoring,
the Profit Victory and Marginalization."""

from __future__ import annotations

from collections.abc import Callable

from doubtspec.invariants.mutants.mutant import Patch
from doubtspec.model import company, engine, movement
from doubtspec.model.cards import ScoreProfit, TokenKind, Zone
from doubtspec.model.state import Outcome, OutcomeReason, Phase
from doubtspec.model.steps import (
    CheckProfitVictory,
    CompanyDraw,
    DrawToHandSize,
    Effect,
    EndCompanyTurn,
    ResolveReserveCard,
    ScoreAndSeed,
    ShuffleDiscards,
    Step,
)
from doubtspec.model.work import Work, replace_at


def scoring_slip() -> tuple[Patch, ...]:
    original = company.score_and_seed

    def score_and_seed(w: Work) -> None:
        # Adults keep half their Victims rounded down instead of up: with an odd count, one Victim
        # fewer moves on and one Profit fewer is scored (the tokens go back, so they are conserved).
        adults = w.victims[Zone.ADULTS]
        original(w)
        if adults % 2 and w.victims[Zone.MIDDLE_AGE] > 0 and w.profit > 0:
            w.victims = replace_at(w.victims, Zone.MIDDLE_AGE, w.victims[Zone.MIDDLE_AGE] - 1)
            w.give_back(TokenKind.VICTIMS, 1)
            w.profit -= 1
            w.give_back(TokenKind.PROFIT, 1)

    return ((company, "score_and_seed", score_and_seed),)


def star_at_thirteen() -> tuple[Patch, ...]:
    original = company.score_and_seed

    def score_and_seed(w: Work) -> None:
        # The star needs one Profit more than the threshold.
        children, adults, middle, elderly = w.victims
        scored = elderly + middle - 2 * (middle // 3) + adults - adults // 2 + children
        before = w.stars
        original(w)
        if w.stars > before and scored == w.game.cards.rules.star_threshold and w.outcome is None:
            w.stars -= 1
            w.give_back(TokenKind.STARS, 1)

    return ((company, "score_and_seed", score_and_seed),)


def chart_counts_reserve_profit() -> tuple[Patch, ...]:
    original = company.score_and_seed

    def score_and_seed(w: Work) -> None:
        # The chart's row and the star count the Profit the Reserve will score in step C as well.
        game, before = w.game, w.profit
        extra = sum(e.count for card in w.c_reserve if not company.is_banned(game, w.banned, card)
                    and (side := game.company_card(card).reserve) is not None
                    for e in side.on_reshuffle if isinstance(e, ScoreProfit))
        original(w)
        if not extra or w.outcome is not None:
            return
        scored = w.profit - before
        display, rules = game.cards.display, game.cards.rules
        natural, counted = display.seed_for(scored), display.seed_for(scored + extra)
        victims = list(w.victims)
        for zone, (had, more) in enumerate(zip(natural, counted, strict=True)):
            if more > had:
                victims[zone] += w.take(TokenKind.VICTIMS, more - had)
        w.victims = tuple(victims)
        if scored < rules.star_threshold <= scored + extra and w.take(TokenKind.STARS, 1):
            w.stars += 1

    return ((company, "score_and_seed", score_and_seed),)


def reshuffle_at_five() -> tuple[Patch, ...]:
    original = company.start_draw_phase

    def start_draw_phase(w: Work) -> None:
        # A deck of exactly five cards triggers the Reshuffle Sequence too.
        size = w.game.cards.rules.company_hand_size
        if len(w.c_deck) == size:
            w.c_deck, hidden = w.c_deck[:-1], w.c_deck[-1:]
            original(w)
            w.c_deck = tuple(sorted(w.c_deck + hidden))
            return
        original(w)

    return ((company, "start_draw_phase", start_draw_phase),)


def _draw_order_forced(draw_first: bool) -> Callable[[], tuple[Patch, ...]]:
    """A Draw Phase that reads ruling draw-order as `draw_first` says, whatever the game's rulings choose."""

    def patches() -> tuple[Patch, ...]:
        original = company.start_draw_phase

        def start_draw_phase(w: Work) -> None:
            chosen = w.game.draw_first
            object.__setattr__(w.game, "draw_first", draw_first)
            try:
                original(w)
            finally:
                object.__setattr__(w.game, "draw_first", chosen)

        return ((company, "start_draw_phase", start_draw_phase),)

    return patches


# The Sequence runs before the deck's last cards are drawn, whatever ruling draw-order says.
reshuffle_before_drawing = _draw_order_forced(False)


# The deck's last cards are drawn before the Sequence even under draw-order=reshuffle-first: a bug that only a run
# under that reading (a ruling variant) can meet.
reshuffle_first_ignored = _draw_order_forced(True)


def reshuffle_first_deck_drawn_first() -> tuple[Patch, ...]:
    original = company.start_draw_phase

    def start_draw_phase(w: Work) -> None:
        original(w)
        # Under draw-order=reshuffle-first the shuffled discards go under the deck left: its cards come first,
        # drawn after step C while the discards still wait.
        steps = list(w.pending)
        shuffle = next((i for i, step in enumerate(steps) if isinstance(step, ShuffleDiscards)), None)
        if not w.game.draw_first and w.c_deck and shuffle is not None:
            steps.insert(shuffle, CompanyDraw(len(w.c_deck), silent=False))
            w.pending = tuple(steps)

    return ((company, "start_draw_phase", start_draw_phase),)


def reserve_trashed_left_to_right() -> tuple[Patch, ...]:
    def resolve_reserve_card(w: Work, index: int) -> None:
        # Reshuffle Sequence C resolved from the left: the trash pile gets the Reserve in the wrong order.
        if index < 0:
            return
        leaving = [c for c in w.c_reserve if not ((side := w.game.company_card(c).reserve) is not None
                                                  and side.stays and not company.is_banned(w.game, w.banned, c))]
        w.c_reserve = tuple(c for c in w.c_reserve if c not in leaving)
        w.trash = (*w.trash, *leaving)

    return ((company, "resolve_reserve_card", resolve_reserve_card),)


def reserve_cleared_before_effects() -> tuple[Patch, ...]:
    def resolve_reserve_card(w: Work, index: int) -> None:
        # Step C moves every leaving card of the Reserve at once, then queues the cards' effects from the right: a
        # choice of the rightmost card sees the cards to its left gone already.
        steps: list[Step] = []
        for i in range(index, -1, -1):
            card = w.c_reserve[i]
            side = w.game.company_card(card).reserve
            banned = company.is_banned(w.game, w.banned, card)
            if side is not None and not banned:
                steps.extend(Effect(e) for e in side.on_reshuffle)
            if side is None or not side.stays or (banned and not w.game.banned_stay):
                w.c_reserve = w.c_reserve[:i] + w.c_reserve[i + 1:]
                w.trash = (*w.trash, card)
        w.push(*steps)

    return ((company, "resolve_reserve_card", resolve_reserve_card),)


def banned_reshuffle_effects() -> tuple[Patch, ...]:
    original = company.resolve_reserve_card

    def resolve_reserve_card(w: Work, index: int) -> None:
        # A banned Reserve card's reshuffle effects are resolved all the same.
        if 0 <= index < len(w.c_reserve):
            card = w.c_reserve[index]
            side = w.game.company_card(card).reserve
            if side is not None and company.is_banned(w.game, w.banned, card):
                original(w, index)
                w.push(*(Effect(e) for e in side.on_reshuffle))
                return
        original(w, index)

    return ((company, "resolve_reserve_card", resolve_reserve_card),)


def banned_staying_card_resolves() -> tuple[Patch, ...]:
    original = company.resolve_reserve_card

    def resolve_reserve_card(w: Work, index: int) -> None:
        # Under banned-reserve=stays-honoured a banned card that stays also resolves its reshuffle effects.
        data = w.game.company_card(w.c_reserve[index]) if 0 <= index < len(w.c_reserve) else None
        staying = data is not None and data.reserve is not None and data.reserve.stays
        if data is None or not (w.game.banned_stay and staying and data.kind in w.banned):
            original(w, index)
            return
        banned = w.banned
        w.banned = tuple(kind for kind in banned if kind != data.kind)
        try:
            original(w, index)
        finally:
            w.banned = banned

    return ((company, "resolve_reserve_card", resolve_reserve_card),)


def reshuffle_effects_keep_card() -> tuple[Patch, ...]:
    def resolve_reserve_card(w: Work, index: int) -> None:
        if index < 0:
            return
        card = w.c_reserve[index]
        side = w.game.company_card(card).reserve
        banned = company.is_banned(w.game, w.banned, card)
        steps: list[Step] = [Effect(e) for e in side.on_reshuffle] if side is not None and not banned else []
        # The cards with reshuffle effects are read as the exceptions that stay in the Reserve.
        stays = side is not None and (side.stays or bool(side.on_reshuffle))
        if not stays or (banned and not w.game.banned_stay):
            w.c_reserve = w.c_reserve[:index] + w.c_reserve[index + 1:]
            w.trash = (*w.trash, card)
        steps.append(ResolveReserveCard(index - 1))
        w.push(*steps)

    return ((company, "resolve_reserve_card", resolve_reserve_card),)


def staying_card_to_right_end() -> tuple[Patch, ...]:
    original = company.resolve_reserve_card

    def resolve_reserve_card(w: Work, index: int) -> None:
        # A card that stays is taken out and put back at the Reserve's right end, not left in its place.
        card = w.c_reserve[index] if 0 <= index < len(w.c_reserve) else None
        original(w, index)
        if card is not None and card in w.c_reserve:
            w.c_reserve = (*(c for c in w.c_reserve if c != card), card)

    return ((company, "resolve_reserve_card", resolve_reserve_card),)


def reshuffle_lobby_from_supply() -> tuple[Patch, ...]:
    original = company.lobby

    def lobby(w: Work, target: int) -> None:
        # A Lobby at a Reshuffle is no play of a card, so its token comes from the supply.
        if w.phase is Phase.COMPANY_DRAW:
            if not w.take(TokenKind.PROFIT, 1):
                return
            w.profit += 1
        original(w, target)

    return ((company, "lobby", lobby),)


def profit_victory_ignored() -> tuple[Patch, ...]:
    def check_profit_victory(w: Work) -> None:
        return None

    return ((company, "check_profit_victory", check_profit_victory),)


def profit_victory_above_target() -> tuple[Patch, ...]:
    def check_profit_victory(w: Work) -> None:
        # The threshold itself does not win: only more than it.
        if w.profit > w.game.cards.rules.profit_to_win:
            w.outcome = Outcome(OutcomeReason.PROFIT_VICTORY, w.round, f"{w.profit} Profit at the end of a Reshuffle")

    return ((company, "check_profit_victory", check_profit_victory),)


def profit_victory_every_turn() -> tuple[Patch, ...]:
    original = company.start_draw_phase

    def start_draw_phase(w: Work) -> None:
        # The 70 Profit are counted at the end of every Draw Phase, with a Reshuffle or without.
        original(w)
        steps = list(w.pending)
        end = next((i for i, s in enumerate(steps) if isinstance(s, EndCompanyTurn)), None)
        if end is not None and not any(isinstance(s, CheckProfitVictory) for s in steps[:end]):
            steps.insert(end, CheckProfitVictory())
            w.pending = tuple(steps)

    return ((company, "start_draw_phase", start_draw_phase),)


def profit_before_draw() -> tuple[Patch, ...]:
    original = company.start_draw_phase

    def start_draw_phase(w: Work) -> None:
        # The Reshuffle counts the Profit before the draw at step D, so a Company left short of cards wins on
        # Profit instead of being Marginalized.
        original(w)
        steps = list(w.pending)
        draw = next((i for i, s in enumerate(steps) if isinstance(s, DrawToHandSize)), None)
        check = next((i for i, s in enumerate(steps) if isinstance(s, CheckProfitVictory)), None)
        if draw is not None and check is not None and draw < check:
            steps[draw], steps[check] = steps[check], steps[draw]
            w.pending = tuple(steps)

    return ((company, "start_draw_phase", start_draw_phase),)


def short_hand_kept() -> tuple[Patch, ...]:
    original = company.marginalize

    def marginalize(w: Work) -> None:
        # A hand one card short after a Reshuffle is kept instead of ending the game.
        if len(w.c_hand) >= w.game.cards.rules.company_hand_size - 1:
            w.pop()
            return
        original(w)

    return ((company, "marginalize", marginalize),)


def marginalized_game_not_over() -> tuple[Patch, ...]:
    original = engine._chance_ready

    def chance_ready(w: Work, step: object) -> bool:
        # A Marginalization sets the outcome but leaves the Draw Phase's refill pending, so the game is
        # never put in its last phase.
        ready = original(w, step)
        return ready or (isinstance(step, DrawToHandSize) and w.outcome is not None)

    return ((engine, "_chance_ready", chance_ready),)


def profit_victory_named_marginalization() -> tuple[Patch, ...]:
    def check_profit_victory(w: Work) -> None:
        # The Profit Victory is declared under the name of the other way a Reshuffle ends a game.
        if w.profit >= w.game.cards.rules.profit_to_win:
            w.outcome = Outcome(OutcomeReason.MARGINALIZATION, w.round, f"{w.profit} Profit at the end of a Reshuffle")

    return ((company, "check_profit_victory", check_profit_victory),)


def bans_lifted_at_reshuffle() -> tuple[Patch, ...]:
    original = company.resolve_reserve_card

    def resolve_reserve_card(w: Work, index: int) -> None:
        # Once step C has cleared the Reserve, the Banned tokens go back to the supply.
        if index < 0:
            w.give_back(TokenKind.BANS, len(w.banned))
            w.banned = ()
        original(w, index)

    return ((company, "resolve_reserve_card", resolve_reserve_card),)


def passives_in_sequence() -> tuple[Patch, ...]:
    original = company.score_and_seed

    def score_and_seed(w: Work) -> None:
        # The Movement's passives also pay out in the Company's Reshuffle Sequence, and again at Pacing.
        original(w)
        movement.pacing_passives(w)

    return ((company, "score_and_seed", score_and_seed),)


def short_deck_keeps_a_hand_card() -> tuple[Patch, ...]:
    original = company.start_draw_phase

    def start_draw_phase(w: Work) -> None:
        # A Draw Phase that will reshuffle keeps the hand's first card: only the rest is discarded.
        kept = w.c_hand[:1] if len(w.c_deck) < w.game.cards.rules.company_hand_size else ()
        w.c_hand = w.c_hand[len(kept):]
        original(w)
        w.c_hand = tuple(sorted(w.c_hand + kept))

    return ((company, "start_draw_phase", start_draw_phase),)


def banned_stayer_ends_step_c() -> tuple[Patch, ...]:
    original = company.resolve_reserve_card

    def resolve_reserve_card(w: Work, index: int) -> None:
        # Under banned-reserve=stays-honoured a banned card that stays ends step C: the cards on its left are
        # neither resolved nor trashed.
        if index >= 0 and w.game.banned_stay:
            card = w.c_reserve[index]
            side = w.game.company_card(card).reserve
            if side is not None and side.stays and company.is_banned(w.game, w.banned, card):
                return
        original(w, index)

    return ((company, "resolve_reserve_card", resolve_reserve_card),)


def discards_shuffled_before_scoring() -> tuple[Patch, ...]:
    original = company.start_draw_phase

    def start_draw_phase(w: Work) -> None:
        # A Reshuffle with nothing to draw first moves the discards into the deck before it scores (step D
        # before A).
        original(w)
        if w.pending and isinstance(w.pending[0], ScoreAndSeed):
            w.push(ShuffleDiscards())

    return ((company, "start_draw_phase", start_draw_phase),)


def reshuffle_first_deck_discarded_early() -> tuple[Patch, ...]:
    original = company.start_draw_phase

    def start_draw_phase(w: Work) -> None:
        # Under draw-order=reshuffle-first the deck's last cards go onto the discard pile as the Sequence starts, not
        # in step D: the hand drawn after it is the same.
        original(w)
        if not w.game.draw_first and w.pending and isinstance(w.pending[0], ScoreAndSeed) and w.c_deck:
            w.c_discard = tuple(sorted(w.c_discard + w.c_deck))
            w.c_deck = ()

    return ((company, "start_draw_phase", start_draw_phase),)


def discards_shuffled_before_reserve() -> tuple[Patch, ...]:
    original = company.start_draw_phase

    def start_draw_phase(w: Work) -> None:
        # The discards join the deck before the Reserve resolves (step D's shuffle before step C).
        original(w)
        steps = list(w.pending)
        for i in range(len(steps) - 1):
            if isinstance(steps[i], ResolveReserveCard) and isinstance(steps[i + 1], ShuffleDiscards):
                steps[i], steps[i + 1] = steps[i + 1], steps[i]
                w.pending = tuple(steps)
                break

    return ((company, "start_draw_phase", start_draw_phase),)
