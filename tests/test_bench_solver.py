"""Benchmarks: solve time per bound for `stars` and `goals`, and the exhaustive search at the bounds it reaches.

Untimed by default (the project runs pytest with --benchmark-disable: each case runs once); time
them with `pytest tests/test_bench_solver.py --benchmark-enable -m "benchmark or slow"`. Each
shipped-set case records in `extra_info` how the answer was reached: the hunt's witness turn and
time, and the unrolling's checks (turn, result, seconds). Two timings per bound: the question
alone (`earliest=False`: stop at the first witness) and the question with as much of the
earliest turn proved as a 60-second budget allows.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from doubtspec.model.cards import load_cards
from doubtspec.model.game import Game
from doubtspec.model.state import OutcomeReason
from doubtspec.solver import exhaustive
from doubtspec.solver.queries import Answer, Opponent, QueryKind, solve, solve_goals
from doubtspec.solver.unrolling.bmc import Caps

DATA = Path(__file__).parent / "data"
TINY = Game(load_cards(DATA / "tiny3.toml"))
SHIPPED = Game(load_cards())
TINY_CAPS = Caps(plays=3, buys=2)


def _record(benchmark: Any, **info: object) -> None:
    benchmark.extra_info.update(info)


@pytest.mark.benchmark
@pytest.mark.parametrize("bound", [1, 2])
def test_bench_stars_tiny(benchmark: Any, bound: int) -> None:
    answer = benchmark.pedantic(solve, args=(TINY, QueryKind.STARS, bound, Opponent.PASSIVE),
                                kwargs={"caps": TINY_CAPS, "check_caps": False, "use_hunt": False},
                                rounds=1, iterations=1)
    _record(benchmark, answer=answer.status, earliest=answer.earliest)
    assert answer.status == ("yes" if bound >= 2 else "no")


@pytest.mark.benchmark
@pytest.mark.parametrize("bound", [1, pytest.param(2, marks=pytest.mark.slow)])
def test_bench_exhaustive_stars_tiny(benchmark: Any, bound: int) -> None:
    result = benchmark.pedantic(exhaustive.search, args=(TINY, exhaustive.outcome_is(OutcomeReason.STAR_VICTORY),
                                                         bound, TINY_CAPS), rounds=1, iterations=1)
    _record(benchmark, found=result.found, states=result.states)
    assert result.complete
    assert result.found == (2 if bound >= 2 else None)


def _record_answer(benchmark: Any, answer: Answer) -> None:
    _record(benchmark, answer=answer.status, earliest=answer.earliest, proved_none_by=answer.proved_none_by,
            witness_from=answer.witness_from,
            hunt=None if answer.hunt is None else (answer.hunt.found, round(answer.hunt.seconds, 2)),
            checks=[(c.bound, c.status, round(c.seconds, 2)) for c in answer.checks])


@pytest.mark.benchmark
@pytest.mark.slow
@pytest.mark.parametrize("earliest", [False, True], ids=["question", "earliest"])
@pytest.mark.parametrize("bound", [4, 8, 12])
def test_bench_stars_shipped(benchmark: Any, bound: int, earliest: bool) -> None:
    answer = benchmark.pedantic(solve, args=(SHIPPED, QueryKind.STARS, bound, Opponent.PASSIVE),
                                kwargs={"timeout_s": 60.0, "check_caps": False, "earliest": earliest},
                                rounds=1, iterations=1)
    _record_answer(benchmark, answer)
    assert answer.status in ("yes", "no", "unknown")


@pytest.mark.benchmark
def test_bench_stars_by_turn_twelve_question(benchmark: Any) -> None:
    """The issue's speed aim, in the default suite: `stars --by-turn 12` answered (with a replayed witness)."""
    answer = benchmark.pedantic(solve, args=(SHIPPED, QueryKind.STARS, 12),
                                kwargs={"timeout_s": 60.0, "check_caps": False, "earliest": False},
                                rounds=1, iterations=1)
    _record_answer(benchmark, answer)
    assert answer.status == "yes" and answer.witness is not None


@pytest.mark.benchmark
@pytest.mark.slow
@pytest.mark.parametrize("bound", [4, 8, 12])
def test_bench_goals_shipped(benchmark: Any, bound: int) -> None:
    answers = benchmark.pedantic(solve_goals, args=(SHIPPED, bound),
                                 kwargs={"timeout_s": 9 * 20.0, "check_caps": False}, rounds=1, iterations=1)
    _record(benchmark, goals={a.goal: (a.status, a.earliest, a.proved_none_by) for a in answers})
    assert all(a.status in ("yes", "no", "unknown") for a in answers)


MOVEMENT = Game(load_cards(DATA / "tiny_movement.toml"))
MOVEMENT_CAPS = Caps(plays=1, buys=1)


@pytest.mark.benchmark
@pytest.mark.parametrize("bound", [1, 2])
def test_bench_goal_seven_tiny(benchmark: Any, bound: int) -> None:
    """The unrolling alone (no hunt) on G7, which flips from impossible at turn 1 to possible at turn 2."""
    answer = benchmark.pedantic(solve, args=(MOVEMENT, QueryKind.GOAL, bound, Opponent.ANY),
                                kwargs={"goal": 7, "caps": MOVEMENT_CAPS, "check_caps": False, "use_hunt": False,
                                        "timeout_s": None}, rounds=1, iterations=1)
    _record_answer(benchmark, answer)
    assert answer.status == ("yes" if bound >= 2 else "no")


@pytest.mark.benchmark
@pytest.mark.parametrize("bound", [1, pytest.param(2, marks=pytest.mark.slow)])
def test_bench_exhaustive_goal_seven_tiny(benchmark: Any, bound: int) -> None:
    result = benchmark.pedantic(exhaustive.search_state, args=(MOVEMENT, lambda s: 7 in s.achieved, bound,
                                                               MOVEMENT_CAPS),
                                kwargs={"passive": False, "distinct_goals": (7,)}, rounds=1, iterations=1)
    _record(benchmark, found=result.found, states=result.states)
    assert result.complete
    assert result.found == (2 if bound >= 2 else None)


@pytest.mark.benchmark
@pytest.mark.parametrize("bound", [1, 2])
def test_bench_goals_tiny(benchmark: Any, bound: int) -> None:
    """The whole `goals` question on the tiny file (hunt and unrolling)."""
    answers = benchmark.pedantic(solve_goals, args=(MOVEMENT, bound, Opponent.ANY),
                                 kwargs={"timeout_s": None, "caps": MOVEMENT_CAPS, "check_caps": False},
                                 rounds=1, iterations=1)
    _record(benchmark, goals={a.goal: (a.status, a.earliest) for a in answers})
    assert [a.status for a in answers] == (["yes"] * 9 if bound >= 2 else ["yes"] * 6 + ["no"] * 3)
