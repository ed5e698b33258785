"""The `tokens` invariants.

Token conservation: every kind of token is in its supply or on the table, never more than its piece limit.
"""

from __future__ import annotations

from collections.abc import Callable

from doubtspec.invariants.derived import at_rest, replace
from doubtspec.invariants.shapes import (
    Invariant,
    StateCheck,
    StateInvariant,
    TransitionInvariant,
)
from doubtspec.model import engine
from doubtspec.model.actions import Action, Pass, PlaceDoubt
from doubtspec.model.cards import TokenKind
from doubtspec.model.state import TOKEN_INDEX, GameState, Phase
from doubtspec.rulebook import Section

S = Section


def token_places(state: GameState, kind: TokenKind) -> dict[str, int]:
    """Every place a token of `kind` can be besides its supply, with the count there."""
    match kind:
        case TokenKind.PROFIT:
            return {"profit": state.profit, "market_profit": sum(state.market_profit),
                    "goal_profit": sum(state.goal_profit)}
        case TokenKind.VICTIMS:
            return {"victims": sum(state.victims)}
        case TokenKind.DOUBT:
            return {"doubt": sum(state.doubt)}
        case TokenKind.STARS:
            return {"stars": state.stars}
        case TokenKind.INFLUENCE:
            return {"influence": state.influence}
        case TokenKind.MESSAGING:
            return {"messaging": state.messaging}
        case TokenKind.AGITATION:
            return {"agitation": state.agitation, "goal_agitation": sum(state.goal_agitation)}
        case TokenKind.BANS:
            return {"banned": len(state.banned)}
        case TokenKind.FLIGHT:
            return {"flight": state.flight, "flight_spent": state.flight_spent}


def _negative_parts(state: GameState, kind: TokenKind) -> list[str]:
    match kind:
        case TokenKind.PROFIT:
            parts = [("profit", (state.profit,)), ("market_profit", state.market_profit),
                     ("goal_profit", state.goal_profit)]
        case TokenKind.VICTIMS:
            parts = [("victims", state.victims)]
        case TokenKind.DOUBT:
            parts = [("doubt", state.doubt)]
        case TokenKind.AGITATION:
            parts = [("agitation", (state.agitation,)), ("goal_agitation", state.goal_agitation)]
        case TokenKind.FLIGHT:
            parts = [("flight", (state.flight,)), ("flight_spent", (state.flight_spent,))]
        case _:
            parts = [(name, (count,)) for name, count in token_places(state, kind).items()]
    return [f"{name}={list(values) if len(values) > 1 else values[0]}"
            for name, values in parts if min(values, default=0) < 0]


_TOKEN_COUNTS: dict[TokenKind, Callable[[GameState], tuple[int, ...]]] = {
    TokenKind.PROFIT: lambda s: (s.profit, *s.market_profit, *s.goal_profit),
    TokenKind.VICTIMS: lambda s: s.victims,
    TokenKind.DOUBT: lambda s: s.doubt,
    TokenKind.STARS: lambda s: (s.stars,),
    TokenKind.INFLUENCE: lambda s: (s.influence,),
    TokenKind.MESSAGING: lambda s: (s.messaging,),
    TokenKind.AGITATION: lambda s: (s.agitation, *s.goal_agitation),
    TokenKind.BANS: lambda s: (len(s.banned),),
    TokenKind.FLIGHT: lambda s: (s.flight, s.flight_spent),
}
"""Every count of tokens of a kind on the table, flattened (the fast path of the token checks)."""

_KINDS: tuple[tuple[int, TokenKind, Callable[[GameState], tuple[int, ...]]], ...] = tuple(
    (index, kind, _TOKEN_COUNTS[kind]) for index, kind in enumerate(TokenKind))
"""Each kind of token with its place in `GameState.supply` and its counts on the table."""


def _token_check(kind: TokenKind) -> StateCheck:
    index = list(TokenKind).index(kind)
    counts = _TOKEN_COUNTS[kind]

    def check(state: GameState) -> str | None:
        limit = state.cards.supply[kind]
        supply = state.supply[index]
        on_table = counts(state)
        if supply + sum(on_table) == limit and supply >= 0 and (not on_table or min(on_table) >= 0):
            return None
        if supply < 0 or supply > limit:
            return f"{kind.value} supply is {supply}, outside 0..{limit}"
        negative = _negative_parts(state, kind)
        if negative:
            return f"negative {kind.value} tokens: {', '.join(negative)}"
        places = token_places(state, kind)
        where = ", ".join(f"{k}={v}" for k, v in places.items())
        return (f"{kind.value}: supply {supply} + {where} = {supply + sum(places.values())}, "
                f"but the piece limit is {limit}")

    return check


_TOKEN_SECTIONS: dict[TokenKind, tuple[Section, ...]] = {
    TokenKind.PROFIT: (S.COMPANY_SETUP, S.SCORING_DEMOGRAPHICS, S.COMPANY_INTERFERENCE, S.BUYING_A_CARD),
    TokenKind.VICTIMS: (S.COMPANY_SETUP, S.ADDING_VICTIMS, S.SCORING_DEMOGRAPHICS, S.SEED_DEMOGRAPHICS,
                        S.MESSAGING),
    TokenKind.DOUBT: (S.COMPANY_SETUP, S.ADDING_DOUBT, S.MESSAGING),
    TokenKind.STARS: (S.COMPANY_SETUP, S.SEED_DEMOGRAPHICS),
    TokenKind.INFLUENCE: (S.MOVEMENT_SETUP, S.SPENDING_INFLUENCE, S.MOVEMENT_ON_YOUR_GO, S.MESSAGING),
    TokenKind.MESSAGING: (S.MOVEMENT_SETUP, S.MESSAGING, S.PACING),
    TokenKind.AGITATION: (S.MOVEMENT_SETUP, S.AGITATION_AND_GOALS, S.PACING),
    TokenKind.BANS: (S.MOVEMENT_SETUP, S.MOVEMENT_INTERFERENCE),
    TokenKind.FLIGHT: (S.MOVEMENT_SETUP, S.PACING),
}


def _exhausted_offers(state: GameState) -> str | None:
    """On each Movement turn, Pass with the Influence supply empty, as a what-if.

    No generated game runs a supply out, so the ruling supply-exhausted (a gain larger than the supply
    is cut to what it holds; nothing is created) is never met on its own. With no Influence left in the
    supply, Pass must gain nothing and leave the supply at zero.
    """
    if not at_rest(state) or state.phase is not Phase.MOVEMENT_TURN:
        return None
    if Pass() not in engine.legal_actions(state):
        return None
    supply = list(state.supply)
    supply[TOKEN_INDEX[TokenKind.INFLUENCE]] = 0
    probe = replace(state, supply=tuple(supply))
    after = engine.apply(probe, Pass())
    gained = after.influence - probe.influence
    left = after.supply[TOKEN_INDEX[TokenKind.INFLUENCE]]
    if gained != 0 or left != 0:
        return (f"Pass with no Influence in the supply gained {gained} and left the supply at {left}; a gain is "
                f"cut to what the supply holds (ruling supply-exhausted)")
    return None


def _exhausted_step(before: GameState, action: Action, after: GameState) -> str | None:
    """The step again, from `before` with every supply empty, as a what-if: it creates no token.

    Every gain takes from a piece-limited supply and is cut to what it holds (ruling supply-exhausted),
    and every token a step removes from the table goes back to its supply. So from empty supplies, for
    each kind, the tokens on the table and in the supply after the step are exactly those on the table
    before it. No generated game runs a supply out; this puts every step's gains (Victims seeded by a
    Reshuffle, Profit scored, Doubt added, a star, a ban, Influence from Messaging, ...) against an
    exhausted supply, and every return against a supply at zero.
    """
    del after
    probe = replace(before, supply=(0,) * len(before.supply))
    if not engine.is_legal(probe, action):
        return None  # placing a Doubt needs one in the supply (an empty supply offers no space)
    replayed = engine.apply(probe, action)
    for index, kind, counts in _KINDS:
        had = sum(counts(probe))
        now = sum(counts(replayed)) + replayed.supply[index]
        if now != had:
            places = ", ".join(f"{k}={v}" for k, v in token_places(replayed, kind).items())
            return (f"{action} with every supply empty: {kind.value} went from {had} on the table to {places} and "
                    f"{replayed.supply[index]} in the supply; a gain is cut to what the supply holds and nothing is "
                    f"created (ruling supply-exhausted)")
    return None


def _one_supply_empty_step(before: GameState, action: Action, after: GameState) -> str | None:
    """A step that moves tokens, again with one supply empty (each kind whose supply holds any, in turn): every
    other kind moves as it did.

    The supplies are separate piles (Set-Up of each side), and a gain larger than its own supply is cut to what
    that supply holds (ruling supply-exhausted), so whether a Ban is placed, a star taken or Influence gained cannot
    depend on another kind's supply. Generated games seldom empty a supply, so a guard that reads the wrong one
    would show only then. The replay is compared only where the empty supply leaves the step's course as it was
    (the same pending steps, phase and end of game): an empty supply may rightly make a choice resolve to nothing
    and the play go on (no Doubt token to place), or keep a Profit Victory or the third star from happening. With
    the Profit supply empty at a Reshuffle Sequence the Social Acceptance Chart is still read with the Profit scored
    (B. Seed Demographics names the Profit scored, not the tokens taken), which this check leaves to
    `scoring.*`: that case is not replayed.
    """
    if before.supply == after.supply:
        return None
    sequence = after.reshuffles != before.reshuffles
    for k, kind in enumerate(TokenKind):
        if not before.supply[k] or (sequence and kind is TokenKind.PROFIT):
            continue
        if kind is TokenKind.DOUBT and isinstance(action, PlaceDoubt):
            continue  # the one action an empty supply takes away (legal.effect_choices); is_legal would list them all
        probe = replace(before, supply=(*before.supply[:k], 0, *before.supply[k + 1:]))
        replayed = engine.apply(probe, action)
        if (len(replayed.pending) != len(after.pending) or replayed.phase is not after.phase
                or (replayed.outcome is None) != (after.outcome is None)):
            continue
        for j, other in enumerate(TokenKind):
            moved, moved_now = after.supply[j] - before.supply[j], replayed.supply[j] - probe.supply[j]
            if j != k and moved != moved_now:
                return (f"{action} changed the {other.value} supply by {moved:+d}, but by {moved_now:+d} with the "
                        f"{kind.value} supply empty; each supply is its own (ruling supply-exhausted)")
    return None


INVARIANTS: tuple[Invariant, ...] = (
    *(StateInvariant(
        f"tokens.{kind.value}",
        f"{kind.value.capitalize()} tokens are conserved: supply plus table equals the piece limit, none negative.",
        _TOKEN_SECTIONS[kind],
        _token_check(kind),
    ) for kind in TokenKind),
    StateInvariant("tokens.exhausted-offers", "A gain larger than what the supply holds takes what remains and "
                   "creates nothing (asked of Pass with the Influence supply empty).",
                   (S.MOVEMENT_SETUP, S.MOVEMENT_ON_YOUR_GO), _exhausted_offers),
    TransitionInvariant("tokens.exhausted-step", "Each step, replayed with every supply empty, creates no token: its "
                        "gains are cut to nothing and what it removes from the table goes back to the supply.",
                        (S.MOVEMENT_SETUP, S.COMPANY_SETUP, S.ADDING_VICTIMS, S.SEED_DEMOGRAPHICS), _exhausted_step),
    TransitionInvariant("tokens.one-supply-empty-step", "Each step that moves tokens, replayed with one supply empty "
                        "(each in turn), moves every other kind of token as it did: the supplies are separate.",
                        (S.MOVEMENT_SETUP, S.COMPANY_SETUP, S.SEED_DEMOGRAPHICS, S.MOVEMENT_INTERFERENCE),
                        _one_supply_empty_step),
)
"""The `tokens.*` invariants, in the order they are checked and listed."""
