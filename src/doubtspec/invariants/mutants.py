"""Deliberate breakages of the reference engine, to prove that the invariant checks can fail.

Each mutant is a named context manager that swaps one rule function of the engine for a slightly
wrong one and puts the original back on exit:

    with MUTANTS["hand-limit-off-by-one"].active():
        result = run_fuzz(FuzzOptions(game))      # must report `hand.movement`

A mutant names the invariants expected to catch it. They are for tests and for designers who want
to see what a report looks like; nothing in the product activates them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from doubtspec.invariants import catalog, corpus
from doubtspec.model import company, engine, legal, movement
from doubtspec.model.actions import (
    Action,
    Agitate,
    Buy,
    BuySource,
    End,
    EndBuy,
    EndPlay,
    MovementBuy,
    OrganizePlay,
    Pass,
    PlayReserve,
    PlayStandard,
    Skip,
)
from doubtspec.model.cards import (
    AddDoubt,
    AddRestriction,
    AddVictims,
    BonusKind,
    CompanyEffect,
    Counts,
    DrawCards,
    Icon,
    Lobby,
    MarketAction,
    NamedEffect,
    ScoreProfit,
    TokenKind,
    Trigger,
    Zone,
)
from doubtspec.model.game import Game
from doubtspec.model.state import NO_CARD, TOKEN_INDEX, GameState, Outcome, OutcomeReason, Phase, Side
from doubtspec.model.steps import (
    Activate,
    Agitation,
    CheckProfitVictory,
    CompanyDraw,
    DealGoal,
    DrawToHandSize,
    Effect,
    EndCompanyTurn,
    FillMarket,
    Messaging,
    Organize,
    ResolveEffect,
    ResolveReserveCard,
    ShuffleDiscards,
    StartCompanyTurn,
    StartMovementTurn,
    Step,
    TakeMarketCard,
)
from doubtspec.model.work import Work, replace_at, sorted_with
from doubtspec.rulebook import Section

Patch = tuple[object, str, Any]
"""(module or class, attribute name, replacement)."""


@dataclass(frozen=True, slots=True)
class Mutant:
    """One deliberate breakage: what it does, which invariants must catch it, and its patches."""

    name: str
    description: str
    caught_by: tuple[str, ...]
    patches: Callable[[], tuple[Patch, ...]]

    @contextmanager
    def active(self) -> Iterator[Mutant]:
        """Apply the patches for the duration of the block (not thread-safe: the engine is global)."""
        saved = []
        try:
            for owner, name, replacement in self.patches():
                saved.append((owner, name, getattr(owner, name)))
                setattr(owner, name, replacement)
            catalog.forget()
            corpus.forget()
            yield self
        finally:
            for owner, name, original in reversed(saved):
                setattr(owner, name, original)
            catalog.forget()
            corpus.forget()


# --- the breakages ----------------------------------------------------------------------------


def _scoring_slip() -> tuple[Patch, ...]:
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


def _token_from_nothing() -> tuple[Patch, ...]:
    def pass_turn(w: Work) -> None:
        # Pass gives its Influence (as ruling pass-bonus says) without taking it from the supply.
        none = w.influence == 0 and not (w.game.pass_counts_cards and any(up for _, up in w.tableau))
        w.influence += 2 if none else 1
        w.push(StartCompanyTurn())

    return ((movement, "pass_turn", pass_turn),)


def _ban_ignored() -> tuple[Patch, ...]:
    def is_banned(game: Game, banned: tuple[str, ...], card: int) -> bool:
        return False

    return ((company, "is_banned", is_banned),)


def _hand_limit_off_by_one() -> tuple[Patch, ...]:
    original = GameState.hand_limit

    def hand_limit(self: GameState) -> int:
        return original(self) + 1

    return ((GameState, "hand_limit", hand_limit),)


def _doubt_top_down() -> tuple[Patch, ...]:
    def doubt_cost(game: Game, column: Zone, present: int, count: int) -> int:
        # Removal priced from the top space down instead of the bottom one up.
        values = game.cards.display.doubt_values[column]
        return sum(values[i] for i in range(count))

    return ((movement, "doubt_cost", doubt_cost), (legal, "doubt_cost", doubt_cost))


def _card_duplicated() -> tuple[Patch, ...]:
    def buy(w: Work, card: int, pay: tuple[int, ...]) -> None:
        # A bought card arrives twice in the discard pile.
        company.pay_budget(w, pay)
        w.c_discard = sorted_with(w.c_discard, card, card)
        w.buys += 1
        w.discount = 0

    return ((company, "buy", buy),)


def _profit_victory_ignored() -> tuple[Patch, ...]:
    def check_profit_victory(w: Work) -> None:
        return None

    return ((company, "check_profit_victory", check_profit_victory),)


def _profit_victory_above_target() -> tuple[Patch, ...]:
    def check_profit_victory(w: Work) -> None:
        # The threshold itself does not win: only more than it.
        if w.profit > w.game.cards.rules.profit_to_win:
            w.outcome = Outcome(OutcomeReason.PROFIT_VICTORY, w.round, f"{w.profit} Profit at the end of a Reshuffle")

    return ((company, "check_profit_victory", check_profit_victory),)


def _banned_cards_pay_nothing() -> tuple[Patch, ...]:
    def company_buys(state: GameState) -> list[Action]:
        # Banned cards in the hand are left out of every buy's payment.
        game = state.game
        payers = tuple(c for c in state.c_hand if game.company_card(c).kind not in state.banned)
        return [Buy(source, index, pay) for source, index, _, cost in legal.buy_offers(state)
                for pay in game.payments(payers, cost)]

    return ((legal, "company_buys", company_buys),)


def _trash_at_face_value() -> tuple[Patch, ...]:
    def buy_cost(game: Game, card: int, from_trash: bool, discount: int) -> int:
        # The trash pile's extra cost forgotten.
        return max(0, game.budget[card] - discount)

    return ((company, "buy_cost", buy_cost), (legal, "buy_cost", buy_cost))


def _reshuffle_at_five() -> tuple[Patch, ...]:
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


def _reserve_trashed_left_to_right() -> tuple[Patch, ...]:
    def resolve_reserve_card(w: Work, index: int) -> None:
        # Reshuffle Sequence C resolved from the left: the trash pile gets the Reserve in the wrong order.
        if index < 0:
            return
        leaving = [c for c in w.c_reserve if not ((side := w.game.company_card(c).reserve) is not None
                                                  and side.stays and not company.is_banned(w.game, w.banned, c))]
        w.c_reserve = tuple(c for c in w.c_reserve if c not in leaving)
        w.trash = (*w.trash, *leaving)

    return ((company, "resolve_reserve_card", resolve_reserve_card),)


def _bonus_from_flipped() -> tuple[Patch, ...]:
    def place_in_tableau(w: Work, card: int, right: bool, remove: int | None) -> None:
        # Bonuses taken from the card at the end of the Tableau even when it is flipped.
        if remove is not None:
            removed, _ = w.tableau[remove]
            w.tableau = w.tableau[:remove] + w.tableau[remove + 1:]
            w.m_discard = sorted_with(w.m_discard, removed)
        game = w.game
        neighbour = (w.tableau[-1] if right else w.tableau[0])[0] if w.tableau else None
        w.tableau = (*w.tableau, (card, True)) if right else ((card, True), *w.tableau)
        if neighbour is None:
            return
        new, other = game.movement_card(card), game.movement_card(neighbour)
        bonuses = movement.aligned(new.left, other.right) if right else movement.aligned(new.right, other.left)
        refreshes = 0
        for kind in bonuses:
            if kind.value in ("influence", "messaging", "agitation"):
                movement.gain(w, **{kind.value: 1})
            else:
                refreshes += 1
        movement.refresh(w, refreshes)

    return ((movement, "place_in_tableau", place_in_tableau),)


def _play_one_cheaper() -> tuple[Patch, ...]:
    original = movement.pay_influence

    def pay_influence(w: Work, flip: tuple[int, ...], cost: int) -> None:
        # Every payment one Influence short (the legal moves still ask for the full price).
        original(w, flip, max(0, cost - 1))

    return ((movement, "pay_influence", pay_influence),)


def _pays_only_unequal() -> tuple[Patch, ...]:
    def can_pay(self: Game, others: tuple[int, ...], cost: int) -> bool:
        # The Economic Defeat check compares the rest of the hand with the cost by inequality, not "at least".
        return cost <= 0 or sum(self.budget[c] for c in others) != cost

    return ((Game, "can_pay", can_pay),)


def _restriction_from_empty_pile() -> tuple[Patch, ...]:
    original = movement.achieve

    def achieve(w: Work, slot: int) -> None:
        # A Goal's Restriction card is taken from the pile without looking whether one is left.
        pile = w.game.cards.restriction_pile()
        wants = any(isinstance(e, AddRestriction) for e in w.game.goal(w.goals[slot]).effects)
        if pile is not None and wants and not w.piles[pile]:
            w.c_discard = sorted_with(w.c_discard, w.piles[pile][-1])  # raises IndexError: nothing to take
        original(w, slot)

    return ((movement, "achieve", achieve),)


def _restriction_withheld() -> tuple[Patch, ...]:
    original = movement.achieve

    def achieve(w: Work, slot: int) -> None:
        # A Goal's Restriction card is not added to the Company's discard pile.
        piles = w.piles
        original(w, slot)
        if w.piles != piles:
            moved = [c for c in sum(piles, ()) if c not in sum(w.piles, ())]
            w.c_discard = tuple(c for c in w.c_discard if c not in moved)
            w.piles = piles

    return ((movement, "achieve", achieve),)


def _star_at_thirteen() -> tuple[Patch, ...]:
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


def _four_lobbies() -> tuple[Patch, ...]:
    # The limit of three Profit per card read as four.
    return ((legal, "MAX_LOBBY", 4),)


def _draw_without_reshuffle() -> tuple[Patch, ...]:
    original = company.resolve_effect

    def resolve_effect(w: Work, effect: CompanyEffect) -> None:
        # A card's draw with the deck empty leaves the discards where they are and draws nothing.
        original(w, effect)
        head = w.pending[0] if w.pending else None
        if isinstance(effect, DrawCards) and isinstance(head, CompanyDraw):
            w.pending = (CompanyDraw(head.count, silent=False), *w.pending[1:])

    return ((company, "resolve_effect", resolve_effect),)


def _spent_market_deck_waits() -> tuple[Patch, ...]:
    original = engine._chance_ready

    def chance_ready(w: Work, step: object) -> bool:
        # With the Market deck and the discards spent, an empty Market space still waits for a card.
        if isinstance(step, FillMarket) and not w.m_deck and not w.m_discard and NO_CARD in w.market:
            return True
        return original(w, step)

    return ((engine, "_chance_ready", chance_ready),)


def _lobby_without_profit() -> tuple[Patch, ...]:
    original = legal.effect_choices

    def effect_choices(state: GameState, step: ResolveEffect) -> list[Action]:
        # A Lobby effect offers its targets even when the Company has no Profit to put on them.
        if isinstance(step.effect, Lobby) and state.profit == 0:
            return original(dataclasses.replace(state, profit=1), step)
        return original(state, step)

    return ((legal, "effect_choices", effect_choices),)


def _short_hand_kept() -> tuple[Patch, ...]:
    original = company.marginalize

    def marginalize(w: Work) -> None:
        # A hand one card short after a Reshuffle is kept instead of ending the game.
        if len(w.c_hand) >= w.game.cards.rules.company_hand_size - 1:
            w.pop()
            return
        original(w)

    return ((company, "marginalize", marginalize),)


def _defeat_ignores_bans() -> tuple[Patch, ...]:
    original = legal.can_play_any

    def can_play_any(state: GameState) -> bool:
        # The start of the Company's turn counts banned cards as playable.
        return original(dataclasses.replace(state, banned=()))

    return ((engine, "can_play_any", can_play_any),)


def _banned_reserve_triggers() -> tuple[Patch, ...]:
    def activate_reserve(w: Work, trigger: Trigger, icon: Icon) -> None:
        # Matching Reserve cards trigger even when their kind is banned.
        steps: list[Step] = []
        for card in w.c_reserve:
            side = w.game.company_card(card).reserve
            if side is not None and side.trigger is trigger and side.icon is icon:
                steps.extend(Effect(e) for e in side.effects)
        w.push(*steps)

    return ((company, "activate_reserve", activate_reserve),)


def _banned_reshuffle_effects() -> tuple[Patch, ...]:
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


def _removed_card_to_hand() -> tuple[Patch, ...]:
    original = movement.place_in_tableau

    def place_in_tableau(w: Work, card: int, right: bool, remove: int | None) -> None:
        # The card removed from a full Tableau goes back to the hand instead of the discard pile.
        if remove is None:
            original(w, card, right, remove)
            return
        removed, _ = w.tableau[remove]
        original(w, card, right, remove)
        w.m_discard = tuple(c for c in w.m_discard if c != removed)
        w.m_hand = sorted_with(w.m_hand, removed)

    return ((movement, "place_in_tableau", place_in_tableau),)


def _pacing_without_refresh() -> tuple[Patch, ...]:
    def pacing_passives(w: Work) -> None:
        # Pacing gains the token passives but forgets the Refresh passives.
        influence = messaging = agitation = 0
        for card, up in w.tableau:
            if up:
                passive = w.game.movement_card(card).passive
                influence, messaging, agitation = (influence + passive.influence, messaging + passive.messaging,
                                                   agitation + passive.agitation)
        for number in w.achieved:
            passive = w.game.goal(number).passive
            influence, messaging, agitation = (influence + passive.influence, messaging + passive.messaging,
                                               agitation + passive.agitation)
        movement.gain(w, influence, messaging, agitation)

    return ((movement, "pacing_passives", pacing_passives),)


def _progress_not_credited() -> tuple[Patch, ...]:
    original = legal.agitation_choices

    def agitation_choices(state: GameState, step: Agitation) -> list[Action]:
        # The tokens offered for a Goal ignore the Agitation already on it.
        return original(dataclasses.replace(state, goal_agitation=(0,) * len(state.goal_agitation)), step)

    return ((legal, "agitation_choices", agitation_choices),)


def _unlobby_next_space() -> tuple[Patch, ...]:
    original = company.unlobby

    def unlobby(w: Work, target: int) -> None:
        # Taking back a Market card's Lobbying takes the next space's instead (the last space's is right).
        if target < company.GOAL_TARGET and target + 1 < len(w.market_profit):
            target += 1
        original(w, target)

    return ((company, "unlobby", unlobby),)


def _empty_draw_stalls() -> tuple[Patch, ...]:
    original = engine._chance_ready

    def chance_ready(w: Work, step: object) -> bool:
        # A draw with the deck and the discard pile empty is dropped, but the step after it is left
        # at the head as if it were a chance event.
        if isinstance(step, CompanyDraw) and step.count > 0 and not w.c_deck and not (step.silent and w.c_discard):
            w.pop()
            return True
        return original(w, step)

    return ((engine, "_chance_ready", chance_ready),)


def _organize_wrong_end() -> tuple[Patch, ...]:
    original = movement.organize_play

    def organize_play(w: Work, card: int, right: bool, remove: int | None) -> None:
        # The free play of Organize goes to the other end of the Tableau.
        original(w, card, not right, remove)

    return ((movement, "organize_play", organize_play),)


def _organize_one_end() -> tuple[Patch, ...]:
    original = legal.organize_choices

    def organize_choices(state: GameState) -> list[Action]:
        # Organize's free play is offered at the right end only, even into a Tableau that holds cards.
        return [a for a in original(state) if not (isinstance(a, OrganizePlay) and a.end is End.LEFT)]

    return ((legal, "organize_choices", organize_choices),)


def _organize_removes_below_limit() -> tuple[Patch, ...]:
    def organize_choices(state: GameState) -> list[Action]:
        # Organize's free play always removes a Tableau card, as if the Tableau were full (so none is
        # offered into an empty one).
        if not state.m_hand:
            return []
        ends = (End.LEFT, End.RIGHT) if state.tableau else (End.RIGHT,)
        actions: list[Action] = [OrganizePlay(card, end, r) for card in state.m_hand
                                 for r in range(len(state.tableau)) for end in ends]
        actions.append(Skip(Side.MOVEMENT))
        return actions

    return ((legal, "organize_choices", organize_choices),)


def _shredding_does_nothing() -> tuple[Patch, ...]:
    original = legal.effect_choices

    def effect_choices(state: GameState, step: ResolveEffect) -> list[Action]:
        # The named effect trash_from_hand offers nothing with cards in hand, so it resolves to nothing.
        if isinstance(step.effect, NamedEffect) and state.c_hand:
            return []
        return original(state, step)

    return ((legal, "effect_choices", effect_choices),)


def _supply_overdrawn() -> tuple[Patch, ...]:
    def take(self: Work, kind: TokenKind, wanted: int) -> int:
        # A gain takes all it wants, past what the supply holds (which goes negative).
        i = TOKEN_INDEX[kind]
        self.supply = replace_at(self.supply, i, self.supply[i] - wanted)
        return wanted

    return ((Work, "take", take),)


def _victims_overdrawn() -> tuple[Patch, ...]:
    original = Work.take

    def take(self: Work, kind: TokenKind, wanted: int) -> int:
        # A Victims gain larger than the supply places every Victim it asks for; the supply stops at zero.
        got = original(self, kind, wanted)
        return wanted if kind is TokenKind.VICTIMS else got

    return ((Work, "take", take),)


def _buy_only_when_full() -> tuple[Patch, ...]:
    original = legal.movement_turn

    def movement_turn(state: GameState) -> list[Action]:
        # Buying is offered only with a full hand, instead of below the limit: the Movement never buys.
        actions = original(state)
        if len(state.m_hand) < state.hand_limit():
            return [a for a in actions if not isinstance(a, MovementBuy)]
        return actions

    return ((legal, "movement_turn", movement_turn),)


def _draw_never_ready() -> tuple[Patch, ...]:
    original = engine._chance_ready

    def chance_ready(w: Work, step: object) -> bool:
        # A draw with cards in the deck is taken for not ready but left at the head: the engine loops.
        if isinstance(step, CompanyDraw) and step.count > 0 and w.c_deck:
            return False
        return original(w, step)

    return ((engine, "_chance_ready", chance_ready),)


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
_reshuffle_before_drawing = _draw_order_forced(False)
# The deck's last cards are drawn before the Sequence even under draw-order=reshuffle-first: a bug that only a run
# under that reading (a ruling variant) can meet.
_reshuffle_first_ignored = _draw_order_forced(True)


def _trigger_timing_swapped() -> tuple[Patch, ...]:
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


def _unlobby_after_play() -> tuple[Patch, ...]:
    original = legal.unlobby_actions

    def unlobby_actions(state: GameState) -> list[Action]:
        # Lobbying can be taken back until the first buy, not only before the first play.
        return original(dataclasses.replace(state, plays=state.buys))

    return ((legal, "unlobby_actions", unlobby_actions),)


def _removed_card_lobbying_to_company() -> tuple[Patch, ...]:
    original = company.remove_market_card

    def remove_market_card(w: Work, space: int) -> None:
        # The removed card's Lobbying is credited to the Company's Profit instead of going back to the supply.
        lobbied = w.market_profit[space]
        original(w, space)
        w.take(TokenKind.PROFIT, lobbied)
        w.profit += lobbied

    return ((company, "remove_market_card", remove_market_card),)


def _unlobby_once_per_game() -> tuple[Patch, ...]:
    original = engine._run_auto

    def run_auto(w: Work, step: object) -> None:
        # The start of the Company's turn forgets to clear its removal of Lobbying: once per game, not per turn.
        unlobbied = w.unlobbied
        original(w, step)
        if isinstance(step, StartCompanyTurn):
            w.unlobbied = unlobbied

    return ((engine, "_run_auto", run_auto),)


def _removed_card_to_market_deck() -> tuple[Patch, ...]:
    original = company.remove_market_card

    def remove_market_card(w: Work, space: int) -> None:
        # The removed Market card goes back into the Market deck instead of the Movement's discard pile.
        card = w.market[space]
        original(w, space)
        discard = list(w.m_discard)
        discard.remove(card)
        w.m_discard = tuple(discard)
        w.m_deck = sorted_with(w.m_deck, card)

    return ((company, "remove_market_card", remove_market_card),)


def _profit_before_draw() -> tuple[Patch, ...]:
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


def _banned_staying_card_resolves() -> tuple[Patch, ...]:
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


def _reserve_matched_by_standard_icon() -> tuple[Patch, ...]:
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


def _goal_victory_only_exact() -> tuple[Patch, ...]:
    original = movement.achieve

    def achieve(w: Work, slot: int) -> None:
        # The Goal Victory needs exactly the points to win: a Goal that goes past them lets the game go on.
        original(w, slot)
        target = w.game.cards.rules.goal_points_to_win
        if w.outcome is not None and w.outcome.reason is OutcomeReason.GOAL_VICTORY and (
                sum(w.game.goal(g).points for g in w.achieved) > target):
            w.outcome = None

    return ((movement, "achieve", achieve),)


def _no_flips() -> tuple[Patch, ...]:
    original = legal.flip_sets

    def flip_sets(state: GameState, cost: int, exclude: int | None = None) -> list[tuple[int, ...]]:
        # Face-up cards are never offered for flipping: only tokens pay.
        return [flip for flip in original(state, cost, exclude) if not flip]

    return ((legal, "flip_sets", flip_sets),)


def _effect_once() -> tuple[Patch, ...]:
    original = engine._apply_to_step

    def apply_to_step(w: Work, action: Action) -> None:
        # An effect that needs a choice per token resolves only one of them.
        head = w.pending[0] if w.pending else None
        original(w, action)
        if isinstance(head, ResolveEffect) and w.pending and w.pending[0] == ResolveEffect(
                head.effect, head.remaining - 1, w.pending[0].used if isinstance(w.pending[0], ResolveEffect) else ()):
            w.pop()

    return ((engine, "_apply_to_step", apply_to_step),)


def _first_payments_only() -> tuple[Patch, ...]:
    original = Game.payments

    def payments(self: Game, others: tuple[int, ...], cost: int) -> tuple[tuple[int, ...], ...]:
        # Of the ways to pay with the same number of cards, only the first is offered.
        found = original(self, others, cost)
        return tuple(p for i, p in enumerate(found) if i == 0 or len(found[i - 1]) != len(p))

    return ((Game, "payments", payments),)


def _superfluous_flips() -> tuple[Patch, ...]:
    original = legal.flip_sets

    def flip_sets(state: GameState, cost: int, exclude: int | None = None) -> list[tuple[int, ...]]:
        # Two face-up cards are offered together even when the larger one alone covers the cost.
        found = original(state, cost, exclude)
        up = [(pos, state.game.movement_card(card).influence) for pos, (card, face) in enumerate(state.tableau)
              if face and pos != exclude]
        extra = [(a, b) for (a, va), (b, vb) in combinations(up, 2) if max(va, vb) >= cost > 0 and (a, b) not in found]
        return found + extra

    return ((legal, "flip_sets", flip_sets),)


def _removed_card_pays() -> tuple[Patch, ...]:
    original = legal.flip_sets

    def flip_sets(state: GameState, cost: int, exclude: int | None = None) -> list[tuple[int, ...]]:
        # The card a play into a full Tableau removes may still be flipped to pay for it.
        return original(state, cost, None)

    return ((legal, "flip_sets", flip_sets),)


def _action_icons_face_down() -> tuple[Patch, ...]:
    original = movement.face_up_icons

    def face_up_icons(game: Game, tableau: tuple[tuple[int, bool], ...]) -> Counts:
        # The Actions of the Market spaces count the icons of face-down Tableau cards too.
        return original(game, tuple((card, True) for card, _ in tableau))

    return ((movement, "face_up_icons", face_up_icons),)


def _hand_goals_do_not_stack() -> tuple[Patch, ...]:
    original = Game.goal_hand_bonus

    def goal_hand_bonus(self: Game, achieved: tuple[int, ...]) -> int:
        # Any number of hand-size Goals raise the Movement's hand limit by one in all.
        return min(1, original(self, achieved))

    return ((Game, "goal_hand_bonus", goal_hand_bonus),)


def _agitation_needs_two() -> tuple[Patch, ...]:
    original = legal.agitation_choices

    def agitation_choices(state: GameState, step: Agitation) -> list[Action]:
        # A Goal is offered only with two Agitation or more from icons and tokens together.
        kept = [a for a in original(state, step) if not isinstance(a, Agitate) or step.icons + a.tokens > 1]
        return kept if any(isinstance(a, Agitate) for a in kept) else []

    return ((legal, "agitation_choices", agitation_choices),)


def _agitation_forced() -> tuple[Patch, ...]:
    original = legal.agitation_choices

    def agitation_choices(state: GameState, step: Agitation) -> list[Action]:
        # Declining an Agitation is not offered: the Movement must put its icons or tokens on a Goal.
        return [a for a in original(state, step) if not isinstance(a, Skip)]

    return ((legal, "agitation_choices", agitation_choices),)


def _messaging_goes_on() -> tuple[Patch, ...]:
    original = movement.message

    def message(w: Work, icons: int, zone: Zone, doubts: int, victims: int) -> int:
        # The icons left over start another Messaging, as under messaging-zones=any-zones, whatever the ruling.
        left = original(w, icons, zone, doubts, victims)
        if not w.game.messaging_any_zones:
            w.push(Messaging(left))
        return left

    return ((movement, "message", message),)


def _messaging_icons_reused() -> tuple[Patch, ...]:
    original = movement.message

    def message(w: Work, icons: int, zone: Zone, doubts: int, victims: int) -> int:
        # The next Zone gets every icon again, not only those this Zone left over.
        original(w, icons, zone, doubts, victims)
        return icons

    return ((movement, "message", message),)


def _victims_discounted() -> tuple[Patch, ...]:
    def message(w: Work, icons: int, zone: Zone, doubts: int, victims: int) -> int:
        # Each Victim removed takes one Messaging off the Doubt's price instead of adding one.
        cost = max(0, movement.doubt_cost(w.game, zone, w.doubt[zone], doubts) - victims)
        from_icons = min(icons, cost)
        from_tokens = cost - from_icons
        w.messaging -= from_tokens
        w.give_back(TokenKind.MESSAGING, from_tokens)
        w.doubt = replace_at(w.doubt, zone, w.doubt[zone] - doubts)
        w.give_back(TokenKind.DOUBT, doubts)
        w.victims = replace_at(w.victims, zone, w.victims[zone] - victims)
        w.give_back(TokenKind.VICTIMS, victims)
        movement.gain(w, influence=victims)
        return icons - from_icons

    return ((movement, "message", message),)


def _lobbying_not_charged() -> tuple[Patch, ...]:
    def buy_cost(w: Work, space: int) -> int:
        # The Movement pays the space's cost only: the Profit lobbied onto the card adds nothing.
        return w.game.cards.market[space].cost

    return ((movement, "buy_cost", buy_cost),)


def _lobby_same_card_twice() -> tuple[Patch, ...]:
    original = legal.lobby_targets

    def lobby_targets(state: GameState, used: tuple[int, ...] = ()) -> list[int]:
        # The cards an effect has lobbied already are forgotten: its next token may go on the same card.
        return original(state)

    return ((legal, "lobby_targets", lobby_targets),)


def _rounds_from_two() -> tuple[Patch, ...]:
    original = engine._run_auto

    def _run_auto(w: Work, step: Step) -> None:
        original(w, step)
        # The first Movement turn is counted as round 2, so every round after it is one off too.
        if isinstance(step, StartMovementTurn) and w.round == 1:
            w.round = 2

    return ((engine, "_run_auto", _run_auto),)


def _company_moves_first() -> tuple[Patch, ...]:
    original = engine._run_auto

    def _run_auto(w: Work, step: Step) -> None:
        # Set-Up ends with the Company's turn; the Movement's first turn follows it.
        if isinstance(step, StartMovementTurn) and w.phase is Phase.SETUP:
            step = StartCompanyTurn()
        original(w, step)

    return ((engine, "_run_auto", _run_auto),)


def _draw_reshuffles_early() -> tuple[Patch, ...]:
    original = engine._chance_ready

    def _chance_ready(w: Work, step: object) -> bool:
        # A draw in the Play Phase reshuffles the discards in as soon as the deck holds fewer cards than it draws.
        if isinstance(step, CompanyDraw) and step.silent and 0 < len(w.c_deck) < step.count and w.c_discard:
            company.shuffle_discards(w)
        return original(w, step)

    return ((engine, "_chance_ready", _chance_ready),)


def _pass_counts_face_down() -> tuple[Patch, ...]:
    def pass_turn(w: Work) -> None:
        # Any Tableau card, face down too, counts as Influence held (pass-bonus=no-influence misread, and played
        # under every ruling so that the default games meet it).
        none = w.influence == 0 and not w.tableau
        movement.gain(w, influence=2 if none else 1)
        w.push(StartCompanyTurn())

    return ((movement, "pass_turn", pass_turn),)


def _victims_all_or_nothing() -> tuple[Patch, ...]:
    original = company.resolve_effect

    def resolve_effect(w: Work, effect: CompanyEffect) -> None:
        # A Victims icon the supply cannot cover in full places none (a short supply is not cut).
        if isinstance(effect, AddVictims) and w.supply[TOKEN_INDEX[TokenKind.VICTIMS]] < effect.count:
            return
        original(w, effect)

    return ((company, "resolve_effect", resolve_effect),)


def _discount_leftover_kept() -> tuple[Patch, ...]:
    def buy(w: Work, card: int, pay: tuple[int, ...]) -> None:
        # A discount larger than the card's Budget keeps the rest for the next buy.
        company.pay_budget(w, pay)
        w.c_discard = tuple(sorted((*w.c_discard, card)))
        w.buys += 1
        w.discount -= min(w.discount, w.game.budget[card])

    return ((company, "buy", buy),)


def _lobby_forced() -> tuple[Patch, ...]:
    original = legal.effect_choices

    def effect_choices(state: GameState, step: ResolveEffect) -> list[Action]:
        # A Lobby effect's token cannot be declined once a card may take it.
        choices = original(state, step)
        if isinstance(step.effect, Lobby):
            return [a for a in choices if not isinstance(a, Skip)]
        return choices

    return ((legal, "effect_choices", effect_choices),)


def _loopholes_wakes_banned_reserve() -> tuple[Patch, ...]:
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


def _profit_victory_every_turn() -> tuple[Patch, ...]:
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


def _refresh_spares_paid_cards() -> tuple[Patch, ...]:
    original = movement.buy_card

    def buy_card(w: Work, space: int, flip: tuple[int, ...]) -> None:
        if w.game.cards.market[space].action is not MarketAction.REFRESH:
            original(w, space, flip)
            return
        # The cards flipped to pay for a Refresh buy stay spent: it turns the leftmost other face-down card.
        movement.pay_influence(w, flip, movement.buy_cost(w, space))
        w.give_back(TokenKind.PROFIT, w.market_profit[space])
        w.market_profit = replace_at(w.market_profit, space, 0)
        tableau = list(w.tableau)
        for pos, (card, up) in enumerate(tableau):
            if not up and pos not in flip:
                tableau[pos] = (card, True)
                break
        w.tableau = tuple(tableau)
        w.push(TakeMarketCard(space), StartCompanyTurn())

    return ((movement, "buy_card", buy_card),)


def _goals_set_aside_dealt_first() -> tuple[Patch, ...]:
    original = legal.chance_values

    def chance_values(state: GameState, step: Step) -> tuple[int, ...]:
        # G7-G9 are laid on top of their half instead of shuffled into it, so they fill the first places.
        values = original(state, step)
        if isinstance(step, DealGoal) and step.slot < movement.UPPER_STACK_PLACES:
            return tuple(g for g in values if g >= 7) or values
        return values

    return ((legal, "chance_values", chance_values), (engine, "chance_values", chance_values))


def _declined_agitation_banked() -> tuple[Patch, ...]:
    original = engine._apply_to_step

    def apply_to_step(w: Work, action: Action) -> None:
        # Declining an Agitation keeps its icon Agitation as tokens for a later one.
        step = w.pending[0] if w.pending else None
        original(w, action)
        if isinstance(step, Agitation) and isinstance(action, Skip):
            movement.gain(w, agitation=step.icons)

    return ((engine, "_apply_to_step", apply_to_step),)


def _pass_only_when_stuck() -> tuple[Patch, ...]:
    original = legal.movement_turn

    def movement_turn(state: GameState) -> list[Action]:
        # Pass is read as the way out when the Movement can neither play nor buy.
        actions = original(state)
        others: list[Action] = [a for a in actions if not isinstance(a, Pass)]
        return others or actions

    return ((legal, "movement_turn", movement_turn),)


def _refresh_bonus_cascades() -> tuple[Patch, ...]:
    def place_in_tableau(w: Work, card: int, right: bool, remove: int | None) -> None:
        if remove is not None:
            removed, _ = w.tableau[remove]
            w.tableau = w.tableau[:remove] + w.tableau[remove + 1:]
            w.m_discard = sorted_with(w.m_discard, removed)
        new = w.game.movement_card(card)
        neighbour = next((c for c, up in (reversed(w.tableau) if right else w.tableau) if up), None)
        w.tableau = (*w.tableau, (card, True)) if right else ((card, True), *w.tableau)
        if neighbour is None:
            return
        other = w.game.movement_card(neighbour)
        bonuses = movement.aligned(new.left, other.right) if right else movement.aligned(new.right, other.left)
        for kind in bonuses:
            if kind is not BonusKind.REFRESH:
                movement.gain(w, **{kind.value: 1})
        refreshes = bonuses.count(BonusKind.REFRESH)
        movement.refresh(w, refreshes)
        # A Refresh Bonus only cannot trigger another Refresh: the card it turns up nearer the new card is now the
        # adjacent one, and its other aligned Bonuses are received too.
        rest = w.tableau[:-1] if right else w.tableau[1:]
        nearest = next((c for c, up in (reversed(rest) if right else rest) if up), None)
        if refreshes and nearest is not None and nearest != neighbour:
            turned = w.game.movement_card(nearest)
            for kind in movement.aligned(new.left, turned.right) if right else movement.aligned(new.right, turned.left):
                if kind is not BonusKind.REFRESH:
                    movement.gain(w, **{kind.value: 1})

    return ((movement, "place_in_tableau", place_in_tableau),)


def _reshuffle_effects_keep_card() -> tuple[Patch, ...]:
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


def _chart_counts_reserve_profit() -> tuple[Patch, ...]:
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


def _loopholes_play_wakes_nothing() -> tuple[Patch, ...]:
    original = company.play_standard

    def play_standard(w: Work, card: int, pay: tuple[int, ...]) -> None:
        # A banned card played through Loopholes does its standard side only: it activates no Reserve card.
        original(w, card, pay)
        if company.is_banned(w.game, w.banned, card):
            w.pending = tuple(step for step in w.pending if not isinstance(step, Activate))

    return ((company, "play_standard", play_standard),)


def _turn_opens_in_buy() -> tuple[Patch, ...]:
    original = engine._run_auto

    def run_auto(w: Work, step: object) -> None:
        original(w, step)
        # A Company that cannot play goes on to its Buy Phase, and loses only if it cannot buy either.
        if (isinstance(step, StartCompanyTurn) and w.outcome is not None
                and w.outcome.reason is OutcomeReason.ECONOMIC_DEFEAT and legal.can_buy_any(w.freeze())):
            w.outcome = None
            w.phase = Phase.COMPANY_BUY

    return ((engine, "_run_auto", run_auto),)


def _reshuffle_first_deck_drawn_first() -> tuple[Patch, ...]:
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


def _short_deck_drawn_out() -> tuple[Patch, ...]:
    original = company.resolve_effect

    def resolve_effect(w: Work, effect: CompanyEffect) -> None:
        # Only a deck with no cards left reshuffles in the Play Phase: a short one gives what it holds.
        if isinstance(effect, DrawCards) and 0 < len(w.c_deck) < effect.count:
            w.push(CompanyDraw(len(w.c_deck), silent=True))
            return
        original(w, effect)

    return ((company, "resolve_effect", resolve_effect),)


def _doubt_left_column_first() -> tuple[Patch, ...]:
    original = legal.effect_choices

    def effect_choices(state: GameState, step: ResolveEffect) -> list[Action]:
        # A Doubt effect fills its group's left column first, the right one once it is full.
        choices = original(state, step)
        if isinstance(step.effect, AddDoubt):
            return choices[:1]
        return choices

    return ((legal, "effect_choices", effect_choices),)


def _reshuffle_lobby_from_supply() -> tuple[Patch, ...]:
    original = company.lobby

    def lobby(w: Work, target: int) -> None:
        # A Lobby at a Reshuffle is no play of a card, so its token comes from the supply.
        if w.phase is Phase.COMPANY_DRAW:
            if not w.take(TokenKind.PROFIT, 1):
                return
            w.profit += 1
        original(w, target)

    return ((company, "lobby", lobby),)


def _reserve_right_to_left() -> tuple[Patch, ...]:
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


def _organize_skips_full_tableau() -> tuple[Patch, ...]:
    original = legal.organize_choices

    def organize_choices(state: GameState) -> list[Action]:
        # Organize's play is free, so it cannot pay for the ninth card's removal: a full Tableau takes no card.
        if len(state.tableau) >= state.cards.rules.tableau_limit:
            return [a for a in original(state) if not isinstance(a, OrganizePlay)]
        return original(state)

    return ((legal, "organize_choices", organize_choices),)


def _trash_not_counted_for_defeat() -> tuple[Patch, ...]:
    def can_buy_any(state: GameState) -> bool:
        # Only the piles and stacks count when the Play Phase ends: a trash card is no way out of Economic Defeat.
        total = sum(state.game.budget[c] for c in state.c_hand)
        return any(cost <= total for source, _, _, cost in legal.buy_offers(state) if source is not BuySource.TRASH)

    return ((engine, "can_buy_any", can_buy_any),)


def _blamed_on(rule: Section, kinds: type | tuple[type, ...], instead: Section, reason: str,
               ) -> Callable[[], tuple[Patch, ...]]:
    """A mutant's patches: an illegal action of `kinds` that breaks `rule` is rejected citing `instead`."""

    def patches() -> tuple[Patch, ...]:
        original = engine.explain_illegal

        def explain_illegal(state: GameState, action: Action) -> tuple[Section, str]:
            section, reason_given = original(state, action)
            if section is rule and isinstance(action, kinds):
                return instead, reason
            return section, reason_given

        return ((engine, "explain_illegal", explain_illegal),)

    return patches


# A banned card's standard play is rejected for its payment, as if the ban were not there.
_ban_blamed_on_payment = _blamed_on(Section.COMPANY_INTERFERENCE, PlayStandard, Section.SPENDING_BUDGET,
                                    "the payment does not cover the cost")
# A Company action on the Movement's turn is rejected for its own rules, not for the turn.
_out_of_turn_blamed_on_the_action = _blamed_on(Section.MOVEMENT_ON_YOUR_GO, (EndPlay, EndBuy),
                                               Section.COMPANY_ON_YOUR_GO, "cards are played only in the Play Phase")
# A Company buy in its Play Phase is rejected for what it buys, as if the phase allowed it.
_buy_out_of_phase_blamed_on_buying = _blamed_on(Section.COMPANY_ON_YOUR_GO, Buy, Section.BUYING_CARDS,
                                                "that card cannot be bought from there")
# A play the payment does not cover is rejected for a ban, as if every refused play were banned.
_unpaid_play_blamed_on_a_ban = _blamed_on(Section.SPENDING_BUDGET, (PlayStandard, PlayReserve),
                                          Section.COMPANY_INTERFERENCE, "the card is banned")


def _turn_left_unsaid() -> tuple[Patch, ...]:
    """An action out of turn is rejected citing the right turn with a reason that does not say whose turn it is."""
    original = engine.explain_illegal

    def explain_illegal(state: GameState, action: Action) -> tuple[Section, str]:
        section, reason = original(state, action)
        if reason.endswith("'s turn to act"):
            return section, "not among the legal actions here"
        return section, reason

    return ((engine, "explain_illegal", explain_illegal),)


# A buy from an empty Market space is rejected for its payment, as if a card were there.
_empty_space_blamed_on_payment = _blamed_on(Section.BUYING_A_CARD, MovementBuy, Section.SPENDING_INFLUENCE,
                                            "the flipped cards and tokens do not pay the cost")


def _icons_or_tokens() -> tuple[Patch, ...]:
    original = legal.messaging_choices

    def messaging_choices(state: GameState, step: Messaging) -> list[Action]:
        # Icons and tokens do not add up: a Messaging may spend the larger of the two only.
        return original(dataclasses.replace(state, messaging=0), Messaging(icons=max(step.icons, state.messaging)))

    return ((legal, "messaging_choices", messaging_choices),)


def _part_of_column_clears_it() -> tuple[Patch, ...]:
    original = movement.message

    def message(w: Work, icons: int, zone: Zone, doubts: int, victims: int) -> int:
        # Removing the bottom part of a column's Doubt takes the whole column off the display.
        present = w.doubt[zone]
        left = original(w, icons, zone, doubts, victims)
        if 0 < doubts < present:
            w.doubt = tuple(0 if i == zone else n for i, n in enumerate(w.doubt))
        return left

    return ((movement, "message", message),)


def _progress_kept_on_achieving() -> tuple[Patch, ...]:
    original = movement.agitate

    def agitate(w: Work, icons: int, slot: int, tokens: int) -> None:
        # Achieving a Goal returns the tokens spent now, but the progress on it leaves the game.
        progress = w.goal_agitation[slot]
        achieved = len(w.achieved)
        original(w, icons, slot, tokens)
        if progress and len(w.achieved) > achieved:
            w.take(TokenKind.AGITATION, progress)

    return ((movement, "agitate", agitate),)


def _organize_takes_first() -> tuple[Patch, ...]:
    original = movement.buy_card

    def buy_card(w: Work, space: int, flip: tuple[int, ...]) -> None:
        # Organize takes the space's card before the refill, so the refill fills that space too.
        original(w, space, flip)
        head = w.pending[:3]
        if (len(head) == 3 and isinstance(head[0], Organize) and isinstance(head[1], FillMarket)
                and isinstance(head[2], TakeMarketCard)):
            w.pending = (head[0], head[2], head[1], *w.pending[3:])

    return ((movement, "buy_card", buy_card),)


def _market_deck_not_renewed() -> tuple[Patch, ...]:
    original = engine._chance_ready

    def chance_ready(w: Work, step: object) -> bool:
        # A spent Market deck is not renewed from the discards: the refill stops with the spaces empty.
        if isinstance(step, FillMarket) and NO_CARD in w.market and not w.m_deck:
            w.pop()
            return False
        return original(w, step)

    return ((engine, "_chance_ready", chance_ready),)


def _icons_not_left_on_goal() -> tuple[Patch, ...]:
    original = movement.agitate

    def agitate(w: Work, icons: int, slot: int, tokens: int) -> None:
        # A Goal not achieved keeps only the tokens put on it: the icon Agitation is not converted.
        if icons + tokens >= movement.goal_need(w, slot):
            original(w, icons, slot, tokens)
            return
        w.agitation -= tokens
        w.goal_agitation = replace_at(w.goal_agitation, slot, w.goal_agitation[slot] + tokens)

    return ((movement, "agitate", agitate),)


def _goal_lobbying_not_charged() -> tuple[Patch, ...]:
    original = movement.agitate

    def agitate(w: Work, icons: int, slot: int, tokens: int) -> None:
        # Achieving a Goal compares the Agitation with its printed cost, leaving out the Profit on it.
        if icons + tokens >= movement.goal_need(w, slot) - w.goal_profit[slot]:
            w.agitation -= tokens
            w.give_back(TokenKind.AGITATION, tokens + w.goal_agitation[slot])
            w.goal_agitation = replace_at(w.goal_agitation, slot, 0)
            movement.achieve(w, slot)
            return
        original(w, icons, slot, tokens)

    return ((movement, "agitate", agitate),)


def _pacing_refreshes_first() -> tuple[Patch, ...]:
    def pacing_passives(w: Work) -> None:
        # Pacing flips the Refresh passives' cards face up first, so the flipped cards' passives count too.
        game = w.game
        movement.refresh(w, sum(game.movement_card(c).passive.refresh for c, up in w.tableau if up))
        passives = [game.movement_card(c).passive for c, up in w.tableau if up]
        passives += [game.goal(number).passive for number in w.achieved]
        movement.gain(w, sum(p.influence for p in passives), sum(p.messaging for p in passives),
                      sum(p.agitation for p in passives))

    return ((movement, "pacing_passives", pacing_passives),)


def _restriction_from_trash() -> tuple[Patch, ...]:
    original = movement.achieve

    def achieve(w: Work, slot: int) -> None:
        # With the Restrictions pile empty, a Goal takes a Restriction card from the trash pile instead.
        game = w.game
        adds = any(isinstance(e, AddRestriction) for e in game.goal(w.goals[slot]).effects)
        pile = game.cards.restriction_pile()
        empty = pile is not None and not w.piles[pile]
        original(w, slot)
        found = [c for c in w.trash if game.company_card(c).kind == "restriction"]
        if adds and empty and found:
            w.trash = tuple(c for c in w.trash if c != found[-1])
            w.c_discard = sorted_with(w.c_discard, found[-1])

    return ((movement, "achieve", achieve),)


def _second_lobbying_toggles() -> tuple[Patch, ...]:
    def lobby(w: Work, target: int) -> None:
        # The Profit on the card toggles instead of growing: a second token takes the first away.
        w.profit -= 1
        if target >= company.GOAL_TARGET:
            slot = target - company.GOAL_TARGET
            w.goal_profit = replace_at(w.goal_profit, slot, w.goal_profit[slot] ^ 1)
        else:
            w.market_profit = replace_at(w.market_profit, target, w.market_profit[target] ^ 1)

    return ((company, "lobby", lobby),)


def _marginalized_game_not_over() -> tuple[Patch, ...]:
    original = engine._chance_ready

    def chance_ready(w: Work, step: object) -> bool:
        # A Marginalization sets the outcome but leaves the Draw Phase's refill pending, so the game is
        # never put in its last phase.
        ready = original(w, step)
        return ready or (isinstance(step, DrawToHandSize) and w.outcome is not None)

    return ((engine, "_chance_ready", chance_ready),)


MUTANTS: dict[str, Mutant] = {m.name: m for m in (
    Mutant("scoring-slip", "Scoring keeps half the Adults rounded down instead of up.",
           ("scoring.demographics", "rule.draw-offers"), _scoring_slip),
    Mutant("token-from-nothing", "Pass gives the Movement an Influence token that does not come from the supply.",
           ("tokens.influence", "rule.pass"), _token_from_nothing),
    Mutant("ban-ignored", "Bans are ignored: banned cards can be played and banned Reserve cards trigger.",
           ("ban.play", "reject.banned", "ban.reserve-trigger", "ban.offers"), _ban_ignored),
    Mutant("hand-limit-off-by-one", "The Movement may buy with one card more than its hand limit.",
           ("hand.movement", "reject.full-hand", "hand.movement-buy-offers"), _hand_limit_off_by_one),
    Mutant("doubt-top-down", "Messaging removes Doubt at the top spaces' printed costs instead of the bottom's.",
           ("doubt.order", "doubt.messaging-offers"), _doubt_top_down),
    Mutant("card-duplicated", "A bought card is put into the discard pile twice.",
           ("cards.company",), _card_duplicated),
    Mutant("profit-victory-ignored", "Holding 70 Profit at the end of a Reshuffle does not win.",
           ("outcome.profit-victory", "outcome.profit-offers"), _profit_victory_ignored),
    Mutant("profit-victory-above-target", "Only more than 70 Profit at the end of a Reshuffle wins, not 70 itself.",
           ("outcome.profit-offers",), _profit_victory_above_target),
    Mutant("banned-cards-pay-nothing", "Banned cards in the Company's hand cannot be spent as Budget for a buy.",
           ("rule.buy-offers",), _banned_cards_pay_nothing),
    Mutant("trash-at-face-value", "Cards from the trash pile cost their Budget, without the extra one.",
           ("rule.buy", "rule.buy-offers"), _trash_at_face_value),
    Mutant("reshuffle-at-five", "A deck of exactly five cards triggers a Reshuffle at the Draw Phase.",
           ("rule.draw-phase", "rule.draw-offers"), _reshuffle_at_five),
    Mutant("reserve-trashed-left-to-right",
           "The Reshuffle puts the Reserve into the trash from left to right, skipping its effects.",
           ("rule.draw-phase", "rule.draw-offers"), _reserve_trashed_left_to_right),
    Mutant("bonus-from-flipped", "Tableau Bonuses are taken from the end card even when it is flipped.",
           ("rule.movement-play",), _bonus_from_flipped),
    Mutant("play-one-cheaper", "The Movement pays one Influence less than the price for every play and buy.",
           ("rule.movement-play", "rule.movement-buy"), _play_one_cheaper),
    Mutant("restriction-withheld", "Achieving a Goal does not add its Restriction card to the Company's discard.",
           ("rule.goal", "rule.goal-offers", "rule.lobbied-goal-offers"),
           _restriction_withheld),
    Mutant("pays-only-unequal", "The Economic Defeat check takes a hand worth exactly a card's cost for one that "
           "cannot pay it, and one worth less for one that can.", ("outcome.defeat-boundary-offers",),
           _pays_only_unequal),
    Mutant("restriction-from-empty-pile",
           "A Goal takes its Restriction card from the pile without looking whether one is left.",
           ("rule.goal", "rule.goal-offers"), _restriction_from_empty_pile),
    Mutant("star-at-thirteen", "A Reshuffle scoring exactly the star threshold earns no star.",
           ("scoring.demographics", "rule.reshuffle-offers", "rule.draw-offers"), _star_at_thirteen),
    Mutant("four-lobbies", "A card may hold four Profit tokens of Lobbying.",
           ("lobby.limit", "lobby.offers"), _four_lobbies),
    Mutant("short-hand-kept", "A Reshuffle that refills the hand to one card short does not marginalize.",
           ("hand.marginalization-offers",), _short_hand_kept),
    Mutant("defeat-ignores-bans", "The Economic Defeat check at the start of the turn counts banned cards.",
           ("outcome.economic-defeat", "outcome.defeat-offers"), _defeat_ignores_bans),
    Mutant("banned-reserve-triggers", "Banned Reserve cards still trigger on a matching play.",
           ("ban.reserve-trigger", "ban.trigger-offers"), _banned_reserve_triggers),
    Mutant("banned-reshuffle-effects", "A banned Reserve card's reshuffle effects still resolve.",
           ("scoring.demographics", "ban.reshuffle-offers", "ban.silent-reshuffle-offers"), _banned_reshuffle_effects),
    Mutant("removed-card-to-hand", "The card removed from a full Tableau goes to the hand, not the discard pile.",
           ("rule.movement-play", "tableau.full-offers"), _removed_card_to_hand),
    Mutant("pacing-without-refresh", "Pacing gains the token passives but not the Refresh passives.",
           ("rule.pacing", "rule.pacing-offers"), _pacing_without_refresh),
    Mutant("progress-not-credited", "The Agitation offered for a Goal ignores the Agitation already on it.",
           ("rule.agitation-offers",), _progress_not_credited),
    Mutant("unlobby-next-space", "Taking back a Market card's Lobbying takes the next space's Profit instead.",
           ("rule.unlobby", "rule.unlobby-offers"), _unlobby_next_space),
    Mutant("organize-wrong-end", "The free play of Organize goes to the other end of the Tableau.",
           ("rule.organize-play", "rule.organize-offers"), _organize_wrong_end),
    Mutant("organize-one-end", "Organize's free play is offered at the right end only.",
           ("rule.organize-offers",), _organize_one_end),
    Mutant("organize-removes-below-limit", "Organize's free play removes a Tableau card even below the limit.",
           ("rule.organize-offers", "tableau.removal-offers"), _organize_removes_below_limit),
    Mutant("shredding-does-nothing", "A trash-from-hand effect offers no card to trash, so it resolves to nothing.",
           ("rule.trash-offers",), _shredding_does_nothing),
    Mutant("supply-overdrawn", "A gain larger than the supply takes it all, leaving the supply below zero.",
           ("tokens.exhausted-offers",), _supply_overdrawn),
    Mutant("victims-overdrawn", "A Victims gain larger than the supply still places every Victim it asks for.",
           ("tokens.exhausted-step",), _victims_overdrawn),
    Mutant("buy-only-when-full", "The Movement may buy only with a full hand (never, in effect).",
           ("hand.movement-buy-offers",), _buy_only_when_full),
    Mutant("draw-never-ready", "A draw from a deck with cards is never offered and never dropped: the step loops.",
           ("contract.no-crash",), _draw_never_ready),
    Mutant("reshuffle-before-drawing", "The Reshuffle Sequence runs before the deck's last cards are drawn, "
           "although ruling draw-order says draw first.", ("rule.draw-phase", "rule.draw-offers"),
           _reshuffle_before_drawing),
    Mutant("reshuffle-first-ignored", "Under ruling draw-order=reshuffle-first the deck's last cards are still drawn "
           "before the Sequence (caught only by the ruling variants).", ("rule.draw-phase", "rule.draw-offers"),
           _reshuffle_first_ignored),
    Mutant("draw-without-reshuffle", "A card's draw in the Play Phase with the deck empty draws nothing, instead of "
           "reshuffling the discards without the Sequence.", ("rule.empty-draw-offers",), _draw_without_reshuffle),
    Mutant("spent-market-deck-waits", "With the Market deck and the Movement's discards spent, an empty Market "
           "space still waits for a card, and the game stalls.", ("rule.organize-offers",), _spent_market_deck_waits),
    Mutant("lobby-without-profit", "A Lobby effect offers cards to put Profit on when the Company has none.",
           ("lobby.offers",), _lobby_without_profit),
    Mutant("messaging-icons-reused", "Under ruling messaging-zones=any-zones the Messaging goes on to the next Zone "
           "with all its icons again, not with those left over (caught only by the ruling variants).",
           ("rule.messaging", "doubt.messaging-tokens-offers"), _messaging_icons_reused),
    Mutant("trigger-timing-swapped", "A standard play's trigger fires before the card's own effects, although "
           "ruling trigger-timing says after them.", ("rule.trigger-timing",), _trigger_timing_swapped),
    Mutant("unlobby-after-play", "Lobbying can be taken back after the turn's first play, until the first buy.",
           ("rule.unlobby-offers",), _unlobby_after_play),
    Mutant("removed-card-to-market-deck", "A Market card the Company removes goes back into the Market deck.",
           ("rule.remove-market", "rule.remove-market-offers"), _removed_card_to_market_deck),
    Mutant("removed-card-lobbying-to-company", "A Market card the Company removes gives its Lobbying to the "
           "Company's Profit instead of the supply.", ("rule.remove-market", "rule.remove-market-offers"),
           _removed_card_lobbying_to_company),
    Mutant("unlobby-once-per-game", "The Company's removal of Lobbying is never allowed again once made: the "
           "turn's start does not clear it.", ("rule.company-turn-start", "rule.company-turn-start-offers"),
           _unlobby_once_per_game),
    Mutant("profit-before-draw", "A Reshuffle counts the Profit before the draw at step D, so a Company short of "
           "cards wins on Profit instead of being Marginalized.", ("outcome.profit-offers", "outcome.profit-victory"),
           _profit_before_draw),
    Mutant("banned-staying-card-resolves", "Under ruling banned-reserve=stays-honoured a banned Reserve card that "
           "stays also resolves its reshuffle effects (caught only by the ruling variants).",
           ("ban.silent-reshuffle-offers",), _banned_staying_card_resolves),
    Mutant("reserve-matched-by-standard-icon", "A Reserve card is matched by its standard side's icon, so one whose "
           "sides show different icons never activates.", ("rule.trigger-offers", "rule.company-play"),
           _reserve_matched_by_standard_icon),
    Mutant("goal-victory-only-exact", "A Goal that takes the Movement past the Goal points to win, not exactly to "
           "them, lets the game go on.", ("outcome.goal-victory-offers",), _goal_victory_only_exact),
    Mutant("no-flips", "The Movement is never offered to pay by flipping face-up cards.",
           ("rule.flip-offers", "tableau.full-offers"), _no_flips),
    Mutant("effect-once", "An effect that needs a choice per token (Doubt, Lobbying) resolves only one token.",
           ("rule.doubt-count-offers", "lobby.distinct-offers"), _effect_once),
    Mutant("first-payments-only", "Of the ways to pay a play with the same number of cards, only the first is offered.",
           ("rule.payment-offers",), _first_payments_only),
    Mutant("superfluous-flips", "Two face-up cards are offered to pay together when the larger alone covers the cost.",
           ("rule.influence-payment-offers", "tableau.full-offers"), _superfluous_flips),
    Mutant("removed-card-pays", "The card a play into a full Tableau removes may still be flipped to pay for it.",
           ("tableau.full-offers",), _removed_card_pays),
    Mutant("action-icons-face-down", "Messaging, Agitation and Research count the icons of face-down Tableau cards "
           "too.", ("rule.action-icons-offers", "rule.movement-buy"), _action_icons_face_down),
    Mutant("hand-goals-do-not-stack", "Two hand-size Goals raise the Movement's hand limit by one, not two.",
           ("hand.movement-buy-offers",), _hand_goals_do_not_stack),
    Mutant("agitation-needs-two", "A Goal is offered only with two Agitation or more from icons and tokens.",
           ("rule.agitation-offers", "rule.goal-offers", "rule.lobbied-goal-offers"),
           _agitation_needs_two),
    Mutant("agitation-forced", "An Agitation cannot be declined once a Goal is offered.", ("rule.agitation-offers",),
           _agitation_forced),
    Mutant("messaging-goes-on", "A Messaging goes on to another Zone with its icons left over under messaging-zones="
           "one-zone.", ("rule.messaging", "doubt.messaging-tokens-offers"), _messaging_goes_on),
    Mutant("victims-discounted", "Each Victim a Messaging removes lowers its price by one instead of raising it.",
           ("doubt.order", "doubt.messaging-tokens-offers"), _victims_discounted),
    Mutant("lobbying-not-charged", "A Movement buy pays the space's cost without one Influence per Profit on the card.",
           ("rule.movement-buy", "rule.lobbied-buy-offers"), _lobbying_not_charged),
    Mutant("lobby-same-card-twice", "The second token of a Lobby effect may go on the card its first went on.",
           ("lobby.distinct-offers",), _lobby_same_card_twice),
    Mutant("company-moves-first", "Set-Up ends with the Company's turn, not the Movement's.",
           ("rule.first-turn",), _company_moves_first),
    Mutant("draw-reshuffles-early", "A draw in the Play Phase reshuffles the discards into the deck as soon as the "
           "deck holds fewer cards than it draws.", ("rule.empty-draw-offers",), _draw_reshuffles_early),
    Mutant("pass-counts-face-down", "Pass gives two Influence only with no Tableau card at all, face down ones "
           "included, as if pass-bonus=no-influence counted them, whatever the ruling.", ("rule.pass-offers",),
           _pass_counts_face_down),
    Mutant("victims-all-or-nothing", "A Victims effect larger than what the supply holds places none instead of "
           "what remains.", ("rule.short-supply-offers", "rule.company-play"), _victims_all_or_nothing),
    Mutant("discount-leftover-kept", "A discount larger than the card bought keeps the rest for the next buy.",
           ("rule.buy-offers", "rule.buy"), _discount_leftover_kept),
    Mutant("rounds-from-two", "The Movement's first turn is counted as round 2 (ruling turn-numbering says 1).",
           ("rule.turn-numbering",), _rounds_from_two),
    Mutant("ban-blamed-on-payment", "A banned card's standard play is rejected naming its payment, not the ban.",
           ("reject.banned", "reject.banned-offers"), _ban_blamed_on_payment),
    Mutant("out-of-turn-blamed-on-the-action", "A Company action on the Movement's turn is rejected citing the "
           "Company's own rules, not the Movement's turn.", ("reject.out-of-turn",), _out_of_turn_blamed_on_the_action),
    Mutant("buy-out-of-phase-blamed-on-buying", "A Company buy in its Play Phase is rejected naming the rules on "
           "buying, not the order of the Company's turn.", ("reject.wrong-phase",), _buy_out_of_phase_blamed_on_buying),
    Mutant("unpaid-play-blamed-on-a-ban", "A play the payment does not cover is rejected naming a ban, not the "
           "payment.", ("reject.unpaid-play",), _unpaid_play_blamed_on_a_ban),
    Mutant("turn-left-unsaid", "An action out of turn is rejected citing the right turn, with a reason that does not "
           "say whose turn it is.", ("reject.out-of-turn",), _turn_left_unsaid),
    Mutant("empty-space-blamed-on-payment", "A buy from an empty Market space is rejected naming its payment, not "
           "the empty space.", ("reject.empty-space",), _empty_space_blamed_on_payment),
    Mutant("icons-or-tokens", "A Messaging's icons and tokens do not add up: it may spend the larger of the two.",
           ("doubt.messaging-tokens-offers",), _icons_or_tokens),
    Mutant("part-of-column-clears-it", "Messaging that removes the bottom part of a column's Doubt clears the whole "
           "column.", ("doubt.order", "doubt.messaging-tokens-offers"), _part_of_column_clears_it),
    Mutant("progress-not-returned", "Achieving a Goal returns the Agitation tokens spent, but not those already on "
           "the Goal.", ("rule.goal", "rule.goal-offers"), _progress_kept_on_achieving),
    Mutant("empty-draw-stalls", "A Play-Phase draw with nothing to draw leaves the next step unresolved.",
           ("rule.empty-draw-offers", "rule.company-play", "liveness.actions"), _empty_draw_stalls),
    Mutant("organize-takes-first", "Organize takes the space's card before refilling, so its own space is refilled "
           "at once.", ("rule.organize-offers",), _organize_takes_first),
    Mutant("market-deck-not-renewed", "A spent Market deck is not renewed from the Movement's discards: the spaces "
           "stay empty.", ("rule.organize-offers", "rule.pacing-offers", "rule.pacing-refill"),
           _market_deck_not_renewed),
    Mutant("icons-not-left-on-goal", "An Agitation that does not achieve its Goal leaves only its tokens on it, not "
           "the icons converted.", ("rule.goal", "rule.lobbied-goal-offers"), _icons_not_left_on_goal),
    Mutant("goal-lobbying-not-charged", "Achieving a Goal compares the Agitation with its printed cost, without the "
           "Profit lobbied onto it.", ("rule.goal", "rule.lobbied-goal-offers"), _goal_lobbying_not_charged),
    Mutant("pacing-refreshes-first", "Pacing flips the Refresh passives' cards before gaining the token passives, "
           "so the flipped cards' passives count too.", ("rule.pacing", "rule.pacing-offers"),
           _pacing_refreshes_first),
    Mutant("second-lobbying-toggles", "Lobbying a card that holds one Profit takes it away instead of adding a "
           "second.", ("lobby.distinct-offers", "lobby.moves"), _second_lobbying_toggles),
    Mutant("marginalized-game-not-over", "A Marginalization ends the game but leaves it in the Draw Phase with the "
           "refill of the hand pending.", ("hand.marginalization-offers", "liveness.actions"),
           _marginalized_game_not_over),
    Mutant("restriction-from-trash", "With the Restrictions pile empty, a Goal takes a Restriction card from the "
           "trash pile.", ("rule.goal", "rule.goal-offers"), _restriction_from_trash),
    Mutant("lobby-forced", "A Lobby effect's token cannot be skipped once a card may take it.", ("lobby.offers",),
           _lobby_forced),
    Mutant("loopholes-wakes-banned-reserve", "With Loopholes in the Reserve, banned Reserve cards trigger as if not "
           "banned.", ("ban.trigger-offers",), _loopholes_wakes_banned_reserve),
    Mutant("profit-victory-every-turn", "The 70 Profit win at the end of any Draw Phase, not only one with a "
           "Reshuffle.", ("outcome.profit-offers",), _profit_victory_every_turn),
    Mutant("refresh-spares-paid-cards", "A Refresh buy turns the leftmost face-down card other than those just "
           "flipped to pay for it.", ("rule.refresh-offers", "rule.movement-buy"), _refresh_spares_paid_cards),
    Mutant("trash-not-counted-for-defeat", "Ending the Play Phase is Economic Defeat when only a trash card could be "
           "bought.", ("outcome.trash-defeat-offers", "outcome.economic-defeat"), _trash_not_counted_for_defeat),
    Mutant("goals-set-aside-dealt-first", "G7-G9 lie on top of their half of the Goals, so they fill the first places "
           "of the structure.", ("rule.chance-offers",), _goals_set_aside_dealt_first),
    Mutant("declined-agitation-banked", "Declining an Agitation keeps its icon Agitation as tokens.",
           ("rule.skip-offers", "rule.skip"), _declined_agitation_banked),
    Mutant("pass-only-when-stuck", "Pass is offered only when the Movement can neither play nor buy.",
           ("rule.pass-offers",), _pass_only_when_stuck),
    Mutant("refresh-bonus-cascades", "The card a Refresh Bonus turns up between the new card and its neighbour pays "
           "its own aligned Bonuses.", ("rule.refresh-bonus-offers", "rule.movement-play"), _refresh_bonus_cascades),
    Mutant("reshuffle-effects-keep-card", "A Reserve card with reshuffle effects stays in the Reserve at a Reshuffle.",
           ("rule.reserve-resolve-offers",), _reshuffle_effects_keep_card),
    Mutant("chart-counts-reserve-profit", "The chart's row and the star count the Profit the Reserve scores in step C "
           "too.", ("rule.reserve-resolve-offers",), _chart_counts_reserve_profit),
    Mutant("loopholes-play-wakes-nothing", "A banned card played through Loopholes activates no Reserve card.",
           ("rule.trigger-offers", "rule.company-play"), _loopholes_play_wakes_nothing),
    Mutant("turn-opens-in-buy", "A Company that cannot play starts its turn in the Buy Phase and loses only if it "
           "cannot buy either.", ("outcome.defeat-offers", "outcome.economic-defeat", "rule.company-turn-start"),
           _turn_opens_in_buy),
    Mutant("reshuffle-first-deck-drawn-first", "Under draw-order=reshuffle-first the deck's last cards are drawn after "
           "step C, before the discards join the deck.", ("rule.draw-phase", "rule.draw-offers"),
           _reshuffle_first_deck_drawn_first),
    Mutant("short-deck-drawn-out", "A draw in the Play Phase with a short deck draws what the deck holds and stops.",
           ("rule.empty-draw-offers",), _short_deck_drawn_out),
    Mutant("doubt-left-column-first", "A Doubt effect fills its group's left column first.", ("doubt.group-offers",),
           _doubt_left_column_first),
    Mutant("reshuffle-lobby-from-supply", "A Lobby at a Reshuffle takes its token from the supply, not the Company.",
           ("rule.reserve-resolve-offers",), _reshuffle_lobby_from_supply),
    Mutant("reserve-right-to-left", "The Reserve cards a play activates resolve from right to left.",
           ("rule.trigger-offers", "rule.trigger-timing", "rule.company-play"), _reserve_right_to_left),
    Mutant("organize-skips-full-tableau", "With the Tableau full, Organize offers no free play, only Skip.",
           ("tableau.full-offers", "rule.organize-offers"), _organize_skips_full_tableau),
)}
"""Every mutant by name."""
