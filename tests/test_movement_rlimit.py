"""The Movement's prover bounds its checks by Z3's work (`rlimit`), not by the wall clock.

Under load a wall-clock slice buys Z3 less work, so the same question got other answers on a busy machine. Here
every check the prover makes is recorded: each must carry an `rlimit`, and its timeout may only be the budget's
end (the outer bound), never a shorter slice; and the prover's answers on the tiny Movement file must not change
when every timeout buys a hundredth of the work (a machine a hundred times slower). The Z3 semantics the limits
rely on (each check gets its own `rlimit`, also on a solver checked before) are checked too.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import z3

from doubtspec.model.cards import load_cards
from doubtspec.model.game import Game
from doubtspec.solver.abstraction import movement_prover
from doubtspec.solver.abstraction.movement_prover import flag_solver, movement_abstraction, z3_units
from doubtspec.solver.verdict import Budget, TurnProof, TurnVerdict, margin_of

DATA = Path(__file__).parent / "data"
TINY = Game(load_cards(DATA / "tiny_movement.toml"))
BUDGET_S = 3600.0


def _pigeons(holes: int) -> list[z3.BoolRef]:
    """`holes` + 1 pigeons in `holes` holes, one each: unsatisfiable, and a little work for Z3."""
    at = [[z3.Int(f"p{i}_{j}") for j in range(holes)] for i in range(holes + 1)]
    facts: list[z3.BoolRef] = [z3.And(x >= 0, x <= 1) for row in at for x in row]
    facts += [z3.Sum(row) >= 1 for row in at]
    facts += [z3.Sum([row[j] for row in at]) <= 1 for j in range(holes)]
    return facts


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[dict[str, Any]]]:
    """Every Z3 check made while the fixture is active, with the parameters its solver had then."""
    params: dict[int, dict[str, Any]] = {}
    made: list[dict[str, Any]] = []
    real_set, real_check = z3.Solver.set, z3.Solver.check

    def set_(self: z3.Solver, *args: Any, **keys: Any) -> None:
        if len(args) == 2:
            params.setdefault(id(self), {})[args[0]] = args[1]
        real_set(self, *args, **keys)

    def check(self: z3.Solver, *assumptions: Any) -> z3.CheckSatResult:
        made.append(dict(params.get(id(self), {})))
        return real_check(self, *assumptions)

    monkeypatch.setattr(z3.Solver, "set", set_)
    monkeypatch.setattr(z3.Solver, "check", check)
    yield made


def _decide(goal: int | None, by_turn: int, first_turn: int = 1) -> tuple[list[TurnProof], bool]:
    """The prover's turn verdicts on the tiny file, and whether it refined its run into a game."""
    prover = movement_abstraction(TINY, goal)
    proofs = prover.decide(by_turn, Budget.of(BUDGET_S), first_turn)
    return proofs, prover.witness is not None


# Goal 7 and Goal Victory are first possible at turn 2 (goal 1 at turn 1); first_turn=2 takes the seeded
# restarts on the incremental solver (turn 1 not proved), first_turn=1 the fresh solver per turn.
CASES = [(1, 2, 1), (7, 3, 1), (None, 3, 1), (7, 3, 2)]


@pytest.mark.parametrize(("goal", "by_turn", "first_turn"), CASES)
def test_every_check_has_an_rlimit_and_only_the_budget_as_timeout(checks: list[dict[str, Any]], goal: int | None,
                                                                   by_turn: int, first_turn: int) -> None:
    _decide(goal, by_turn, first_turn)
    assert checks
    for made in checks:
        assert made.get("rlimit", 0) > 0, f"a Movement check without an rlimit: {made}"
        # the budget's end is the only timeout allowed: within a minute of all of it, never a slice
        least_ms = (BUDGET_S - margin_of(BUDGET_S) - 60) * 1000
        assert made.get("timeout", 2**31 - 1) >= least_ms, f"a wall-clock slice: {made}"


@pytest.mark.parametrize(("goal", "by_turn", "first_turn"), CASES)
def test_answers_do_not_change_on_a_slower_machine(monkeypatch: pytest.MonkeyPatch, goal: int | None, by_turn: int,
                                                   first_turn: int) -> None:
    quiet = _decide(goal, by_turn, first_turn)
    real_set = z3.Solver.set

    def slowed(self: z3.Solver, *args: Any, **keys: Any) -> None:
        if len(args) == 2 and args[0] == "timeout":
            args = ("timeout", max(1, int(args[1]) // 100))  # a wall second buys a hundredth of the work
        real_set(self, *args, **keys)

    monkeypatch.setattr(z3.Solver, "set", slowed)
    loaded = _decide(goal, by_turn, first_turn)
    assert [(p.turn, p.verdict, p.method) for p in loaded[0]] == [(p.turn, p.verdict, p.method) for p in quiet[0]]
    assert loaded[1] == quiet[1]
    assert all(p.verdict is not TurnVerdict.UNKNOWN for p in quiet[0])


def test_each_check_gets_its_own_rlimit_even_on_a_solver_checked_before() -> None:
    """The refinement asks the same solver again (`_another_run`), the seeded restarts the incremental one: in this
    Z3 each check may do `rlimit` more units of work from where the count stands (were the limit a total for the
    solver, the checks here would run out of it by the second and answer unknown). A check on the pushed solver took
    0.8-1.5 times the first check's work in one process (measured), so each gets twice it: three such checks need
    more than a total of twice it."""
    solver = flag_solver()
    solver.add(*_pigeons(6))
    solver.set("rlimit", 10**10)
    started = z3_units()
    assert solver.check() == z3.unsat
    needed = z3_units() - started
    assert needed > 0
    solver.set("rlimit", needed * 2)
    for _ in range(3):
        solver.push()
        solver.add(z3.BoolVal(True))
        assert solver.check() == z3.unsat
        solver.pop()
    solver.set("rlimit", max(1, needed // 4))
    assert solver.check() == z3.unknown
    assert "resource" in solver.reason_unknown() or "canceled" in solver.reason_unknown()


def test_a_check_past_its_rlimit_is_unknown_at_any_load(monkeypatch: pytest.MonkeyPatch) -> None:
    """With limits too small for any work, every turn is unknown, and nothing else (the answer comes from the limit,
    not from the clock)."""
    monkeypatch.setattr(movement_prover, "TURN_RLIMITS", (1,))
    proofs, refined = _decide(7, 2)
    assert [p.verdict for p in proofs] == [TurnVerdict.UNKNOWN] and not refined


def test_a_later_pass_goes_on_with_the_next_try(monkeypatch: pytest.MonkeyPatch, checks: list[dict[str, Any]]) -> None:
    """A try stopped by its limit is not made again when the question asks the turn a second time (after the hunt):
    the same seed and limit would stop at the same point."""
    monkeypatch.setattr(movement_prover, "TURN_RLIMITS", (1, 2))
    prover = movement_abstraction(TINY, 7)
    budget = Budget.of(BUDGET_S)
    assert [p.verdict for p in prover.decide(2, budget)] == [TurnVerdict.UNKNOWN]
    first = len(checks)
    assert [made["rlimit"] for made in checks] == [1, 2] and [made["random_seed"] for made in checks] == [0, 1]
    assert [p.verdict for p in prover.decide(2, budget)] == [TurnVerdict.UNKNOWN]
    assert len(checks) == first
