"""The solver's state vector: what one step of the unrolling knows about the game, as Z3 terms.

A `SymState` maps names to terms; step `t`'s variables are called `name@t`. The same names are
computed from a concrete engine `GameState` by `project`, so a concrete state can be encoded
(`concrete`) and a model decoded (`decode`) into values that compare field by field with the
engine's.

The vector covers the Company's whole side: every card's place, the order of the Reserve and the
trash pile, pile and stack heights, the display, Profit, stars, the turn counters, the Company's
supplies, and the sizes of deck, hand and discard pile as counters (so that the Draw Phase
compares small numbers instead of counting sixty cards). Of the Movement's side it covers what
the Company can touch while the Movement only passes: which Market spaces hold a card, the
Lobbying Profit on Market spaces and Goals, and the sizes of the Market deck and discard pile.

With the Movement free (`movement=True`, `doubtspec.solver.unrolling.movement`) the vector also covers the
Movement's whole side (`movement_names`): each Movement card's place (`mloc.C`, an `MLoc`), the
Tableau as slots (`tab.K` the card in slot K from the left or 0, `tup.K` face up, `mtl` its
length), the Market's cards (`mkt.I`, 0 when empty, alongside `mocc.I`), the hand size (`mhand`),
the Movement's tokens (`inf`, `msg`, `agi`, `flt`, `flts` the Flight spent until Pacing) and
supplies (`sup.inf`, `sup.msg`, `sup.agi`, `sup.ban`, `sup.flt`), the Goal structure (`goal.S` the
Goal at place S or 0, `gagi.S` the Agitation on it), the Goals achieved (`ach.G`), the bans
(`ban.KIND` for each kind a Goal can ban) and the points scored (`mpts`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import IntEnum

from doubtspec.model.cards import Ban, CompanyCard, Icon, TokenKind, Trigger
from doubtspec.model.game import Game
from doubtspec.model.state import NO_CARD, TOKEN_INDEX, GameState, OutcomeReason
from doubtspec.solver.unrolling.terms import (
    BoolTerm,
    IntTerm,
    Model,
    and_,
    bval,
    bvar,
    eq,
    ival,
    ivar,
    le,
    lval,
    lvar,
    set_width,
)


class Loc(IntEnum):
    """Where a Company card is, at a rest point (cards in play exist only inside a step)."""

    DECK = 0
    HAND = 1
    DISCARD = 2
    RESERVE = 3
    TRASH = 4
    MARKET = 5
    """In a pile or a stack, not bought yet."""
    REMOVED = 6
    """Out of the game: an odd/even pair not dealt at Set-Up."""
    IN_PLAY = 7
    """Only inside a step: a card whose standard effect is resolving."""


class MLoc(IntEnum):
    """Where a Movement card is (its slot in the Tableau or the Market is in `tab.K` / `mkt.I`)."""

    DECK = 0
    HAND = 1
    TABLEAU = 2
    MARKET = 3
    DISCARD = 4


class Out(IntEnum):
    """The game's outcome as a number (0 while it goes on)."""

    NONE = 0
    STAR = 1
    PROFIT = 2
    ECONOMIC = 3
    MARGINAL = 4
    GOAL = 5


OUT_OF_REASON: Mapping[OutcomeReason, Out] = {
    OutcomeReason.STAR_VICTORY: Out.STAR,
    OutcomeReason.PROFIT_VICTORY: Out.PROFIT,
    OutcomeReason.ECONOMIC_DEFEAT: Out.ECONOMIC,
    OutcomeReason.MARGINALIZATION: Out.MARGINAL,
    OutcomeReason.GOAL_VICTORY: Out.GOAL,
}

MAX_LOBBY = 3
GOAL_PLACES = 9
GOAL_TARGET_BASE = 100
"""The engine's Lobby target numbering: a Market space, or 100 + a Goal place."""


@dataclass(frozen=True, slots=True)
class Tables:
    """Everything static the encoding reads from the card data and the rulings (one `Game`)."""

    game: Game
    cards: tuple[int, ...]
    """Every Company card number, ascending."""
    budget: Mapping[int, int]
    hand_size: int
    piles: tuple[tuple[int, ...], ...]
    """Each pile as the engine lays it out: the top is the last element."""
    buyable_piles: tuple[int, ...]
    pairs: tuple[tuple[int, int], ...]
    stacks_dealt: int
    pile_of: Mapping[int, tuple[int, int]]
    """card -> (pile, index in the pile)."""
    pair_of: Mapping[int, tuple[int, bool]]
    """card -> (pair, is the even card)."""
    starting_deck: tuple[int, ...]
    market_spaces: int
    movement_deck_size: int
    """Movement cards that form the Market deck at Set-Up (all but the chosen starting card)."""
    doubt_capacity: tuple[int, ...]
    supply0: Mapping[TokenKind, int]
    """The supply when the first round starts (after Set-Up)."""
    draw_first: bool
    minimal_payment: bool
    trigger_after: bool
    trash_any: bool
    lobby_goals: bool
    mcards: tuple[int, ...] = ()
    """Every Movement card number, ascending."""
    ban_kinds: tuple[str, ...] = ()
    """The Company kinds some Goal bans (each has a `ban.KIND` entry when the Movement is free)."""

    @classmethod
    def of(cls, game: Game) -> Tables:
        data = game.cards
        set_width(integer_width(game))
        cards = tuple(sorted(int(c) for c in data.company))
        piles = tuple(tuple(sorted((int(c) for c in p.cards), reverse=True)) for p in data.piles)
        pile_of = {int(c): (i, j) for i, pile in enumerate(piles) for j, c in enumerate(pile)}
        pair_of: dict[int, tuple[int, bool]] = {}
        for k, (odd, even) in enumerate(data.stack_pairs):
            pair_of[odd] = (k, False)
            pair_of[even] = (k, True)
        buyable = tuple(i for i, p in enumerate(data.piles) if game.restriction_buyable or p.kind != "restriction")
        supply = {kind: data.supply[kind] for kind in TokenKind}
        supply[TokenKind.VICTIMS] -= sum(data.display.setup_victims)
        supply[TokenKind.DOUBT] -= sum(data.display.setup_doubt)
        supply[TokenKind.INFLUENCE] -= data.rules.movement_starting_influence
        return cls(
            game=game,
            cards=cards,
            budget={c: data.company[c].budget for c in data.company},
            hand_size=data.rules.company_hand_size,
            piles=piles,
            buyable_piles=buyable,
            pairs=tuple((int(o), int(e)) for o, e in data.stack_pairs),
            stacks_dealt=data.rules.stacks_dealt,
            pile_of=pile_of,
            pair_of=pair_of,
            starting_deck=tuple(int(c) for c in data.starting_deck),
            market_spaces=len(data.market),
            movement_deck_size=len(data.movement) - 1,
            doubt_capacity=tuple(len(v) for v in data.display.doubt_values),
            supply0=supply,
            draw_first=game.draw_first,
            minimal_payment=game.minimal_payment,
            trigger_after=game.trigger_after,
            trash_any=game.trash_any,
            lobby_goals=game.lobby_goals,
            mcards=tuple(sorted(int(c) for c in data.movement)),
            ban_kinds=tuple(sorted({e.kind for g in data.goals.values() for e in g.effects if isinstance(e, Ban)})),
        )

    def card(self, number: int) -> CompanyCard:
        return self.game.company_card(number)

    def reserve_candidates(self, trigger: Trigger, icon: Icon) -> tuple[int, ...]:
        """Cards whose Reserve side a standard effect with this trigger and icon activates."""
        found = []
        for c in self.cards:
            side = self.card(c).reserve
            if side is not None and side.trigger is trigger and side.icon is icon:
                found.append(c)
        return tuple(found)

    def reshuffle_candidates(self) -> tuple[int, ...]:
        """Cards with effects of their own during Reshuffle Sequence C."""
        return tuple(c for c in self.cards if (side := self.card(c).reserve) is not None and side.on_reshuffle)

    def lobby_targets(self) -> tuple[int, ...]:
        """Lobby targets in the engine's numbering (Market spaces, then 100 + Goal places)."""
        targets = list(range(self.market_spaces))
        if self.lobby_goals:
            targets.extend(GOAL_TARGET_BASE + s for s in range(GOAL_PLACES))
        return tuple(targets)


# --- the state vector -------------------------------------------------------------------------


def integer_width(game: Game) -> int:
    """Bits for the integer terms of one game: room for every quantity, its negation and a margin."""
    data = game.cards
    largest = max(
        sum(c.budget for c in data.company.values()) + 8,
        *(data.supply[k] + 8 for k in TokenKind),
        2 * len(data.company) + 8,
        data.rules.profit_to_win + 8,
    )
    return largest.bit_length() + 2


def var_names(tables: Tables, movement: bool = False) -> Iterator[tuple[str, bool]]:
    """Every variable of the state vector: (name, is Boolean); `movement` adds the Movement's side."""
    for c in tables.cards:
        yield f"loc.{c}", False
        yield f"pos.{c}", False
    yield "rlen", False
    yield "tlen", False
    for i in range(len(tables.piles)):
        yield f"pile.{i}", False
    for k in range(len(tables.pairs)):
        yield f"pair.{k}", False
    for z in range(4):
        yield f"vic.{z}", False
        yield f"dbt.{z}", False
    for name in ("profit", "stars", "plays", "buys", "disc", "resh", "sup.profit", "sup.vic", "sup.dbt",
                 "sup.star", "mdeck", "mdisc", "out", "n.deck", "n.hand", "n.disc"):
        yield name, False
    yield "unl", True
    for i in range(tables.market_spaces):
        yield f"mocc.{i}", True
        yield f"mprof.{i}", False
    for s in range(GOAL_PLACES):
        yield f"gprof.{s}", False
    if movement:
        yield from movement_names(tables)


MOVEMENT_COUNTERS = ("mtl", "mhand", "inf", "msg", "agi", "flt", "flts", "sup.inf", "sup.msg", "sup.agi",
                     "sup.ban", "sup.flt", "mpts")


def movement_names(tables: Tables) -> Iterator[tuple[str, bool]]:
    """The Movement's side of the state vector (see the module docstring)."""
    for c in tables.mcards:
        yield f"mloc.{c}", False
    for k in range(tables.game.cards.rules.tableau_limit):
        yield f"tab.{k}", False
        yield f"tup.{k}", True
    for i in range(tables.market_spaces):
        yield f"mkt.{i}", False
    for name in MOVEMENT_COUNTERS:
        yield name, False
    for s in range(GOAL_PLACES):
        yield f"goal.{s}", False
        yield f"gagi.{s}", False
    for g in sorted(tables.game.cards.goals):
        yield f"ach.{g}", True
    for kind in tables.ban_kinds:
        yield f"ban.{kind}", True


class SymState:
    """One step's state vector as terms; updates return a new `SymState` (the old one is kept)."""

    __slots__ = ("b", "i")

    def __init__(self, ints: dict[str, IntTerm], bools: dict[str, BoolTerm]) -> None:
        self.i = ints
        self.b = bools

    def copy(self) -> SymState:
        return SymState(dict(self.i), dict(self.b))

    # readable accessors for the common names
    def loc(self, card: int) -> IntTerm:
        return self.i[f"loc.{card}"]

    def pos(self, card: int) -> IntTerm:
        return self.i[f"pos.{card}"]

    def at(self, card: int, where: Loc) -> BoolTerm:
        return eq(self.i[f"loc.{card}"], int(where))


def fresh_state(tables: Tables, step: str, movement: bool = False) -> SymState:
    """Free variables `name@step` for every entry of the state vector."""
    ints: dict[str, IntTerm] = {}
    bools: dict[str, BoolTerm] = {}
    for name, is_bool in var_names(tables, movement):
        if is_bool:
            bools[name] = bvar(f"{name}@{step}")
        elif name.startswith("loc."):
            ints[name] = lvar(f"{name}@{step}")
        else:
            ints[name] = ivar(f"{name}@{step}")
    return SymState(ints, bools)


def domain(tables: Tables, state: SymState) -> BoolTerm:
    """Range constraints of the state vector's integer variables."""
    parts: list[BoolTerm] = []
    n = len(tables.cards)
    for c in tables.cards:
        parts.append(le(0, state.pos(c)))
        parts.append(le(state.pos(c), n))
    for name, value in state.i.items():
        if not name.startswith(("loc.", "pos.")):
            parts.append(le(0, value))
    return and_(*parts)


# --- concrete states --------------------------------------------------------------------------


Projection = dict[str, int]
"""A state vector's values, by name (Booleans as 0/1)."""


def project(tables: Tables, state: GameState, movement: bool = False) -> Projection:
    """The state vector's values for an engine state at a rest point (`movement`: with the Movement's side)."""
    p: Projection = {}
    where: dict[int, tuple[Loc, int]] = {}
    for c in state.c_deck:
        where[c] = (Loc.DECK, 0)
    for c in state.c_hand:
        where[c] = (Loc.HAND, 0)
    for c in state.c_discard:
        where[c] = (Loc.DISCARD, 0)
    for i, c in enumerate(state.c_reserve):
        where[c] = (Loc.RESERVE, i)
    for i, c in enumerate(state.trash):
        where[c] = (Loc.TRASH, i)
    for c in state.c_in_play:
        where[c] = (Loc.IN_PLAY, 0)
    for pile in state.piles:
        for c in pile:
            where[c] = (Loc.MARKET, 0)
    for stack in state.stacks:
        for c in stack:
            where[c] = (Loc.MARKET, 0)
    for c in state.c_removed:
        where[c] = (Loc.REMOVED, 0)
    for c in tables.cards:
        loc, pos = where[c]
        p[f"loc.{c}"] = int(loc)
        p[f"pos.{c}"] = pos
    p["rlen"] = len(state.c_reserve)
    p["tlen"] = len(state.trash)
    for i, pile in enumerate(state.piles):
        p[f"pile.{i}"] = len(pile)
    for k, (odd, _) in enumerate(tables.pairs):
        p[f"pair.{k}"] = 0
        for stack in state.stacks:
            if stack and stack[0] == odd:
                p[f"pair.{k}"] = len(stack)
    for z in range(4):
        p[f"vic.{z}"] = state.victims[z]
        p[f"dbt.{z}"] = state.doubt[z]
    p["profit"] = state.profit
    p["stars"] = state.stars
    p["plays"] = state.plays
    p["buys"] = state.buys
    p["disc"] = state.discount
    p["resh"] = state.reshuffles
    p["sup.profit"] = state.supply[TOKEN_INDEX[TokenKind.PROFIT]]
    p["sup.vic"] = state.supply[TOKEN_INDEX[TokenKind.VICTIMS]]
    p["sup.dbt"] = state.supply[TOKEN_INDEX[TokenKind.DOUBT]]
    p["sup.star"] = state.supply[TOKEN_INDEX[TokenKind.STARS]]
    p["n.deck"] = len(state.c_deck)
    p["n.hand"] = len(state.c_hand)
    p["n.disc"] = len(state.c_discard)
    p["mdeck"] = len(state.m_deck)
    p["mdisc"] = len(state.m_discard)
    p["out"] = int(Out.NONE if state.outcome is None else OUT_OF_REASON[state.outcome.reason])
    p["unl"] = int(state.unlobbied)
    for i, card in enumerate(state.market):
        p[f"mocc.{i}"] = int(card != NO_CARD)
        p[f"mprof.{i}"] = state.market_profit[i]
    for s in range(GOAL_PLACES):
        p[f"gprof.{s}"] = state.goal_profit[s]
    if movement:
        p.update(project_movement(tables, state))
    return p


def project_movement(tables: Tables, state: GameState) -> Projection:
    """The Movement's side of the state vector for an engine state."""
    p: Projection = {}
    where: dict[int, MLoc] = {}
    for c in state.m_deck:
        where[c] = MLoc.DECK
    for c in state.m_hand:
        where[c] = MLoc.HAND
    for c, _ in state.tableau:
        where[c] = MLoc.TABLEAU
    for c in state.market:
        if c != NO_CARD:
            where[c] = MLoc.MARKET
    for c in state.m_discard:
        where[c] = MLoc.DISCARD
    for c in tables.mcards:
        p[f"mloc.{c}"] = int(where.get(c, MLoc.DECK))
    for k in range(tables.game.cards.rules.tableau_limit):
        card, up = state.tableau[k] if k < len(state.tableau) else (0, False)
        p[f"tab.{k}"] = card
        p[f"tup.{k}"] = int(up)
    for i, card in enumerate(state.market):
        p[f"mkt.{i}"] = card
    supply = state.supply
    p.update({
        "mtl": len(state.tableau), "mhand": len(state.m_hand), "inf": state.influence, "msg": state.messaging,
        "agi": state.agitation, "flt": state.flight, "flts": state.flight_spent,
        "sup.inf": supply[TOKEN_INDEX[TokenKind.INFLUENCE]], "sup.msg": supply[TOKEN_INDEX[TokenKind.MESSAGING]],
        "sup.agi": supply[TOKEN_INDEX[TokenKind.AGITATION]], "sup.ban": supply[TOKEN_INDEX[TokenKind.BANS]],
        "sup.flt": supply[TOKEN_INDEX[TokenKind.FLIGHT]], "mpts": state.points(),
    })
    for s in range(GOAL_PLACES):
        p[f"goal.{s}"] = state.goals[s]
        p[f"gagi.{s}"] = state.goal_agitation[s]
    for g in sorted(tables.game.cards.goals):
        p[f"ach.{g}"] = int(g in state.achieved)
    for kind in tables.ban_kinds:
        p[f"ban.{kind}"] = int(kind in state.banned)
    return p


def concrete(tables: Tables, state: GameState, movement: bool = False) -> SymState:
    """An engine state as constant terms."""
    p = project(tables, state, movement)
    ints: dict[str, IntTerm] = {}
    bools: dict[str, BoolTerm] = {}
    for name, is_bool in var_names(tables, movement):
        if is_bool:
            bools[name] = bval(bool(p[name]))
        elif name.startswith("loc."):
            ints[name] = lval(p[name])
        else:
            ints[name] = ival(p[name])
    return SymState(ints, bools)


def decode(model: Model, state: SymState) -> Projection:
    """A state vector's values in a model."""
    p: Projection = {name: (model.loc(term) if name.startswith("loc.") else model.int(term))
                     for name, term in state.i.items()}
    p.update({name: int(model.bool(term)) for name, term in state.b.items()})
    return p


def comparable(p: Projection) -> Projection:
    """`p` without the values that carry no meaning (positions of cards outside the Reserve and trash)."""
    result = dict(p)
    for name, value in p.items():
        if name.startswith("loc."):
            card = name[4:]
            if value not in (Loc.RESERVE, Loc.TRASH):
                result[f"pos.{card}"] = 0
    if p.get("out", 0) != Out.NONE:
        # A finished game: the engine stops mid-step, the encoding does the same; only the outcome counts.
        return {"out": p["out"]}
    return result


def diff(a: Projection, b: Projection) -> dict[str, tuple[int | None, int | None]]:
    """Names whose values differ between two comparable projections."""
    names = set(a) | set(b)
    return {n: (a.get(n), b.get(n)) for n in sorted(names) if a.get(n) != b.get(n)}
