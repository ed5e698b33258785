"""CP-SAT's largest value of a term, asked only as far as a target: the search stops once its proved bound is at or
below the target.

The Profit cut needs a round's potential bound only up to the value from which the next turn is proved (its
target, `ProfitCut.target`): a bound at or below the target is all the turn's proof uses, and CP-SAT's objective
bound is an upper bound on every solution's value at every point of its search (the same trust as its optimum, see
`cpsat.maximize`). So a maximum whose optimum lies well under the target need not be proved optimal: its search
stops as soon as the bound reaches the target. A maximum whose optimum is above the target reports the value
reached, which tells the caller that no bound it could prove will do.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

import z3
from ortools.sat.python import cp_model

from doubtspec.solver.abstraction import cpsat
from doubtspec.solver.verdict import Budget


def maximize_to(formulas: Sequence[z3.BoolRef], objective: z3.ArithRef, domain: Callable[[str], cpsat.Interval],
                budget: Budget, cap_s: float, target: int | None, work_limit: float | None = None,
                seed: int = 0) -> cpsat.Maximum:
    """`cpsat.maximize` (one worker, the same translation and limits), stopped once CP-SAT's proved bound on
    `objective` is at most `target` (None: never, the optimum as `cpsat.maximize` finds it). `at_most` is the bound
    proved when the search ended (a solution found, or the model infeasible); `optimal` only when CP-SAT proved it
    so, not when stopped at the target."""
    started = time.perf_counter()
    translation = cpsat._translated(formulas, domain)
    term, _ = translation.term(objective)
    translation.model.maximize(term)
    solver = cpsat._solver(budget, cap_s, seed, work_limit)
    bounds: list[float] = []
    if target is not None:
        def stop_at_target(bound: float) -> None:
            bounds.append(bound)
            if bound <= target + 1e-6:
                solver.stop_search()

        solver.best_bound_callback = stop_at_target
    status = solver.solve(translation.model)
    seconds = time.perf_counter() - started
    if status == cp_model.INFEASIBLE:
        return cpsat.Maximum(-1, None, seconds, True)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        # Stopped at the target before any solution was found: the bound CP-SAT reported still holds (no
        # solution lies above it), but there is no value reached.
        return cpsat.Maximum(int(min(bounds) + 1e-6) if bounds else None, None, seconds, False)
    bound = int(solver.best_objective_bound + 1e-6)
    _, confirmed = cpsat._confirmed(formulas, translation, solver)
    reached = int(solver.objective_value + 1e-6) if confirmed else None
    return cpsat.Maximum(bound, reached, seconds, status == cp_model.OPTIMAL)
