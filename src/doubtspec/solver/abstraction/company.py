"""The Company's side as counts per card class and zone: a sound over-approximation, one round per step.

Cards with identical data (Budget, standard side, reserve side) form one class; a state counts
each class's cards in the deck, the hand, the discard pile, the Reserve, the trash pile and the
Market (the piles and the dealt odd/even stacks), plus the Restrictions pile, the four Victim
zones, the Company's Profit and stars, and two latches for the targets (Star Victory, Profit
Victory). Deck order is free: every draw is the best luck, as in the solver's questions.

One transition is one whole round (ruling turn-numbering=round): the Movement's turn, then the
Company's. What is admitted beyond the game, so that every game run is a run of this system:

* the Movement: any Victims removed from any zone within the Messaging it can have spent by then
  (`messaging.MessagingBounds`: none before it can hold any, a Zone's Set-Up Doubt paid first, the
  Messaging of one action and of all actions so far bounded from its cards, Goals and supply), any
  number of Restriction cards moved from the Restrictions pile to the discard (Goals); bans
  are not modelled, so every option a ban removes stays open, and a banned Reserve card's
  activations, reshuffle effects and "stays" are all optional (both readings of banned-reserve);
* a turn's plays are counts per class, not a sequence: their costs are paid from one pool of
  spent Budget (the game pays each play separately and loses the excess; the pool only keeps
  each play's least number of payers, and the plays of cost 1 paying at least the smallest
  Budgets spent, one card each), reserve activations are at most the matching plays times the
  matching cards in the Reserve, draws are at most what
  the played draw effects ask for (and none unless a drawing card held when the turn began is
  played); once a draw reshuffles mid-play, the drawn cards may come from anything discarded so far
  and the deck/discard split after the Play Phase is free (so the loop
  of a cheap draw card through the mid-play reshuffle is counted, never capped);
* buys: any card of a pile or a dealt stack (not only the top), any card of the trash pile at its
  Budget + 1, discounts pooled; Profit and Victims gained may fall short of the printed amount
  (piece limits), Victims (played or seeded) only once the supply is empty;
* Economic Defeat and Marginalization are not applied (a run that would end goes on), and
  Lobbying may spend any Profit up to the lobby effects played.

What is exact: the Draw Phase (five cards, or the Reshuffle Sequence when the deck holds fewer,
under the draw-order ruling in force), the demographic scoring and the Social Acceptance Chart
(Reshuffle Sequence A and B), stars (one per Reshuffle that scores the threshold), the Reserve's
move to the trash pile (C) and the reshuffle of the discards (D), Profit Victory checked at the end
of a Reshuffle. Nothing here caps a turn: plays, buys and draws are unbounded integers.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import z3

from doubtspec.model.cards import (
    AddVictims,
    CompanyCard,
    CompanyEffect,
    Discount,
    DrawCards,
    Lobby,
    NamedEffect,
    ReserveSide,
    ScoreProfit,
    StandardSide,
    TokenKind,
    Zone,
)
from doubtspec.model.game import Game
from doubtspec.model.state import GameState
from doubtspec.solver.abstraction.messaging import MessagingBounds
from doubtspec.solver.abstraction.system import Fresh, Lemma, RoundSystem, State

ZONES = tuple(Zone)
STAR = "won_star"
PROFIT = "won_profit"


@dataclass(frozen=True, slots=True)
class EffectTotals:
    """What one resolution of an effect list asks for, summed by kind."""

    victims: tuple[int, int, int, int] = (0, 0, 0, 0)
    profit: int = 0
    draw: int = 0
    discount: int = 0
    lobby: int = 0
    trash: int = 0

    @classmethod
    def of(cls, effects: Iterable[CompanyEffect]) -> EffectTotals:
        victims = [0, 0, 0, 0]
        profit = draw = discount = lobby = trash = 0
        for effect in effects:
            match effect:
                case AddVictims(zone=zone, count=count):
                    victims[zone] += count
                case ScoreProfit(count=count):
                    profit += count
                case DrawCards(count=count):
                    draw += count
                case Discount(amount=amount):
                    discount += amount
                case Lobby(count=count):
                    lobby += count
                case NamedEffect(name="trash_from_hand"):
                    trash += 1
                case _:
                    pass  # Doubt and Market removal touch only what the abstraction leaves free
        return cls((victims[0], victims[1], victims[2], victims[3]), profit, draw, discount, lobby, trash)


@dataclass(frozen=True, slots=True)
class CardClass:
    """Cards whose data is identical: they are interchangeable for every rule."""

    index: int
    numbers: tuple[int, ...]
    budget: int
    standard: StandardSide | None
    reserve: ReserveSide | None
    in_market: bool
    """Some card of the class can be bought from a pile or a stack."""
    restriction: bool
    """Some card of the class lies in the Restrictions pile."""
    trashable: bool
    """The class can reach the trash pile (a Reserve side, or any card when a trash effect exists)."""

    @property
    def name(self) -> str:
        return f"k{self.index}"

    @property
    def standard_totals(self) -> EffectTotals:
        return EffectTotals.of(self.standard.effects) if self.standard else EffectTotals()

    @property
    def reserve_totals(self) -> EffectTotals:
        return EffectTotals.of(self.reserve.effects) if self.reserve else EffectTotals()

    @property
    def reshuffle_totals(self) -> EffectTotals:
        return EffectTotals.of(self.reserve.on_reshuffle) if self.reserve else EffectTotals()


def _matches(game: Game) -> tuple[set[tuple[object, object]], set[tuple[object, object]]]:
    """(trigger, icon) pairs of standard sides and of triggered reserve sides in the card file."""
    standard: set[tuple[object, object]] = set()
    reserve: set[tuple[object, object]] = set()
    for number in game.cards.company:
        card = game.company_card(number)
        if card.standard is not None and card.standard.trigger is not None:
            standard.add((card.standard.trigger, card.standard.icon))
        if card.reserve is not None and card.reserve.trigger is not None:
            reserve.add((card.reserve.trigger, card.reserve.icon))
    return standard, reserve


def _data_key(game: Game, card: CompanyCard) -> tuple[object, ...]:
    """What the abstraction sees of a card: cards with equal keys are counted together.

    Doubt and Market removal are left free by the abstraction, so cards that differ only in those
    effects (or in a trigger nothing can match) are interchangeable here.
    """
    standard_pairs, reserve_pairs = _matches(game)
    std: tuple[object, ...] | None = None
    if card.standard is not None:
        pair = (card.standard.trigger, card.standard.icon)
        std = (card.standard.cost, EffectTotals.of(card.standard.effects), pair if pair in reserve_pairs else None)
    res: tuple[object, ...] | None = None
    if card.reserve is not None:
        side = card.reserve
        pair = (side.trigger, side.icon)
        res = (side.cost, EffectTotals.of(side.effects) if pair in standard_pairs else None,
               pair if pair in standard_pairs else None, EffectTotals.of(side.on_reshuffle), side.stays)
    return (card.budget, std, res)


def covered_classes(class_of: dict[int, int], buyable: tuple[int, ...],
                    stack_pairs: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    """The (covered class, covering class) pairs for which the Market's counts obey a stack's order.

    Under ruling stack-buy (Company Set-Up; its one choice: only a stack's top card can be bought) the even card
    of a dealt stack must leave the Market before its odd card can. When every Market card of a class O is an odd
    card whose even partner is of one class E, and every Market card of E is the even card of such a stack (neither
    class in a pile, in another kind of stack or on the other side of one), each E card still in the Market lies
    on its own O card, which is still there: the Market holds at least as many O cards as E cards, in every game.
    Without this the abstraction bought an odd card from under its partner (on `tests/data/large.toml`, a
    Distribution Network in round 1, which made a star after round 3 possible in the abstraction alone)."""
    in_piles = {class_of[n] for n in buyable}
    partners_of_odd: dict[int, set[int]] = {}
    partners_of_even: dict[int, set[int]] = {}
    for odd, even in stack_pairs:
        partners_of_odd.setdefault(class_of[odd], set()).add(class_of[even])
        partners_of_even.setdefault(class_of[even], set()).add(class_of[odd])
    pairs = []
    for odd_class, evens in sorted(partners_of_odd.items()):
        if len(evens) != 1:
            continue
        even_class = next(iter(evens))
        if (odd_class != even_class and partners_of_even[even_class] == {odd_class}
                and not {odd_class, even_class} & in_piles
                and odd_class not in partners_of_even and even_class not in partners_of_odd):
            pairs.append((odd_class, even_class))
    return tuple(pairs)


@dataclass(frozen=True, slots=True)
class CompanyLayout:
    """The card file and rulings seen as classes: which variables exist and what each class does."""

    game: Game
    classes: tuple[CardClass, ...]
    class_of: dict[int, int]
    """Card number to class index."""
    restriction_numbers: tuple[int, ...]
    buyable_pile_numbers: tuple[int, ...]
    stack_pairs: tuple[tuple[int, int], ...]
    covered: tuple[tuple[int, int], ...] = ()
    """(covered class, covering class) index pairs: every Market card of the first is a stack's odd card and every
    Market card of the second is the even card lying on one of them (`covered_classes`). Not part of the round
    relation (see `stack_order`)."""

    @classmethod
    def of(cls, game: Game) -> CompanyLayout:
        data = game.cards
        groups: dict[tuple[object, ...], list[int]] = {}
        for number in sorted(data.company):
            groups.setdefault(_data_key(game, game.company_card(number)), []).append(int(number))
        restriction = tuple(int(n) for p in data.piles if p.kind == "restriction" for n in p.cards)
        # The Restrictions pile is its own zone (Goals take from it); under restriction-pile-buy=buyable
        # the Company may buy from it too (see `step`), so it is never counted in the Market as well.
        buyable = tuple(int(n) for p in data.piles if p.kind != "restriction" for n in p.cards)
        stacked = {int(n) for pair in data.stack_pairs for n in pair}
        trash_effect = any(EffectTotals.of(_all_effects(game.company_card(n))).trash for n in data.company)
        classes = []
        class_of: dict[int, int] = {}
        for index, numbers in enumerate(groups.values()):
            card = game.company_card(numbers[0])
            classes.append(CardClass(
                index, tuple(numbers), card.budget, card.standard, card.reserve,
                in_market=any(n in buyable or n in stacked for n in numbers),
                restriction=any(n in restriction for n in numbers),
                trashable=card.reserve is not None or trash_effect,
            ))
            for n in numbers:
                class_of[n] = index
        pairs = tuple((int(a), int(b)) for a, b in data.stack_pairs)
        return cls(game, tuple(classes), class_of, restriction, buyable, pairs,
                   covered_classes(class_of, buyable, pairs))

    # --- variables ---

    def variables(self) -> tuple[str, ...]:
        names: list[str] = []
        for k in self.classes:
            names += [f"deck_{k.name}", f"hand_{k.name}", f"discard_{k.name}"]
            if k.reserve is not None:
                names.append(f"reserve_{k.name}")
            if k.trashable:
                names.append(f"trash_{k.name}")
            if k.in_market:
                names.append(f"market_{k.name}")
            if k.restriction:
                names.append(f"restrictions_{k.name}")
        names += [f"victims_{z.key}" for z in ZONES]
        names += ["profit", "stars", STAR, PROFIT]
        return tuple(names)

    def stack_order(self, state: State, pairs: Iterable[tuple[int, int]] | None = None) -> list[z3.BoolRef]:
        """The Market's stack order at a state between rounds, for `pairs` of `covered` (all by default): the
        covered class's Market count is at least the covering class's. Every game state between rounds meets it
        (checked against the engine in `tests/test_solver_abstraction_company.py`); the round relation does not
        imply it, since it lets any card of a dealt stack be bought, so a check that asserts it excludes runs
        that are no games. The star cut asserts it as facts before its CP-SAT ask (`ScheduleProver._refine`): on
        `tests/data/large.toml` it refuses an abstract run with a star after round 3 that bought Distribution
        Network (#61) from under Sales Conference (#62). Inside the round relation it had slowed the shipped set's
        bound."""
        chosen = self.covered if pairs is None else pairs
        return [state[f"market_{self.classes[odd].name}"] >= state[f"market_{self.classes[even].name}"]
                for odd, even in chosen]

    def total_cards(self, k: CardClass) -> int:
        return len(k.numbers)

    def cube_terms(self, state: State) -> list[dict[str, z3.ArithRef]]:
        """What a blocked cube (`cube_blocking`) may bound, coarsest first: each class counted over the hand,
        deck and discard pile together (after a Reshuffle Sequence which of its cards are drawn is the best
        luck's choice) with their sums, then every variable. The Market is left out of both: it only limits
        what a round may buy, which no cube needs pinned."""
        kept = {name: term for name, term in state.items() if not name.startswith("market_")}
        coarse = {name: term for name, term in kept.items() if not name.startswith(("hand_", "deck_", "discard_"))}
        owned = {k.name: state[f"hand_{k.name}"] + state[f"deck_{k.name}"] + state[f"discard_{k.name}"]
                 for k in self.classes}
        coarse.update({f"owned_{name}": term for name, term in owned.items()})
        # Sums over the classes: how many cards and how much Budget the Company holds, which is what limits
        # most combinations of purchases (a cube on them stands for every combination at once).
        coarse["total_cards"] = z3.Sum(list(owned.values()))
        coarse["total_budget"] = z3.Sum([k.budget * owned[k.name] for k in self.classes if k.budget])
        return [coarse, kept]

    # --- a concrete state seen through the abstraction ---

    def project(self, state: GameState) -> dict[str, int]:
        """The abstract state of an engine state between rounds (no step pending, nothing in play)."""
        counts: dict[str, int] = dict.fromkeys(self.variables(), 0)

        def add(zone: str, cards: Iterable[int]) -> None:
            for n in cards:
                counts[f"{zone}_{self.classes[self.class_of[n]].name}"] += 1

        add("deck", state.c_deck)
        add("hand", state.c_hand)
        add("discard", (*state.c_discard, *state.c_in_play))
        add("reserve", state.c_reserve)
        add("trash", state.trash)
        restriction = set(self.restriction_numbers)
        buyable = set(self.buyable_pile_numbers)
        for pile in state.piles:
            add("restrictions", (n for n in pile if n in restriction))
            add("market", (n for n in pile if n in buyable))
        for stack in state.stacks:
            add("market", stack)
        for z in ZONES:
            counts[f"victims_{z.key}"] = state.victims[z]
        counts["profit"] = state.profit
        counts["stars"] = state.stars
        outcome = state.outcome
        counts[STAR] = int(outcome is not None and outcome.reason.value == "star-victory")
        counts[PROFIT] = int(outcome is not None and outcome.reason.value == "profit-victory")
        return counts


def _all_effects(card: CompanyCard) -> tuple[CompanyEffect, ...]:
    effects: tuple[CompanyEffect, ...] = ()
    if card.standard is not None:
        effects += card.standard.effects
    if card.reserve is not None:
        effects += card.reserve.effects + card.reserve.on_reshuffle
    return effects


def _sum(terms: Iterable[z3.ArithRef | int]) -> z3.ArithRef:
    listed = [t if isinstance(t, z3.ArithRef) else z3.IntVal(t) for t in terms]
    return z3.Sum(listed) if listed else z3.IntVal(0)


def _score(victims: list[z3.ArithRef]) -> tuple[z3.ArithRef, list[z3.ArithRef]]:
    """Reshuffle Sequence A, Scoring Demographics: the Profit scored and the zones after the shift."""
    children, adults, middle, elderly = victims
    kept_middle = middle - 2 * (middle / 3)
    kept_adults = adults - adults / 2
    scored = elderly + kept_middle + kept_adults + children
    return scored, [z3.IntVal(0), children, kept_adults, kept_middle]


def _seed(game: Game, scored: z3.ArithRef) -> list[z3.ArithRef]:
    """Reshuffle Sequence B, Seed Demographics: the chart's row for the Profit scored."""
    rows = game.cards.display.chart
    seeds: list[z3.ArithRef] = []
    for z in ZONES:
        term: z3.ArithRef = z3.IntVal(rows[0].victims[z])
        for row in rows[1:]:
            term = z3.If(scored >= row.min_profit, z3.IntVal(row.victims[z]), term)
        seeds.append(term)
    return seeds


@dataclass(frozen=True, slots=True)
class CompanyAbstraction:
    """Builds the `RoundSystem` of the Company's side for a card file and rulings, for one target."""

    layout: CompanyLayout
    messaging: MessagingBounds

    @classmethod
    def of(cls, game: Game) -> CompanyAbstraction:
        return cls(CompanyLayout.of(game), MessagingBounds.of(game))

    def system(self, target: str) -> RoundSystem:
        """`target` is STAR or PROFIT (the latch that must be set)."""
        return RoundSystem(f"company_{target}", self.layout.variables(), self.init, self.step,
                           lambda s: s[target] >= 1, (), self.removals)

    def removals(self, pre: State, round_number: int, suffix: str) -> z3.BoolRef:
        """Round `round_number`'s Victims removed by the Movement (before its Company turn) within the Messaging
        the Movement can have by then (`messaging.MessagingBounds`). Asserted with the round's number known,
        not in the step: a bound per round number inside the step is a chain of cases that slowed CP-SAT down
        (the round-3 star bound on the shipped set: 12.5 s without it, not settled in 15 and 30 units with it)."""
        removed = [pre[f"victims_{z.key}"] - z3.Int(f"msg_{z.key}{suffix}") for z in ZONES]
        return self.messaging.at(round_number, removed)

    # --- Set-Up ---

    def init(self, s: State) -> z3.BoolRef:
        """Company Set-Up: the starting deck with a first hand of five, the piles, stacks dealt freely."""
        layout = self.layout
        game = layout.game
        data = game.cards
        hand_size = data.rules.company_hand_size
        start = [0] * len(layout.classes)
        for card in data.starting_deck:
            start[layout.class_of[int(card)]] += 1
        clauses: list[z3.BoolRef] = []
        market_fixed = [0] * len(layout.classes)
        for number in layout.buyable_pile_numbers:
            market_fixed[layout.class_of[number]] += 1
        restriction = [0] * len(layout.classes)
        for number in layout.restriction_numbers:
            restriction[layout.class_of[number]] += 1
        # Set-Up 2: `stacks_dealt` of the odd/even pairs are dealt (best luck chooses which).
        dealt = [z3.Int(f"__dealt_{a}") for a, _ in layout.stack_pairs]
        market_terms: list[list[z3.ArithRef | int]] = [[market_fixed[k.index]] for k in layout.classes]
        for flag, (a, b) in zip(dealt, layout.stack_pairs, strict=True):
            market_terms[layout.class_of[a]].append(flag)
            market_terms[layout.class_of[b]].append(flag)
        # The deal's flags are unknowns of Set-Up only (the provers treat every such constant as free).
        deal_ok = z3.And(*[z3.And(d >= 0, d <= 1) for d in dealt],
                         _sum(dealt) == data.rules.stacks_dealt) if dealt else z3.BoolVal(True)
        clauses.append(deal_ok)
        for k in layout.classes:
            name = k.name
            clauses += [s[f"hand_{name}"] >= 0, s[f"hand_{name}"] <= start[k.index],
                        s[f"deck_{name}"] == start[k.index] - s[f"hand_{name}"], s[f"discard_{name}"] == 0]
            if k.reserve is not None:
                clauses.append(s[f"reserve_{name}"] == 0)
            if k.trashable:
                clauses.append(s[f"trash_{name}"] == 0)
            if k.in_market:
                clauses.append(s[f"market_{name}"] == _sum(market_terms[k.index]))
            if k.restriction:
                clauses.append(s[f"restrictions_{name}"] == restriction[k.index])
        clauses.append(_sum(s[f"hand_{k.name}"] for k in layout.classes) == min(hand_size, len(data.starting_deck)))
        for z in ZONES:
            clauses.append(s[f"victims_{z.key}"] == data.display.setup_victims[z])
        clauses += [s["profit"] == 0, s["stars"] == 0, s[STAR] == 0, s[PROFIT] == 0]
        return z3.And(*clauses)

    # --- one round ---

    def step(self, pre: State, post: State, fresh: Fresh, turn: z3.ArithRef) -> z3.BoolRef:
        layout = self.layout
        game = layout.game
        data = game.cards
        rules = data.rules
        hand_size = rules.company_hand_size
        classes = layout.classes
        c: list[z3.BoolRef] = []

        def nat(name: str) -> z3.ArithRef:
            term = fresh.int(name)
            c.append(term >= 0)
            return term

        zero = z3.IntVal(0)
        any_draw = any(k.standard_totals.draw or k.reserve_totals.draw for k in classes)
        any_trash = any(k.standard_totals.trash or k.reserve_totals.trash for k in classes)

        # --- the Movement's turn: Messaging removes Victims (Movement Rules > Messaging: within what Messaging
        # the Movement can have by this round, asserted per numbered round by `removals`); Goals move
        # Restriction cards.
        victims = []
        for z in ZONES:
            left = nat(f"msg_{z.key}")
            c.append(left <= pre[f"victims_{z.key}"])
            victims.append(left)
        restricted: dict[int, z3.ArithRef] = {}
        for k in classes:
            if k.restriction:
                moved = nat(f"restrict_{k.name}")
                c.append(moved <= pre[f"restrictions_{k.name}"])
                restricted[k.index] = moved

        # --- the Company's Play Phase (On Your Go; Spending Budget; Standard and Reserve Effects).
        mid_reshuffle = fresh.bool("midshuffle") if any_draw else z3.BoolVal(False)
        standard: dict[int, z3.ArithRef] = {}
        reserve_plays: dict[int, z3.ArithRef] = {}
        spent: dict[int, z3.ArithRef] = {}
        spent_buy: dict[int, z3.ArithRef] = {}
        left_in_hand: dict[int, z3.ArithRef] = {}
        trashed: dict[int, z3.ArithRef] = {}
        from_deck: dict[int, z3.ArithRef] = {}
        recycled: dict[int, z3.ArithRef] = {}
        for k in classes:
            n = k.name
            standard[k.index] = nat(f"play_{n}") if k.standard is not None else zero
            reserve_plays[k.index] = nat(f"reserveplay_{n}") if k.reserve is not None else zero
            spent[k.index] = nat(f"spend_{n}") if k.budget > 0 else zero
            spent_buy[k.index] = nat(f"spendbuy_{n}") if k.budget > 0 else zero
            left_in_hand[k.index] = nat(f"left_{n}")
            trashed[k.index] = nat(f"trashhand_{n}") if any_trash else zero
            if any_draw:
                from_deck[k.index] = nat(f"drawdeck_{n}")
                recycled[k.index] = nat(f"drawcycle_{n}")
                c.append(from_deck[k.index] <= pre[f"deck_{n}"])
                c.append(z3.Implies(mid_reshuffle, from_deck[k.index] == pre[f"deck_{n}"]))
                c.append(z3.Implies(z3.Not(mid_reshuffle), recycled[k.index] == 0))
                discard_so_far = (pre[f"discard_{n}"] + restricted.get(k.index, zero) + standard[k.index]
                                  + spent[k.index])
                c.append(recycled[k.index] <= discard_so_far)
            else:
                from_deck[k.index] = recycled[k.index] = zero
            # Every card that left the hand was in it or drawn into it.
            c.append(pre[f"hand_{n}"] + from_deck[k.index] + recycled[k.index]
                     == standard[k.index] + reserve_plays[k.index] + spent[k.index] + spent_buy[k.index]
                     + trashed[k.index] + left_in_hand[k.index])
        c.append(_sum(standard[k.index] + reserve_plays[k.index] for k in classes) >= 1)  # a play each turn
        if any_draw and not any(k.reserve_totals.draw for k in classes):
            # The first mid-play reshuffle needs the deck drawn out first, and before it no card has come
            # back: the draws then are at most those of the draw cards in the hand and the deck, once each.
            first_draws = _sum(k.standard_totals.draw * (pre[f"hand_{k.name}"] + pre[f"deck_{k.name}"])
                               for k in classes if k.standard_totals.draw)
            c.append(z3.Implies(mid_reshuffle, first_draws >= _sum(pre[f"deck_{k.name}"] for k in classes) + 1))
        # Spending Budget: the plays' costs from the spent cards' Budget (pooled: an over-approximation).
        play_cost = _sum([standard[k.index] * k.standard.cost for k in classes if k.standard is not None]
                         + [reserve_plays[k.index] * k.reserve.cost for k in classes if k.reserve is not None])
        pool = _sum(spent[k.index] * k.budget for k in classes)
        c.append(play_cost <= pool)
        # A play of cost 1 is paid by cards of its own, so its payment is at least the smallest Budget among them:
        # the plays of cost 1 together pay at least the sum of that many smallest Budgets spent, and for every t,
        # that sum is at least t per play less (t - b) for each spent card of Budget b < t. Without this, a cheap
        # draw card looping through the mid-play reshuffle, paid with a card worth 2, would leave a unit over for
        # another play on every loop (the pool above is shared), where the game loses the excess.
        cost_one = ([standard[k.index] for k in classes if k.standard is not None and k.standard.cost == 1]
                    + [reserve_plays[k.index] for k in classes if k.reserve is not None and k.reserve.cost == 1])
        if cost_one:
            ones = _sum(cost_one)
            budgets = sorted({k.budget for k in classes if k.budget > 0})
            for t in budgets[1:]:
                cheaper = _sum(spent[k.index] * (t - k.budget) for k in classes if 0 < k.budget < t)
                c.append(play_cost + (t - 1) * ones - cheaper <= pool)
        # Each play is paid separately (the excess is lost): a play of cost q takes at least
        # ceil(q / the largest Budget) cards of its own. This is what stops one card paying two plays.
        top = max((k.budget for k in classes), default=1) or 1
        least_payers = _sum([standard[k.index] * -(-k.standard.cost // top) for k in classes
                             if k.standard is not None and k.standard.cost > 0]
                            + [reserve_plays[k.index] * -(-k.reserve.cost // top) for k in classes
                               if k.reserve is not None and k.reserve.cost > 0])
        c.append(least_payers <= _sum(spent[k.index] for k in classes))
        # Reserve Effects: each activation needs a matching play and a matching card in the Reserve.
        activations: dict[int, z3.ArithRef] = {}
        for r in classes:
            side = r.reserve
            if side is None or side.trigger is None:
                continue
            matching = _sum(standard[k.index] for k in classes if k.standard is not None
                            and k.standard.trigger is side.trigger and k.standard.icon is side.icon)
            act = nat(f"activate_{r.name}")
            held = pre[f"reserve_{r.name}"] + reserve_plays[r.index]
            bound = _sum(z3.If(held >= j, matching, zero) for j in range(1, layout.total_cards(r) + 1))
            c.append(act <= bound)
            activations[r.index] = act

        def asked(pick: str) -> z3.ArithRef:
            terms: list[z3.ArithRef] = []
            for k in classes:
                amount = getattr(k.standard_totals, pick)
                if amount:
                    terms.append(standard[k.index] * amount)
            for index, act in activations.items():
                amount = getattr(classes[index].reserve_totals, pick)
                if amount:
                    terms.append(act * amount)
            return _sum(terms)

        if any_draw:
            drawn_in_play = _sum(from_deck[k.index] + recycled[k.index] for k in classes)
            c.append(drawn_in_play <= asked("draw"))
            if not any(k.reserve_totals.draw for k in classes):
                # On Your Go (Play Phase) and Cards: a card enters the hand during the Play Phase only by a draw
                # effect, so the first card drawn there is drawn by a card that was in the hand when the turn began.
                # The count above alone let the drawn draw cards draw each other with none in the hand to start.
                roots = [z3.And(pre[f"hand_{k.name}"] >= 1, standard[k.index] >= 1)
                         for k in classes if k.standard_totals.draw]
                c.append(z3.Implies(drawn_in_play >= 1, z3.Or(*roots)))
        if any_trash:
            c.append(_sum(trashed.values()) <= asked("trash"))
        victim_asks = []
        for z in ZONES:
            ask = _sum([standard[k.index] * k.standard_totals.victims[z] for k in classes
                        if k.standard_totals.victims[z]]
                       + [act * classes[i].reserve_totals.victims[z] for i, act in activations.items()
                          if classes[i].reserve_totals.victims[z]])
            victim_asks.append(ask)
        added = [nat(f"victims_added_{z.key}") for z in ZONES]
        c += [added[z] <= victim_asks[z] for z in ZONES]
        on_display = _sum(victims[z] + added[z] for z in ZONES)
        c.append(on_display <= data.supply[TokenKind.VICTIMS])
        c.append(z3.Or(z3.And(*[added[z] == victim_asks[z] for z in ZONES]),
                       on_display == data.supply[TokenKind.VICTIMS]))
        after_play = [victims[z] + added[z] for z in ZONES]
        gained = nat("profit_gained")
        c.append(gained <= asked("profit"))
        lobbied = nat("profit_lobbied")
        c.append(lobbied <= asked("lobby"))
        profit = pre["profit"] + gained - lobbied
        c.append(profit >= 0)
        discount = asked("discount")

        # --- after the Play Phase: where the cards are (a mid-play reshuffle leaves the split free).
        deck_after: dict[int, z3.ArithRef] = {}
        discard_after: dict[int, z3.ArithRef] = {}
        for k in classes:
            n = k.name
            i = k.index
            plain_deck = pre[f"deck_{n}"] - from_deck[i]
            plain_discard = pre[f"discard_{n}"] + restricted.get(i, zero) + standard[i] + spent[i]
            if any_draw:
                d1 = nat(f"deck_after_play_{n}")
                x1 = nat(f"discard_after_play_{n}")
                c.append(z3.If(mid_reshuffle, d1 + x1 == plain_deck + plain_discard - recycled[i],
                               z3.And(d1 == plain_deck, x1 == plain_discard)))
                deck_after[i], discard_after[i] = d1, x1
            else:
                deck_after[i], discard_after[i] = plain_deck, plain_discard

        # --- the Buy Phase (Buying Cards): from the Market and the trash pile (Budget + 1).
        bought: dict[int, z3.ArithRef] = {}
        bought_trash: dict[int, z3.ArithRef] = {}
        for k in classes:
            n = k.name
            bought[k.index] = nat(f"buy_{n}") if k.in_market else zero
            if k.in_market:
                c.append(bought[k.index] <= pre[f"market_{n}"])
                c.append(post[f"market_{n}"] == pre[f"market_{n}"] - bought[k.index])
            if k.trashable:
                bought_trash[k.index] = nat(f"buytrash_{n}")
                c.append(bought_trash[k.index] <= pre[f"trash_{n}"] + trashed[k.index])
            else:
                bought_trash[k.index] = zero
        bought_restriction: dict[int, z3.ArithRef] = {}
        if game.restriction_buyable:
            for k in classes:
                if k.restriction:
                    bought_restriction[k.index] = nat(f"buyrestriction_{k.name}")
                    c.append(bought_restriction[k.index] <= pre[f"restrictions_{k.name}"] - restricted[k.index])
        c.append(_sum([bought[k.index] + bought_trash[k.index] for k in classes]
                      + list(bought_restriction.values())) >= 1)  # a buy each turn
        price = _sum([bought[k.index] * k.budget for k in classes if k.in_market and k.budget]
                     + [bought_trash[k.index] * (k.budget + 1) for k in classes if k.trashable]
                     + [bought_restriction[i] * classes[i].budget for i in bought_restriction if classes[i].budget])
        c.append(price - discount <= _sum(spent_buy[k.index] * k.budget for k in classes))

        # --- the Draw Phase: the hand is discarded, then five are drawn or the Sequence runs.
        for k in classes:
            if k.restriction:
                c.append(post[f"restrictions_{k.name}"] == pre[f"restrictions_{k.name}"] - restricted[k.index]
                         - bought_restriction.get(k.index, zero))
        pool_discard = {k.index: discard_after[k.index] + left_in_hand[k.index] + spent_buy[k.index]
                        + bought[k.index] + bought_trash[k.index] + bought_restriction.get(k.index, zero)
                        for k in classes}
        held_reserve = {k.index: pre[f"reserve_{k.name}"] + reserve_plays[k.index]
                        for k in classes if k.reserve is not None}
        trash_now = {k.index: pre[f"trash_{k.name}"] + trashed[k.index] - bought_trash[k.index]
                     for k in classes if k.trashable}
        deck_count = _sum(deck_after.values())
        sequence = deck_count < hand_size

        # No Sequence: draw five from the deck.
        quiet: list[z3.BoolRef] = []
        for k in classes:
            n = k.name
            i = k.index
            quiet += [post[f"hand_{n}"] >= 0, post[f"hand_{n}"] <= deck_after[i],
                      post[f"deck_{n}"] == deck_after[i] - post[f"hand_{n}"],
                      post[f"discard_{n}"] == pool_discard[i]]
            if k.reserve is not None:
                quiet.append(post[f"reserve_{n}"] == held_reserve[i])
            if k.trashable:
                quiet.append(post[f"trash_{n}"] == trash_now[i])
        quiet.append(_sum(post[f"hand_{k.name}"] for k in classes) == hand_size)
        quiet += [post[f"victims_{z.key}"] == after_play[z] for z in ZONES]
        quiet += [post["profit"] == profit, post["stars"] == pre["stars"], post[STAR] == pre[STAR],
                  post[PROFIT] == pre[PROFIT]]

        # The Reshuffle Sequence.
        loud: list[z3.BoolRef] = []
        sequence_only = len(fresh.made)  # the unknowns made from here on appear only in the Sequence's branch
        scored, shifted = _score(after_play)
        seeds = _seed(game, scored)
        star = scored >= rules.star_threshold
        stars = pre["stars"] + z3.If(z3.And(star, pre["stars"] < data.supply[TokenKind.STARS]), 1, 0)
        won_star = z3.And(star, pre["stars"] < data.supply[TokenKind.STARS], stars >= rules.stars_to_win)
        # C. Resolve your Reserve: reshuffle effects (optional: a ban skips them), then the trash pile.
        resolved: dict[int, z3.ArithRef] = {}
        staying: dict[int, z3.ArithRef] = {}
        for k in classes:
            if k.reserve is None:
                continue
            if k.reserve.on_reshuffle:
                resolved[k.index] = nat(f"onreshuffle_{k.name}")
                loud.append(resolved[k.index] <= held_reserve[k.index])
            if k.reserve.stays:
                staying[k.index] = nat(f"stays_{k.name}")
                loud.append(staying[k.index] <= held_reserve[k.index])

        def reshuffle_asked(pick: str) -> z3.ArithRef:
            return _sum(resolved[i] * getattr(classes[i].reshuffle_totals, pick) for i in resolved
                        if getattr(classes[i].reshuffle_totals, pick))

        seeded = [nat(f"seeded_{z.key}") for z in ZONES]
        seed_asks = [seeds[z] + reshuffle_asked_victims(resolved, classes, z) for z in ZONES]
        for z in ZONES:
            loud.append(seeded[z] <= seed_asks[z])
        # B. Seed Demographics takes the chart's Victims from the supply (C adds those of the reshuffle effects): a
        # zone gets fewer only when the supply runs out, as with the Victims a play adds.
        loud.append(z3.Or(z3.And(*[seeded[z] == seed_asks[z] for z in ZONES]),
                          _sum(shifted[z] + seeded[z] for z in ZONES) == data.supply[TokenKind.VICTIMS]))
        scored_taken = nat("scored_taken")
        extra = nat("reshuffle_profit")
        extra_lobby = nat("reshuffle_lobby")
        loud += [scored_taken <= scored, extra <= reshuffle_asked("profit"), extra_lobby <= reshuffle_asked("lobby")]
        final_profit = profit + scored_taken + extra - extra_lobby
        loud.append(final_profit >= 0)
        draw_first = game.draw_first
        total_hand = _sum(post[f"hand_{k.name}"] for k in classes)
        everything_drawn = []
        for k in classes:
            n = k.name
            i = k.index
            first = deck_after[i] if draw_first else zero
            shuffled = pool_discard[i] + deck_after[i] - first
            drawn = nat(f"refill_{n}")
            loud += [drawn <= shuffled, post[f"hand_{n}"] == first + drawn,
                     post[f"deck_{n}"] == shuffled - drawn, post[f"discard_{n}"] == 0]
            everything_drawn.append(drawn == shuffled)
            if k.reserve is not None:
                loud.append(post[f"reserve_{n}"] == staying.get(i, zero))
            if k.trashable:
                moved = held_reserve[i] - staying.get(i, zero) if k.reserve is not None else zero
                loud.append(post[f"trash_{n}"] == trash_now[i] + moved)
        loud.append(total_hand <= hand_size)
        loud.append(z3.Or(total_hand == hand_size, z3.And(*everything_drawn)))
        loud += [post[f"victims_{z.key}"] == shifted[z] + seeded[z] for z in ZONES]
        loud.append(_sum(shifted[z] + seeded[z] for z in ZONES) <= data.supply[TokenKind.VICTIMS])
        loud += [post["profit"] == final_profit, post["stars"] == stars,
                 post[STAR] == z3.If(won_star, 1, pre[STAR]),
                 post[PROFIT] == z3.If(final_profit >= rules.profit_to_win, 1, pre[PROFIT])]

        reshuffles = fresh.bool("sequence")
        c.append(reshuffles == sequence)
        c.append(z3.If(reshuffles, z3.And(*loud), z3.And(*quiet)))
        # Without a Sequence its unknowns mean nothing and nothing else reads them: pinned to 0, every
        # unknown of a run is bounded by the cards and pieces (which `solver.cpsat` relies on), and no
        # run of the game is lost.
        pinned = [term for term in fresh.made[sequence_only:] if z3.is_int(term)]
        c += [z3.Implies(z3.Not(reshuffles), term == 0) for term in pinned]
        return z3.And(*c)

    # --- lemmas (each proved by k-induction before use) ---

    def lemmas(self) -> list[Lemma]:
        layout = self.layout
        lemmas: list[Lemma] = []

        def conserved(s: State) -> z3.BoolRef:
            clauses = []
            for k in layout.classes:
                zones = [s[f"deck_{k.name}"], s[f"hand_{k.name}"], s[f"discard_{k.name}"]]
                if k.reserve is not None:
                    zones.append(s[f"reserve_{k.name}"])
                if k.trashable:
                    zones.append(s[f"trash_{k.name}"])
                if k.in_market:
                    zones.append(s[f"market_{k.name}"])
                if k.restriction:
                    zones.append(s[f"restrictions_{k.name}"])
                clauses += [z >= 0 for z in zones]
                clauses.append(_sum(zones) <= layout.total_cards(k))
            return z3.And(*clauses)

        lemmas.append(Lemma("cards-conserved", conserved,
                            "each class's cards across all zones never exceed its copies, and no count is negative"))
        supply = layout.game.cards.supply
        lemmas.append(Lemma("victims-within-supply", lambda s: z3.And(
            *[s[f"victims_{z.key}"] >= 0 for z in ZONES],
            _sum(s[f"victims_{z.key}"] for z in ZONES) <= supply[TokenKind.VICTIMS] + 0),
            "Victims on the display are never negative and never more than the supply holds"))
        lemmas.append(Lemma("stars-bounded", lambda s: z3.And(s["stars"] >= 0, s["stars"] <= supply[TokenKind.STARS],
                                                              s[STAR] >= 0, s[STAR] <= 1, s[PROFIT] >= 0,
                                                              s[PROFIT] <= 1, s["profit"] >= 0),
                            "stars stay within the supply, the latches are 0 or 1, Profit is never negative"))
        hand = layout.game.cards.rules.company_hand_size
        lemmas.append(Lemma("hand-size", lambda s: _sum(s[f"hand_{k.name}"] for k in layout.classes) <= hand,
                            "between rounds the hand holds at most the hand size"))
        lemmas.append(Lemma("star-needs-stars", lambda s: z3.Implies(
            s[STAR] >= 1, s["stars"] >= layout.game.cards.rules.stars_to_win),
            "the Star Victory latch is set only with the winning number of stars"))
        return lemmas


def reshuffle_asked_victims(resolved: dict[int, z3.ArithRef], classes: tuple[CardClass, ...],
                            zone: Zone) -> z3.ArithRef:
    """Victims the Reserve's reshuffle effects add to `zone` (after scoring, before the next round)."""
    return _sum(resolved[i] * classes[i].reshuffle_totals.victims[zone] for i in resolved
                if classes[i].reshuffle_totals.victims[zone])
