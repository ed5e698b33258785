"""Benchmarks: the Movement's abstraction, turn by turn, on the tiny Movement file and the shipped set.

Untimed by default (each case runs once); time them with
`pytest tests/test_bench_abstraction_movement.py --benchmark-enable -m "benchmark or slow"`. Each
case records its per-turn verdicts, wall and CPU seconds in `extra_info`, so the growth per turn is
visible side by side with the unrolling's (tests/test_bench_solver.py).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from doubtspec.model.cards import load_cards
from doubtspec.model.game import Game
from doubtspec.solver.abstraction.movement_prover import movement_abstraction
from doubtspec.solver.verdict import Budget, TurnVerdict

DATA = Path(__file__).parent / "data"
TINY = Game(load_cards(DATA / "tiny_movement.toml"))
SHIPPED = Game(load_cards())


def _per_turn(game: Game, goal: int | None, by_turn: int) -> list[tuple[int, str, float, float]]:
    """Decide turns 1.. until the first one the abstraction cannot rule out: (turn, verdict, wall, CPU)."""
    method = movement_abstraction(game, goal)
    budget = Budget.of(600)
    rows = []
    for turn in range(1, by_turn + 1):
        wall, cpu = time.perf_counter(), time.process_time()
        proofs = method.decide(turn, budget, first_turn=turn)
        proof = proofs[0]  # the BMC's verdict; a second proof is the refined witness at that turn
        verdict = "witness" if len(proofs) > 1 else proof.verdict.value
        rows.append((turn, verdict, round(time.perf_counter() - wall, 2), round(time.process_time() - cpu, 2)))
        if proof.verdict is not TurnVerdict.IMPOSSIBLE:
            break
    return rows


@pytest.mark.benchmark
@pytest.mark.parametrize("goal", [1, 7, None])
def test_bench_abstraction_tiny(benchmark: Any, goal: int | None) -> None:
    rows = benchmark.pedantic(_per_turn, args=(TINY, goal, 3), rounds=1, iterations=1)
    benchmark.extra_info["turns"] = rows
    assert rows[-1][:2] == ((1 if goal == 1 else 2), "witness")


# Slow: the refinement tries the abstraction's runs in the order Z3 returns them, and on a loaded machine the
# time-sliced restarts can hand it a run it cannot follow within its four tries (seen once at load 11).
@pytest.mark.slow
@pytest.mark.benchmark
@pytest.mark.parametrize("goal", [3, 4, 5])
def test_bench_abstraction_shipped_first_goals(benchmark: Any, goal: int) -> None:
    """G3-G5: impossible before turns 3, 3, 4 and refined into games at those turns: earliest proved."""
    rows = benchmark.pedantic(_per_turn, args=(SHIPPED, goal, 12), rounds=1, iterations=1)
    benchmark.extra_info["turns"] = rows
    assert rows[-1][:2] == ((4 if goal == 5 else 3), "witness")


@pytest.mark.slow
@pytest.mark.benchmark
@pytest.mark.parametrize("goal", [6, 7, 8, 9, None])
def test_bench_abstraction_shipped_deep(benchmark: Any, goal: int | None) -> None:
    """G6-G9 and Goal Victory: how far the abstraction proves turns impossible, what each turn costs, and
    whether its first "possible" run becomes a game."""
    rows = benchmark.pedantic(_per_turn, args=(SHIPPED, goal, 12), rounds=1, iterations=1)
    benchmark.extra_info["turns"] = rows
    assert all(verdict == "impossible" for _, verdict, _, _ in rows[:-1])
