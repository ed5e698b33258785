"""The Movement's side of the transition relation: its turn, its Set-Up and its part of Pacing.

Used by `doubtspec.solver.unrolling.transition.Encoder` when the Movement is free (`movement_free`); the
state vector's Movement entries are described in `doubtspec.solver.unrolling.encoding`. A Movement turn is
one step: the free action (Pass, Play, Buy) with its payment, then every follow-up the engine asks
for (Messaging, Agitation or Organize after a Buy, the Market refill of Organize), then the start
of the Company's turn. Each follow-up is a free decision variable, chance (a card drawn from the
Market deck, the Goal deal) is a free choice (the best luck), and every choice is recorded in the
step (`Step.ints`, `Step.bools`, `Step.tokens["mfill"]`) so that `doubtspec.solver.unrolling.witness` can
rebuild the engine's actions.

The Tableau is a row of slots (`tab.K`, `tup.K`, `mtl`); a card's data is read through a sum over
the cards that can be in a slot (`card_value`), and every rule is written over the slots, which
are few (the Tableau limit).

Refused (`UnsupportedCards`): ruling messaging-zones=any-zones (several zones from one Messaging).
"""

from __future__ import annotations

from collections.abc import Callable

from doubtspec.model.cards import (
    AddRestriction,
    Ban,
    BonusKind,
    GainFlight,
    GainInfluence,
    GoalEffect,
    HandSize,
    MarketAction,
    MovementCard,
    TokenKind,
)
from doubtspec.model.legal import LOWER_GOALS
from doubtspec.model.movement import COVERED_BY, UPPER_STACK_PLACES
from doubtspec.rulebook import Section
from doubtspec.solver.unrolling.encoding import GOAL_PLACES, Loc, MLoc, Out, SymState, Tables
from doubtspec.solver.unrolling.terms import (
    FALSE,
    TRUE,
    Bool,
    BoolTerm,
    Int,
    IntTerm,
    and_,
    any_of,
    bite,
    bvar,
    count,
    eq,
    imax,
    imin,
    implies,
    is_false,
    isum,
    ite,
    ival,
    ivar,
    le,
    lt,
    ne,
    not_,
    one_of,
    or_,
    wsum,
)
from doubtspec.solver.unrolling.transition import ClauseGroup, Encoder, Step, Token, UnsupportedCards


class Act:
    """The Movement's one action per turn (Movement Rules > On Your Go)."""

    PASS = 0
    PLAY = 1
    BUY = 2


SKIP = -1
"""A follow-up declined (Messaging zone, Agitation place); Organize declines with card 0."""


class MovementEncoder:
    """Builds the Movement's parts of steps for one `Encoder` (same game, same Company encoding)."""

    def __init__(self, enc: Encoder) -> None:
        self.enc = enc
        self.t = enc.t
        game = self.t.game
        if game.messaging_any_zones:
            raise UnsupportedCards("ruling messaging-zones=any-zones (several zones from one Messaging action) "
                                   "is not modelled")
        data = game.cards
        self.cards = self.t.mcards
        self.limit = data.rules.tableau_limit
        self.spaces = self.t.market_spaces
        self.goals = tuple(sorted(int(g) for g in data.goals))
        self.hand_base = data.rules.movement_hand_limit
        self.to_win = data.rules.goal_points_to_win
        self.restriction_pile = data.restriction_pile()

    # --- reading card data through terms ---------------------------------------------------------

    def card_value(self, card: Int, f: Callable[[MovementCard], int]) -> IntTerm:
        """`f` of the Movement card numbered `card` (0 for no card)."""
        self.enc.in_time("the Movement's turn")  # the turn's formula is long to build: charge it to the budget
        game = self.t.game
        return wsum((eq(card, c), f(game.movement_card(c))) for c in self.cards)

    def goal_value(self, goal: Int, f: Callable[[int], int]) -> IntTerm:
        """`f` of the Goal numbered `goal` (0 for no Goal)."""
        return wsum((eq(goal, g), f(g)) for g in self.goals)

    def hand_limit(self, s: SymState) -> IntTerm:
        """Movement Rules > Cards: the base limit plus each achieved hand-size Goal."""
        game = self.t.game
        bonus = [(s.b[f"ach.{g}"], sum(e.amount for e in game.goal(g).effects if isinstance(e, HandSize)))
                 for g in self.goals]
        return wsum(bonus) + self.hand_base

    # --- small rules -------------------------------------------------------------------------------

    @staticmethod
    def gain(s: SymState, key: str, supply: str, n: Int) -> SymState:
        """Take up to `n` tokens from a piece-limited supply (ruling supply-exhausted)."""
        s = s.copy()
        got = imin(n, s.i[supply])
        s.i[key] = s.i[key] + got
        s.i[supply] = s.i[supply] - got
        return s

    def refresh(self, s: SymState, n: Int) -> SymState:
        """Refresh (Bonus, Action, Passive): the `n` leftmost face-down cards turn face up."""
        if isinstance(n, int) and n == 0:
            return s
        s = s.copy()
        length = s.i["mtl"]
        down = [and_(lt(k, length), not_(s.b[f"tup.{k}"])) for k in range(self.limit)]
        for k in range(self.limit):
            s.b[f"tup.{k}"] = or_(s.b[f"tup.{k}"], and_(down[k], lt(count(down[:k]), n)))
        return s

    def move_card(self, s: SymState, card: Int, where: MLoc, cond: Bool = TRUE) -> SymState:
        """Movement card `card` (a term) goes to `where` when `cond` holds."""
        s = s.copy()
        for c in self.cards:
            key = f"mloc.{c}"
            s.i[key] = ite(and_(cond, eq(card, c)), int(where), s.i[key])
        return s

    def in_hand(self, s: SymState, card: Int) -> BoolTerm:
        return any_of(and_(eq(card, c), eq(s.i[f"mloc.{c}"], int(MLoc.HAND))) for c in self.cards)

    def placement_legal(self, s: SymState, right: BoolTerm, remove: IntTerm) -> BoolTerm:
        """Playing a Card, ruling tableau-geometry: an end of the row (the right one when it is empty);
        a full Tableau first removes one card, otherwise none is removed."""
        length = s.i["mtl"]
        full = le(self.limit, length)
        return and_(implies(eq(length, 0), right),
                    implies(full, and_(le(0, remove), lt(remove, length))),
                    implies(not_(full), eq(remove, SKIP)))

    def payment(self, s: SymState, cost: Int, flips: list[BoolTerm], remove: Int) -> tuple[SymState, BoolTerm]:
        """Spending Influence (ruling influence-payment): flip face-up cards, none superfluous; tokens pay
        the shortfall, Flight tokens first. Returns the paid state and the payment's legality."""
        s0 = s
        length = s.i["mtl"]
        values = [self.card_value(s.i[f"tab.{k}"], lambda m: m.influence) for k in range(self.limit)]
        value = isum(ite(f, v, 0) for f, v in zip(flips, values, strict=True))
        legal: list[BoolTerm] = [le(cost - value, s.i["inf"] + s.i["flt"])]
        for k, f in enumerate(flips):
            legal.append(implies(f, and_(lt(k, length), s.b[f"tup.{k}"], ne(remove, k), lt(value - values[k], cost))))
        s = s.copy()
        for k, f in enumerate(flips):
            s.b[f"tup.{k}"] = and_(s0.b[f"tup.{k}"], not_(f))
        short = imax(0, cost - value)
        flight = imin(s.i["flt"], short)
        rest = short - flight
        s.i["flt"] = s.i["flt"] - flight
        s.i["flts"] = s.i["flts"] + flight
        s.i["inf"] = s.i["inf"] - rest
        s.i["sup.inf"] = s.i["sup.inf"] + rest
        return s, and_(*legal)

    def place(self, s: SymState, card: Int, right: BoolTerm, remove: Int) -> SymState:
        """Playing a Card: the ninth card first removes one (to the discard pile), the card goes to an
        end, and the Bonuses it shares with its nearest face-up neighbour are received (ruling
        bonus-alignment); a Refresh bonus only turns cards face up."""
        n = self.limit
        cards = [s.i[f"tab.{k}"] for k in range(n)]
        ups = [s.b[f"tup.{k}"] for k in range(n)]
        length = s.i["mtl"]
        s = s.copy()
        has_rm = le(0, remove)
        removed = isum(ite(eq(remove, k), cards[k], 0) for k in range(n))
        shift = [and_(has_rm, le(remove, k)) for k in range(n)]
        c1 = [ite(shift[k], cards[k + 1] if k + 1 < n else 0, cards[k]) for k in range(n)]
        u1 = [bite(shift[k], ups[k + 1] if k + 1 < n else FALSE, ups[k]) for k in range(n)]
        l1 = length - ite(has_rm, 1, 0)
        s = self.move_card(s, removed, MLoc.DISCARD, has_rm)
        s.i["mdisc"] = s.i["mdisc"] + ite(has_rm, 1, 0)
        # The adjacent card: the nearest face-up one from the chosen end (flipped cards are skipped).
        nb_right: IntTerm = ival(0)
        for k in range(n):
            nb_right = ite(and_(lt(k, l1), u1[k]), c1[k], nb_right)
        nb_left: IntTerm = ival(0)
        for k in reversed(range(n)):
            nb_left = ite(and_(lt(k, l1), u1[k]), c1[k], nb_left)
        for k in range(n):
            at_right = eq(l1, k)
            left_card = card if k == 0 else c1[k - 1]
            left_up: Bool = TRUE if k == 0 else u1[k - 1]
            s.i[f"tab.{k}"] = ite(right, ite(at_right, card, c1[k]), left_card)
            s.b[f"tup.{k}"] = bite(right, or_(at_right, u1[k]), left_up)
        s.i["mtl"] = l1 + 1
        s = self.move_card(s, card, MLoc.TABLEAU)
        # Bonuses: the new card's edge facing the neighbour against the neighbour's facing edge.
        aligned: dict[BonusKind, IntTerm] = {}
        for kind in BonusKind:
            mine = ite(right, self.card_value(card, edge(True, kind)), self.card_value(card, edge(False, kind)))
            theirs = ite(right, self.card_value(nb_right, edge(False, kind)),
                         self.card_value(nb_left, edge(True, kind)))
            aligned[kind] = imin(mine, theirs)
        s = self.gain(s, "inf", "sup.inf", aligned[BonusKind.INFLUENCE])
        s = self.gain(s, "msg", "sup.msg", aligned[BonusKind.MESSAGING])
        s = self.gain(s, "agi", "sup.agi", aligned[BonusKind.AGITATION])
        return self.refresh(s, aligned[BonusKind.REFRESH])

    def icons(self, s: SymState, f: Callable[[MovementCard], int]) -> IntTerm:
        """Action icons of the face-up Tableau cards (Movement Rules > Cards: only face-up cards act)."""
        return isum(ite(s.b[f"tup.{k}"], self.card_value(s.i[f"tab.{k}"], f), 0) for k in range(self.limit))

    def refill(self, s: SymState, ctx: BoolTerm, name: str, tokens: list[Token], cons: list[BoolTerm]) -> SymState:
        """Fill the empty Market spaces in order from the Market deck (chance: a free choice); an
        empty deck takes the discards first (Movement Rules > Cards, Discard)."""
        s = s.copy()
        for i in range(self.spaces):
            deck, disc = s.i["mdeck"], s.i["mdisc"]
            asked = and_(ctx, not_(s.b[f"mocc.{i}"]), or_(lt(0, deck), lt(0, disc)))
            reshuffle = and_(asked, eq(deck, 0))
            for c in self.cards:
                key = f"mloc.{c}"
                s.i[key] = ite(and_(reshuffle, eq(s.i[key], int(MLoc.DISCARD))), int(MLoc.DECK), s.i[key])
            deck = ite(reshuffle, disc, deck)
            s.i["mdisc"] = ite(reshuffle, 0, disc)
            card = ivar(f"{name}.{i}")
            cons.append(implies(asked, or_(*(and_(eq(card, c), eq(s.i[f"mloc.{c}"], int(MLoc.DECK)))
                                              for c in self.cards))))
            tokens.append(Token("mfill", asked, card))
            s = self.move_card(s, card, MLoc.MARKET, asked)
            s.i[f"mkt.{i}"] = ite(asked, card, s.i[f"mkt.{i}"])
            s.b[f"mocc.{i}"] = or_(s.b[f"mocc.{i}"], asked)
            s.i["mdeck"] = deck - ite(asked, 1, 0)
        return s

    # --- Set-Up -----------------------------------------------------------------------------------

    def setup(self, s: SymState, step: Step) -> SymState:
        """Movement Set-Up: the starting card, the Goal deal and the Market's first cards, all free choices."""
        t = self.t
        data = t.game.cards
        s = s.copy()
        start = ivar("setup.start")
        goals = [ivar(f"setup.goal.{p}") for p in range(GOAL_PLACES)]
        market = [ivar(f"setup.mkt.{i}") for i in range(self.spaces)]
        step.ints["start"] = start
        step.ints.update({f"goal.{p}": g for p, g in enumerate(goals)})
        step.ints.update({f"mkt.{i}": m for i, m in enumerate(market)})
        distinct_goals = and_(*(ne(goals[a], goals[b]) for a in range(GOAL_PLACES) for b in range(a)))
        step.groups.append(ClauseGroup(Section.MOVEMENT_SETUP, "starting card and Goal deal", and_(
            one_of(start, [int(c) for c in data.movement_starting]),
            *(one_of(g, self.goals) for g in goals), distinct_goals,
            # Ruling goal-split: the lower stack (three of G1-G6) fills the places dealt last.
            *(one_of(goals[p], LOWER_GOALS) for p in range(UPPER_STACK_PLACES, GOAL_PLACES)))))
        step.groups.append(ClauseGroup(Section.MOVEMENT_SETUP, "the Market's first cards", and_(
            *(and_(one_of(m, self.cards), ne(m, start)) for m in market),
            *(ne(market[a], market[b]) for a in range(self.spaces) for b in range(a)))))
        for c in self.cards:
            s.i[f"mloc.{c}"] = ite(eq(start, c), int(MLoc.TABLEAU),
                                   ite(or_(*(eq(m, c) for m in market)), int(MLoc.MARKET), int(MLoc.DECK)))
        for k in range(self.limit):
            s.i[f"tab.{k}"] = start if k == 0 else ival(0)
            s.b[f"tup.{k}"] = TRUE if k == 0 else FALSE
        for i, m in enumerate(market):
            s.i[f"mkt.{i}"] = m
        supply = t.supply0
        consts = {"mtl": 1, "mhand": 0, "inf": data.rules.movement_starting_influence, "msg": 0, "agi": 0,
                  "flt": 0, "flts": 0, "sup.inf": supply[TokenKind.INFLUENCE], "sup.msg": supply[TokenKind.MESSAGING],
                  "sup.agi": supply[TokenKind.AGITATION], "sup.ban": supply[TokenKind.BANS],
                  "sup.flt": supply[TokenKind.FLIGHT], "mpts": 0}
        for name, value in consts.items():
            s.i[name] = ival(value)
        for p, dealt in enumerate(goals):
            s.i[f"goal.{p}"] = dealt
            s.i[f"gagi.{p}"] = ival(0)
        for g in self.goals:
            s.b[f"ach.{g}"] = FALSE
        for kind in t.ban_kinds:
            s.b[f"ban.{kind}"] = FALSE
        return s

    # --- the turn ---------------------------------------------------------------------------------

    def turn(self, s: SymState, rnd: int) -> Step:
        """Movement Rules > On Your Go: Pass, Play or Buy (with its Action), then the Company's turn starts."""
        label = f"r{rnd}.m"
        live = eq(s.i["out"], int(Out.NONE))
        step = Step("movement-turn", rnd, label, s, s)
        act = ivar(f"{label}.act")
        flips = [bvar(f"{label}.flip.{k}") for k in range(self.limit)]
        step.ints["act"] = act
        step.bools.update({f"flip.{k}": f for k, f in enumerate(flips)})
        step.groups.append(ClauseGroup(Section.MOVEMENT_ON_YOUR_GO, "one action", and_(
            one_of(act, (Act.PASS, Act.PLAY, Act.BUY)), implies(not_(live), eq(act, Act.PASS)))))
        cons: list[BoolTerm] = []
        passed = self.pass_turn(s)
        played = self.play(s, step, act, flips)
        bought = self.buy(s, step, act, flips, cons)
        after = Encoder.merge(eq(act, Act.PLAY), played, passed)
        after = Encoder.merge(eq(act, Act.BUY), bought, after)
        after = self.enc.start_company_turn(after)
        step.after = Encoder.merge(live, after, s)
        step.groups.append(ClauseGroup(Section.BUYING_A_CARD, "chance and follow-ups", and_(*cons)))
        return step

    def pass_turn(self, s: SymState) -> SymState:
        """On Your Go, Pass: one Influence, two with none (ruling pass-bonus)."""
        none = eq(s.i["inf"], 0)
        if self.t.game.pass_counts_cards:
            none = and_(none, not_(any_of(s.b[f"tup.{k}"] for k in range(self.limit))))
        return self.gain(s, "inf", "sup.inf", ite(none, 2, 1))

    def play(self, s: SymState, step: Step, act: IntTerm, flips: list[BoolTerm]) -> SymState:
        """On Your Go, Play: a hand card, paid with Influence, to an end of the Tableau."""
        label = step.label
        card = ivar(f"{label}.card")
        right = bvar(f"{label}.right")
        remove = ivar(f"{label}.remove")
        step.ints.update({"card": card, "remove": remove})
        step.bools["right"] = right
        playing = eq(act, Act.PLAY)
        cost = self.card_value(card, lambda m: m.influence)
        paid, pay_ok = self.payment(s, cost, flips, remove)
        step.groups.append(ClauseGroup(Section.PLAYING_A_CARD, "a hand card to an end of the Tableau", implies(
            playing, and_(self.in_hand(s, card), self.placement_legal(s, right, remove)))))
        step.groups.append(ClauseGroup(Section.SPENDING_INFLUENCE, "payment", implies(playing, pay_ok)))
        paid.i["mhand"] = paid.i["mhand"] - 1
        return self.place(paid, card, right, remove)

    def buy(self, s: SymState, step: Step, act: IntTerm, flips: list[BoolTerm], cons: list[BoolTerm]) -> SymState:
        """Buying a Card: pay the space's cost and its Lobbying, take the space's Action, take the card."""
        label = step.label
        space = ivar(f"{label}.space")
        step.ints["space"] = space
        buying = eq(act, Act.BUY)
        sel = [eq(space, i) for i in range(self.spaces)]
        market = self.t.game.cards.market
        cost = isum(ite(sel[i], s.i[f"mprof.{i}"] + market[i].cost, 0) for i in range(self.spaces))
        paid, pay_ok = self.payment(s, cost, flips, SKIP)
        step.groups.append(ClauseGroup(Section.MOVEMENT_CARDS, "a Market card, with room in the hand", implies(
            buying, and_(or_(*(and_(sel[i], s.b[f"mocc.{i}"]) for i in range(self.spaces))),
                         lt(s.i["mhand"], self.hand_limit(s))))))
        step.groups.append(ClauseGroup(Section.SPENDING_INFLUENCE, "payment", implies(buying, pay_ok)))
        # The Lobbying Profit on the card goes back to the Company's supply.
        lobbied = isum(ite(sel[i], s.i[f"mprof.{i}"], 0) for i in range(self.spaces))
        paid.i["sup.profit"] = paid.i["sup.profit"] + lobbied
        for i in range(self.spaces):
            paid.i[f"mprof.{i}"] = ite(sel[i], 0, s.i[f"mprof.{i}"])
        by_action: dict[MarketAction, BoolTerm] = {
            a: and_(buying, or_(*(sel[i] for i in range(self.spaces) if market[i].action is a))) for a in MarketAction}
        after = paid
        if not is_false(by_action[MarketAction.REFRESH]):  # no space has that Action
            after = Encoder.merge(by_action[MarketAction.REFRESH], self.refresh(paid, 1), after)
        if not is_false(by_action[MarketAction.RESEARCH]):
            research = self.icons(paid, lambda m: m.icons.research)
            after = Encoder.merge(by_action[MarketAction.RESEARCH],
                                  self.gain(paid, "inf", "sup.inf", 2 * research), after)
        after = Encoder.merge(by_action[MarketAction.MESSAGING],
                              self.messaging(paid, step, by_action[MarketAction.MESSAGING]), after)
        after = Encoder.merge(by_action[MarketAction.AGITATION],
                              self.agitation(paid, step, by_action[MarketAction.AGITATION]), after)
        after = Encoder.merge(by_action[MarketAction.ORGANIZE],
                              self.organize(paid, step, by_action[MarketAction.ORGANIZE], cons), after)
        # The space's card goes to the hand (after the Action; a Goal victory has ended the game before).
        card = isum(ite(sel[i], s.i[f"mkt.{i}"], 0) for i in range(self.spaces))
        after = self.move_card(after, card, MLoc.HAND)
        after.i["mhand"] = after.i["mhand"] + 1
        for i in range(self.spaces):
            after.i[f"mkt.{i}"] = ite(sel[i], 0, after.i[f"mkt.{i}"])
            after.b[f"mocc.{i}"] = and_(not_(sel[i]), after.b[f"mocc.{i}"])
        return after

    def messaging(self, s: SymState, step: Step, ctx: BoolTerm) -> SymState:
        """Messaging: in one zone (ruling messaging-zones), Doubt bottom-up at its printed costs, then
        Victims, one Influence each; icons are spent before tokens (ruling messaging-spend-order)."""
        label = step.label
        zone = ivar(f"{label}.mz")
        doubts = ivar(f"{label}.md")
        victims = ivar(f"{label}.mv")
        step.ints.update({"mz": zone, "md": doubts, "mv": victims})
        icons = self.icons(s, lambda m: m.icons.messaging)
        values = self.t.game.cards.display.doubt_values
        budget = icons + s.i["msg"]
        options: list[BoolTerm] = []
        costs: list[IntTerm] = []
        for z in range(4):
            present = s.i[f"dbt.{z}"]
            col = values[z]
            # The printed costs of the bottom `doubts` of `present` tokens, tabulated.
            table = [(and_(eq(present, p), eq(doubts, d)), sum(col[p - 1 - i] for i in range(d)))
                     for p in range(len(col) + 1) for d in range(p + 1)]
            cost = wsum(table) + victims
            costs.append(cost)
            options.append(and_(eq(zone, z), le(0, doubts), le(doubts, present), le(0, victims),
                                le(victims, s.i[f"vic.{z}"]), implies(lt(doubts, present), eq(victims, 0)),
                                lt(0, doubts + victims), le(cost, budget)))
        step.groups.append(ClauseGroup(Section.MESSAGING, "Doubt bottom-up, then Victims", implies(
            ctx, or_(eq(zone, SKIP), *options))))
        out = s.copy()
        for z in range(4):
            hit = and_(ctx, eq(zone, z))
            tokens = costs[z] - imin(icons, costs[z])
            z_state = s.copy()
            z_state.i["msg"] = s.i["msg"] - tokens
            z_state.i["sup.msg"] = s.i["sup.msg"] + tokens
            z_state.i[f"dbt.{z}"] = s.i[f"dbt.{z}"] - doubts
            z_state.i["sup.dbt"] = s.i["sup.dbt"] + doubts
            z_state.i[f"vic.{z}"] = s.i[f"vic.{z}"] - victims
            z_state.i["sup.vic"] = s.i["sup.vic"] + victims
            z_state = self.gain(z_state, "inf", "sup.inf", victims)
            out = Encoder.merge(hit, z_state, out)
        return out

    def agitation(self, s: SymState, step: Step, ctx: BoolTerm) -> SymState:
        """Agitation and Goals (ruling agitation-progress): icon Agitation and tokens towards one available
        Goal; enough achieves it, less stays on it as tokens."""
        label = step.label
        slot = ivar(f"{label}.as")
        tokens = ivar(f"{label}.at")
        step.ints.update({"as": slot, "at": tokens})
        icons = self.icons(s, lambda m: m.icons.agitation)
        game = self.t.game
        options: list[BoolTerm] = []
        needs: list[IntTerm] = []
        for p in range(GOAL_PLACES):
            goal = s.i[f"goal.{p}"]
            available = and_(ne(goal, 0), *(eq(s.i[f"goal.{c}"], 0) for c in COVERED_BY[p]))
            need = self.goal_value(goal, lambda g: game.goal(g).cost) + s.i[f"gprof.{p}"] - s.i[f"gagi.{p}"]
            needs.append(need)
            top = imin(s.i["agi"], imax(0, need - icons))
            options.append(and_(eq(slot, p), available, le(0, tokens), le(tokens, top),
                                or_(lt(0, icons + tokens), le(need, 0))))
        step.groups.append(ClauseGroup(Section.AGITATION_AND_GOALS, "an available Goal", implies(
            ctx, or_(eq(slot, SKIP), *options))))
        hits = [and_(ctx, eq(slot, p)) for p in range(GOAL_PLACES)]
        need = isum(ite(hits[p], needs[p], 0) for p in range(GOAL_PLACES))
        acting = or_(*hits)
        achieving = and_(acting, le(need, icons + tokens))
        out = s.copy()
        out.i["agi"] = s.i["agi"] - ite(acting, tokens, 0)
        # Achieved: the spent tokens and those on the Goal go back to the supply.
        on_goal = isum(ite(hits[p], s.i[f"gagi.{p}"], 0) for p in range(GOAL_PLACES))
        converted = imin(icons, s.i["sup.agi"])
        out.i["sup.agi"] = s.i["sup.agi"] + ite(achieving, tokens + on_goal, ite(acting, 0 - converted, 0))
        for p in range(GOAL_PLACES):
            out.i[f"gagi.{p}"] = ite(hits[p], ite(achieving, 0, s.i[f"gagi.{p}"] + converted + tokens),
                                     s.i[f"gagi.{p}"])
        return self.achieve(out, s, hits, achieving)

    def achieve(self, s: SymState, before: SymState, hits: list[BoolTerm], achieving: BoolTerm) -> SymState:
        """Agitation and Goals: the Goal leaves the structure, its Lobbying goes back, its effects apply,
        and enough points win (Movement Goal Victory)."""
        game = self.t.game
        number = isum(ite(and_(achieving, hits[p]), before.i[f"goal.{p}"], 0) for p in range(GOAL_PLACES))
        lobbied = isum(ite(hits[p], before.i[f"gprof.{p}"], 0) for p in range(GOAL_PLACES))
        s = s.copy()
        s.i["sup.profit"] = s.i["sup.profit"] + ite(achieving, lobbied, 0)
        for p in range(GOAL_PLACES):
            gone = and_(achieving, hits[p])
            s.i[f"gprof.{p}"] = ite(gone, 0, s.i[f"gprof.{p}"])
            s.i[f"goal.{p}"] = ite(gone, 0, s.i[f"goal.{p}"])
        for g in self.goals:
            goal = game.goal(g)
            cond = eq(number, g)
            s.b[f"ach.{g}"] = or_(s.b[f"ach.{g}"], cond)
            s.i["mpts"] = s.i["mpts"] + ite(cond, goal.points, 0)
            for effect in goal.effects:
                s = Encoder.merge(cond, self.goal_effect(s, effect), s)
        s.i["out"] = ite(and_(achieving, le(self.to_win, s.i["mpts"])), int(Out.GOAL), s.i["out"])
        return s

    def goal_effect(self, s: SymState, effect: GoalEffect) -> SymState:
        """One effect of an achieved Goal (Agitation and Goals; Movement Rules > Interference)."""
        s = s.copy()
        match effect:
            case Ban(kind=kind):
                # Ruling ban-scope: one Ban token from the supply marks the kind, if there is one left.
                key = f"ban.{kind}"
                new = and_(not_(s.b[key]), lt(0, s.i["sup.ban"]))
                s.b[key] = or_(s.b[key], new)
                s.i["sup.ban"] = s.i["sup.ban"] - ite(new, 1, 0)
            case AddRestriction(count=n):
                pile = self.restriction_pile
                if pile is None:
                    return s
                cards = self.t.piles[pile]
                for _ in range(n):
                    # Ruling restriction-source: the top of the Restrictions pile, while it has cards.
                    height = s.i[f"pile.{pile}"]
                    for j, c in enumerate(cards):
                        s.i[f"loc.{c}"] = ite(eq(height, j + 1), int(Loc.DISCARD), s.loc(c))
                    has = lt(0, height)
                    s.i["n.disc"] = s.i["n.disc"] + ite(has, 1, 0)
                    s.i[f"pile.{pile}"] = height - ite(has, 1, 0)
            case GainFlight(count=n):
                s = self.gain(s, "flt", "sup.flt", n)
            case GainInfluence(count=n):
                s = self.gain(s, "inf", "sup.inf", n)
            case HandSize():
                pass  # read from the achieved Goals (hand_limit)
        return s

    def organize(self, s: SymState, step: Step, ctx: BoolTerm, cons: list[BoolTerm]) -> SymState:
        """Buying a Card > Organize: a free play from the hand, or none (ruling organize); then the empty
        Market spaces refill before the space's card is taken."""
        label = step.label
        card = ivar(f"{label}.oc")
        right = bvar(f"{label}.oright")
        remove = ivar(f"{label}.orm")
        step.ints.update({"oc": card, "orm": remove})
        step.bools["oright"] = right
        playing = and_(ctx, ne(card, 0))
        step.groups.append(ClauseGroup(Section.BUYING_A_CARD, "Organize: a free play or none", implies(
            playing, and_(self.in_hand(s, card), self.placement_legal(s, right, remove)))))
        placed = s.copy()
        placed.i["mhand"] = s.i["mhand"] - 1
        placed = self.place(placed, card, right, remove)
        after = Encoder.merge(playing, placed, s)
        tokens: list[Token] = []
        after = self.refill(after, ctx, f"{label}.fill", tokens, cons)
        step.tokens["mfill"] = tokens
        return after

    # --- Pacing -----------------------------------------------------------------------------------

    def pacing(self, s: SymState, ctx: BoolTerm, label: str, step: Step) -> SymState:
        """Pacing: 1. passives of face-up Tableau cards and achieved Goals, Refresh passives (ruling
        refresh-passives); 2. the Market shifts in reading order and refills; 3. Flight comes back."""
        game = self.t.game
        s = s.copy()
        gains: dict[str, IntTerm] = {}
        for key, supply, field in (("inf", "sup.inf", "influence"), ("msg", "sup.msg", "messaging"),
                                   ("agi", "sup.agi", "agitation")):
            cards = self.icons(s, passive(field))
            goals = wsum((s.b[f"ach.{g}"], int(getattr(game.goal(g).passive, field))) for g in self.goals)
            gains[key] = cards + goals
            s = self.gain(s, key, supply, gains[key])
        s = self.refresh(s, self.icons(s, lambda m: m.passive.refresh))
        # 2. Shift: each card moves to the first empty space in reading order, its Lobbying with it.
        m = self.spaces
        occ = [s.b[f"mocc.{i}"] for i in range(m)]
        prof = [s.i[f"mprof.{i}"] for i in range(m)]
        cards_in = [s.i[f"mkt.{i}"] for i in range(m)]
        before = [count(occ[:i]) for i in range(m)]
        kept = count(occ)
        for i in range(m):
            s.i[f"mprof.{i}"] = isum(ite(and_(occ[j], eq(before[j], i)), prof[j], 0) for j in range(i, m))
            s.i[f"mkt.{i}"] = isum(ite(and_(occ[j], eq(before[j], i)), cards_in[j], 0) for j in range(i, m))
            s.b[f"mocc.{i}"] = lt(i, kept)
        tokens: list[Token] = []
        drawn: list[BoolTerm] = []
        s = self.refill(s, ctx, f"{label}.pace", tokens, drawn)
        step.tokens["mfill"] = tokens
        step.groups.append(ClauseGroup(Section.PACING, "Market refill", and_(*drawn)))
        # 3. Flight tokens spent since the last Pacing come back (ruling flight).
        s.i["flt"] = s.i["flt"] + s.i["flts"]
        s.i["flts"] = ival(0)
        return s

    # --- the Company's effects on the Movement ---------------------------------------------------

    def removed_from_market(self, s: SymState, asked: BoolTerm, space: IntTerm) -> SymState:
        """Movement Rules > Interference: the card of the removed space goes to the Movement's discard
        (ruling remove-market-destination); the caller has emptied the space's occupancy and Lobbying."""
        s = s.copy()
        card = isum(ite(eq(space, i), s.i[f"mkt.{i}"], 0) for i in range(self.spaces))
        s = self.move_card(s, card, MLoc.DISCARD, asked)
        for i in range(self.spaces):
            s.i[f"mkt.{i}"] = ite(and_(asked, eq(space, i)), 0, s.i[f"mkt.{i}"])
        return s


def edge(left: bool, kind: BonusKind) -> Callable[[MovementCard], int]:
    """How many Bonuses of `kind` a card shows on its left (or right) edge."""
    def read(m: MovementCard) -> int:
        return (m.left if left else m.right).count(kind)
    return read


def passive(name: str) -> Callable[[MovementCard], int]:
    """A card's Passive Ability of one kind."""
    def read(m: MovementCard) -> int:
        return int(getattr(m.passive, name))
    return read


def encoder_for(tables: Tables, movement_free: bool = False) -> Encoder:
    """The step encoder for a game: the Company's rules, with the free Movement's when asked."""
    return Encoder(tables, MovementEncoder if movement_free else None)
