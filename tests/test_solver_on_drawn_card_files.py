"""The solver's abstractions, cuts and answers checked against the engine on drawn card files (`tests/card_files.py`).

The fixed files' checks (`test_solver_abstraction_*.py`, `test_abstraction_movement.py`, `test_solver_profit_cut.py`)
say nothing about a designer's own numbers. On files the solver models, with their numbers drawn:

* the Company's and the Movement's abstractions admit every round of simulated games (every agent pairing);
* the star cut's and the Profit cut's proved bounds and facts hold in those games;
* no answer contradicts a game the engine played: a turn proved impossible is never one a simulated game reached
  its target by;
* on tiny files with drawn numbers, what the exhaustive search reaches is never proved impossible.
"""

from __future__ import annotations

import copy
import itertools
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from admission import (
    Admission,
    assert_movement_rounds_admitted,
    check_company_game,
    cut_respected,
    facts_admit,
    movement_round_states,
    round_starts,
    simulated_states,
)
from card_files import DRAWN, card_file_data, differences, loaded
from doubtspec.agents.base import Matchup
from doubtspec.agents.simulate import iter_game
from doubtspec.model.game import Game
from doubtspec.model.state import OutcomeReason
from doubtspec.solver import exhaustive
from doubtspec.solver.abstraction.company import PROFIT, STAR, CompanyAbstraction
from doubtspec.solver.abstraction.company_schedules import ScheduleProver
from doubtspec.solver.queries import TARGETS, Opponent, Query, QueryKind, abstraction_for, solve
from doubtspec.solver.unrolling.bmc import Caps
from doubtspec.solver.verdict import Budget, TurnVerdict

AGENTS = ("random", "careful", "greedy")


def _admitted_everywhere(data: dict[str, Any], seed: int, rounds: int) -> int:
    """Every round of a game of each agent pairing is admitted by both abstractions; the rounds checked."""
    game = Game(loaded(data))
    admission = Admission(game)
    checked = 0
    for company, movement in itertools.product(AGENTS, AGENTS):
        matchup = Matchup(company, movement)
        checked += check_company_game(admission, game, seed, matchup, rounds, "drawn file")
        dealt, starts = movement_round_states(simulated_states(game, seed, matchup, rounds))
        checked += assert_movement_rounds_admitted(game, dealt, starts)
    return checked


@settings(DRAWN, max_examples=3)
@given(data=card_file_data(modelled=True), seed=st.integers(0, 2**16))
def test_the_abstractions_admit_every_round_on_drawn_card_files(data: dict[str, Any], seed: int) -> None:
    assert _admitted_everywhere(data, seed, 8) > 0, differences(data)


@pytest.mark.slow
@settings(DRAWN, max_examples=40)
@given(data=card_file_data(modelled=True), seed=st.integers(0, 2**16))
def test_the_abstractions_admit_every_round_on_many_drawn_card_files(data: dict[str, Any], seed: int) -> None:
    assert _admitted_everywhere(data, seed, 12) > 0, differences(data)


def _cuts_hold(data: dict[str, Any], seed: int, budget: float) -> int:
    """The star cut's and the Profit cut's proved bounds and facts (to turn 4, within `budget` seconds each) hold
    in a game of every agent pairing; returns the games checked."""
    game = Game(loaded(data))
    model = CompanyAbstraction.of(game)
    stars = ScheduleProver(model.system(STAR), STAR, model.lemmas(), layout=model.layout)
    stars.cut_stars(4, game.cards.rules.stars_to_win, Budget.of(budget))
    profit = ScheduleProver(model.system(PROFIT), PROFIT, model.lemmas(), layout=model.layout)
    profit.cut_profit(4, game.cards.rules.profit_to_win, Budget.of(budget))
    checked = 0
    for company, movement in itertools.product(AGENTS, AGENTS):
        states = round_starts(game, seed, Matchup(company, movement), 3)
        if len(states) >= 2:
            assert facts_admit(stars, model.layout, states), (f"a fact of the star cut cuts off a game: "
                                                             f"{[f.text for f in stars.facts]}", differences(data))
            assert cut_respected(profit, states), ("a bound of the Profit cut cuts off a game: "
                                                   f"{[f.text for f in profit.facts]}", differences(data))
            checked += 1
    return checked


@settings(DRAWN, max_examples=1)
@given(data=card_file_data(modelled=True), seed=st.integers(0, 2**16))
def test_the_cuts_bounds_hold_in_games_on_drawn_card_files(data: dict[str, Any], seed: int) -> None:
    _cuts_hold(data, seed, 10.0)


@pytest.mark.slow
@settings(DRAWN, max_examples=15)
@given(data=card_file_data(modelled=True), seed=st.integers(0, 2**16))
def test_the_cuts_bounds_hold_in_games_on_many_drawn_card_files(data: dict[str, Any], seed: int) -> None:
    _cuts_hold(data, seed, 30.0)


ENDINGS = {OutcomeReason.STAR_VICTORY: QueryKind.STARS, OutcomeReason.PROFIT_VICTORY: QueryKind.PROFIT,
           OutcomeReason.GOAL_VICTORY: QueryKind.MOVEMENT_WIN, OutcomeReason.ECONOMIC_DEFEAT: QueryKind.DEFEAT,
           OutcomeReason.MARGINALIZATION: QueryKind.DEFEAT}


def _reached(game: Game, seeds: range, rounds: int) -> tuple[dict[QueryKind, int], dict[int, int]]:
    """The earliest turn simulated games (every pairing) ended each way, and achieved each Goal by."""
    ended: dict[QueryKind, int] = {}
    goals: dict[int, int] = {}
    for seed, (company, movement) in itertools.product(seeds, itertools.product(AGENTS, AGENTS)):
        last = None
        for move in iter_game(game, seed, Matchup(company, movement), rounds):
            last = move.after
            for goal in last.achieved:
                goals[goal] = min(goals.get(goal, rounds + 1), last.round)
        if last is not None and last.outcome is not None:
            kind = ENDINGS[last.outcome.reason]
            ended[kind] = min(ended.get(kind, rounds + 1), last.outcome.round)
    return ended, goals


def _consistent(game: Game, kind: QueryKind, turn: int, timeout: float, goal: int | None = None) -> None:
    """The solver asked whether `kind` can happen by `turn`, which a simulated game reached: never "no", no turn
    from `turn` on proved impossible, and an earliest turn proved only at or before `turn`."""
    answer = solve(game, kind, turn, timeout_s=timeout, goal=goal)
    what = f"{kind.value}{'' if goal is None else f' G{goal}'} by turn {turn}"
    assert answer.status != "no", f"{what}: a simulated game reached it, the solver says no"
    assert answer.proved_none_by < turn, f"{what}: turn {answer.proved_none_by} proved impossible"
    if answer.earliest_exact:
        assert answer.earliest is not None and answer.earliest <= turn, f"{what}: earliest {answer.earliest}"


def _no_answer_contradicts_a_game(data: dict[str, Any], timeout: float, goals: int) -> int:
    """Asks about each ending and (up to `goals`) Goal a simulated game reached; returns how many were asked."""
    game = Game(loaded(data))
    ended, achieved = _reached(game, range(2), 12)
    for kind, turn in sorted(ended.items(), key=lambda item: item[1]):
        _consistent(game, kind, turn, timeout)
    for goal, turn in sorted(achieved.items(), key=lambda item: -item[1])[:goals]:
        _consistent(game, QueryKind.GOAL, turn, timeout, goal)
    return len(ended) + min(goals, len(achieved))


@st.composite
def _quick_ending_files(draw: st.DrawFn) -> dict[str, Any]:
    """Drawn files the solver models whose victories come within a few turns: one or two stars to win, a low
    Profit to win and few Goal points, so that simulated games end and the provers' "impossible" turns meet them."""
    data: dict[str, Any] = draw(card_file_data(modelled=True))
    data["rules"].update(stars_to_win=draw(st.integers(1, 2)), star_threshold=draw(st.integers(4, 8)),
                         profit_to_win=draw(st.integers(15, 30)), goal_points_to_win=draw(st.integers(3, 6)))
    data["supply"]["stars"] = max(data["supply"]["stars"], data["rules"]["stars_to_win"])
    return data


@settings(DRAWN, max_examples=2)
@given(data=_quick_ending_files())
def test_no_answer_contradicts_a_game_on_drawn_card_files(data: dict[str, Any]) -> None:
    """The solver's "no" and "earliest" against the games the engine plays on a drawn file (stars to win, the
    threshold and Profit to win are often low there, so its victories come early and the provers' bounds are
    put to the test)."""
    assert _no_answer_contradicts_a_game(data, 6.0, 1) > 0, differences(data)


@pytest.mark.slow
@settings(DRAWN, max_examples=25)
@given(data=_quick_ending_files())
def test_no_answer_contradicts_a_game_on_many_drawn_card_files(data: dict[str, Any]) -> None:
    assert _no_answer_contradicts_a_game(data, 20.0, 3) > 0, differences(data)


TINY3 = tomllib.loads((Path(__file__).parent / "data" / "tiny3.toml").read_text())
SEARCH_CAPS = Caps(plays=3, buys=2)
"""The exhaustive search's caps (as in `test_solver_agreement`): what it finds within them is a game."""


@st.composite
def _drawn_tiny_files(draw: st.DrawFn) -> dict[str, Any]:
    """tiny3's data drawn anew (three-card hands kept, so the exhaustive search stays small)."""
    data: dict[str, Any] = draw(card_file_data(modelled=True, base=TINY3))
    data["rules"]["company_hand_size"] = 3
    return data


def _agrees_with_the_search(data: dict[str, Any], bound: int, timeout: float, search_s: float) -> int:
    """Every Company ending the exhaustive search reaches by `bound` (a passive Movement, `SEARCH_CAPS`) is never
    proved impossible by its turn, by the abstraction or by a whole answer; returns how many endings it reached
    (a search cut short by `search_s` has still found real games)."""
    game = Game(loaded(data))
    results, _ = exhaustive.earliest_outcomes(game, bound, SEARCH_CAPS, timeout_s=search_s)
    reached = 0
    for kind in (QueryKind.STARS, QueryKind.PROFIT, QueryKind.DEFEAT):
        found = [results[r.value].found for r in TARGETS[kind][1] if r.value in results]
        turn = min((f for f in found if f is not None), default=None)
        if turn is None:
            continue
        reached += 1
        prover = abstraction_for(game, Query(kind, bound))
        if prover is not None:
            for proof in prover.decide(bound, Budget.of(timeout)):
                assert not (proof.turn >= turn and proof.verdict is TurnVerdict.IMPOSSIBLE), (
                    f"{kind.value}: the search reaches it at turn {turn}, the abstraction proves turn {proof.turn} "
                    "impossible", differences(data))
        answer = solve(game, kind, bound, Opponent.PASSIVE, timeout_s=timeout)
        assert answer.status != "no" and answer.proved_none_by < turn, (
            f"{kind.value}: the search reaches it at turn {turn}, the answer is {answer.status} with turns up to "
            f"{answer.proved_none_by} proved impossible", differences(data))
    return reached


@settings(DRAWN, max_examples=1)
@given(data=_drawn_tiny_files())
def test_no_proof_contradicts_the_exhaustive_search_on_drawn_tiny_files(data: dict[str, Any]) -> None:
    """The exhaustive search is the ground truth within its caps: on tiny files with drawn numbers (victories from
    two Profit or a threshold of two), what it reaches at turn 1 is never proved impossible."""
    _agrees_with_the_search(data, 1, 10.0, 10.0)


def test_the_search_check_meets_an_ending_at_turn_1() -> None:
    """Most drawn tiny files reach no ending by turn 1, so the check above often has nothing to compare. On tiny3
    with every Budget 0 and every cost at least 1, the Company can play nothing: the search reaches Economic Defeat
    at turn 1, and neither the abstraction nor an answer may prove it impossible."""
    data = copy.deepcopy(TINY3)
    for card in data["company"]["cards"]:
        card["budget"] = 0
        for side in ("standard", "reserve"):
            if side in card:
                card[side]["cost"] = max(card[side]["cost"], 1)
    assert _agrees_with_the_search(data, 1, 10.0, 10.0) >= 1


@pytest.mark.slow
@settings(DRAWN, max_examples=10)
@given(data=_drawn_tiny_files())
def test_no_proof_contradicts_the_exhaustive_search_to_turn_2_on_drawn_tiny_files(data: dict[str, Any]) -> None:
    """The same to turn 2 (a Reshuffle can come by then), the search given a minute and a half."""
    _agrees_with_the_search(data, 2, 30.0, 90.0)
