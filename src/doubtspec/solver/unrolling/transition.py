"""The transition relation: one step of the unrolling per decision of the Company, as Z3 terms.

A step starts and ends at a rest point of the engine (nothing pending). Its decision is one free
action of the engine (a play, a buy, the end of a phase, the Movement's pass) together with the
follow-up choices and chance draws that the engine asks for before it is at rest again (Doubt
columns, Lobby targets, cards drawn: free choices, the best luck); the engine's automatic steps
are folded in. Each rule contributes one `ClauseGroup`, tagged with its rulebook section, and
every choice is recorded (a `Token`, a `DrawBlock`, the Doubt split) so that a model can be turned
back into engine actions (`doubtspec.solver.unrolling.witness`).

Three exact reformulations keep the formula small, each resting on a fact checked on the card
data or proved from the rules, and each covered by the agreement tests:
- a play's draws move cards between deck, hand and discard pile and nothing else touches those
  places during a play, so they are chosen together as one set (`draw_block`);
- the Doubt supply always equals the empty Doubt spaces (checked at Set-Up; tokens only move
  between the two), so a Doubt is placed exactly when its group has room, in any order: a step
  places `min(asked, room)` per group with a free split (`place_doubt`);
- Victims and Profit are each taken from one supply in left-to-right order, each take the
  smaller of what is asked and what is left, so a Reserve card gets what remains after the cards
  to its left asked for theirs: a closed form of the activation order (`activation`).

Scope: the Company's whole side; by default the Movement passes every turn (`--opponent passive`), so
no Goal is achieved, nothing is banned and no Restriction card moves. With `movement_free` the
Movement's side is encoded too (`doubtspec.solver.unrolling.movement`): its turn, its Set-Up and its part of
Pacing, and the Company reads the bans (playability, Reserve triggers, Reshuffle Sequence C).
Card files whose Reshuffle effects trash cards from the hand are refused (`UnsupportedCards`):
their order against the Reserve's own moves to the trash pile is not modelled.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from doubtspec.errors import DoubtspecError
from doubtspec.model.cards import (
    AddDoubt,
    AddVictims,
    CompanyEffect,
    Discount,
    DoubtGroup,
    DrawCards,
    Icon,
    Lobby,
    NamedEffect,
    RemoveMarketCard,
    ScoreProfit,
    TokenKind,
    Trigger,
)
from doubtspec.rulebook import Section
from doubtspec.solver.unrolling.encoding import (
    GOAL_PLACES,
    GOAL_TARGET_BASE,
    MAX_LOBBY,
    Loc,
    Out,
    SymState,
    Tables,
)
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
    idiv,
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
    lval,
    ne,
    not_,
    or_,
    same,
    wsum,
)
from doubtspec.solver.verdict import OutOfTime


class MovementPart(Protocol):
    """The Movement's side of a step, when the Movement is free (built by `unrolling.movement`).

    This module never imports the Movement's: the Movement's encoder builds on the Company's, and
    `doubtspec.solver.unrolling.movement.encoder_for` joins the two (imports flow one way).
    """

    def setup(self, s: SymState, step: Step) -> SymState: ...

    def turn(self, s: SymState, rnd: int) -> Step: ...

    def pacing(self, s: SymState, ctx: BoolTerm, label: str, step: Step) -> SymState: ...

    def removed_from_market(self, s: SymState, asked: BoolTerm, space: IntTerm) -> SymState: ...


class UnsupportedCards(DoubtspecError):
    """A card file that uses a mechanism the solver's encoding does not model exactly."""


@dataclass(frozen=True, slots=True)
class ClauseGroup:
    """The constraints one rule contributes to one step, with the section it implements."""

    section: Section
    rule: str
    constraint: BoolTerm


@dataclass(frozen=True, slots=True)
class Token:
    """One follow-up the engine may ask for: its kind, when it is asked, and the decision variable.

    kinds: `lobby` (var: the engine's target number, -1 to skip), `remove` (var: the Market
    space), `trash` (var: the card, 0 to skip), `mfill` (a free Movement's Market refill: var the
    card drawn into the next empty space). Draws are `DrawBlock`s and Doubt is placed per
    step (`Encoder.place_doubt`), so neither needs a token.
    """

    kind: str
    asked: BoolTerm
    ivar: IntTerm


@dataclass(frozen=True, slots=True)
class DrawBlock:
    """Cards drawn together: per card, whether it is drawn and whether it was in the deck before."""

    drawn: dict[int, BoolTerm]
    from_deck: dict[int, BoolTerm]
    count: IntTerm


class Kind:
    """Play-slot decisions."""

    IDLE = 0
    STANDARD = 1
    RESERVE = 2
    UNLOBBY = 3


@dataclass(slots=True)
class Step:
    """One built step of the unrolling: its states, clause groups and decision variables."""

    kind: str
    """'setup', 'movement' (a pass), 'movement-turn' (a free Movement's turn), 'play', 'end-play', 'buy',
    'end-buy'."""
    round: int
    label: str
    before: SymState
    after: SymState
    groups: list[ClauseGroup] = field(default_factory=list)
    ints: dict[str, IntTerm] = field(default_factory=dict)
    bools: dict[str, BoolTerm] = field(default_factory=dict)
    own_tokens: dict[int, list[Token]] = field(default_factory=dict)
    """Play slots: per card played, the tokens of its own effects in order."""
    act_tokens: dict[tuple[Trigger, Icon, int, int], list[Token]] = field(default_factory=dict)
    """Play slots: per (trigger, icon, rank, Reserve card), the tokens of that activation."""
    tokens: dict[str, list[Token]] = field(default_factory=dict)
    """Other steps: named token lists ('draw5', 'refill', ...)."""
    res_tokens: dict[tuple[int, int], list[Token]] = field(default_factory=dict)
    blocks: dict[str, DrawBlock] = field(default_factory=dict)
    """Cards drawn together ('play', 'draw', 'refill')."""
    """End of the Buy Phase: per (rank from the right, Reserve card), its Reshuffle effects' tokens."""
    active: BoolTerm = TRUE


class Encoder:
    """Builds steps over `SymState`s for one game (cards and rulings)."""

    def __init__(self, tables: Tables, movement: Callable[[Encoder], MovementPart] | None = None) -> None:
        """`movement`: builds the free Movement's part (None: the Movement passes every turn)."""
        self.t = tables
        self.free = movement is not None
        for c in tables.cards:
            card = tables.card(c)
            for e in card.reserve.effects + card.reserve.on_reshuffle if card.reserve is not None else ():
                if isinstance(e, DrawCards | NamedEffect):
                    raise UnsupportedCards(f"card {c}: Reserve effects that draw or trash cards are not modelled")
            if card.standard is not None:
                kinds = {type(e) for e in card.standard.effects}
                if DrawCards in kinds and NamedEffect in kinds:
                    raise UnsupportedCards(f"card {c}: a standard effect that both draws and trashes is not modelled")
                for e in card.standard.effects:
                    if isinstance(e, NamedEffect) and e.name != "trash_from_hand":
                        raise UnsupportedCards(f"card {c}: named effect {e.name!r} is not modelled")
        if tables.hand_size > len(tables.starting_deck):
            raise UnsupportedCards("the first hand is larger than the starting deck")
        display = tables.game.cards.display
        free = sum(tables.doubt_capacity) - sum(display.setup_doubt)
        if tables.supply0[TokenKind.DOUBT] != free:
            raise UnsupportedCards("the Doubt supply must equal the empty Doubt spaces at Set-Up "
                                   f"({tables.supply0[TokenKind.DOUBT]} tokens, {free} spaces)")
        for c in tables.cards:
            side = tables.card(c).reserve
            if side is not None and any(isinstance(e, Lobby | RemoveMarketCard) for e in side.effects):
                raise UnsupportedCards(f"card {c}: activated Reserve effects that lobby or remove are not modelled")
        self.groups_by_card: dict[int, tuple[Trigger, Icon] | None] = {}
        for c in tables.cards:
            std = tables.card(c).standard
            self.groups_by_card[c] = (std.trigger, std.icon) if std is not None and std.trigger is not None else None
        self.reserve_cards = tuple(c for c in tables.cards if tables.card(c).reserve is not None)
        # Under ruling budget-payment=minimal a card without Budget never pays; under any-cover it may.
        self.payers = tuple(c for c in tables.cards if tables.budget[c] > 0 or not tables.minimal_payment)
        self.deadline: float | None = None
        """Building past this `time.perf_counter()` raises `OutOfTime` (set by the unrolling from the budget)."""
        self.movement: MovementPart | None = movement(self) if movement is not None else None

    def in_time(self, what: str) -> None:
        """Raise `OutOfTime` once the deadline has passed: long builds check it as they go."""
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise OutOfTime(f"out of time while building {what}")

    # --- bans (Company Rules > Interference; Goals of a free Movement) --------------------------

    def banned(self, s: SymState, c: int) -> BoolTerm:
        """Whether Company card `c` is banned (ruling ban-scope: its kind); never with a passive Movement."""
        kind = self.t.card(c).kind
        return s.b[f"ban.{kind}"] if self.free and kind in self.t.ban_kinds else FALSE

    def loopholes(self, s: SymState) -> BoolTerm:
        """Company Rules > Interference: a Loopholes card, itself not banned, in the Reserve."""
        return any_of(and_(s.at(c, Loc.RESERVE), not_(self.banned(s, c))) for c in self.reserve_cards
                      if (side := self.t.card(c).reserve) is not None and side.loopholes)

    def playable(self, s: SymState, c: int, standard: bool) -> BoolTerm:
        """A card's side may be played despite the bans (a banned standard side needs Loopholes)."""
        ban = self.banned(s, c)
        if is_false(ban):
            return TRUE
        return or_(not_(ban), self.loopholes(s)) if standard else not_(ban)

    # --- small helpers ----------------------------------------------------------------------

    def hand_budget(self, s: SymState, exclude: Int | None = None) -> IntTerm:
        b = self.t.budget
        terms: list[tuple[Bool, int]] = []
        for c in self.t.cards:
            if b[c] == 0:
                continue
            held = s.at(c, Loc.HAND)
            if exclude is not None:
                held = and_(held, ne(exclude, c))
            terms.append((held, b[c]))
        return wsum(terms)

    def can_play_any(self, s: SymState) -> BoolTerm:
        """Economic Defeat, Play Phase (legal.can_play_any): some hand card can be paid for."""
        total = self.hand_budget(s)
        options: list[BoolTerm] = []
        for c in self.t.cards:
            card = self.t.card(c)
            ways: list[BoolTerm] = []
            for side, standard in ((card.standard, True), (card.reserve, False)):
                if side is not None:
                    ways.append(and_(self.playable(s, c, standard),
                                     TRUE if side.cost <= 0 else le(side.cost + self.t.budget[c], total)))
            if ways:
                options.append(and_(s.at(c, Loc.HAND), or_(*ways)))
        return any_of(options)

    def offer(self, s: SymState, c: int) -> BoolTerm:
        """Buying Cards: `c` can be bought now (top of a buyable pile or stack, or of the trash pile)."""
        t = self.t
        sources: list[BoolTerm] = []
        if c in t.pile_of:
            i, j = t.pile_of[c]
            if i in t.buyable_piles:
                sources.append(and_(s.at(c, Loc.MARKET), eq(s.i[f"pile.{i}"], j + 1)))
        if c in t.pair_of:
            k, even = t.pair_of[c]
            sources.append(and_(s.at(c, Loc.MARKET), eq(s.i[f"pair.{k}"], 2 if even else 1)))
        in_trash = s.at(c, Loc.TRASH)
        if not t.trash_any:
            in_trash = and_(in_trash, eq(s.pos(c), s.i["tlen"] - 1))
        sources.append(in_trash)
        return or_(*sources)

    def buy_cost(self, s: SymState, c: int) -> IntTerm:
        return imax(0, self.t.budget[c] + ite(s.at(c, Loc.TRASH), 1, 0) - s.i["disc"])

    def can_buy_any(self, s: SymState) -> BoolTerm:
        """Economic Defeat, Buy Phase (legal.can_buy_any): some offer costs at most the hand's Budget."""
        total = self.hand_budget(s)
        return any_of(and_(self.offer(s, c), le(self.buy_cost(s, c), total)) for c in self.t.cards)

    def payment(self, s: SymState, pay: dict[int, BoolTerm], cost: IntTerm, paying: BoolTerm,
                exclude: IntTerm | None) -> BoolTerm:
        """Spending Budget (ruling budget-payment): the paying cards are other hand cards that cover the cost."""
        parts: list[BoolTerm] = []
        total = wsum((p, self.t.budget[c]) for c, p in pay.items())
        for c, p in pay.items():
            held = s.at(c, Loc.HAND)
            if exclude is not None:
                held = and_(held, ne(exclude, c))
            parts.append(implies(p, and_(paying, held)))
            if self.t.minimal_payment:
                parts.append(implies(p, lt(total - self.t.budget[c], cost)))
        parts.append(implies(paying, le(cost, total)))
        return and_(*parts)

    # --- effects ----------------------------------------------------------------------------

    def effect(self, s: SymState, e: CompanyEffect, ctx: BoolTerm, name: str, tokens: list[Token],
               cons: list[BoolTerm]) -> SymState:
        """One Company effect (company.resolve_effect and its choices), under context `ctx`."""
        s = s.copy()
        match e:
            case AddVictims(zone=zone, count=n):
                got = imin(n, s.i["sup.vic"])
                s.i[f"vic.{int(zone)}"] = s.i[f"vic.{int(zone)}"] + got
                s.i["sup.vic"] = s.i["sup.vic"] - got
            case ScoreProfit(count=n):
                got = imin(n, s.i["sup.profit"])
                s.i["profit"] = s.i["profit"] + got
                s.i["sup.profit"] = s.i["sup.profit"] - got
            case Discount(amount=n):
                s.i["disc"] = s.i["disc"] + n
            case AddDoubt(group=group, count=n):
                # Placed together at the end of the play or step (Encoder.place_doubt).
                key = f"req.{0 if group is DoubtGroup.I else 1}"
                s.i[key] = s.i[key] + n
            case DrawCards():
                raise AssertionError("draws are encoded as one block per play (Encoder.draw_block)")
            case Lobby(count=n):
                s = self.lobby_effect(s, n, ctx, name, tokens, cons)
            case RemoveMarketCard(count=n):
                for j in range(n):
                    s = self.remove_token(s, ctx, f"{name}.r{j}", tokens, cons)
            case NamedEffect():
                raise AssertionError("trashing is encoded once per play (Encoder.trash_token)")
        return s

    def effects(self, s: SymState, effects: Sequence[CompanyEffect], ctx: BoolTerm, name: str,
                tokens: list[Token], cons: list[BoolTerm]) -> SymState:
        for n, e in enumerate(effects):
            s = self.effect(s, e, ctx, f"{name}.e{n}", tokens, cons)
        return s

    def draw_block(self, s: SymState, n: Int, ctx: BoolTerm, name: str, cons: list[BoolTerm],
                   silent: bool) -> tuple[SymState, DrawBlock]:
        """`n` cards drawn one at a time (chance events, free choices), as one set.

        A silent draw (a card's effect) reshuffles the discards into an empty deck once and goes
        on; a Draw Phase draw stops at an empty deck. No other effect moves cards between deck,
        hand and discard pile, so a play's draws commute with its other effects and can be chosen
        together.
        """
        cards = self.t.cards
        in_deck = {c: s.at(c, Loc.DECK) for c in cards}
        in_disc = {c: s.at(c, Loc.DISCARD) for c in cards}
        deck_n = s.i["n.deck"]
        disc_n = s.i["n.disc"]
        drawn = {c: bvar(f"{name}.{c}") for c in cards}
        if silent:
            reshuffle = and_(lt(deck_n, n), lt(0, disc_n))
            got = imin(n, deck_n + disc_n)
        else:
            reshuffle = FALSE
            got = imin(n, deck_n)
        rules = [eq(count(drawn.values()), got)]
        for c in cards:
            rules.append(implies(drawn[c], or_(in_deck[c], and_(reshuffle, in_disc[c]))))
            rules.append(implies(and_(reshuffle, in_deck[c]), drawn[c]))
        cons.append(implies(ctx, and_(*rules)))
        s = s.copy()
        for c in cards:
            s.i[f"loc.{c}"] = ite(and_(ctx, drawn[c]), int(Loc.HAND),
                                  ite(and_(ctx, reshuffle, in_disc[c]), int(Loc.DECK), s.loc(c)))
        s.i["n.hand"] = s.i["n.hand"] + ite(ctx, got, 0)
        s.i["n.deck"] = ite(ctx, ite(reshuffle, deck_n + disc_n - got, deck_n - got), deck_n)
        s.i["n.disc"] = ite(and_(ctx, reshuffle), 0, disc_n)
        return s, DrawBlock(drawn, in_deck, got)

    def lobby_effect(self, s: SymState, n: int, ctx: BoolTerm, name: str, tokens: list[Token],
                     cons: list[BoolTerm]) -> SymState:
        """Company Interference, Lobbying: up to `n` tokens, one Profit each, on distinct unpurchased cards."""
        targets = self.t.lobby_targets()
        stopped: BoolTerm = FALSE
        used: list[tuple[BoolTerm, IntTerm]] = []
        for j in range(n):
            choice = ivar(f"{name}.l{j}")
            valid: dict[int, BoolTerm] = {}
            for target in targets:
                if target >= GOAL_TARGET_BASE:
                    slot = target - GOAL_TARGET_BASE
                    ok = lt(s.i[f"gprof.{slot}"], MAX_LOBBY)  # every Goal stays in the structure (passive)
                    if self.free:
                        ok = and_(ok, ne(s.i[f"goal.{slot}"], 0))
                else:
                    ok = and_(s.b[f"mocc.{target}"], lt(s.i[f"mprof.{target}"], MAX_LOBBY))
                fresh = and_(*(or_(not_(placed), ne(prev, target)) for placed, prev in used))
                valid[target] = and_(ok, fresh)
            asked = and_(not_(stopped), lt(0, s.i["profit"]), any_of(valid.values()))
            cons.append(implies(and_(ctx, asked),
                                or_(eq(choice, -1), *(and_(eq(choice, tg), v) for tg, v in valid.items()))))
            tokens.append(Token("lobby", asked, choice))
            placed = and_(asked, ne(choice, -1))
            s = s.copy()
            s.i["profit"] = s.i["profit"] - ite(placed, 1, 0)
            for target in targets:
                key = (f"gprof.{target - GOAL_TARGET_BASE}" if target >= GOAL_TARGET_BASE else f"mprof.{target}")
                s.i[key] = s.i[key] + ite(and_(placed, eq(choice, target)), 1, 0)
            used.append((placed, choice))
            stopped = or_(stopped, not_(placed))
        return s

    def remove_token(self, s: SymState, ctx: BoolTerm, name: str, tokens: list[Token],
                     cons: list[BoolTerm]) -> SymState:
        """Movement Interference: the Company removes one Market card to the Movement's discard pile."""
        spaces = range(self.t.market_spaces)
        choice = ivar(name)
        asked = any_of(s.b[f"mocc.{i}"] for i in spaces)
        cons.append(implies(and_(ctx, asked), or_(*(and_(eq(choice, i), s.b[f"mocc.{i}"]) for i in spaces))))
        tokens.append(Token("remove", asked, choice))
        s = s.copy()
        back: list[Int] = []
        for i in spaces:
            hit = and_(asked, eq(choice, i))
            back.append(ite(hit, s.i[f"mprof.{i}"], 0))
            s.i[f"mprof.{i}"] = ite(hit, 0, s.i[f"mprof.{i}"])
            s.b[f"mocc.{i}"] = and_(not_(hit), s.b[f"mocc.{i}"])
        s.i["sup.profit"] = s.i["sup.profit"] + isum(back)
        s.i["mdisc"] = s.i["mdisc"] + ite(asked, 1, 0)
        if self.movement is not None:
            s = self.movement.removed_from_market(s, asked, choice)
        return s

    def trash_token(self, s: SymState, ctx: BoolTerm, name: str, tokens: list[Token],
                    cons: list[BoolTerm]) -> SymState:
        """Named effect trash_from_hand: a hand card to the top of the trash pile, or none."""
        cards = self.t.cards
        choice = ivar(name)
        asked = any_of(s.at(c, Loc.HAND) for c in cards)
        cons.append(implies(and_(ctx, asked),
                            or_(eq(choice, 0), *(and_(eq(choice, c), s.at(c, Loc.HAND)) for c in cards))))
        tokens.append(Token("trash", asked, choice))
        s = s.copy()
        tlen = s.i["tlen"]
        for c in cards:
            hit = and_(asked, eq(choice, c))
            s.i[f"loc.{c}"] = ite(hit, int(Loc.TRASH), s.loc(c))
            s.i[f"pos.{c}"] = ite(hit, tlen, s.pos(c))
        s.i["tlen"] = tlen + ite(and_(asked, ne(choice, 0)), 1, 0)
        s.i["n.hand"] = s.i["n.hand"] - ite(and_(ctx, asked, ne(choice, 0)), 1, 0)
        return s

    # --- merging ------------------------------------------------------------------------------

    @staticmethod
    def merge(cond: Bool, then: SymState, other: SymState) -> SymState:
        """`then` where `cond` holds, else `other`, entry by entry (unchanged entries stay shared)."""
        out = other.copy()
        for k, v in then.i.items():
            if not same(v, other.i[k]):
                out.i[k] = ite(cond, v, other.i[k])
        for k, bv in then.b.items():
            if not same(bv, other.b[k]):
                out.b[k] = bite(cond, bv, other.b[k])
        return out

    # --- steps --------------------------------------------------------------------------------

    def setup(self) -> Step:
        """Company Set-Up (deck, piles, stacks, display, first hand) and the Movement's Market, as a free choice."""
        t = self.t
        s = SymState({}, {})
        step = Step("setup", 0, "setup", s, s)
        hand = {c: bvar(f"setup.hand.{c}") for c in t.starting_deck}
        dealt = {k: bvar(f"setup.pair.{k}") for k in range(len(t.pairs))}
        for c in t.cards:
            if c in hand:
                s.i[f"loc.{c}"] = ite(hand[c], lval(int(Loc.HAND)), lval(int(Loc.DECK)))
            elif c in t.pair_of:
                s.i[f"loc.{c}"] = ite(dealt[t.pair_of[c][0]], lval(int(Loc.MARKET)), lval(int(Loc.REMOVED)))
            elif c in t.pile_of:
                s.i[f"loc.{c}"] = lval(int(Loc.MARKET))
            else:
                raise UnsupportedCards(f"card {c} is neither in the starting deck, a pile nor a pair")
            s.i[f"pos.{c}"] = ival(0)
        for k in range(len(t.pairs)):
            s.i[f"pair.{k}"] = ite(dealt[k], 2, 0)
        for i, pile in enumerate(t.piles):
            s.i[f"pile.{i}"] = ival(len(pile))
        display = t.game.cards.display
        consts: dict[str, int] = {
            "rlen": 0, "tlen": 0, "profit": 0, "stars": 0, "plays": 0, "buys": 0, "disc": 0, "resh": 0,
            "sup.profit": t.supply0[TokenKind.PROFIT], "sup.vic": t.supply0[TokenKind.VICTIMS],
            "sup.dbt": t.supply0[TokenKind.DOUBT], "sup.star": t.supply0[TokenKind.STARS],
            "mdeck": t.movement_deck_size - t.market_spaces, "mdisc": 0, "out": int(Out.NONE),
            "n.deck": len(t.starting_deck) - t.hand_size, "n.hand": t.hand_size, "n.disc": 0,
        }
        for z in range(4):
            consts[f"vic.{z}"] = display.setup_victims[z]
            consts[f"dbt.{z}"] = display.setup_doubt[z]
        for i in range(t.market_spaces):
            consts[f"mprof.{i}"] = 0
            s.b[f"mocc.{i}"] = TRUE
        for g in range(GOAL_PLACES):
            consts[f"gprof.{g}"] = 0
        for name, value in consts.items():
            s.i[name] = ival(value)
        s.b["unl"] = FALSE
        step.groups.append(ClauseGroup(Section.COMPANY_SETUP, "first hand and dealt stacks", and_(
            eq(count(hand.values()), t.hand_size), eq(count(dealt.values()), t.stacks_dealt))))
        step.bools.update({f"hand.{c}": v for c, v in hand.items()})
        step.bools.update({f"pair.{k}": v for k, v in dealt.items()})
        if self.movement is not None:
            s = self.movement.setup(s, step)
        step.after = s
        return step

    def movement_turn(self, s: SymState, rnd: int) -> Step:
        """The Movement's free turn (`doubtspec.solver.unrolling.movement`); the Company's turn starts."""
        if self.movement is None:
            raise AssertionError("the Movement's turn is encoded only with movement_free")
        return self.movement.turn(s, rnd)

    def start_company_turn(self, s: SymState) -> SymState:
        """On Your Go: the Company's turn starts; Economic Defeat when no card can be played."""
        after = s.copy()
        live = eq(s.i["out"], int(Out.NONE))
        for name in ("plays", "buys", "disc"):
            after.i[name] = ite(live, 0, s.i[name])
        after.b["unl"] = and_(not_(live), s.b["unl"])
        after.i["out"] = ite(and_(live, not_(self.can_play_any(after))), int(Out.ECONOMIC), s.i["out"])
        return after

    def movement_pass(self, s: SymState, rnd: int) -> Step:
        """The Movement passes (--opponent passive); the Company's turn starts (Economic Defeat check)."""
        step = Step("movement", rnd, f"r{rnd}.m", s, self.start_company_turn(s))
        step.groups.append(ClauseGroup(Section.COMPANY_ON_YOUR_GO, "economic defeat at the start of the turn", TRUE))
        return step

    def play_slot(self, s: SymState, rnd: int, slot: int, prev_active: BoolTerm) -> Step:
        """One play of the Play Phase: a standard play (effects, triggers), a reserve play, an unlobby, or nothing."""
        t = self.t
        label = f"r{rnd}.p{slot}"
        kind = ivar(f"{label}.kind")
        card = ivar(f"{label}.card")
        target = ivar(f"{label}.unlobby")
        pay = {c: bvar(f"{label}.pay.{c}") for c in self.payers}
        live = and_(eq(s.i["out"], int(Out.NONE)), prev_active)
        step = Step("play", rnd, label, s, s)
        step.ints.update({"kind": kind, "card": card, "unlobby": target})
        step.bools.update({f"pay.{c}": v for c, v in pay.items()})
        is_std = eq(kind, Kind.STANDARD)
        is_res = eq(kind, Kind.RESERVE)
        is_unl = eq(kind, Kind.UNLOBBY)
        playing = or_(is_std, is_res)
        sel = {c: eq(card, c) for c in t.cards}
        # On Your Go: which plays exist (the card in hand with the chosen side).
        std_cards = [c for c in t.cards if t.card(c).standard is not None]
        res_cards = [c for c in t.cards if t.card(c).reserve is not None]
        legal = and_(
            le(0, kind), le(kind, Kind.UNLOBBY),
            implies(not_(live), eq(kind, Kind.IDLE)),
            implies(is_std, or_(*(and_(sel[c], s.at(c, Loc.HAND), self.playable(s, c, True)) for c in std_cards))),
            implies(is_res, or_(*(and_(sel[c], s.at(c, Loc.HAND), self.playable(s, c, False)) for c in res_cards))),
        )
        step.groups.append(ClauseGroup(Section.COMPANY_ON_YOUR_GO, "a play from the hand", legal))
        std_cost = isum(ite(sel[c], side.cost, 0) for c in std_cards
                        if (side := t.card(c).standard) is not None and side.cost != 0)
        res_cost = isum(ite(sel[c], rside.cost, 0) for c in res_cards
                        if (rside := t.card(c).reserve) is not None and rside.cost != 0)
        cost = ite(is_std, std_cost, res_cost)
        step.groups.append(ClauseGroup(Section.SPENDING_BUDGET, "payment", self.payment(s, pay, cost, playing, card)))
        # Interference (Company): the voluntary removal of Lobbying before the first play.
        unl_targets = self.unlobby_targets(s)
        step.groups.append(ClauseGroup(Section.COMPANY_INTERFERENCE, "unlobby", implies(is_unl, and_(
            eq(s.i["plays"], 0), not_(s.b["unl"]), or_(*(and_(eq(target, k), ok) for k, ok in unl_targets.items()))))))
        # Canonical form: an idle slot ends the Play Phase's plays.
        step.active = and_(live, ne(kind, Kind.IDLE))

        # Common part of a play: the card leaves the hand, the payment is discarded.
        base = s.copy()
        for c in t.cards:
            paid = pay.get(c, FALSE)
            base.i[f"loc.{c}"] = ite(and_(playing, sel[c]), int(Loc.IN_PLAY), ite(paid, int(Loc.DISCARD), s.loc(c)))
        base.i["plays"] = s.i["plays"] + ite(playing, 1, 0)
        paid_n = count(pay.values())
        base.i["n.hand"] = s.i["n.hand"] - ite(playing, 1, 0) - paid_n
        base.i["n.disc"] = s.i["n.disc"] + paid_n

        # Reserve Effects: a reserve play goes to the right end of the Reserve.
        reserve = base.copy()
        for c in res_cards:
            reserve.i[f"loc.{c}"] = ite(sel[c], int(Loc.RESERVE), base.loc(c))
            reserve.i[f"pos.{c}"] = ite(sel[c], s.i["rlen"], s.pos(c))
        reserve.i["rlen"] = s.i["rlen"] + 1

        # Standard Effects: the card's own effects and the Reserve cards its trigger activates.
        cons: list[BoolTerm] = []
        base.i["req.0"] = ival(0)
        base.i["req.1"] = ival(0)
        standard = self.standard_effects(base, sel, is_std, label, step, cons)
        standard = self.place_doubt(standard, is_std, f"{label}.doubt", step, cons)
        for c in t.cards:
            standard.i[f"loc.{c}"] = ite(eq(standard.loc(c), int(Loc.IN_PLAY)), int(Loc.DISCARD), standard.loc(c))
        standard.i["n.disc"] = standard.i["n.disc"] + 1
        step.groups.append(ClauseGroup(Section.STANDARD_EFFECTS, "effect choices", and_(*cons)))

        unlobbied = s.copy()
        back: list[Int] = []
        for k in unl_targets:
            key = f"gprof.{k - GOAL_TARGET_BASE}" if k >= GOAL_TARGET_BASE else f"mprof.{k}"
            hit = eq(target, k)
            back.append(ite(hit, s.i[key], 0))
            unlobbied.i[key] = ite(hit, 0, s.i[key])
        unlobbied.i["sup.profit"] = s.i["sup.profit"] + isum(back)
        unlobbied.b["unl"] = TRUE

        after = self.merge(is_std, standard, s)
        after = self.merge(is_res, reserve, after)
        after = self.merge(is_unl, unlobbied, after)
        step.after = after
        return step

    def unlobby_targets(self, s: SymState) -> dict[int, BoolTerm]:
        targets: dict[int, BoolTerm] = {}
        for i in range(self.t.market_spaces):
            targets[i] = lt(0, s.i[f"mprof.{i}"])
        for g in range(GOAL_PLACES):
            targets[GOAL_TARGET_BASE + g] = lt(0, s.i[f"gprof.{g}"])
        return targets

    def standard_effects(self, base: SymState, sel: dict[int, BoolTerm], is_std: BoolTerm, label: str,
                         step: Step, cons: list[BoolTerm]) -> SymState:
        """Standard Effects: own effects and trigger activation, in the order of ruling trigger-timing.

        Cards with the same effects share one encoding; the play's draws and its trashing move
        cards and nothing else, so they are encoded once per slot after the rest.
        """
        t = self.t
        std_cards = [c for c in t.cards if t.card(c).standard is not None]

        def own(s: SymState) -> SymState:
            merged = s
            signatures: dict[tuple[CompanyEffect, ...], list[int]] = {}
            for c in std_cards:
                side = t.card(c).standard
                assert side is not None
                sig: tuple[CompanyEffect, ...] = tuple(
                    e for e in side.effects if not isinstance(e, DrawCards | NamedEffect))
                signatures.setdefault(sig, []).append(c)
            for sig, members in signatures.items():
                if not sig:
                    continue
                cond = or_(*(sel[c] for c in members))
                tokens: list[Token] = []
                after = self.effects(s, sig, and_(is_std, cond), f"{label}.own", tokens, cons)
                for c in members:
                    step.own_tokens[c] = tokens
                merged = self.merge(cond, after, merged)
            return merged

        def activate(s: SymState) -> SymState:
            merged = s
            groups: dict[tuple[Trigger, Icon], list[int]] = {}
            for c in std_cards:
                g = self.groups_by_card[c]
                if g is not None:
                    groups.setdefault(g, []).append(c)
            for (trigger, icon), members in groups.items():
                candidates = t.reserve_candidates(trigger, icon)
                if not candidates:
                    continue
                chosen = and_(is_std, or_(*(sel[c] for c in members)))
                after = self.activation(s, trigger, icon, candidates, chosen, label, step, cons)
                merged = self.merge(chosen, after, merged)
            return merged

        state = activate(own(base)) if t.trigger_after else own(activate(base))
        draws = {c: sum(e.count for e in side.effects if isinstance(e, DrawCards))
                 for c in std_cards if (side := t.card(c).standard) is not None}
        n = isum(ite(sel[c], k, 0) for c, k in draws.items() if k)
        if not same(n, 0):
            state, block = self.draw_block(state, n, is_std, f"{label}.draw", cons, silent=True)
            step.blocks["play"] = block
        trashers = [c for c in std_cards if any(isinstance(e, NamedEffect) for e in t.card(c).standard.effects)]  # type: ignore[union-attr]
        if trashers:
            tokens: list[Token] = []
            ctx = and_(is_std, or_(*(sel[c] for c in trashers)))
            trashed = self.trash_token(state, ctx, f"{label}.trash", tokens, cons)
            state = self.merge(ctx, trashed, state)
            step.tokens["trash"] = tokens
        return state

    def ranks(self, s: SymState, candidates: Sequence[int], active: dict[int, BoolTerm],
              descending: bool = False) -> dict[int, IntTerm]:
        """Each active candidate's place among the active ones, by Reserve position."""
        result: dict[int, IntTerm] = {}
        for r in candidates:
            before: list[BoolTerm] = []
            for q in candidates:
                if q == r:
                    continue
                earlier = lt(s.pos(r), s.pos(q)) if descending else lt(s.pos(q), s.pos(r))
                before.append(and_(active[q], earlier))
            result[r] = count(before)
        return result

    def activation(self, s: SymState, trigger: Trigger, icon: Icon, candidates: Sequence[int], chosen: BoolTerm,
                   label: str, step: Step, cons: list[BoolTerm]) -> SymState:
        """Reserve Effects: matching Reserve cards (trigger and icon) activate from left to right.

        Reserve effects add Victims, Doubt, Profit or a discount (others are refused by the
        Encoder). Victims and Profit are taken from one supply each, in order, each take the
        smaller of what is asked and what is left, so a card gets what remains after the cards
        to its left asked for theirs: a closed form of the left-to-right order.
        """
        t = self.t
        s = s.copy()
        # Interference: banned cards in the Reserve never trigger (no ban under a passive Movement).
        active = {r: and_(s.at(r, Loc.RESERVE), not_(self.banned(s, r))) for r in candidates}
        asks: dict[int, list[AddVictims]] = {}
        profit: list[Int] = []
        for r in candidates:
            side = t.card(r).reserve
            assert side is not None
            asks[r] = [e for e in side.effects if isinstance(e, AddVictims)]
            for e in side.effects:
                match e:
                    case ScoreProfit(count=n):
                        profit.append(ite(active[r], n, 0))
                    case Discount(amount=n):
                        s.i["disc"] = s.i["disc"] + ite(active[r], n, 0)
                    case AddDoubt(group=group, count=n):
                        key = f"req.{0 if group is DoubtGroup.I else 1}"
                        s.i[key] = s.i[key] + ite(active[r], n, 0)
        supply = s.i["sup.vic"]
        added: dict[int, list[Int]] = {z: [] for z in range(4)}
        taken: list[Int] = []
        for r in candidates:
            if not asks[r]:
                continue
            left_of = isum(ite(and_(active[q], lt(s.pos(q), s.pos(r))), sum(e.count for e in asks[q]), 0)
                           for q in candidates if q != r and asks[q])
            remaining = imax(0, supply - left_of)
            done = 0
            for e in asks[r]:
                got = ite(active[r], imin(e.count, imax(0, remaining - done)), 0)
                added[int(e.zone)].append(got)
                taken.append(got)
                done += e.count
        for z in range(4):
            if added[z]:
                s.i[f"vic.{z}"] = s.i[f"vic.{z}"] + isum(added[z])
        if taken:
            s.i["sup.vic"] = supply - isum(taken)
        if profit:
            got_profit = imin(isum(profit), s.i["sup.profit"])
            s.i["profit"] = s.i["profit"] + got_profit
            s.i["sup.profit"] = s.i["sup.profit"] - got_profit
        return s

    def place_doubt(self, s: SymState, ctx: BoolTerm, name: str, step: Step, cons: list[BoolTerm]) -> SymState:
        """Adding Doubt, for every Doubt a step asked for: as many as its group's columns have room for.

        The Doubt supply always equals the empty spaces (checked by the Encoder), so a Doubt is
        placed exactly when its group has room, whatever the order; the split between the two
        columns is free (`name.g`: how many go to the group's first column).
        """
        cap = self.t.doubt_capacity
        s = s.copy()
        for g, group in enumerate((DoubtGroup.I, DoubtGroup.II)):
            a, b = (int(col) for col in group.columns)
            room_a = cap[a] - s.i[f"dbt.{a}"]
            room_b = cap[b] - s.i[f"dbt.{b}"]
            placed = imin(s.i[f"req.{g}"], room_a + room_b)
            first = ivar(f"{name}.g{g}")
            step.ints[f"doubt.{g}"] = first
            cons.append(implies(ctx, and_(le(0, first), le(first, room_a), le(placed - first, room_b),
                                          le(0, placed - first))))
            s.i[f"dbt.{a}"] = s.i[f"dbt.{a}"] + ite(ctx, first, 0)
            s.i[f"dbt.{b}"] = s.i[f"dbt.{b}"] + ite(ctx, placed - first, 0)
            s.i["sup.dbt"] = s.i["sup.dbt"] - ite(ctx, placed, 0)
            del s.i[f"req.{g}"]
        return s

    def end_play(self, s: SymState, rnd: int) -> Step:
        """The Play Phase ends (at least one play); Economic Defeat if no card can be bought."""
        live = eq(s.i["out"], int(Out.NONE))
        after = s.copy()
        after.i["out"] = ite(and_(live, not_(self.can_buy_any(s))), int(Out.ECONOMIC), s.i["out"])
        step = Step("end-play", rnd, f"r{rnd}.ep", s, after)
        step.groups.append(ClauseGroup(Section.COMPANY_ON_YOUR_GO, "at least one play",
                                       implies(live, le(1, s.i["plays"]))))
        return step

    def buy_slot(self, s: SymState, rnd: int, slot: int, prev_active: BoolTerm) -> Step:
        """One buy of the Buy Phase, or nothing."""
        t = self.t
        label = f"r{rnd}.b{slot}"
        buying = bvar(f"{label}.buy")
        card = ivar(f"{label}.card")
        pay = {c: bvar(f"{label}.pay.{c}") for c in self.payers}
        live = and_(eq(s.i["out"], int(Out.NONE)), prev_active)
        step = Step("buy", rnd, label, s, s)
        step.ints["card"] = card
        step.bools["buy"] = buying
        step.bools.update({f"pay.{c}": v for c, v in pay.items()})
        sel = {c: eq(card, c) for c in t.cards}
        step.groups.append(ClauseGroup(Section.BUYING_CARDS, "an offered card", and_(
            implies(buying, live),
            implies(buying, or_(*(and_(sel[c], self.offer(s, c)) for c in t.cards))))))
        cost = isum(ite(sel[c], self.buy_cost(s, c), 0) for c in t.cards)
        step.groups.append(ClauseGroup(Section.SPENDING_BUDGET, "payment", self.payment(s, pay, cost, buying, None)))
        step.active = buying
        after = s.copy()
        bought = {c: and_(buying, sel[c]) for c in t.cards}
        for c in t.cards:
            after.i[f"loc.{c}"] = ite(or_(bought[c], pay.get(c, FALSE)), int(Loc.DISCARD), s.loc(c))
        for i, pile in enumerate(t.piles):
            taken = or_(*(and_(bought[c], s.at(c, Loc.MARKET)) for c in pile))
            after.i[f"pile.{i}"] = s.i[f"pile.{i}"] - ite(taken, 1, 0)
        for k, pair in enumerate(t.pairs):
            taken = or_(*(and_(bought[c], s.at(c, Loc.MARKET)) for c in pair))
            after.i[f"pair.{k}"] = s.i[f"pair.{k}"] - ite(taken, 1, 0)
        from_trash = or_(*(and_(bought[c], s.at(c, Loc.TRASH)) for c in t.cards))
        after.i["tlen"] = s.i["tlen"] - ite(from_trash, 1, 0)
        if t.trash_any:
            gone = isum(ite(and_(bought[c], s.at(c, Loc.TRASH)), s.pos(c), 0) for c in t.cards)
            for c in t.cards:
                after.i[f"pos.{c}"] = ite(and_(from_trash, s.at(c, Loc.TRASH), lt(gone, s.pos(c))),
                                          s.pos(c) - 1, s.pos(c))
        after.i["buys"] = s.i["buys"] + ite(buying, 1, 0)
        paid_n = count(pay.values())
        after.i["n.hand"] = s.i["n.hand"] - paid_n
        after.i["n.disc"] = s.i["n.disc"] + paid_n + ite(buying, 1, 0)
        after.i["disc"] = ite(buying, 0, s.i["disc"])
        step.after = after
        return step

    def end_buy(self, s: SymState, rnd: int) -> Step:
        """The Draw Phase: discard the hand, draw five, or run the Reshuffle Sequence and Pacing."""
        t = self.t
        cards = t.cards
        label = f"r{rnd}.eb"
        step = Step("end-buy", rnd, label, s, s)
        live = eq(s.i["out"], int(Out.NONE))
        step.groups.append(ClauseGroup(Section.COMPANY_ON_YOUR_GO, "at least one buy",
                                       implies(live, le(1, s.i["buys"]))))
        cons: list[BoolTerm] = []
        # On Your Go, Draw Phase: the hand is discarded.
        d = s.copy()
        for c in cards:
            d.i[f"loc.{c}"] = ite(s.at(c, Loc.HAND), int(Loc.DISCARD), s.loc(c))
        d.i["n.disc"] = s.i["n.disc"] + s.i["n.hand"]
        d.i["n.hand"] = ival(0)
        deck_n = d.i["n.deck"]
        enough = le(t.hand_size, deck_n)
        step.ints["deck"] = deck_n
        step.bools["enough"] = enough

        # Enough cards: draw the hand.
        quick, block = self.draw_block(d, t.hand_size, and_(live, enough), f"{label}.draw", cons, silent=False)
        step.blocks["draw"] = block

        # Reshuffle Sequence.
        seq = d.copy()
        ctx = and_(live, not_(enough))
        if t.draw_first:
            for c in cards:
                seq.i[f"loc.{c}"] = ite(d.at(c, Loc.DECK), int(Loc.HAND), d.loc(c))
            seq.i["n.hand"] = deck_n
            seq.i["n.deck"] = ival(0)
        seq = self.score_and_seed(seq, label, cons)
        won = eq(seq.i["out"], int(Out.STAR))
        ctx = and_(ctx, not_(won))
        seq.i["req.0"] = ival(0)
        seq.i["req.1"] = ival(0)
        seq = self.resolve_reserve(seq, ctx, label, step, cons)
        seq = self.place_doubt(seq, ctx, f"{label}.doubt", step, cons)
        # D. Reshuffle: the discards join the deck.
        for c in cards:
            seq.i[f"loc.{c}"] = ite(seq.at(c, Loc.DISCARD), int(Loc.DECK), seq.loc(c))
        seq.i["n.deck"] = seq.i["n.deck"] + seq.i["n.disc"]
        seq.i["n.disc"] = ival(0)
        # D. Continue drawing: to the hand size; an empty deck is Marginalization.
        need = imax(0, t.hand_size - seq.i["n.hand"])
        marginal = and_(ctx, lt(seq.i["n.deck"], need))
        seq, block = self.draw_block(seq, need, ctx, f"{label}.refill", cons, silent=False)
        step.blocks["refill"] = block
        seq.i["out"] = ite(marginal, int(Out.MARGINAL), seq.i["out"])
        # Company Rules: 70 Profit at the end of a Reshuffle.
        seq.i["out"] = ite(and_(not_(marginal), eq(seq.i["out"], int(Out.NONE)),
                                le(t.game.cards.rules.profit_to_win, seq.i["profit"])),
                           int(Out.PROFIT), seq.i["out"])
        seq = self.pacing(seq, and_(ctx, eq(seq.i["out"], int(Out.NONE))), label, step)
        step.groups.append(ClauseGroup(Section.RESHUFFLE_AND_DRAW, "draws", and_(*cons)))
        after = self.merge(enough, quick, seq)
        step.after = self.merge(live, after, s)
        return step

    def score_and_seed(self, s: SymState, label: str, cons: list[BoolTerm]) -> SymState:
        """Reshuffle Sequence A (scoring, right to left) and B (seeding, stars)."""
        t = self.t
        rules = t.game.cards.rules
        s = s.copy()
        kids, adults, middle, elderly = (s.i[f"vic.{z}"] for z in range(4))
        thirds, defined_thirds = idiv(middle, 3, f"{label}.thirds")
        halves, defined_halves = idiv(adults, 2, f"{label}.halves")
        cons.append(and_(defined_thirds, defined_halves))
        lost_middle = 2 * thirds
        keep_middle = middle - lost_middle
        lost_adults = halves
        keep_adults = adults - lost_adults
        scored = elderly + keep_middle + keep_adults + kids
        s.i["sup.vic"] = s.i["sup.vic"] + elderly + lost_middle + lost_adults
        got = imin(scored, s.i["sup.profit"])
        s.i["profit"] = s.i["profit"] + got
        s.i["sup.profit"] = s.i["sup.profit"] - got
        s.i["resh"] = s.i["resh"] + 1
        new: list[IntTerm] = [ival(0), kids, keep_adults, keep_middle]
        chart = t.game.cards.display.chart
        for z in range(4):
            seed: Int = chart[0].victims[z]
            for row in chart[1:]:
                seed = ite(le(row.min_profit, scored), row.victims[z], seed)
            take = imin(seed, s.i["sup.vic"])
            new[z] = new[z] + take
            s.i["sup.vic"] = s.i["sup.vic"] - take
        for z in range(4):
            s.i[f"vic.{z}"] = new[z]
        star = and_(le(rules.star_threshold, scored), lt(0, s.i["sup.star"]))
        s.i["stars"] = s.i["stars"] + ite(star, 1, 0)
        s.i["sup.star"] = s.i["sup.star"] - ite(star, 1, 0)
        s.i["out"] = ite(and_(star, le(rules.stars_to_win, s.i["stars"])), int(Out.STAR), s.i["out"])
        return s

    def resolve_reserve(self, s: SymState, ctx: BoolTerm, label: str, step: Step, cons: list[BoolTerm]) -> SymState:
        """Reshuffle Sequence C: right to left, each card's own effects; all but staying cards go to the trash."""
        t = self.t
        cards = self.reserve_cards
        held = {c: s.at(c, Loc.RESERVE) for c in cards}
        # Interference, ruling banned-reserve: a banned card has no effect; whether its instruction to
        # stay still holds is the ruling's choice.
        stays: dict[int, Bool] = {}
        for c in cards:
            static = bool(t.card(c).reserve.stays)  # type: ignore[union-attr]
            stays[c] = and_(static, or_(t.game.banned_stay, not_(self.banned(s, c)))) if static else False
        out = s.copy()
        for c in cards:
            left = count(and_(stays[q], held[q], lt(s.pos(q), s.pos(c))) for q in cards if q != c)
            right = count(and_(not_(stays[q]), held[q], lt(s.pos(c), s.pos(q))) for q in cards if q != c)
            out.i[f"loc.{c}"] = ite(and_(held[c], not_(stays[c])), int(Loc.TRASH), s.loc(c))
            out.i[f"pos.{c}"] = ite(held[c], ite(stays[c], left, s.i["tlen"] + right), s.pos(c))
        out.i["rlen"] = count(and_(held[c], stays[c]) for c in cards)
        out.i["tlen"] = s.i["tlen"] + count(and_(held[c], not_(stays[c])) for c in cards)
        candidates = t.reshuffle_candidates()
        if not candidates:
            return out
        rank = self.ranks(s, candidates, held, descending=True)
        current = out
        for a in range(len(candidates)):
            merged = current
            for r in candidates:
                side = t.card(r).reserve
                assert side is not None
                cond = and_(held[r], eq(rank[r], a))
                live_card = and_(cond, not_(self.banned(s, r)))
                tokens: list[Token] = []
                after = self.effects(current, side.on_reshuffle, and_(ctx, live_card), f"{label}.res.{r}", tokens,
                                     cons)
                step.res_tokens[(a, r)] = tokens
                merged = self.merge(live_card, after, merged)
            current = merged
        return current

    def pacing(self, s: SymState, ctx: BoolTerm, label: str, step: Step) -> SymState:
        """Pacing step 2: the Market shifts in reading order and refills from the deck (then the discards).

        With a free Movement, the whole of Pacing (passives, shift and refill by card, Flight) is
        the Movement module's, under `ctx` (a Reshuffle Sequence that did not end the game).
        """
        if self.movement is not None:
            return self.merge(ctx, self.movement.pacing(s, ctx, label, step), s)
        t = self.t
        m = t.market_spaces
        s = s.copy()
        occ = [s.b[f"mocc.{i}"] for i in range(m)]
        prof = [s.i[f"mprof.{i}"] for i in range(m)]
        before = [count(occ[:i]) for i in range(m)]
        kept = count(occ)
        for i in range(m):
            s.i[f"mprof.{i}"] = isum(ite(and_(occ[j], eq(before[j], i)), prof[j], 0) for j in range(i, m))
        need = m - kept
        deck, disc = s.i["mdeck"], s.i["mdisc"]
        fill = imin(need, deck + disc)
        for i in range(m):
            s.b[f"mocc.{i}"] = lt(i, kept + fill)
        short = lt(deck, need)
        s.i["mdeck"] = ite(short, ite(eq(disc, 0), 0, deck + disc - fill), deck - need)
        s.i["mdisc"] = ite(and_(short, lt(0, disc)), 0, disc)
        return s

