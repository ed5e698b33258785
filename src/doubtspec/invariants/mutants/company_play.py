"""Breakages of the Company's plays and their effects: bans, the Reserve cards a play triggers, the supply
it takes from, the effects that need a choice (Doubt, Lobbying, trashing), payments and the draws of a play."""

from __future__ import annotations

from doubtspec.invariants.mutants.mutant import Patch
from doubtspec.model import company, engine, legal
from doubtspec.model.actions import Action, Buy, EndPlay, PlayReserve, PlayStandard, Skip, TrashCard
from doubtspec.model.cards import (
    AddDoubt,
    AddVictims,
    CompanyEffect,
    DrawCards,
    Icon,
    NamedEffect,
    RemoveMarketCard,
    ScoreProfit,
    TokenKind,
    Trigger,
)
from doubtspec.model.game import Game
from doubtspec.model.state import TOKEN_INDEX, Actor, GameState, Side
from doubtspec.model.steps import Activate, CompanyDraw, Effect, FinishPlay, ResolveEffect, Step
from doubtspec.model.work import Work, replace_at


def doubt_column_by_opponent() -> tuple[Patch, ...]:
    original = engine.current_actor

    def current_actor(state: GameState) -> Actor:
        # The Movement picks the column of the Company's Doubt.
        if (state.outcome is None and state.pending and isinstance(state.pending[0], ResolveEffect)
                and isinstance(state.pending[0].effect, AddDoubt)):
            return Actor.MOVEMENT
        return original(state)

    return ((engine, "current_actor", current_actor),)


def ban_ignored() -> tuple[Patch, ...]:
    def is_banned(game: Game, banned: tuple[str, ...], card: int) -> bool:
        return False

    return ((company, "is_banned", is_banned),)


def banned_reserve_triggers() -> tuple[Patch, ...]:
    def activate_reserve(w: Work, trigger: Trigger, icon: Icon) -> None:
        # Matching Reserve cards trigger even when their kind is banned.
        steps: list[Step] = []
        for card in w.c_reserve:
            side = w.game.company_card(card).reserve
            if side is not None and side.trigger is trigger and side.icon is icon:
                steps.extend(Effect(e) for e in side.effects)
        w.push(*steps)

    return ((company, "activate_reserve", activate_reserve),)


def banned_stayer_playable() -> tuple[Patch, ...]:
    original = legal.company_plays

    def company_plays(state: GameState) -> list[Action]:
        # Under banned-reserve=stays-honoured a banned card whose Reserve side stays may still be played into the
        # Reserve, as if honouring its staying meant honouring the card.
        actions = original(state)
        game = state.game
        if not game.banned_stay:
            return actions
        hand = state.c_hand
        for i, card in enumerate(hand):
            side = game.company_card(card).reserve
            if side is not None and side.stays and company.is_banned(game, state.banned, card):
                actions.extend(PlayReserve(card, pay) for pay in game.payments(hand[:i] + hand[i + 1:], side.cost))
        return actions

    return ((legal, "company_plays", company_plays),)


def banned_stayer_triggers() -> tuple[Patch, ...]:
    original = company.activate_reserve

    def activate_reserve(w: Work, trigger: Trigger, icon: Icon) -> None:
        original(w, trigger, icon)
        game = w.game
        if not game.banned_stay:
            return
        # Under banned-reserve=stays-honoured a banned card that stays is read as honoured in full: it triggers too.
        w.push(*(Effect(e) for card in w.c_reserve if (side := game.company_card(card).reserve) is not None
                 and side.stays and side.trigger is trigger and side.icon is icon
                 and company.is_banned(game, w.banned, card) for e in side.effects))

    return ((company, "activate_reserve", activate_reserve),)


def trigger_timing_swapped() -> tuple[Patch, ...]:
    original = company.play_standard

    def play_standard(w: Work, card: int, pay: tuple[int, ...]) -> None:
        # The play reads ruling trigger-timing the other way round: its trigger fires before the card's own
        # effects under after-effects, and after them under before-effects.
        chosen = w.game.trigger_after
        object.__setattr__(w.game, "trigger_after", not chosen)
        try:
            original(w, card, pay)
        finally:
            object.__setattr__(w.game, "trigger_after", chosen)

    return ((company, "play_standard", play_standard),)


def reserve_matched_by_standard_icon() -> tuple[Patch, ...]:
    original = company.activate_reserve

    def activate_reserve(w: Work, trigger: Trigger, icon: Icon) -> None:
        # A Reserve card is matched by its standard side's icon: one whose two sides show other icons never fires.
        reserve = w.c_reserve
        w.c_reserve = tuple(c for c in reserve if (data := w.game.company_card(c)).standard is None
                            or data.reserve is None or data.standard.icon is data.reserve.icon)
        try:
            original(w, trigger, icon)
        finally:
            w.c_reserve = reserve

    return ((company, "activate_reserve", activate_reserve),)


def loopholes_wakes_banned_reserve() -> tuple[Patch, ...]:
    original = company.activate_reserve

    def activate_reserve(w: Work, trigger: Trigger, icon: Icon) -> None:
        # Loopholes in the Reserve lifts the bans for the Reserve too: banned cards there trigger again.
        if company.loopholes_active(w.game, w.c_reserve, w.banned):
            banned, w.banned = w.banned, ()
            original(w, trigger, icon)
            w.banned = banned
            return
        original(w, trigger, icon)

    return ((company, "activate_reserve", activate_reserve),)


def loopholes_play_wakes_nothing() -> tuple[Patch, ...]:
    original = company.play_standard

    def play_standard(w: Work, card: int, pay: tuple[int, ...]) -> None:
        # A banned card played through Loopholes does its standard side only: it activates no Reserve card.
        original(w, card, pay)
        if company.is_banned(w.game, w.banned, card):
            w.pending = tuple(step for step in w.pending if not isinstance(step, Activate))

    return ((company, "play_standard", play_standard),)


def reserve_right_to_left() -> tuple[Patch, ...]:
    def activate_reserve(w: Work, trigger: Trigger, icon: Icon) -> None:
        # The Reserve is worked from right to left, as at a Reshuffle's step C.
        steps: list[Step] = []
        for card in reversed(w.c_reserve):
            side = w.game.company_card(card).reserve
            if side is None or side.trigger is not trigger or side.icon is not icon:
                continue
            if company.is_banned(w.game, w.banned, card):
                continue
            steps.extend(Effect(e) for e in side.effects)
        w.push(*steps)

    return ((company, "activate_reserve", activate_reserve),)


def victims_all_or_nothing() -> tuple[Patch, ...]:
    original = company.resolve_effect

    def resolve_effect(w: Work, effect: CompanyEffect) -> None:
        # A Victims icon the supply cannot cover in full places none (a short supply is not cut).
        if isinstance(effect, AddVictims) and w.supply[TOKEN_INDEX[TokenKind.VICTIMS]] < effect.count:
            return
        original(w, effect)

    return ((company, "resolve_effect", resolve_effect),)


def supply_overdrawn() -> tuple[Patch, ...]:
    def take(self: Work, kind: TokenKind, wanted: int) -> int:
        # A gain takes all it wants, past what the supply holds (which goes negative).
        i = TOKEN_INDEX[kind]
        self.supply = replace_at(self.supply, i, self.supply[i] - wanted)
        return wanted

    return ((Work, "take", take),)


def victims_overdrawn() -> tuple[Patch, ...]:
    original = Work.take

    def take(self: Work, kind: TokenKind, wanted: int) -> int:
        # A Victims gain larger than the supply places every Victim it asks for; the supply stops at zero.
        got = original(self, kind, wanted)
        return wanted if kind is TokenKind.VICTIMS else got

    return ((Work, "take", take),)


def shredding_does_nothing() -> tuple[Patch, ...]:
    original = legal.effect_choices

    def effect_choices(state: GameState, step: ResolveEffect) -> list[Action]:
        # The named effect trash_from_hand offers nothing with cards in hand, so it resolves to nothing.
        if isinstance(step.effect, NamedEffect) and state.c_hand:
            return []
        return original(state, step)

    return ((legal, "effect_choices", effect_choices),)


def effect_once() -> tuple[Patch, ...]:
    original = engine._apply_to_step

    def apply_to_step(w: Work, action: Action) -> None:
        # An effect that needs a choice per token resolves only one of them.
        head = w.pending[0] if w.pending else None
        original(w, action)
        if isinstance(head, ResolveEffect) and w.pending and w.pending[0] == ResolveEffect(
                head.effect, head.remaining - 1, w.pending[0].used if isinstance(w.pending[0], ResolveEffect) else ()):
            w.pop()

    return ((engine, "_apply_to_step", apply_to_step),)


def doubt_left_column_first() -> tuple[Patch, ...]:
    original = legal.effect_choices

    def effect_choices(state: GameState, step: ResolveEffect) -> list[Action]:
        # A Doubt effect fills its group's left column first, the right one once it is full.
        choices = original(state, step)
        if isinstance(step.effect, AddDoubt):
            return choices[:1]
        return choices

    return ((legal, "effect_choices", effect_choices),)


def doubt_guard_reads_victims() -> tuple[Patch, ...]:
    original = legal.effect_choices

    def effect_choices(state: GameState, step: ResolveEffect) -> list[Action]:
        # A Doubt effect resolves to nothing once the Victims supply (not the Doubt one) is empty.
        if isinstance(step.effect, AddDoubt) and state.supply_of(TokenKind.VICTIMS) == 0:
            return []
        return original(state, step)

    return ((legal, "effect_choices", effect_choices),)


def profit_play_withheld_on_short_supply() -> tuple[Patch, ...]:
    original = legal.company_plays

    def company_plays(state: GameState) -> list[Action]:
        # A standard play that scores more Profit than the supply holds is not offered, as if the supply's piece
        # limit forbade it (ruling supply-exhausted has it take what is left).
        game = state.game

        def scores(card: int) -> int:
            side = game.company_card(card).standard
            return 0 if side is None else sum(e.count for e in side.effects if isinstance(e, ScoreProfit))

        return [a for a in original(state) if not (isinstance(a, PlayStandard)
                                                   and scores(a.card) > state.supply_of(TokenKind.PROFIT))]

    return ((legal, "company_plays", company_plays),)


def doubt_effect_lost_on_short_supply() -> tuple[Patch, ...]:
    original = legal.effect_choices

    def effect_choices(state: GameState, step: ResolveEffect) -> list[Action]:
        # A Doubt effect resolves to nothing when the supply cannot cover all the tokens it still has to place.
        if isinstance(step.effect, AddDoubt) and state.supply_of(TokenKind.DOUBT) < step.remaining:
            return []
        return original(state, step)

    return ((legal, "effect_choices", effect_choices),)


def first_payments_only() -> tuple[Patch, ...]:
    original = Game.payments

    def payments(self: Game, others: tuple[int, ...], cost: int) -> tuple[tuple[int, ...], ...]:
        # Of the ways to pay with the same number of cards, only the first is offered.
        found = original(self, others, cost)
        return tuple(p for i, p in enumerate(found) if i == 0 or len(found[i - 1]) != len(p))

    return ((Game, "payments", payments),)


def buy_first_payments_only() -> tuple[Patch, ...]:
    original = legal.company_buys

    def company_buys(state: GameState) -> list[Action]:
        # Of the ways to pay a buy with the same number of cards, only the first is offered (plays keep them all).
        seen: set[tuple[object, int, int]] = set()
        actions: list[Action] = []
        for action in original(state):
            key = (action.source, action.index, len(action.pay)) if isinstance(action, Buy) else None
            if key is None or key not in seen:
                if key is not None:
                    seen.add(key)
                actions.append(action)
        return actions

    return ((legal, "company_buys", company_buys),)


def draws_resolved_first() -> tuple[Patch, ...]:
    original = company.play_standard

    def play_standard(w: Work, card: int, pay: tuple[int, ...]) -> None:
        # A card's draws come before its other effects, so the choices that follow see the cards drawn.
        original(w, card, pay)
        effects = [s for s in w.pending if isinstance(s, Effect)]
        draws = [s for s in effects if isinstance(s.effect, DrawCards)]
        if draws and effects != draws:
            others = iter([*draws, *(s for s in effects if not isinstance(s.effect, DrawCards))])
            w.pending = tuple(next(others) if isinstance(s, Effect) else s for s in w.pending)

    return ((company, "play_standard", play_standard),)


def draw_without_reshuffle() -> tuple[Patch, ...]:
    original = company.resolve_effect

    def resolve_effect(w: Work, effect: CompanyEffect) -> None:
        # A card's draw with the deck empty leaves the discards where they are and draws nothing.
        original(w, effect)
        head = w.pending[0] if w.pending else None
        if isinstance(effect, DrawCards) and isinstance(head, CompanyDraw):
            w.pending = (CompanyDraw(head.count, silent=False), *w.pending[1:])

    return ((company, "resolve_effect", resolve_effect),)


def reshuffle_effects_in_play() -> tuple[Patch, ...]:
    original = engine._chance_ready

    def _chance_ready(w: Work, step: object) -> bool:
        # A draw in the Play Phase that reshuffles also resolves the Reserve cards' reshuffle effects first.
        if isinstance(step, CompanyDraw) and step.silent and step.count > 0 and not w.c_deck and w.c_discard:
            company.shuffle_discards(w)
            sides = [w.game.company_card(c).reserve for c in w.c_reserve
                     if not company.is_banned(w.game, w.banned, c)]
            extra = [Effect(e) for side in sides if side is not None for e in side.on_reshuffle]
            w.push(*extra)
            return not extra
        return original(w, step)

    return ((engine, "_chance_ready", _chance_ready),)


def draw_reshuffles_early() -> tuple[Patch, ...]:
    original = engine._chance_ready

    def _chance_ready(w: Work, step: object) -> bool:
        # A draw in the Play Phase reshuffles the discards in as soon as the deck holds fewer cards than it draws.
        if isinstance(step, CompanyDraw) and step.silent and 0 < len(w.c_deck) < step.count and w.c_discard:
            company.shuffle_discards(w)
        return original(w, step)

    return ((engine, "_chance_ready", _chance_ready),)


def short_deck_drawn_out() -> tuple[Patch, ...]:
    original = company.resolve_effect

    def resolve_effect(w: Work, effect: CompanyEffect) -> None:
        # Only a deck with no cards left reshuffles in the Play Phase: a short one gives what it holds.
        if isinstance(effect, DrawCards) and 0 < len(w.c_deck) < effect.count:
            w.push(CompanyDraw(len(w.c_deck), silent=True))
            return
        original(w, effect)

    return ((company, "resolve_effect", resolve_effect),)


def empty_draw_stalls() -> tuple[Patch, ...]:
    original = engine._chance_ready

    def chance_ready(w: Work, step: object) -> bool:
        # A draw with the deck and the discard pile empty is dropped, but the step after it is left
        # at the head as if it were a chance event.
        if isinstance(step, CompanyDraw) and step.count > 0 and not w.c_deck and not (step.silent and w.c_discard):
            w.pop()
            return True
        return original(w, step)

    return ((engine, "_chance_ready", chance_ready),)


def draw_never_ready() -> tuple[Patch, ...]:
    original = engine._chance_ready

    def chance_ready(w: Work, step: object) -> bool:
        # A draw with cards in the deck is taken for not ready but left at the head: the engine loops.
        if isinstance(step, CompanyDraw) and step.count > 0 and w.c_deck:
            return False
        return original(w, step)

    return ((engine, "_chance_ready", chance_ready),)


def reserve_before_first_play() -> tuple[Patch, ...]:
    original = legal.company_plays

    def company_plays(state: GameState) -> list[Action]:
        # The Reserve read as filled before the turn's first play: later plays go to the standard side only.
        actions = original(state)
        return [a for a in actions if not isinstance(a, PlayReserve)] if state.plays else actions

    return ((legal, "company_plays", company_plays),)


def play_while_you_can() -> tuple[Patch, ...]:
    original = legal.phase_actions

    def phase_actions(state: GameState) -> list[Action]:
        # "Play at least one card" read as "play while you can": the Play Phase ends only when nothing is playable.
        actions = original(state)
        if any(isinstance(a, PlayStandard | PlayReserve) for a in actions):
            return [a for a in actions if not isinstance(a, EndPlay)]
        return actions

    return ((legal, "phase_actions", phase_actions), (engine, "phase_actions", phase_actions))


def free_payments_in_every_order() -> tuple[Patch, ...]:
    original = Game.payments

    def payments(self: Game, others: tuple[int, ...], cost: int) -> tuple[tuple[int, ...], ...]:
        # Under budget-payment=any-cover a cost of nothing may be paid with any set of cards, listed in every order.
        found = original(self, others, cost)
        if cost > 0 or self.minimal_payment:
            return found
        return (*found, *(tuple(reversed(p)) for p in found if len(p) > 1))

    return ((Game, "payments", payments),)


def trash_from_empty_hand_asked() -> tuple[Patch, ...]:
    original = legal.effect_choices

    def effect_choices(state: GameState, step: ResolveEffect) -> list[Action]:
        # A "trash a card from the hand" effect asks even with an empty hand, offering only its decline.
        if isinstance(step.effect, NamedEffect) and step.effect.name == "trash_from_hand" and not state.c_hand:
            return [Skip(Side.COMPANY)]
        return original(state, step)

    return ((legal, "effect_choices", effect_choices),)


def any_cover_skips_budgetless() -> tuple[Patch, ...]:
    original = Game.payments

    def payments(self: Game, others: tuple[int, ...], cost: int) -> tuple[tuple[int, ...], ...]:
        # Under budget-payment=any-cover a card without Budget read as no payer: it is never among the cards paid.
        if not self.minimal_payment:
            others = tuple(c for c in others if self.budget[c])
        return original(self, others, cost)

    return ((Game, "payments", payments),)


def _declinable(kind: type[CompanyEffect]) -> tuple[Patch, ...]:
    original = legal.effect_choices

    def effect_choices(state: GameState, step: ResolveEffect) -> list[Action]:
        # The effect offers Skip beside its own choices, as a Lobby does.
        choices = original(state, step)
        return [*choices, Skip(Side.COMPANY)] if choices and isinstance(step.effect, kind) else choices

    return ((legal, "effect_choices", effect_choices),)


def doubt_declinable() -> tuple[Patch, ...]:
    return _declinable(AddDoubt)


def removal_declinable() -> tuple[Patch, ...]:
    return _declinable(RemoveMarketCard)


def payment_listed_twice() -> tuple[Patch, ...]:
    original = legal.company_plays

    def company_plays(state: GameState) -> list[Action]:
        # A play paid with nothing is listed twice (a payment loop that also yields the empty set).
        plays = original(state)
        return plays + [a for a in plays if isinstance(a, PlayStandard) and not a.pay]

    return ((legal, "company_plays", company_plays),)


def effect_remainder_last() -> tuple[Patch, ...]:
    original = engine._apply_to_step

    def apply_to_step(w: Work, action: Action) -> None:
        # The rest of a multi-token effect is queued behind everything else (the card's discard included).
        head = w.pending[0]
        original(w, action)
        if (isinstance(head, ResolveEffect) and head.remaining > 1 and w.pending
                and isinstance(w.pending[0], ResolveEffect) and w.pending[0].effect == head.effect):
            w.pending = (*w.pending[1:], w.pending[0])

    return ((engine, "_apply_to_step", apply_to_step),)


def skip_declines_one_token() -> tuple[Patch, ...]:
    original = engine._apply_to_step

    def apply_to_step(w: Work, action: Action) -> None:
        # Skip declines one token of an effect; the next token is offered again.
        head = w.pending[0]
        original(w, action)
        if isinstance(head, ResolveEffect) and isinstance(action, Skip) and head.remaining > 1:
            w.push(ResolveEffect(head.effect, head.remaining - 1, head.used))

    return ((engine, "_apply_to_step", apply_to_step),)


def payment_held_in_play() -> tuple[Patch, ...]:
    original = company.play_standard

    def play_standard(w: Work, card: int, pay: tuple[int, ...]) -> None:
        # The cards paid stay in play with the card and are discarded only when its play finishes.
        original(w, card, pay)
        discard = list(w.c_discard)
        for paid in pay:
            discard.remove(paid)
        w.c_discard = tuple(discard)
        w.c_in_play = (*w.c_in_play, *pay)
        end = w.pending.index(FinishPlay(card)) + 1
        w.pending = (*w.pending[:end], *(FinishPlay(paid) for paid in pay), *w.pending[end:])

    return ((company, "play_standard", play_standard),)


def discard_before_trigger() -> tuple[Patch, ...]:
    original = company.play_standard

    def play_standard(w: Work, card: int, pay: tuple[int, ...]) -> None:
        # The card is discarded before the Reserve cards its trigger activates resolve.
        original(w, card, pay)
        steps = list(w.pending)
        activations = [i for i, step in enumerate(steps) if isinstance(step, Activate)]
        finish = steps.index(FinishPlay(card))
        if activations and activations[0] < finish:
            steps.insert(activations[0], steps.pop(finish))
            w.pending = tuple(steps)

    return ((company, "play_standard", play_standard),)


def trash_card_in_play() -> tuple[Patch, ...]:
    original_choices = legal.effect_choices
    original_trash = company.trash_from_hand
    original_finish = company.finish_play

    def effect_choices(state: GameState, step: ResolveEffect) -> list[Action]:
        # A trash from the hand also offers the card being played, which then shreds itself.
        choices = original_choices(state, step)
        if isinstance(step.effect, NamedEffect) and choices:
            choices[-1:-1] = [TrashCard(card) for card in state.c_in_play]
        return choices

    def trash_from_hand(w: Work, card: int) -> None:
        if card in w.c_hand:
            original_trash(w, card)
        else:
            w.c_in_play = tuple(c for c in w.c_in_play if c != card)
            w.trash = (*w.trash, card)

    def finish_play(w: Work, card: int) -> None:
        if card in w.c_in_play:
            original_finish(w, card)

    return ((legal, "effect_choices", effect_choices), (company, "trash_from_hand", trash_from_hand),
            (company, "finish_play", finish_play))


def trash_repeats() -> tuple[Patch, ...]:
    original = company.resolve_effect

    def resolve_effect(w: Work, effect: CompanyEffect) -> None:
        # A trash from the hand may trash every card held, one choice each, until declined.
        if isinstance(effect, NamedEffect) and effect.name == "trash_from_hand":
            w.push(ResolveEffect(effect, max(1, len(w.c_hand))))
            return
        original(w, effect)

    return ((company, "resolve_effect", resolve_effect),)


def budgetless_payers_trashed() -> tuple[Patch, ...]:
    original = company.pay_budget

    def pay_budget(w: Work, pay: tuple[int, ...]) -> None:
        # A paying card of no Budget (only budget-payment=any-cover lets one pay) goes to the trash pile, not the
        # discard pile: it paid nothing.
        spent = tuple(c for c in pay if not w.game.budget[c])
        original(w, tuple(c for c in pay if w.game.budget[c]))
        if spent:
            w.c_hand = tuple(c for c in w.c_hand if c not in spent)
            w.trash = (*w.trash, *spent)

    return ((company, "pay_budget", pay_budget),)
