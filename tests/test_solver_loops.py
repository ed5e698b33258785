"""The shrink of looping plays (`abstraction/loops.py`): proved where it holds, refused where it does not.

Checked here:

* the looping classes are the draw cards that draw their own card and payers back (#5, #51, #52 on the
  shipped set);
* the shrink to `LOOP_BOUND` plays is proved for the shipped set, `tests/data/large.toml` (slow: 10-12 s
  each) and `tests/data/tiny.toml`, and not for `tests/data/tiny3.toml` (so the prover does not use it there);
  a bound of 0 is refused (a round with one play of #52 and no mid-play reshuffle has no cycle to take
  away), and on tiny.toml a bound of 1: the check can fail; a check Z3 leaves undecided is no proof;
* the bound asserted (`LoopBounds.at`) admits exactly the plays it names, on the looping classes only;
* every round the engine plays (simulated games, two agent pairings, two seeds each, and the searching agents'
  games) is admitted by the abstraction with the looping plays bounded in its round, as the shrink says it must be;
* slow: the box holds over rounds with mid-play reshuffles once the looping plays are bounded (checked in the four
  cases of `cpsat.round_cases`, as the prover asks it; the cases cover every round, and on tiny.toml the split box
  holds with the bound and is refused without it, also with each check split into parts);
* after the box without mid-play reshuffles, the prover checks only the two cases with one.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import z3
from tests.test_solver_abstraction_company import ADMISSIONS

from admission import company_rounds
from doubtspec.agents.base import Matchup
from doubtspec.model.cards import load_cards
from doubtspec.model.game import Game
from doubtspec.model.state import OutcomeReason
from doubtspec.solver.abstraction import cpsat
from doubtspec.solver.abstraction.company import STAR, CompanyAbstraction
from doubtspec.solver.abstraction.loops import LOOP_BOUND, LoopBounds, looping_classes, prove_loop_bounds
from doubtspec.solver.abstraction.system import RoundSystem, StepTemplate, proved_lemmas, template_of
from doubtspec.solver.verdict import Budget
from searching_games import ROUNDS, searching_games

DATA = Path(__file__).parent / "data"
FILES = {"shipped": None, "large": DATA / "large.toml", "tiny": DATA / "tiny.toml", "tiny3": DATA / "tiny3.toml"}


def _setup(name: str) -> tuple[CompanyAbstraction, RoundSystem, StepTemplate]:
    model = CompanyAbstraction.of(Game(load_cards(FILES[name])))
    system = model.system(STAR)
    proved, _ = proved_lemmas(system, model.lemmas(), Budget.of(120))
    system = system.with_lemmas(proved)
    return model, system, template_of(system)


def test_the_looping_classes_of_the_shipped_set() -> None:
    model = CompanyAbstraction.of(Game(load_cards()))
    assert sorted(n for k in looping_classes(model.layout) for n in k.numbers) == [5, 51, 52]


@pytest.mark.parametrize(("name", "holds"), [pytest.param("shipped", True, marks=pytest.mark.slow),
                                             pytest.param("large", True, marks=pytest.mark.slow),
                                             ("tiny", True), ("tiny3", False)])
def test_the_shrink_is_proved_where_it_holds(name: str, holds: bool) -> None:
    model, system, template = _setup(name)
    bounds = prove_loop_bounds(system, template, model.layout, Budget.of(120))
    assert (bounds is not None) is holds
    if bounds is not None:
        assert bounds.classes == tuple(k.name for k in looping_classes(model.layout))
        assert bounds.bound == LOOP_BOUND


@pytest.mark.parametrize("bound", [0, 1])
def test_a_bound_below_a_round_without_a_cycle_is_refused(bound: int) -> None:
    """Bounds the shrink does not have: 0 (a round with one play of a drawing class and no mid-play reshuffle has
    no cycle to take away), and on tiny.toml 1 (a round may play both copies of its zero-cost drawing class from
    the hand, with nothing drawn back)."""
    model, system, template = _setup("tiny")
    assert prove_loop_bounds(system, template, model.layout, Budget.of(60), bound=bound) is None


def test_an_undecided_check_is_no_proof(monkeypatch: pytest.MonkeyPatch) -> None:
    """A check Z3 leaves undecided (its time cap, `cap_s`) does not prove the shrink: the answer is None."""
    model, system, template = _setup("tiny")
    real = z3.SolverFor

    class Undecided:
        """Z3's solver, whose every check comes back undecided."""

        def __init__(self, logic: str) -> None:
            self.solver = real(logic)

        def __getattr__(self, name: str) -> object:
            return getattr(self.solver, name)

        def check(self, *assumptions: z3.BoolRef) -> z3.CheckSatResult:
            return z3.unknown

    assert prove_loop_bounds(system, template, model.layout, Budget.of(60)) is not None
    monkeypatch.setattr(z3, "SolverFor", Undecided)
    assert prove_loop_bounds(system, template, model.layout, Budget.of(60)) is None


def test_the_bound_asserted_admits_exactly_the_plays_it_names() -> None:
    """`LoopBounds.at` asserts at most `bound` plays of each looping class in the round it names, and nothing of
    any other class: a round with exactly `bound` plays is kept, one with one more is not."""
    bounds = LoopBounds(3, ("k1", "k2"))
    solver = z3.Solver()
    solver.add(*bounds.at("@4"))
    plays = {name: z3.Int(f"play_{name}@4") for name in ("k1", "k2", "k3")}
    assert solver.check(plays["k1"] == 3, plays["k2"] == 3, plays["k3"] == 100) == z3.sat
    assert solver.check(plays["k1"] == 4) == z3.unsat
    assert solver.check(plays["k2"] == 4) == z3.unsat
    assert solver.check(z3.Int("play_k1@5") == 100) == z3.sat


def _rounds_admitted_with_the_loops_bounded(name: str, seed: int, matchup: Matchup, rounds: int) -> int:
    """Asserts that every round of one simulated game is admitted with the looping plays bounded; returns how many."""
    admission = ADMISSIONS[name]
    bounds = LoopBounds(LOOP_BOUND, tuple(k.name for k in looping_classes(admission.model.layout)))
    checked = 0
    for before, after in company_rounds(admission.model.layout.game, seed, matchup, rounds):
        outcome = after.outcome
        if outcome is not None and outcome.reason not in (OutcomeReason.STAR_VICTORY, OutcomeReason.PROFIT_VICTORY):
            continue
        pre = admission.model.layout.project(before)
        post = admission.model.layout.project(after)
        fixed = admission._fix(admission.pre, pre)
        fixed += admission._fix(admission.post, post) if outcome is None else []
        fixed.append(admission.round == before.round)
        assert admission.solver.check(*fixed, *bounds.at("@step")) == z3.sat, (name, seed, str(matchup), before.round)
        checked += 1
    return checked


@pytest.mark.parametrize("matchup", [Matchup("random", "random"), Matchup("greedy", "careful")])
def test_engine_rounds_are_admitted_with_the_looping_plays_bounded(matchup: Matchup) -> None:
    assert sum(_rounds_admitted_with_the_loops_bounded("shipped", seed, matchup, 12) for seed in (1, 2)) > 0


@pytest.mark.parametrize(("name", "seed", "matchup"), searching_games(["shipped", "large", "tiny"]))
def test_rounds_of_a_searching_agents_game_are_admitted_with_the_looping_plays_bounded(name: str, seed: int,
                                                                                       matchup: Matchup) -> None:
    """On the files whose shrink is proved, the searching agents' games (`searching_games`)."""
    assert _rounds_admitted_with_the_loops_bounded(name, seed, matchup, ROUNDS) > 0


@pytest.mark.slow
@pytest.mark.parametrize("name", ["shipped", "large"])
def test_the_box_holds_over_mid_play_reshuffles_with_the_loops_bounded(name: str) -> None:
    model, system, template = _setup(name)
    bounds = prove_loop_bounds(system, template, model.layout, Budget.of(120))
    assert bounds is not None
    assert cpsat.prove_box(system, template, cpsat.Box(), Budget.of(300), None, extra=bounds.at("@step"),
                           cases=cpsat.round_cases(template))
    # Without the bound on the loops the box is refused (a looping class's plays are unbounded).
    assert not cpsat.prove_box(system, template, cpsat.Box(), Budget.of(300), None)


def test_the_round_cases_cover_every_round_and_the_split_box_can_fail() -> None:
    """The box's four cases (a Sequence or not, a mid-play reshuffle or not) cover every round, the split box holds
    on tiny.toml with the loops bounded, and it is refused without the bound, case by case as in one check."""
    model, system, template = _setup("tiny")
    cases = cpsat.round_cases(template)
    assert len(cases) == 4
    solver = z3.Solver()
    solver.add(z3.Not(z3.Or([z3.And(case) for case in cases])))
    assert solver.check() == z3.unsat
    bounds = prove_loop_bounds(system, template, model.layout, Budget.of(60))
    assert bounds is not None
    assert cpsat.prove_box(system, template, cpsat.Box(), Budget.of(60), None, extra=bounds.at("@step"), cases=cases)
    assert not cpsat.prove_box(system, template, cpsat.Box(), Budget.of(60), None, cases=cases)
    # Split once more, the ways out of the box in eight parts (as the prover asks it): the same answers.
    assert cpsat.prove_box(system, template, cpsat.Box(), Budget.of(60), None, extra=bounds.at("@step"), cases=cases,
                           chunks=8)
    assert not cpsat.prove_box(system, template, cpsat.Box(), Budget.of(60), None, cases=cases, chunks=8)


def test_after_the_box_the_loops_box_checks_only_the_cases_with_a_mid_play_reshuffle(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With the box proved for rounds without a mid-play reshuffle (`cpsat.prove_box` with it assumed false), the
    prover's box over every round (`ScheduleProver._loop_box_allowed`) checks only the two cases with one: each case
    left out asserts "no mid-play reshuffle", so its check is the proved box's step check with more formulas."""
    from doubtspec.solver.abstraction.company import PROFIT
    from doubtspec.solver.abstraction.company_schedules import ScheduleProver

    model = CompanyAbstraction.of(Game(load_cards(FILES["tiny"])))
    prover = ScheduleProver(model.system(PROFIT), PROFIT, model.lemmas(), layout=model.layout)
    assert prover._prepare(Budget.of(60)) and prover._template is not None
    mid = prover._mid_reshuffle()
    assert mid is not None
    assert cpsat.prove_box(prover.system, prover._template, cpsat.Box(), Budget.of(60), mid)
    prover._box = True
    asked: list[list[z3.BoolRef]] = []
    prove_box = cpsat.prove_box

    def recorded(*args: object, **kwargs: object) -> bool:
        cases = kwargs["cases"]
        assert isinstance(cases, list)
        asked.extend(cases)
        return prove_box(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(cpsat, "prove_box", recorded)
    assert isinstance(prover._loop_box_allowed(Budget.of(60)), LoopBounds)
    assert len(asked) == 2 and all(any(term.eq(mid) for term in case) for case in asked)
    left_out = [case for case in cpsat.round_cases(prover._template) if not any(term.eq(mid) for term in case)]
    assert len(left_out) == 2 and all(any(term.eq(z3.Not(mid)) for term in case) for case in left_out)
