"""The generic round system: incremental BMC, Spacer and k-induction agree on small counters."""

from __future__ import annotations

import z3

from doubtspec.solver.abstraction import (
    Budget,
    Fresh,
    Lemma,
    RoundBmc,
    RoundSystem,
    TurnVerdict,
    prove_lemma,
    spacer_check,
)
from doubtspec.solver.abstraction.system import State


def _init(s: State) -> z3.BoolRef:
    return z3.And(s["x"] == 0, s["y"] == 0)


def _step(a: State, b: State, fresh: Fresh, turn: z3.ArithRef) -> z3.BoolRef:
    n = fresh.int("n")
    return z3.And(n >= 0, n <= 2, b["x"] == a["x"] + n, b["y"] == a["y"] + z3.If(n == 2, 1, 0))


COUNTER = RoundSystem("counter", ("x", "y"), _init, _step, lambda s: s["x"] >= 7)


def test_bmc_finds_the_earliest_round_and_its_trace() -> None:
    bmc = RoundBmc(COUNTER)
    budget = Budget.of(20)
    verdicts = [bmc.check(k, budget) for k in range(1, 5)]
    assert verdicts == [TurnVerdict.IMPOSSIBLE] * 3 + [TurnVerdict.POSSIBLE]
    trace = bmc.trace()
    assert trace[0] == {"x": 0, "y": 0} and trace[4]["x"] >= 7


def test_spacer_proves_not_by_round_and_sees_the_reachable_case() -> None:
    budget = Budget.of(20)
    assert spacer_check(COUNTER, 3, budget).verdict is TurnVerdict.IMPOSSIBLE
    assert spacer_check(COUNTER, 4, budget).verdict is TurnVerdict.POSSIBLE
    unreachable = RoundSystem("odd", ("x", "y"), _init, _step, lambda s: 2 * s["y"] > s["x"])
    assert spacer_check(unreachable, None, budget).verdict is TurnVerdict.IMPOSSIBLE


def test_k_induction_proves_invariants_and_rejects_non_invariants() -> None:
    budget = Budget.of(20)
    assert prove_lemma(COUNTER, Lemma("two-y-le-x", lambda s: 2 * s["y"] <= s["x"]), budget) is TurnVerdict.IMPOSSIBLE
    assert prove_lemma(COUNTER, Lemma("y-le-1", lambda s: s["y"] <= 1), budget) is TurnVerdict.POSSIBLE


def test_a_spent_budget_gives_unknown_not_a_proof() -> None:
    spent = Budget(0.0)
    assert RoundBmc(COUNTER).check(3, spent) in (TurnVerdict.UNKNOWN, TurnVerdict.IMPOSSIBLE)
    assert spent.z3_ms() == 1
