"""Benchmarks: solver time per bound, and the exhaustive search at the bounds it reaches.

Untimed by default (the project runs pytest with --benchmark-disable: each case runs once); time
them with `pytest tests/test_bench_solver.py --benchmark-enable -m "benchmark"` (add `or slow` for
the shipped set's deeper bounds, each check capped by a time limit and recorded as 'unknown' when
it runs out). The Movement's queries (goals) are not built, so they have no benchmark yet.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from doubtspec.model.cards import load_cards
from doubtspec.model.game import Game
from doubtspec.model.state import OutcomeReason
from doubtspec.solver import exhaustive
from doubtspec.solver.bmc import Caps
from doubtspec.solver.queries import QueryKind, solve

DATA = Path(__file__).parent / "data"
TINY = Game(load_cards(DATA / "tiny3.toml"))
SHIPPED = Game(load_cards())
TINY_CAPS = Caps(plays=3, buys=2)


def _record(benchmark: Any, **info: object) -> None:
    benchmark.extra_info.update(info)


@pytest.mark.benchmark
@pytest.mark.parametrize("bound", [1, 2])
def test_bench_stars_tiny(benchmark: Any, bound: int) -> None:
    answer = benchmark.pedantic(solve, args=(TINY, QueryKind.STARS, bound),
                                kwargs={"caps": TINY_CAPS, "check_caps": False}, rounds=1, iterations=1)
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


@pytest.mark.benchmark
@pytest.mark.slow
@pytest.mark.parametrize("bound", [1, 2, 3, 4, 8, 12])
def test_bench_stars_shipped(benchmark: Any, bound: int) -> None:
    answer = benchmark.pedantic(solve, args=(SHIPPED, QueryKind.STARS, bound),
                                kwargs={"timeout_s": 300.0, "check_caps": False}, rounds=1, iterations=1)
    _record(benchmark, answer=answer.status, earliest=answer.earliest,
            checks=[(c.bound, c.status, round(c.seconds, 2)) for c in answer.checks])
    assert answer.status in ("yes", "no", "unknown")
