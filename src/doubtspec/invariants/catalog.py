"""The invariant catalog: every property the fuzzer, the replayer and the reports check, in one place.

Each invariant is a pure predicate with an id, a one-line statement and the rulebook sections it
protects. A check returns None when the property holds and a violation message otherwise. Four
shapes exist, by what a check looks at:

* `StateInvariant`: one state;
* `TransitionInvariant`: a state, the action applied to it and the successor;
* `TraceInvariant`: a whole game from Set-Up (its actions and the state they reached);
* `ProbeInvariant`: a state and an illegal action built for it, which the engine must reject.

The checks recompute what they need from the card data and the rulebook instead of calling the
engine's rule functions, so that a broken rule function cannot hide its own breakage (see
`doubtspec.invariants.mutants`). The engine's public API (`doubtspec.model.engine`) is called only
by the engine contracts (legality, purity, replay, liveness) and by `ban.reserve-trigger`, which
compares a play with the same play made with the banned Reserve cards taken away.

`CATALOG` is the one tuple that every consumer reads.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from doubtspec.errors import IllegalActionError
from doubtspec.model import engine
from doubtspec.model import legal as legality
from doubtspec.model.actions import (
    Action,
    Buy,
    BuySource,
    Chance,
    EndBuy,
    EndPlay,
    LobbyOn,
    Message,
    MovementBuy,
    Pass,
    PlaceDoubt,
    PlayReserve,
    PlayStandard,
    Skip,
    Unlobby,
    parse_action,
)
from doubtspec.model.cards import CardSet, HandSize, TokenKind, Zone
from doubtspec.model.game import Game
from doubtspec.model.state import NO_CARD, STATE_FIELDS, Actor, GameState, OutcomeReason, Phase, Side
from doubtspec.model.steps import (
    CheckProfitVictory,
    ChooseStartingCard,
    DealGoal,
    DealStack,
    GoalSplit,
    Messaging,
)
from doubtspec.rulebook import Section

StateCheck = Callable[[GameState], "str | None"]
TransitionCheck = Callable[[GameState, Action, GameState], "str | None"]


@dataclass(frozen=True, slots=True)
class Trace:
    """A game from Set-Up: its definition, the actions taken, and the state they led to."""

    game: Game
    actions: tuple[Action, ...]
    final: GameState
    rounds: tuple[int, ...] | None = None
    """The round after each action, when whoever played the game noted it (saves a replay)."""


TraceCheck = Callable[[Trace], "str | None"]
ProbeCandidates = Callable[[GameState], Sequence[Action]]
ProbeCheck = Callable[[GameState, Action], "str | None"]


@dataclass(frozen=True, slots=True)
class StateInvariant:
    """A property of every reachable state."""

    id: str
    statement: str
    sections: tuple[Section, ...]
    check: StateCheck


@dataclass(frozen=True, slots=True)
class TransitionInvariant:
    """A property of every step: (before, action, after)."""

    id: str
    statement: str
    sections: tuple[Section, ...]
    check: TransitionCheck


@dataclass(frozen=True, slots=True)
class TraceInvariant:
    """A property of a whole game, checked when it ends (or when a run stops in the middle of it)."""

    id: str
    statement: str
    sections: tuple[Section, ...]
    check: TraceCheck


@dataclass(frozen=True, slots=True)
class ProbeInvariant:
    """An illegal action the engine must reject without touching the state.

    `candidates` lists the illegal actions of this kind that can be built for a state (none when
    the situation does not arise); `check` tries one.
    """

    id: str
    statement: str
    sections: tuple[Section, ...]
    candidates: ProbeCandidates
    check: ProbeCheck


Invariant = StateInvariant | TransitionInvariant | TraceInvariant | ProbeInvariant

S = Section

# --- shared helpers (recomputed from the card data, never from the engine's rule functions) -------

_memo_state: list[GameState | None] = [None]
_memo_actions: list[tuple[Action, ...]] = [()]


def legal(state: GameState) -> tuple[Action, ...]:
    """`engine.legal_actions`, remembered for the last state asked about.

    The machine and the liveness checks ask about the same state one after the other; the memo
    holds the state itself (not its id), so a recycled object id can never return stale actions.
    """
    if _memo_state[0] is state:
        return _memo_actions[0]
    actions = engine.legal_actions(state)
    _memo_state[0] = state
    _memo_actions[0] = actions
    return actions


def forget() -> None:
    """Drop the remembered legal actions (after the engine has been changed, e.g. by a mutant)."""
    _memo_state[0] = None
    _memo_actions[0] = ()


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


def _multiset_report(label: str, expected: Iterable[int], places: dict[str, Iterable[int]]) -> str | None:
    """Each expected card exactly once across `places`; None when so."""
    seen: dict[int, list[str]] = {}
    for place, cards in places.items():
        for card in cards:
            seen.setdefault(card, []).append(place)
    wanted = set(expected)
    problems = []
    for card, where in sorted(seen.items()):
        if card not in wanted:
            problems.append(f"{card} is not a {label} card (in {', '.join(where)})")
        elif len(where) > 1:
            problems.append(f"{card} is in {len(where)} places ({', '.join(where)})")
    missing = sorted(wanted - seen.keys())
    if missing:
        problems.append(f"missing {missing}")
    return f"{label} cards: " + "; ".join(problems) if problems else None


_EXPECTED: dict[int, tuple[CardSet, tuple[int, ...], tuple[int, ...], tuple[int, ...]]] = {}


def _expected(cards: CardSet) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """The sorted numbers of every Company card, Movement card and Goal of a card set (cached)."""
    found = _EXPECTED.get(id(cards))
    if found is None or found[0] is not cards:
        found = (cards, tuple(sorted(cards.company)), tuple(sorted(cards.movement)), tuple(sorted(cards.goals)))
        _EXPECTED[id(cards)] = found
    return found[1], found[2], found[3]


def _company_places(state: GameState) -> dict[str, Iterable[int]]:
    places: dict[str, Iterable[int]] = {
        "c_deck": state.c_deck, "c_hand": state.c_hand, "c_discard": state.c_discard,
        "c_reserve": state.c_reserve, "c_in_play": state.c_in_play, "trash": state.trash,
        "c_removed": state.c_removed,
    }
    for i, pile in enumerate(state.piles):
        places[f"piles[{i}]"] = pile
    for i, stack in enumerate(state.stacks):
        places[f"stacks[{i}]"] = stack
    # Company Set-Up 2: while the stacks are being dealt, the pairs not dealt yet wait in the deal.
    for step in state.pending:
        if isinstance(step, DealStack):
            places["undealt pairs"] = [c for odd in step.pool for c in (odd, odd + 1)]
    return places


def _company_cards(state: GameState) -> str | None:
    every = (state.c_deck + state.c_hand + state.c_discard + state.c_reserve + state.c_in_play + state.trash
             + state.c_removed + sum(state.piles, ()) + sum(state.stacks, ()))
    if state.phase is not Phase.SETUP and tuple(sorted(every)) == _expected(state.cards)[0]:
        return None
    places = _company_places(state)
    every = tuple(sorted(c for cards in places.values() for c in cards))
    if every == _expected(state.cards)[0]:
        return None
    return _multiset_report("Company", state.cards.company, places)


def _movement_cards(state: GameState) -> str | None:
    places: dict[str, Iterable[int]] = {
        "m_deck": state.m_deck, "market": [c for c in state.market if c != NO_CARD], "m_hand": state.m_hand,
        "tableau": [c for c, _ in state.tableau], "m_discard": state.m_discard,
    }
    every = [c for cards in places.values() for c in cards]
    if state.phase is Phase.SETUP and any(isinstance(step, ChooseStartingCard) for step in state.pending):
        # Movement Set-Up 1: nothing is laid out before the starting card is chosen.
        return f"Movement cards laid out before Set-Up: {every}" if every else None
    every.sort()
    if tuple(every) == _expected(state.cards)[1]:
        return None
    return _multiset_report("Movement", state.cards.movement, places)


def _goal_cards(state: GameState) -> str | None:
    places: dict[str, Iterable[int]] = {
        "goals": [g for g in state.goals if g != NO_CARD], "achieved": state.achieved,
    }
    if state.phase is Phase.SETUP:
        for step in state.pending:
            if isinstance(step, GoalSplit):
                laid = [g for cards in places.values() for g in cards]
                return f"Goals laid out before they were split: {laid}" if laid else None
            if isinstance(step, DealGoal):
                places["upper stack"] = step.upper
                places["lower stack"] = step.lower
    every = sorted(g for cards in places.values() for g in cards)
    if tuple(every) == _expected(state.cards)[2]:
        return None
    return _multiset_report("Goal", state.cards.goals, places)


def hand_limit(state: GameState) -> int:
    """The Movement's hand limit from the card data: the base plus each achieved hand-size Goal."""
    bonus = sum(e.amount for g in state.achieved for e in state.game.goal(g).effects
                if isinstance(e, HandSize))
    return state.cards.rules.movement_hand_limit + bonus


def goal_points(state: GameState) -> int:
    return sum(state.game.goal(g).points for g in state.achieved)


def _kind(state: GameState, card: int) -> str:
    return state.game.company_card(card).kind


def loopholes(state: GameState) -> bool:
    """Company Interference: a Loopholes card, itself not banned, lies in the Reserve."""
    for card in state.c_reserve:
        data = state.game.company_card(card)
        if data.reserve is not None and data.reserve.loopholes and data.kind not in state.banned:
            return True
    return False


def _budget(state: GameState, cards: Iterable[int]) -> int:
    budget = state.game.budget
    return sum(budget[c] for c in cards)


def can_play(state: GameState) -> bool:
    """Whether some card in the Company's hand can be played, for either effect, and paid for."""
    hand = state.c_hand
    total = _budget(state, hand)
    has_loopholes = loopholes(state)
    for card in hand:
        data = state.game.company_card(card)
        others = total - data.budget
        banned = data.kind in state.banned
        if data.standard is not None and (not banned or has_loopholes) and data.standard.cost <= others:
            return True
        if data.reserve is not None and not banned and data.reserve.cost <= others:
            return True
    return False


def buy_costs(state: GameState) -> list[tuple[BuySource, int, int]]:
    """(source, index, cost) of every card the Company may buy, from the rulebook and the rulings."""
    rulings = state.rulings
    cards = state.cards
    offers: list[tuple[BuySource, int, int]] = []

    def cost(card: int, extra: int) -> int:
        return max(0, state.game.company_card(card).budget + extra - state.discount)

    for i, pile in enumerate(state.piles):
        if pile and (cards.piles[i].kind != "restriction" or rulings.get("restriction-pile-buy") == "buyable"):
            offers.append((BuySource.PILE, i, cost(pile[-1], 0)))
    for i, stack in enumerate(state.stacks):
        if stack:
            offers.append((BuySource.STACK, i, cost(stack[-1], 0)))
    if state.trash:
        positions = range(len(state.trash)) if rulings.get("trash-buy") == "any" else (len(state.trash) - 1,)
        offers.extend((BuySource.TRASH, p, cost(state.trash[p], 1)) for p in positions)
    return offers


def can_buy(state: GameState) -> bool:
    """Whether the Company's hand can pay for some card it may buy."""
    total = _budget(state, state.c_hand)
    return any(c <= total for _, _, c in buy_costs(state))


def _at_rest(state: GameState) -> bool:
    return state.outcome is None and not state.pending


# --- state invariants ----------------------------------------------------------------------


def _company_hand(state: GameState) -> str | None:
    if _at_rest(state) and state.phase is Phase.COMPANY_PLAY and state.plays == 0:
        size = state.cards.rules.company_hand_size
        if len(state.c_hand) != size:
            return f"the Company's turn starts with {len(state.c_hand)} cards in hand, not {size}"
    return None


def _marginalization(state: GameState) -> str | None:
    if state.outcome is None or state.outcome.reason is not OutcomeReason.MARGINALIZATION:
        return None
    size = state.cards.rules.company_hand_size
    if len(state.c_hand) >= size:
        return f"Marginalization with {len(state.c_hand)} cards in hand (the hand size is {size})"
    if state.c_deck or state.c_discard:
        return (f"Marginalization while cards remained to draw: deck {list(state.c_deck)}, "
                f"discard {list(state.c_discard)}")
    if state.reshuffles == 0:
        return "Marginalization without a Reshuffle"
    return None


def _movement_hand(state: GameState) -> str | None:
    limit = hand_limit(state)
    if len(state.m_hand) > limit:
        return f"the Movement holds {len(state.m_hand)} cards, over its hand limit of {limit}"
    return None


def _tableau(state: GameState) -> str | None:
    limit = state.cards.rules.tableau_limit
    if len(state.tableau) > limit:
        return f"the Tableau holds {len(state.tableau)} cards, over the limit of {limit}"
    return None


def _doubt_bounds(state: GameState) -> str | None:
    values = state.cards.display.doubt_values
    for column, count in enumerate(state.doubt):
        if not 0 <= count <= len(values[column]):
            return f"Doubt column {column} holds {count} tokens; it has {len(values[column])} spaces"
    return None


def _lobby_limit(state: GameState) -> str | None:
    if max(state.market_profit, default=0) == 0 and max(state.goal_profit, default=0) == 0:
        return None
    for where, cards, profits in (("market", state.market, state.market_profit),
                                  ("goal", state.goals, state.goal_profit)):
        for i, (card, profit) in enumerate(zip(cards, profits, strict=True)):
            if profit > 3:
                return f"{profit} Profit tokens on {where}:{i} (card {card}); at most three per card"
            if card == NO_CARD and profit:
                return f"{profit} Profit tokens left on the empty {where}:{i}"
    return None


_WINNER = {
    OutcomeReason.PROFIT_VICTORY: Side.COMPANY,
    OutcomeReason.STAR_VICTORY: Side.COMPANY,
    OutcomeReason.GOAL_VICTORY: Side.MOVEMENT,
    OutcomeReason.ECONOMIC_DEFEAT: Side.MOVEMENT,
    OutcomeReason.MARGINALIZATION: Side.MOVEMENT,
}


def _outcome_holds(state: GameState) -> str | None:
    outcome = state.outcome
    rules = state.cards.rules
    if outcome is None:
        if state.stars >= rules.stars_to_win:
            return f"the Company holds {state.stars} stars but the game goes on"
        points = goal_points(state)
        if points >= rules.goal_points_to_win:
            return f"the Movement has {points} Goal points but the game goes on"
        return None
    if outcome.winner is not _WINNER[outcome.reason]:
        return f"{outcome.reason.value} names {outcome.winner.value} as the winner"
    match outcome.reason:
        case OutcomeReason.PROFIT_VICTORY if state.profit < rules.profit_to_win:
            return f"Profit Victory with {state.profit} Profit (needs {rules.profit_to_win})"
        case OutcomeReason.STAR_VICTORY if state.stars < rules.stars_to_win:
            return f"Star Victory with {state.stars} stars (needs {rules.stars_to_win})"
        case OutcomeReason.GOAL_VICTORY if goal_points(state) < rules.goal_points_to_win:
            return f"Goal Victory with {goal_points(state)} points (needs {rules.goal_points_to_win})"
    return None


def _economic_defeat(state: GameState) -> str | None:
    outcome = state.outcome
    if outcome is not None:
        if outcome.reason is not OutcomeReason.ECONOMIC_DEFEAT:
            return None
        if state.plays == 0:
            return "Economic Defeat although the Company can play a card" if can_play(state) else None
        if state.buys == 0:
            return "Economic Defeat although the Company can buy a card" if can_buy(state) else None
        return f"Economic Defeat after {state.plays} plays and {state.buys} buys"
    if not state.pending and state.phase is Phase.COMPANY_PLAY and state.plays == 0 and not can_play(state):
        return "the Company cannot play any card, yet the game goes on"
    if not state.pending and state.phase is Phase.COMPANY_BUY and state.buys == 0 and not can_buy(state):
        return "the Company cannot buy any card, yet the game goes on"
    return None


def _no_crash(state: GameState) -> str | None:
    try:
        legal(state)
        engine.current_actor(state)
        engine.chance_outcomes(state)
    except Exception as exc:  # the engine failing on a reachable state is the finding
        return f"the engine raised {type(exc).__name__}: {exc} on a reachable state"
    return None


def _has_action(state: GameState) -> str | None:
    actions = legal(state)
    actor = engine.current_actor(state)
    if state.outcome is None:
        if not actions:
            return f"no legal action in a game that is not over ({actor.value} to act)"
        if actor is Actor.TERMINAL:
            return "the actor is terminal but the game has no outcome"
        return None
    if actions:
        return f"the game is over but {len(actions)} actions are legal, e.g. {actions[0]}"
    if actor is not Actor.TERMINAL:
        return f"the game is over but {actor.value} is to act"
    return None


_UNORDERED = ("c_deck", "c_hand", "c_discard", "c_removed", "m_deck", "m_hand", "m_discard", "banned")


def _hash_eq(state: GameState) -> str | None:
    try:
        hash(state)
    except TypeError as exc:
        return f"the state cannot be hashed: {exc}"
    # Equal positions must be equal states: collections nobody can see the order of are kept sorted.
    # (Replay, `contract.replay`, checks that states built independently are equal and hash equal.)
    for name in _UNORDERED:
        values = getattr(state, name)
        if len(values) > 1 and values != tuple(sorted(values)):
            return f"{name} is not in canonical (sorted) order: {list(values)}"
    return None


# --- transition invariants -----------------------------------------------------------------


def _ban_play(before: GameState, action: Action, after: GameState) -> str | None:
    match action:
        case PlayStandard(card=card) if _kind(before, card) in before.banned and not loopholes(before):
            return f"banned card {card} ({_kind(before, card)}) played for its standard effect without Loopholes"
        case PlayReserve(card=card) if _kind(before, card) in before.banned:
            return f"banned card {card} ({_kind(before, card)}) played into the Reserve"
    return None


_COMPARED = tuple(name for name in STATE_FIELDS if name not in ("game", "c_reserve"))


def _ban_trigger(before: GameState, action: Action, after: GameState) -> str | None:
    if not isinstance(action, PlayStandard) or not before.banned:
        return None
    side = before.game.company_card(action.card).standard
    if side is None or side.trigger is None:
        return None
    silent = [c for c in before.c_reserve if _kind(before, c) in before.banned
              and before.game.company_card(c).reserve is not None]
    if not silent:
        return None
    # The banned Reserve cards must act as if they were not there: play the same card with them
    # taken out of the Reserve, and the rest of the table must come out the same.
    without = dataclasses.replace(before, c_reserve=tuple(c for c in before.c_reserve if c not in silent))
    expected = engine.apply(without, action)
    for name in _COMPARED:
        if getattr(expected, name) != getattr(after, name):
            return (f"banned Reserve cards {silent} changed the resolution of {action}: {name} is "
                    f"{getattr(after, name)!r}, without them it would be {getattr(expected, name)!r}")
    return None


def _doubt_steps(before: GameState, action: Action, after: GameState) -> str | None:
    b, a = before.doubt, after.doubt
    match action:
        case PlaceDoubt(column=column):
            expected = tuple(n + 1 if i == column else n for i, n in enumerate(b))
            if a != expected:
                return f"placing one Doubt in column {column.key} changed the columns from {list(b)} to {list(a)}"
        case Message(zone=zone, doubts=doubts, victims=victims):
            expected = tuple(n - doubts if i == zone else n for i, n in enumerate(b))
            if a != expected:
                return f"removing {doubts} Doubt from {zone.key} changed the columns from {list(b)} to {list(a)}"
            if victims and doubts != b[zone]:
                return f"{victims} Victims removed from {zone.key} while {b[zone] - doubts} Doubt remain there"
            step = before.pending[0] if before.pending else None
            if isinstance(step, Messaging):
                values = before.cards.display.doubt_values[zone]
                # Bottom-up: the lowest occupied space goes first, each at its own printed cost.
                cost = sum(values[b[zone] - 1 - i] for i in range(doubts)) + victims
                tokens = max(0, cost - step.icons)
                if before.messaging - after.messaging != tokens:
                    return (f"removing {doubts} Doubt bottom-up and {victims} Victims from {zone.key} costs {cost} "
                            f"({step.icons} from icons, {tokens} tokens), but {before.messaging - after.messaging} "
                            "Messaging tokens were spent")
        case _:
            if a != b:
                return f"Doubt changed from {list(b)} to {list(a)} by {action}"
    return None


def _messaging_offers(state: GameState) -> str | None:
    """Price every Messaging the engine would offer against deep columns, bottom-up, from the card data.

    Messaging against a column of two or three Doubt is rare in generated games, so instead of waiting
    for one, ask the engine's own legality layer what it would offer at the budgets around each price.
    """
    if state.outcome is not None or state.pending or state.phase is not Phase.MOVEMENT_TURN:
        return None
    deep = [zone for zone in Zone if state.doubt[zone] >= 2]
    if not deep:
        return None
    # Tokens held would add to the budget; ask with icons alone.
    bare = dataclasses.replace(state, messaging=0)
    for zone in deep:
        present = state.doubt[zone]
        values = state.cards.display.doubt_values[zone]
        for doubts in range(1, present + 1):
            price = sum(values[present - 1 - i] for i in range(doubts))
            for budget, offered in ((price - 1, False), (price, True)):
                if budget < 0:
                    continue
                choices = legality.messaging_choices(bare, Messaging(icons=budget))
                if (Message(zone, doubts, 0) in choices) is not offered:
                    return (f"with {budget} Messaging, removing {doubts} of {present} Doubt from {zone.key} "
                            f"(bottom-up price {price}) was {'not ' if offered else ''}offered")
    return None


def _ban_offers(state: GameState) -> str | None:
    """At the start of each Play Phase, ban each kind in the hand in turn and see what the engine offers.

    Bans need a Goal achieved first, which generated games rarely reach early; asking the engine's
    legality about the same hand under each possible ban checks ban enforcement on every turn.
    """
    if (state.outcome is not None or state.pending or state.phase is not Phase.COMPANY_PLAY or state.plays
            or not state.c_hand):
        return None
    cards = state.cards.company
    kinds = sorted({cards[c].kind for c in state.c_hand} - set(state.banned))  # type: ignore[index]
    for kind in kinds:
        banned = tuple(sorted((*state.banned, kind)))
        loopholes = any(
            (side := cards[r].reserve) is not None and side.loopholes and cards[r].kind not in banned  # type: ignore[index]
            for r in state.c_reserve
        )
        offered = engine.legal_actions(dataclasses.replace(state, banned=banned))
        for action in offered:
            if isinstance(action, PlayReserve | PlayStandard) and cards[action.card].kind in banned:  # type: ignore[index]
                if isinstance(action, PlayStandard) and loopholes:
                    continue
                return f"with {kind} banned, the engine offers {action}"
    return None


def _profit_offers(state: GameState) -> str | None:
    """Before a Draw Phase that will trigger a Reshuffle, give the Company the winning Profit and play it out.

    Generated games seldom last until 70 Profit; playing the same Reshuffle with the Profit set to the
    target (first chance outcome and first choice each time) checks the victory on every Reshuffle.
    """
    if (state.outcome is not None or state.pending or state.phase is not Phase.COMPANY_BUY or not state.buys
            or len(state.c_deck) >= state.cards.rules.company_hand_size):
        return None
    target = state.cards.rules.profit_to_win
    probe = engine.apply(dataclasses.replace(state, profit=max(state.profit, target)), EndBuy())
    while probe.outcome is None and probe.phase in (Phase.COMPANY_DRAW, Phase.PACING):
        probe = engine.apply(probe, engine.legal_actions(probe)[0])
    ended = probe.outcome.reason if probe.outcome is not None else None
    if ended not in (OutcomeReason.PROFIT_VICTORY, OutcomeReason.STAR_VICTORY, OutcomeReason.MARGINALIZATION):
        return (f"a Reshuffle that ends with {target} Profit held ended in "
                f"{ended.value if ended is not None else 'no outcome'}")
    return None


def _lobby_moves(before: GameState, action: Action, after: GameState) -> str | None:
    if (not isinstance(action, LobbyOn | Unlobby | MovementBuy)
            and before.market_profit == after.market_profit and before.goal_profit == after.goal_profit
            and before.market == after.market and before.goals == after.goals):
        return None
    target_where, target_index = "", -1
    if isinstance(action, LobbyOn | Unlobby):
        target_where, target_index = action.where.value, action.index
    elif isinstance(action, MovementBuy):
        # Buying a Card: the Profit returns when the card is paid for, before its space's Action.
        target_where, target_index = "market", action.space
    for where, b_cards, b_profit, a_cards, a_profit in (
        ("market", before.market, before.market_profit, after.market, after.market_profit),
        ("goal", before.goals, before.goal_profit, after.goals, after.goal_profit),
    ):
        held = {card: p for card, p in zip(b_cards, b_profit, strict=True) if card != NO_CARD}
        for i, (card, profit) in enumerate(zip(a_cards, a_profit, strict=True)):
            if card == NO_CARD:
                continue
            was = held.get(card, 0)
            is_target = target_where == where and card in held and b_cards.index(card) == target_index
            if is_target and isinstance(action, LobbyOn):
                if profit != was + 1:
                    return f"lobbying {where}:{target_index} (card {card}) took its Profit from {was} to {profit}"
            elif is_target:
                if profit != 0:
                    return (f"paying for or taking back the Profit on {where}:{target_index} left {profit} "
                            f"tokens on card {card}")
            elif profit != was:
                return (f"card {card} ({where}:{i}) had {was} Profit tokens and now has {profit}; "
                        "Lobbying stays with its card")
    return None


def _scoring(before: GameState, action: Action, after: GameState) -> str | None:
    if after.reshuffles != before.reshuffles + 1:
        return None
    cards = before.cards
    for card in before.c_reserve:
        reserve = before.game.company_card(card).reserve
        if reserve is not None and reserve.on_reshuffle and before.game.company_card(card).kind not in before.banned:
            return None  # Reserve effects during the Sequence also move Victims and Profit
    children, adults, middle, elderly = before.victims
    # A. right to left: Elderly all score and leave; Middle Age loses two of every three; Adults one of two.
    middle_keep = middle - 2 * (middle // 3)
    adults_keep = adults - adults // 2
    scored = elderly + middle_keep + adults_keep + children
    returned = elderly + (middle - middle_keep) + (adults - adults_keep)
    victims_supply = before.supply_of(TokenKind.VICTIMS) + returned
    shifted = [0, children, adults_keep, middle_keep]
    # B. seed from the Social Acceptance Chart row of the Profit scored, as far as the supply allows.
    row = cards.display.chart[0]
    for candidate in cards.display.chart:
        if scored >= candidate.min_profit:
            row = candidate
    for zone, count in enumerate(row.victims):
        got = min(count, victims_supply)
        victims_supply -= got
        shifted[zone] += got
    gained = min(scored, before.supply_of(TokenKind.PROFIT))
    if after.victims != tuple(shifted):
        return (f"scoring Victims {list(before.victims)} (Profit {scored}) should leave {shifted}, "
                f"not {list(after.victims)}")
    if after.profit != before.profit + gained:
        return f"scoring Victims {list(before.victims)} should earn {gained} Profit, not {after.profit - before.profit}"
    star = 1 if scored >= cards.rules.star_threshold and before.supply_of(TokenKind.STARS) > 0 else 0
    if after.stars != before.stars + star:
        return f"a Reshuffle scoring {scored} Profit took the stars from {before.stars} to {after.stars}"
    return None


def _profit_victory(before: GameState, action: Action, after: GameState) -> str | None:
    if not any(isinstance(step, CheckProfitVictory) for step in before.pending):
        return None
    if after.outcome is None and any(isinstance(step, CheckProfitVictory) for step in after.pending):
        return None  # the Sequence has not reached its end yet
    target = before.cards.rules.profit_to_win
    if after.outcome is None:
        if after.profit >= target:
            return f"a Reshuffle ended with {after.profit} Profit held, but the Company did not win"
        return None
    if after.outcome.reason is OutcomeReason.PROFIT_VICTORY or after.profit < target:
        return None
    if after.outcome.reason in (OutcomeReason.MARGINALIZATION, OutcomeReason.STAR_VICTORY):
        return None  # decided earlier in the same Sequence
    return f"a Reshuffle ended with {after.profit} Profit held, yet the game ended in {after.outcome.reason.value}"


def _legal_agreement(before: GameState, action: Action, after: GameState) -> str | None:
    if not engine.is_legal(before, action):
        return f"{action} was listed by legal_actions but is_legal says it is not legal"
    return None


def _apply_pure(before: GameState, action: Action, after: GameState) -> str | None:
    snapshot = tuple(getattr(before, name) for name in STATE_FIELDS)
    again = engine.apply(before, action)
    if tuple(getattr(before, name) for name in STATE_FIELDS) != snapshot:
        return f"apply changed its input state while applying {action}"
    if again != after or hash(again) != hash(after):
        changed = [n for n in STATE_FIELDS if getattr(again, n) != getattr(after, n)]
        return f"applying {action} twice to the same state gave different successors (fields {changed})"
    return None


def _action_text(before: GameState, action: Action, after: GameState) -> str | None:
    text = str(action)
    try:
        back = parse_action(text)
    except Exception as exc:  # a text form that does not parse is exactly what this check reports
        return f"the text form {text!r} of {action!r} does not parse: {exc}"
    if back != action:
        return f"the text form {text!r} parses to {back!r}, not {action!r}"
    return None


# --- trace invariants ----------------------------------------------------------------------

TURN_STEP_BOUND = 400
"""Steps a single round may take before it counts as never ending (a round is the Movement's
turn, the Company's turn and Pacing; real rounds take a few dozen steps)."""


def _replay(trace: Trace) -> str | None:
    state = engine.new_game(trace.game)
    for i, action in enumerate(trace.actions, start=1):
        state = engine.apply(state, action)
        if state.outcome is not None and i < len(trace.actions):
            return f"replaying the trace, the game ended at step {i} of {len(trace.actions)}"
    if state != trace.final or hash(state) != hash(trace.final):
        changed = [n for n in STATE_FIELDS if n != "game" and getattr(state, n) != getattr(trace.final, n)]
        return f"replaying {len(trace.actions)} actions from Set-Up gives a different state (fields {changed})"
    return None


def _turn_bound(trace: Trace) -> str | None:
    rounds = trace.rounds
    if rounds is None:
        state = engine.new_game(trace.game)
        seen = []
        for action in trace.actions:
            state = engine.apply(state, action)
            seen.append(state.round)
        rounds = tuple(seen)
    run, last = 0, 0
    for i, current in enumerate(rounds, start=1):
        run = run + 1 if current == last else 0
        last = current
        if run > TURN_STEP_BOUND:
            return f"round {current} has not ended after {TURN_STEP_BOUND} steps (at step {i})"
    return None


# --- probes: illegal actions the engine must reject ------------------------------------------


def _rejects(state: GameState, action: Action) -> str | None:
    snapshot = tuple(getattr(state, name) for name in STATE_FIELDS)
    try:
        engine.play(state, action)
    except IllegalActionError:
        pass
    else:
        return f"the engine accepted the illegal action {action} ({state.summary()})"
    if tuple(getattr(state, name) for name in STATE_FIELDS) != snapshot:
        return f"rejecting {action} changed the state"
    return None


def _banned_candidates(state: GameState) -> list[Action]:
    if not _at_rest(state) or state.phase is not Phase.COMPANY_PLAY or not state.banned:
        return []
    has_loopholes = loopholes(state)
    actions: list[Action] = []
    for card in state.c_hand:
        data = state.game.company_card(card)
        if data.kind not in state.banned:
            continue
        others = tuple(c for c in state.c_hand if c != card)
        if data.standard is not None and not has_loopholes:
            actions.append(PlayStandard(card, others if data.standard.cost else ()))
        if data.reserve is not None:
            actions.append(PlayReserve(card, others if data.reserve.cost else ()))
    return actions


def _full_hand_candidates(state: GameState) -> list[Action]:
    if not _at_rest(state) or state.phase is not Phase.MOVEMENT_TURN or len(state.m_hand) < hand_limit(state):
        return []
    flip = tuple(i for i, (_, up) in enumerate(state.tableau) if up)
    return [MovementBuy(space, flip) for space, card in enumerate(state.market) if card != NO_CARD]


def _unaffordable_candidates(state: GameState) -> list[Action]:
    if not _at_rest(state):
        return []
    if state.phase is Phase.COMPANY_BUY:
        total = _budget(state, state.c_hand)
        return [Buy(source, index, state.c_hand) for source, index, cost in buy_costs(state) if cost > total]
    if state.phase is Phase.MOVEMENT_TURN and len(state.m_hand) < hand_limit(state):
        flip = tuple(i for i, (_, up) in enumerate(state.tableau) if up)
        means = state.influence + state.flight + sum(state.game.movement_card(state.tableau[i][0]).influence
                                                     for i in flip)
        return [MovementBuy(space, flip) for space, card in enumerate(state.market)
                if card != NO_CARD and state.cards.market[space].cost + state.market_profit[space] > means]
    return []


def _out_of_turn_candidates(state: GameState) -> list[Action]:
    actor = engine.current_actor(state)
    match actor:
        case Actor.COMPANY:
            return [Pass(), Skip(Side.MOVEMENT), Chance(1)]
        case Actor.MOVEMENT:
            return [EndPlay(), EndBuy(), Skip(Side.COMPANY)]
        case Actor.CHANCE:
            return [EndPlay(), Pass()]
        case Actor.TERMINAL:
            return [Pass(), EndPlay(), Chance(1)]
    return []


# --- the catalog ---------------------------------------------------------------------------

_TOKENS: tuple[Invariant, ...] = tuple(
    StateInvariant(
        f"tokens.{kind.value}",
        f"{kind.value.capitalize()} tokens are conserved: supply plus table equals the piece limit, none negative.",
        _TOKEN_SECTIONS[kind],
        _token_check(kind),
    )
    for kind in TokenKind
)

CATALOG: tuple[Invariant, ...] = (
    *_TOKENS,
    StateInvariant("cards.company", "Every Company card is in exactly one place.",
                   (S.COMPANY_SETUP, S.COMPANY_CARDS, S.BUYING_CARDS, S.RESOLVE_RESERVE), _company_cards),
    StateInvariant("cards.movement", "Every Movement card is in exactly one place.",
                   (S.MOVEMENT_SETUP, S.MOVEMENT_CARDS, S.BUYING_A_CARD, S.PLAYING_A_CARD), _movement_cards),
    StateInvariant("cards.goals", "Every Goal is in the structure or achieved, once.",
                   (S.MOVEMENT_SETUP, S.AGITATION_AND_GOALS), _goal_cards),
    StateInvariant("hand.company", "The Company starts each turn with a full hand (five cards).",
                   (S.COMPANY_SETUP, S.COMPANY_ON_YOUR_GO, S.RESHUFFLE_AND_DRAW), _company_hand),
    StateInvariant("hand.marginalization",
                   "Marginalization ends the game only when a Reshuffle left too few cards to refill the hand.",
                   (S.COMPANY_RULES, S.RESHUFFLE_AND_DRAW), _marginalization),
    StateInvariant("hand.movement", "The Movement's hand never exceeds three plus its hand-size Goals.",
                   (S.MOVEMENT_CARDS, S.AGITATION_AND_GOALS), _movement_hand),
    StateInvariant("tableau.limit", "The Tableau never holds more than eight cards.",
                   (S.MOVEMENT_CARDS, S.AGITATION_AND_GOALS), _tableau),
    StateInvariant("doubt.bounds", "Each Doubt column holds between zero and its number of spaces.",
                   (S.COMPANY_ON_YOUR_GO, S.ADDING_DOUBT, S.MESSAGING), _doubt_bounds),
    StateInvariant("lobby.limit", "At most three Profit tokens lie on one Movement card, none on an empty place.",
                   (S.COMPANY_INTERFERENCE,), _lobby_limit),
    StateInvariant("outcome.reason", "A finished game's reason holds and names the right winner; "
                   "a game goes on only while no victory has been reached.",
                   (S.COMPANY_RULES, S.MOVEMENT_RULES, S.SEED_DEMOGRAPHICS, S.AGITATION_AND_GOALS), _outcome_holds),
    StateInvariant("outcome.economic-defeat",
                   "Economic Defeat happens exactly when the Company cannot play, or cannot buy, on its turn.",
                   (S.COMPANY_RULES, S.COMPANY_ON_YOUR_GO), _economic_defeat),
    StateInvariant("contract.no-crash", "The engine never raises on a reachable state or a legal action.",
                   (S.COMPANY_ON_YOUR_GO, S.MOVEMENT_ON_YOUR_GO), _no_crash),
    StateInvariant("liveness.actions", "A game that is not over has a legal action; a finished one has none.",
                   (S.COMPANY_ON_YOUR_GO, S.MOVEMENT_ON_YOUR_GO), _has_action),
    StateInvariant("contract.hash-eq", "Equal states hash equal; unordered collections are kept in canonical order.",
                   (S.COMPANY_CARDS, S.MOVEMENT_CARDS), _hash_eq),
    TransitionInvariant("ban.play", "A banned card is played only for its standard effect, and only with Loopholes.",
                        (S.COMPANY_INTERFERENCE, S.MOVEMENT_INTERFERENCE), _ban_play),
    TransitionInvariant("ban.reserve-trigger", "A banned card in the Reserve never triggers.",
                        (S.COMPANY_INTERFERENCE, S.RESERVE_EFFECTS), _ban_trigger),
    TransitionInvariant("doubt.order",
                        "Doubt is placed one space at a time and removed bottom-up at each space's printed cost.",
                        (S.ADDING_DOUBT, S.MESSAGING), _doubt_steps),
    StateInvariant("doubt.messaging-offers",
                   "Messaging is offered exactly when its budget covers the bottom-up price of the Doubt removed.",
                   (S.MESSAGING,), _messaging_offers),
    StateInvariant("ban.offers",
                   "With any kind in the hand banned, no card of it is offered for play but a standard play with"
                   " Loopholes.",
                   (S.COMPANY_INTERFERENCE, S.MOVEMENT_INTERFERENCE), _ban_offers),
    StateInvariant("outcome.profit-offers",
                   "Any Reshuffle played out with the winning Profit held ends in a Company victory (or first in"
                   " Marginalization).",
                   (S.COMPANY_RULES, S.RESHUFFLE_SEQUENCE), _profit_offers),
    TransitionInvariant("lobby.moves", "Lobbying Profit stays with its card, one token per action.",
                        (S.COMPANY_INTERFERENCE, S.BUYING_A_CARD, S.PACING), _lobby_moves),
    TransitionInvariant("scoring.demographics",
                        "A Reshuffle scores and shifts the Demographics and seeds them from the chart.",
                        (S.SCORING_DEMOGRAPHICS, S.SEED_DEMOGRAPHICS), _scoring),
    TransitionInvariant("outcome.profit-victory",
                        "A Reshuffle that ends with the Company holding 70 Profit wins the game for it.",
                        (S.COMPANY_RULES, S.RESHUFFLE_SEQUENCE), _profit_victory),
    TransitionInvariant("contract.legal", "Every action legal_actions lists is accepted by is_legal.",
                        (S.COMPANY_ON_YOUR_GO, S.MOVEMENT_ON_YOUR_GO), _legal_agreement),
    TransitionInvariant("contract.apply-pure", "apply never changes its input and always gives the same successor.",
                        (S.COMPANY_ON_YOUR_GO, S.MOVEMENT_ON_YOUR_GO), _apply_pure),
    TransitionInvariant("contract.action-text", "Every action's text form parses back to the same action.",
                        (S.COMPANY_ON_YOUR_GO, S.MOVEMENT_ON_YOUR_GO), _action_text),
    TraceInvariant("contract.replay", "Replaying a game's actions from Set-Up reproduces its state.",
                   (S.COMPANY_SETUP, S.MOVEMENT_SETUP), _replay),
    TraceInvariant("liveness.turns", "Every round ends within a bounded number of steps.",
                   (S.COMPANY_ON_YOUR_GO, S.MOVEMENT_ON_YOUR_GO), _turn_bound),
    ProbeInvariant("reject.banned", "Playing a banned card without Loopholes (or into the Reserve) is rejected.",
                   (S.COMPANY_INTERFERENCE,), _banned_candidates, _rejects),
    ProbeInvariant("reject.full-hand", "Buying with a full hand is rejected.",
                   (S.MOVEMENT_CARDS,), _full_hand_candidates, _rejects),
    ProbeInvariant("reject.unaffordable", "A purchase that cannot be paid for is rejected.",
                   (S.BUYING_CARDS, S.BUYING_A_CARD, S.SPENDING_BUDGET, S.SPENDING_INFLUENCE),
                   _unaffordable_candidates, _rejects),
    ProbeInvariant("reject.out-of-turn", "An action by the side that is not to act is rejected.",
                   (S.COMPANY_ON_YOUR_GO, S.MOVEMENT_ON_YOUR_GO), _out_of_turn_candidates, _rejects),
)
"""Every invariant, in the order they are checked and listed."""

BY_ID: dict[str, Invariant] = {inv.id: inv for inv in CATALOG}
assert len(BY_ID) == len(CATALOG), "invariant ids must be unique"



def select(ids: Sequence[str] | None) -> tuple[Invariant, ...]:
    """The invariants named by `ids` (exact ids or a group such as `tokens`); all of them for none.

    Raises `OptionError` naming the unknown id and the known ones.
    """
    from doubtspec.errors import OptionError

    if not ids:
        return CATALOG
    chosen: list[Invariant] = []
    for wanted in ids:
        matches = [inv for inv in CATALOG if inv.id == wanted or inv.id.split(".")[0] == wanted]
        if not matches:
            groups = sorted({inv.id.split(".")[0] for inv in CATALOG})
            raise OptionError(f"unknown invariant {wanted!r}; known groups: {', '.join(groups)} "
                              "(see `doubtspec fuzz --list`)", field="--invariant")
        chosen.extend(inv for inv in matches if inv not in chosen)
    return tuple(inv for inv in CATALOG if inv in chosen)
