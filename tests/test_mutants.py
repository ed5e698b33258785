"""The checks can fail: each deliberately broken engine is caught within the ci profile's budget.

Every mutant in `doubtspec.invariants.mutants` is fuzzed in-process with the `ci` profile (the same
entry point as `doubtspec fuzz --profile ci`). The run must report one of the invariants the
mutant names, with a shrunk trace of bounded length that replays to the same failure while the
mutant is active and no longer fails once it is gone.

Breakages that would only show after a Goal is achieved, against a deep Doubt column or late in a
game are checked on every turn by counterfactual invariants (`ban.offers`, `doubt.messaging-offers`,
`outcome.profit-offers`), so every mutant is caught within the ci budget.
"""

from __future__ import annotations

import pytest

from doubtspec.errors import TraceError
from doubtspec.invariants.fuzzing import FuzzOptions
from doubtspec.invariants.mutants import MUTANTS, Mutant
from doubtspec.invariants.profiles import PROFILES
from doubtspec.invariants.ruling_sweep import run_sweep
from doubtspec.model.game import Game
from doubtspec.reports.replay import replay
from doubtspec.reports.report import RunInfo, trace_of

FAST = (
    "token-from-nothing", "card-duplicated", "scoring-slip", "hand-limit-off-by-one", "doubt-top-down", "ban-ignored",
    "profit-victory-ignored",
)
MAX_TRACE = {
    "token-from-nothing": 45,
    "card-duplicated": 45,
    "scoring-slip": 70,
    "hand-limit-off-by-one": 100,
    "doubt-top-down": 60,
    "ban-ignored": 40,
    "profit-victory-ignored": 60,
}
"""The longest shrunk trace accepted per mutant, Set-Up's 29 chance steps included."""
RUN_SEED = {
    "banned-stayer-triggers": 1,
}
"""Mutants fuzzed with another run seed than the ci profile's 0: twins of realistic bugs that passed at that seed
(`fuzz/mutation/realistic.py --seed`) and that the ci seed's games happen to catch without the check they stand
for."""


def _params() -> list[object]:
    return [pytest.param(name, marks=() if name in FAST else pytest.mark.slow) for name in sorted(MUTANTS)]


def _catch(mutant: Mutant, game: Game) -> None:
    with mutant.active():
        result = run_sweep(FuzzOptions(game, profile=PROFILES["ci"], database=None,  # as `doubtspec fuzz`
                                       seed=RUN_SEED.get(mutant.name))).total
    found = {v.invariant.id: v for v in result.violations}
    caught = [found[i] for i in mutant.caught_by if i in found]
    assert caught, f"{mutant.name} was not caught; found {sorted(found)}"
    violation = min(caught, key=lambda v: len(v.actions))  # a run may also name an unshrunk finding
    limit = MAX_TRACE.get(mutant.name, 320)
    assert len(violation.actions) <= limit, (mutant.name, len(violation.actions))

    trace = trace_of(violation, RunInfo("ci", result.seed, None))
    with mutant.active():
        again = replay(trace, (violation.invariant,), probe=None if violation.probe is None else str(violation.probe))
    assert again.violation is not None and again.violation.invariant.id == violation.invariant.id
    assert again.violation.step == violation.step
    try:
        fixed = replay(trace, (violation.invariant,))
    except TraceError:
        return  # the repaired engine no longer accepts the failing step: also a clean result
    assert fixed.violation is None


@pytest.mark.parametrize("name", _params())
def test_mutant_is_caught(name: str, game: Game) -> None:
    _catch(MUTANTS[name], game)


def test_mutants_restore_the_engine(game: Game) -> None:
    from doubtspec.model import company, movement

    before = (company.score_and_seed, movement.pass_turn, company.is_banned, company.buy)
    for mutant in MUTANTS.values():
        with mutant.active():
            pass
    assert (company.score_and_seed, movement.pass_turn, company.is_banned, company.buy) == before
