"""The encoding's transition agrees with the engine's, step by step, on generated states.

A state is reached by a seeded random playout (the Movement passing, as in the encoding's scope);
an engine-legal free action is drawn; the step is encoded over the concrete state with the
action's decision fixed and the follow-up choices (Doubt columns, draws, Lobby targets) left to
Z3; the model's choices are then played through the checked engine, and the engine's successor
must equal the model's, field by field (`doubtspec.solver.unrolling.witness.run_step` raises otherwise).
The same comparison runs over the Company's steps of simulated games in situations those states seldom reach, and
over every Company step of the searching agents' games.
"""

from __future__ import annotations

import functools
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from doubtspec.agents.base import Matchup
from doubtspec.agents.simulate import iter_game
from doubtspec.model.actions import Action, Buy, BuySource, EndBuy, EndPlay, Pass, PlayReserve, PlayStandard, Unlobby
from doubtspec.model.cards import AddDoubt, DrawCards, load_cards
from doubtspec.model.engine import apply, current_actor, legal_actions, new_game
from doubtspec.model.game import Game
from doubtspec.model.rulings import Rulings
from doubtspec.model.state import Actor, GameState, Phase, Side
from doubtspec.solver.unrolling.encoding import GOAL_TARGET_BASE, SymState, Tables, concrete
from doubtspec.solver.unrolling.terms import TRUE, BoolTerm, Solver, and_, eq, not_
from doubtspec.solver.unrolling.transition import Encoder, Kind, Step
from doubtspec.solver.unrolling.witness import run_step
from searching_games import ROUNDS, played, searching_games

DATA = Path(__file__).parent / "data"
GAMES = {
    "shipped": Game(load_cards()),
    "tiny": Game(load_cards(DATA / "tiny.toml")),
    "shipped, other rulings": Game(load_cards(), Rulings.parse([
        "draw-order=reshuffle-first", "budget-payment=any-cover", "trigger-timing=before-effects",
        "trash-buy=any", "restriction-pile-buy=buyable", "lobby-targets=market-only"])),
}


def rest_state(game: Game, seed: int, stop: int) -> GameState:
    """A state at rest (a free choice of a side) after a seeded playout that prefers to keep playing.

    After its first play (buy) the Company ends the phase with even odds, so that a hand is rarely
    played out before the Buy Phase (an Economic Defeat) and playouts live long enough to reach
    Reserves, reshuffles and the trash pile.
    """
    rng = random.Random(seed)
    state = new_game(game)
    rests = 0
    last = state
    while current_actor(state) is not Actor.TERMINAL:
        actor = current_actor(state)
        if not state.pending and actor is not Actor.CHANCE:
            last = state
            if rests >= stop:
                return state
            rests += 1
        actions = legal_actions(state)
        if actor is Actor.MOVEMENT and not state.pending and state.phase is Phase.MOVEMENT_TURN:
            action: Action = Pass()
        else:
            ends = [a for a in actions if isinstance(a, EndPlay | EndBuy)]
            going = [a for a in actions if not isinstance(a, EndPlay | EndBuy)]
            pool = ends if ends and (not going or rng.random() < 0.5) else going or list(actions)
            action = pool[rng.randrange(len(pool))]
        state = apply(state, action)
    return last


def _fix(step: Step, action: Action, state: GameState) -> BoolTerm:
    """Constraints that make a step's decision the engine action `action`."""
    parts: list[BoolTerm] = []

    def pay_is(pay: tuple[int, ...]) -> None:
        for name, var in step.bools.items():
            if name.startswith("pay."):
                parts.append(var if int(name[4:]) in pay else not_(var))

    match action:
        case PlayStandard(card=card, pay=pay):
            parts += [eq(step.ints["kind"], Kind.STANDARD), eq(step.ints["card"], card)]
            pay_is(pay)
        case PlayReserve(card=card, pay=pay):
            parts += [eq(step.ints["kind"], Kind.RESERVE), eq(step.ints["card"], card)]
            pay_is(pay)
        case Unlobby(where=where, index=index):
            target = index + (GOAL_TARGET_BASE if where.value == "goal" else 0)
            parts += [eq(step.ints["kind"], Kind.UNLOBBY), eq(step.ints["unlobby"], target)]
        case Buy(source=source, index=index, pay=pay):
            pile = {BuySource.PILE: state.piles, BuySource.STACK: state.stacks}.get(source)
            card = pile[index][-1] if pile is not None else state.trash[index]
            parts += [step.bools["buy"], eq(step.ints["card"], card)]
            pay_is(pay)
    return and_(*parts)


def _step_for(enc: Encoder, s: SymState, state: GameState, action: Action) -> Step:
    if isinstance(action, Pass):
        return enc.movement_pass(s, state.round)
    if isinstance(action, EndPlay):
        return enc.end_play(s, state.round)
    if isinstance(action, EndBuy):
        return enc.end_buy(s, state.round)
    if isinstance(action, Buy):
        return enc.buy_slot(s, state.round, 0, TRUE)
    return enc.play_slot(s, state.round, 0, TRUE)


def check_agreement(game: Game, state: GameState, choice: int, seed: int) -> None:
    """The step of the `choice`-th engine-legal action (mostly one that is not an End) agrees with the engine."""
    if state.phase is Phase.MOVEMENT_TURN:
        action: Action = Pass()
    else:
        actions = legal_actions(state)
        going = [a for a in actions if not isinstance(a, EndPlay | EndBuy)]
        pool = going if going and choice % 4 else list(actions)
        action = pool[(choice // 4) % len(pool)]
    check_step(Tables.of(game), state, action, seed)


def check_step(tables: Tables, state: GameState, action: Action, seed: int) -> None:
    """The step encoded over `state` admits the engine-legal `action`, and its model's successor is the engine's."""
    step = _step_for(Encoder(tables), concrete(tables, state), state, action)
    solver = Solver(seed=seed)
    for group in step.groups:
        solver.add(group.constraint)
    solver.add(_fix(step, action, state))
    assert solver.check() == "sat", f"the encoding refuses the engine-legal action {action} in {state.summary()}"
    trace: list[Action] = []
    run_step(tables, step, solver.model(), state, trace)
    assert trace[0] == action


@pytest.mark.parametrize("name", sorted(GAMES))
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), stop=st.integers(0, 120), choice=st.integers(0, 1000),
       z3seed=st.integers(0, 1000))
def test_step_successor_equals_engine(name: str, seed: int, stop: int, choice: int, z3seed: int) -> None:
    game = GAMES[name]
    state = rest_state(game, seed, stop)
    if state.outcome is not None or state.pending or state.phase not in (
            Phase.COMPANY_PLAY, Phase.COMPANY_BUY, Phase.MOVEMENT_TURN):
        return
    check_agreement(game, state, choice, z3seed)


def test_every_legal_play_of_a_state_is_admitted() -> None:
    """Legality agrees in the other direction: each engine-legal play and buy is a model of the step."""
    game = GAMES["shipped"]
    checked = 0
    for seed in range(3):
        state = rest_state(game, seed, 20)
        if state.outcome is not None or state.phase is Phase.MOVEMENT_TURN:
            continue
        for choice in range(len(legal_actions(state))):
            check_agreement(game, state, choice, 0)
            checked += 1
    assert checked, "no Company state was reached: the test checked nothing"


def _reshuffle_states(game: Game, want: int) -> list[GameState]:
    """Buy-Phase states whose Draw Phase runs the Reshuffle Sequence with cards in the Reserve."""
    found: list[GameState] = []
    for seed in range(400):
        for stop in (15, 30, 45, 60, 80):
            state = rest_state(game, seed, stop)
            if (state.phase is Phase.COMPANY_BUY and state.outcome is None and not state.pending and state.buys
                    and state.c_reserve and len(state.c_deck) < game.cards.rules.company_hand_size):
                found.append(state)
                if len(found) >= want:
                    return found
    return found


@pytest.mark.parametrize("name", sorted(GAMES))
def test_reshuffle_sequence_with_a_reserve_agrees(name: str) -> None:
    game = GAMES[name]
    states = _reshuffle_states(game, 4)
    assert states, "no playout reached a Reshuffle with a Reserve"
    for i, state in enumerate(states):
        tables = Tables.of(game)
        step = Encoder(tables).end_buy(concrete(tables, state), state.round)
        solver = Solver(seed=i)
        for group in step.groups:
            solver.add(group.constraint)
        assert solver.check() == "sat"
        trace: list[Action] = []
        run_step(tables, step, solver.model(), state, trace)
        assert trace[0] == EndBuy()


# --- whole games: Company steps in situations the generated states seldom reach ---


def _situations(game: Game, state: GameState, action: Action) -> set[str]:
    """The rare situations a Company step at rest is in (none for any other step)."""
    if state.pending or state.phase not in (Phase.COMPANY_PLAY, Phase.COMPANY_BUY):
        return set()
    found = set()
    if isinstance(action, Buy) and action.source is BuySource.TRASH and len(state.trash) >= 2:
        found.add(TRASH)  # which card of the trash a buy takes (only the top one, under trash-buy=top-only)
    if isinstance(action, PlayReserve):
        found.add(TO_RESERVE)  # where the card goes: the right end of the Reserve (Reserve Effects)
    if isinstance(action, PlayStandard):
        if _near_miss(game, state, action.card):
            found.add(RESERVE)  # which Reserve cards activate: trigger and icon must both match (Reserve Effects)
        draws = _draws(game, action.card)
        if draws and state.c_discard and len(state.c_deck) == draws:
            found.add(MID_PLAY)  # the deck holds just the cards drawn: no mid-play reshuffle (Reshuffle Sequence)
        if draws and state.c_discard and len(state.c_deck) < draws:
            found.add(MID_RESHUFFLE)  # the draw reshuffles the discards and goes on drawing (Reshuffle Sequence)
        if _spills(game, state, action.card):
            found.add(SPILL)  # Adding Doubt: what one column of the group has no room for goes to the other
    if isinstance(action, EndBuy) and len(state.c_deck) == game.cards.rules.company_hand_size:
        found.add(EXACT)  # the Draw Phase draws the whole deck, and no Reshuffle Sequence runs
    if isinstance(action, EndPlay) and state.discount:
        found.add(DISCOUNT)  # a discount kept from the Play Phase for the Buy Phase (Spending Budget)
    return found


def _near_miss(game: Game, state: GameState, card: int) -> bool:
    """Whether playing `card` triggers with a Reserve card of the same trigger but another icon (not activated)."""
    side = game.company_card(card).standard
    if side is None or side.trigger is None:
        return False
    reserve = [game.company_card(c).reserve for c in state.c_reserve]
    return any(r is not None and r.trigger is side.trigger and r.icon is not side.icon for r in reserve)


def _draws(game: Game, card: int) -> int:
    """The cards the standard side of `card` draws."""
    side = game.company_card(card).standard
    return sum(e.count for e in side.effects if isinstance(e, DrawCards)) if side is not None else 0


@functools.cache
def _doubt_capacity(game: Game) -> tuple[int, ...]:
    return tuple(Tables.of(game).doubt_capacity)


def _spills(game: Game, state: GameState, card: int) -> bool:
    """Whether playing `card` adds more Doubt to a group than either of its columns has room for (both have some)."""
    side = game.company_card(card).standard
    capacity = _doubt_capacity(game)
    for effect in side.effects if side is not None else ():
        if isinstance(effect, AddDoubt):
            a, b = (int(column) for column in effect.group.columns)
            room = (capacity[a] - state.doubt[a], capacity[b] - state.doubt[b])
            if min(room) > 0 and effect.count > max(room):
                return True
    return False


TRASH = "a buy from a trash of two cards or more"
RESERVE = "a play whose trigger a Reserve card shares, with another icon"
TO_RESERVE = "a play into the Reserve"
MID_PLAY = "a play that draws exactly the cards left in the deck"
MID_RESHUFFLE = "a play that draws more cards than the deck holds"
SPILL = "a play adding more Doubt than either column of its group has room for"
EXACT = "a Draw Phase with exactly a hand of cards in the deck"
DISCOUNT = "a Play Phase ending with a discount for the next buy"
WHOLE_GAMES = {"shipped": GAMES["shipped"], "large": Game(load_cards(DATA / "large.toml"))}
RARE = (
    ("shipped", 11, "careful", "random", (MID_PLAY,)),
    ("shipped", 12, "careful", "random", (TRASH, RESERVE, TO_RESERVE, EXACT, DISCOUNT)),
    ("shipped", 14, "careful", "random", (SPILL,)),
    ("large", 11, "careful", "random", (MID_PLAY, EXACT, DISCOUNT)),
    ("large", 12, "careful", "random", (RESERVE, TO_RESERVE, MID_RESHUFFLE)),
    ("large", 14, "careful", "greedy", (TRASH,)),
)
"""Simulated games (card file, seed, agents, situations shown) with Company steps in situations the generated
states above seldom reach. Every step of such a game in one of the situations listed is checked."""


@pytest.mark.parametrize(("name", "seed", "company", "movement", "situations"), RARE)
def test_company_steps_of_rare_situations_in_whole_games_agree(name: str, seed: int, company: str, movement: str,
                                                               situations: tuple[str, ...]) -> None:
    game = WHOLE_GAMES[name]
    tables = Tables.of(game)
    shown: dict[str, int] = {}
    for move in iter_game(game, seed, Matchup(company, movement), 8):
        found = _situations(game, move.before, move.action) & set(situations)
        if found:
            check_step(tables, move.before, move.action, 0)
        for situation in found:
            shown[situation] = shown.get(situation, 0) + 1
    # The game must still show each situation, or the test would quietly check less.
    assert sorted(shown) == sorted(situations), f"{name} seed {seed}: {company} against {movement} shows {shown}"


@pytest.mark.parametrize(("name", "seed", "matchup"), searching_games(WHOLE_GAMES, Side.COMPANY))
def test_every_company_step_of_a_searching_agents_game_agrees(name: str, seed: int, matchup: Matchup) -> None:
    """Every Company step at rest of a game whose Company searches (`searching_games`): it plans its plays and
    buys. (The plain agents' games are checked above, in their rare situations.)"""
    game = WHOLE_GAMES[name]
    tables = Tables.of(game)
    checked = 0
    for move in played(game, seed, matchup, ROUNDS):
        if move.actor is Actor.COMPANY and not move.before.pending and move.before.phase in (Phase.COMPANY_PLAY,
                                                                                                Phase.COMPANY_BUY):
            check_step(tables, move.before, move.action, 0)
            checked += 1
    assert checked > 0
