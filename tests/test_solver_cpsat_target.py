"""CP-SAT's maximum asked only down to a target (`cpsat.maximize` with a target): the bound it reports always holds."""

from __future__ import annotations

import z3
from hypothesis import given, settings
from hypothesis import strategies as st

from doubtspec.solver.abstraction import cpsat
from doubtspec.solver.verdict import Budget

x, y = z3.Int("x@1"), z3.Int("y@1")


def _domain(name: str) -> tuple[int, int]:
    return cpsat.Box().domain(name, frozenset({"x", "y"}))


def test_without_a_target_it_is_the_optimum() -> None:
    best = cpsat.maximize([x + 2 * y <= 7, x >= y], x + y, _domain, Budget.of(10), 5.0)
    assert best.optimal and best.at_most == best.reached == 7


def test_an_infeasible_model_bounds_every_value_below_any() -> None:
    best = cpsat.maximize([x + y <= 2, x >= 3, y >= 0], x, _domain, Budget.of(10), 5.0, target=100)
    assert best.at_most == -1 and best.reached is None


@settings(max_examples=30, deadline=None)
@given(cap=st.integers(0, 40), slack=st.integers(0, 30), target=st.integers(-5, 80))
def test_the_bound_reported_holds_and_meets_the_target_when_the_optimum_does(cap: int, slack: int,
                                                                              target: int) -> None:
    """Whatever the target, the reported bound is at least the optimum (so every solution is within it); when the
    optimum is at or below the target so is the bound, and when it is above the target the value reached is too
    (which tells the caller that no bound will do)."""
    optimum = cap + slack // 2
    formulas = [x <= cap, 2 * y <= slack, x >= 0, y >= 0]
    best = cpsat.maximize(formulas, x + y, _domain, Budget.of(10), 5.0, target=target)
    assert best.at_most is not None and best.at_most >= optimum
    if optimum <= target:
        assert best.at_most <= target
    else:
        assert best.reached is not None and best.reached > target
