"""CP-SAT decides the abstraction's formulas as Z3 does, and only inside a box proved to hold every run.

Checked here:

* on small generated formulas of the fragment the abstraction uses (sums, products with constants, `If`,
  integer division by a constant, comparisons, Boolean connectives) CP-SAT's answer is Z3's, and a model
  CP-SAT finds satisfies the formulas in Z3 (so a wrong translation can fail these tests);
* the box lemma (`cpsat.prove_box`) is proved for the shipped set and the tiny card file, and refuted for
  a box too small for Set-Up;
* on the shipped set a run of rounds 0-3 found by CP-SAT is a run for Z3; slow: CP-SAT proves the round-3
  star fact that decides turn 5 of the stars question.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import z3
from hypothesis import given, settings
from hypothesis import strategies as st

from doubtspec.model.cards import load_cards
from doubtspec.model.game import Game
from doubtspec.solver.abstraction import cpsat
from doubtspec.solver.abstraction.company import STAR, CompanyAbstraction
from doubtspec.solver.abstraction.company_schedules import ScheduleProver
from doubtspec.solver.abstraction.system import template_of
from doubtspec.solver.verdict import Budget

X, Y, Z = z3.Ints("x y z")
B = z3.Bool("b")
DOMAIN = 30


def _terms() -> st.SearchStrategy[z3.ArithRef]:
    leaves = st.sampled_from([X, Y, Z, z3.IntVal(0), z3.IntVal(2), z3.IntVal(-3)])

    def grow(inner: st.SearchStrategy[z3.ArithRef]) -> st.SearchStrategy[z3.ArithRef]:
        return st.one_of(
            st.tuples(inner, inner).map(lambda t: t[0] + t[1]),
            st.tuples(inner, inner).map(lambda t: t[0] - t[1]),
            st.tuples(st.integers(-3, 3), inner).map(lambda t: t[0] * t[1]),
            st.tuples(inner, st.integers(1, 4)).map(lambda t: t[0] / t[1]),
            st.tuples(_atoms(leaves), inner, inner).map(lambda t: z3.If(t[0], t[1], t[2])),
        )
    return st.recursive(leaves, grow, max_leaves=6)


def _atoms(terms: st.SearchStrategy[z3.ArithRef]) -> st.SearchStrategy[z3.BoolRef]:
    return st.one_of(
        st.just(B),
        st.tuples(terms, terms).map(lambda t: t[0] <= t[1]),
        st.tuples(terms, terms).map(lambda t: t[0] < t[1]),
        st.tuples(terms, terms).map(lambda t: t[0] == t[1]),
        st.tuples(terms, terms).map(lambda t: t[0] != t[1]),
    )


def _formulas() -> st.SearchStrategy[z3.BoolRef]:
    def grow(inner: st.SearchStrategy[z3.BoolRef]) -> st.SearchStrategy[z3.BoolRef]:
        return st.one_of(
            inner.map(z3.Not),
            st.tuples(inner, inner).map(lambda t: z3.And(*t)),
            st.tuples(inner, inner).map(lambda t: z3.Or(*t)),
            st.tuples(inner, inner).map(lambda t: z3.Implies(*t)),
            st.tuples(inner, inner).map(lambda t: t[0] == t[1]),
        )
    return st.recursive(_atoms(_terms()), grow, max_leaves=5)


@settings(max_examples=150, deadline=None)
@given(st.lists(_formulas(), min_size=1, max_size=3))
def test_cpsat_answers_as_z3_does(formulas: list[z3.BoolRef]) -> None:
    bounded = [*formulas, *[z3.And(v >= -DOMAIN, v <= DOMAIN) for v in (X, Y, Z)]]
    expected = z3.Solver()
    expected.add(*bounded)
    result = cpsat.decide(bounded, lambda _: (-DOMAIN, DOMAIN), Budget.of(30), 10.0)
    assert result.answer == expected.check()


DATA = Path(__file__).parent / "data"
GAME = Game(load_cards())
MODEL = CompanyAbstraction.of(GAME)


def _prover(game: Game) -> ScheduleProver:
    model = CompanyAbstraction.of(game)
    prover = ScheduleProver(model.system(STAR), STAR, model.lemmas())
    prover.decide(2, Budget.of(120))
    return prover


def test_the_translations_walk_sees_each_term_as_z3_does() -> None:
    """`cpsat._children` and `cpsat._kind` (the translation's cheaper reads of a term) give what `ExprRef.children`
    and `decl().kind()` give, for every application in a round of the shipped set's abstraction."""
    template = template_of(MODEL.system(STAR))
    seen: set[int] = set()
    todo: list[z3.ExprRef] = [template.formula]
    while todo:
        e = todo.pop()
        if e.get_id() in seen or not z3.is_app(e):
            continue
        seen.add(e.get_id())
        children = cpsat._children(e)
        assert cpsat._kind(e) == e.decl().kind()
        assert [c.get_id() for c in children] == [c.get_id() for c in e.children()]
        assert [type(c) for c in children] == [type(c) for c in e.children()]
        todo += children
    assert len(seen) > 1000


@pytest.mark.parametrize("which", ["shipped", "tiny3.toml", "large.toml"])
def test_the_box_is_proved_for_the_card_files(which: str) -> None:
    game = GAME if which == "shipped" else Game(load_cards(DATA / which))
    prover = _prover(game)
    assert prover._template is not None
    system = prover.system
    assert cpsat.prove_box(system, prover._template, cpsat.Box(), Budget.of(60), prover._mid_reshuffle())
    # A box that cannot hold Set-Up's cards (a class counted up to 0) is refuted: the check can fail.
    assert not cpsat.prove_box(system, template_of(system), cpsat.Box(counts=0), Budget.of(60),
                               prover._mid_reshuffle())


def test_a_run_found_by_cpsat_is_a_run_for_z3() -> None:
    prover = _prover(GAME)
    box, variables = cpsat.Box(), frozenset(prover.system.variables)
    result = cpsat.decide(prover.formulas(2), lambda name: box.domain(name, variables), Budget.of(60), 30.0)
    assert result.answer == z3.sat  # decide confirms the model in Z3 before it says SAT
    assert result.values["stars@2"] == 0


@pytest.mark.slow
def test_cpsat_proves_no_star_in_round_3_of_the_shipped_set() -> None:
    prover = ScheduleProver(MODEL.system(STAR), STAR, MODEL.lemmas())
    proofs = prover.decide(5, Budget.of(600))
    assert [p.verdict.name for p in proofs] == ["IMPOSSIBLE"] * 5
    assert any(f.text.startswith("at most 0 stars after round 3 (CP-SAT") for f in prover.facts)
    assert "unknowns-bounded" in proofs[-1].lemmas


def test_a_bound_cpsat_leaves_open_gets_a_second_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    """CP-SAT's time varies with its seed far more than with its slice: an unknown first try is retried once with
    a new seed (and a fact it proves says so); a second unknown leaves the bound open, and a model ends at once."""
    prover = _prover(Game(load_cards(DATA / "tiny3.toml")))
    answers = iter([z3.unknown, z3.unsat])
    seeds: list[int] = []

    def decide(formulas: list[z3.BoolRef], domain: object, budget: Budget, cap_s: float,
               seed: int = 0, work_limit: float | None = None, linearization: int = 2) -> cpsat.Result:
        seeds.append(seed)
        return cpsat.Result(next(answers), cap_s / 10, {})

    monkeypatch.setattr(cpsat, "decide", decide)
    bound = prover.state(1)["stars"] <= 0
    assert prover._prove_by_cpsat(1, bound, "at most 0 stars after round 1", Budget.of(120)) == z3.unsat
    assert len(seeds) == 2 and seeds[0] != seeds[1]
    text = prover.facts[-1].text
    assert text.startswith("at most 0 stars after round 1 (CP-SAT") and "seed try 2" in text
    assert prover.used_box
    answers = iter([z3.unknown, z3.unknown])
    assert prover._prove_by_cpsat(1, bound, "again", Budget.of(120)) == z3.unknown
    answers = iter([z3.sat])
    seeds.clear()
    assert prover._prove_by_cpsat(1, bound, "again", Budget.of(120)) == z3.sat and len(seeds) == 1


def test_a_bound_a_run_breaks_is_not_asked_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """A star bound CP-SAT refutes (a run breaks it) leaves the open bounds and is never handed to CP-SAT again, while
    an undecided one stays open for the next pass."""
    prover = _prover(Game(load_cards(DATA / "tiny3.toml")))
    answers = iter([z3.unknown, z3.unknown])
    asked: list[int] = []

    def decide(formulas: list[z3.BoolRef], domain: object, budget: Budget, cap_s: float,
               seed: int = 0, work_limit: float | None = None, linearization: int = 2) -> cpsat.Result:
        asked.append(seed)
        return cpsat.Result(next(answers), cap_s / 10, {})

    monkeypatch.setattr(cpsat, "decide", decide)
    prover._stars_at_most.pop(1, None)
    prover._bound_fact(1, Budget.of(120), retry=True)
    assert 1 in prover._bound_open and len(asked) == 2
    answers = iter([z3.sat])
    asked.clear()
    prover._bound_fact(1, Budget.of(120), retry=True)
    assert 1 not in prover._bound_open and (1, 0) in prover._refuted and len(asked) == 1
    assert prover._stars_at_most[1] == 1
    prover._cpsat_asked.clear()
    asked.clear()
    assert not prover._cpsat_open_bounds(2, Budget.of(120)) and asked == []
