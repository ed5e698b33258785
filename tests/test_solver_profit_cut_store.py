"""The Profit cut and the proof store (`proof_cache`): its CP-SAT maxima and the loops' box are kept as proofs and
taken by a later question instead of being asked again, and a round's cases on a short budget take the store alone.

* a maximum's bound is kept under a key with the bound among its parameters, found through its pointer only when
  its proof is stored too, and a changed formula gives another key;
* on the tiny file (its threshold raised so that round 1's maximum is a bound), a second prover takes round 1's
  bound, the measures, the loops' box and every case of round 2 from the store: CP-SAT's maximum and the box's
  check are never called, the facts say where they came from, and the bounds, the cases' values and the lemmas
  are the first prover's; a third takes the cases from the store alone, with the same values;
* the cases from the store alone with nothing stored ask nothing long (no maximum, no box), add nothing and leave
  the round to a later call; a budget under `CASES_MIN_S` never starts one of the cases' maxima;
* slow: the shipped set's turn 5, proved by a first cut, is proved by a second cut on a 100-second budget from the
  store alone.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest
import z3

from doubtspec.model.cards import load_cards
from doubtspec.model.game import Game
from doubtspec.solver.abstraction import cpsat, proof_cache
from doubtspec.solver.abstraction.company import PROFIT, CompanyAbstraction
from doubtspec.solver.abstraction.company_schedules import ScheduleProver
from doubtspec.solver.abstraction.profit_cut import (
    CASES_MIN_S,
    CASES_WORK,
    MAXIMUM_KIND,
    MEASURE_WORK,
    STORED,
    ProfitCut,
)
from doubtspec.solver.verdict import Budget, TurnVerdict

TINY = Game(load_cards(Path(__file__).parent / "data" / "tiny.toml"))
RAISED = 60
"""A threshold for the tiny file above its round-1 maximum (8, its own threshold), so that the maximum is a bound:
the cut's objective with another threshold, the same mechanics. Round 2's cases still reach it (the tiny file's
Profit Victory comes at turn 2, and the objective adds the threshold once the latch is set), so no bound follows
from them, here or from the store."""


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "proofs"
    monkeypatch.setenv(proof_cache.ENV, str(folder))
    return folder


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[dict[str, Any]]]:
    """Every call of CP-SAT's maximum and of the box's check from here on, with its keyword arguments (still made)."""
    calls: dict[str, list[dict[str, Any]]] = {"maximize": [], "prove_box": []}

    def spy(name: str, real: Callable[..., Any]) -> Callable[..., Any]:
        def counted(*args: Any, **kwargs: Any) -> Any:
            calls[name].append(kwargs)
            return real(*args, **kwargs)
        return counted

    monkeypatch.setattr(cpsat, "maximize", spy("maximize", cpsat.maximize))
    monkeypatch.setattr(cpsat, "prove_box", spy("prove_box", cpsat.prove_box))
    return calls


def _tiny_cut() -> tuple[ScheduleProver, ProfitCut]:
    model = CompanyAbstraction.of(TINY)
    prover = ScheduleProver(model.system(PROFIT), PROFIT, model.lemmas(), layout=model.layout)
    prover.profit_cut = ProfitCut(prover, RAISED)
    return prover, prover.profit_cut


def _to_round_2(prover: ScheduleProver, cut: ProfitCut, budget: Budget) -> None:
    """The cut's round 1 (its bound, 8, by CP-SAT) and round 2's Sequence and mid-play facts, as `run` makes them."""
    cut.run(2, budget)
    assert cut.at_most == {1: 8}
    prover._unroll(2)
    cut._round_facts(2, budget)


def test_a_maximums_bound_is_found_through_its_pointer_only_with_its_proof(store: Path) -> None:
    x, y = z3.Ints("x y")
    formulas = [x + y <= 5, x >= 0, y >= 0]
    problem = proof_cache.key("cpsat-maximum", [*formulas, x + 2 * y])
    assert proof_cache.known_at_most(problem) is None
    proof_cache.record_at_most(problem, 5, "a test")
    assert proof_cache.known_at_most(problem) == 5
    assert proof_cache.at_most_key(problem, 5) not in (proof_cache.at_most_key(problem, 4), problem)
    # a changed formula, objective or kind is another problem
    for other in (proof_cache.key("cpsat-maximum", [x + y <= 6, *formulas[1:], x + 2 * y]),
                  proof_cache.key("cpsat-maximum", [*formulas, x + y]),
                  proof_cache.key("another", [*formulas, x + 2 * y])):
        assert other != problem and proof_cache.known_at_most(other) is None
    hits = proof_cache.COUNTS.hits
    proof_cache.record_at_most(problem, 7, "a weaker bound: not kept")
    assert proof_cache.COUNTS.hits == hits  # recording looks at what is kept, and takes no proof
    assert proof_cache.known_at_most(problem) == 5 and proof_cache.COUNTS.hits == hits + 1
    proof_cache.record_at_most(problem, 3, "a stronger bound")
    assert proof_cache.known_at_most(problem) == 3
    # the pointer alone is not believed
    (store / proof_cache.at_most_key(problem, 3)[:2] / f"{proof_cache.at_most_key(problem, 3)}.json").unlink()
    assert proof_cache.known_at_most(problem) is None


def test_stored_maxima_and_the_loops_box_are_taken_and_not_asked_again(
        store: Path, asked: dict[str, list[dict[str, Any]]], monkeypatch: pytest.MonkeyPatch) -> None:
    """About 5 CPU-seconds."""
    prover, cut = _tiny_cut()
    _to_round_2(prover, cut, Budget.of(None))
    assert not cut._by_cases(2, Budget.of(None))
    values = dict(cut._case_maxima)
    assert len(values) >= 4 and asked["maximize"] and asked["prove_box"]
    for calls in asked.values():
        calls.clear()
    writes, hits = proof_cache.COUNTS.writes, proof_cache.COUNTS.hits

    looked_up: list[tuple[str, list[z3.ExprRef], tuple[object, ...]]] = []
    key_when_on = proof_cache.key_when_on

    def recorded(kind: str, formulas: Iterable[z3.ExprRef], *parameters: object) -> str:
        looked_up.append((kind, list(formulas), parameters))
        return key_when_on(kind, looked_up[-1][1], *parameters)

    monkeypatch.setattr(proof_cache, "key_when_on", recorded)
    again, later = _tiny_cut()
    _to_round_2(again, later, Budget.of(None))
    assert not later._by_cases(2, Budget.of(None))
    assert later._case_maxima == values and later.at_most == cut.at_most
    assert asked == {"maximize": [], "prove_box": []}
    assert proof_cache.COUNTS.writes == writes and proof_cache.COUNTS.hits > hits
    assert again.lemma_names() == prover.lemma_names()
    stored = [fact.text for fact in again.facts if STORED in fact.text]
    assert "potential at most 8 after round 1, no Profit Victory yet (CP-SAT, kept from an earlier question)" in stored
    assert len([text for text in stored if text.startswith("at most ") and "after round 1" in text]) == 4  # measures

    # the cases from the store alone: the same values, no check
    third, alone = _tiny_cut()
    _to_round_2(third, alone, Budget.of(60))
    checks = third.checks
    assert not alone._by_cases(2, Budget.of(60), stored_only=True)
    assert asked == {"maximize": [], "prove_box": []} and third.checks == checks
    taken = [step.text for step in alone.steps if step.text.startswith("largest potential after round 2")]
    assert len(taken) == 4 and all(text.endswith(f"({STORED})") for text in taken)
    assert {int(text.split("at most ")[1].split()[0]) for text in taken} <= set(values.values())

    # round 1's maximum as the second prover looked it up; with a formula changed it is another problem
    kind, formulas, parameters = next(asked for asked in looked_up if asked[0] == MAXIMUM_KIND)
    problem = proof_cache.key(kind, formulas, *parameters)
    assert proof_cache.known_at_most(problem) == 8
    same_solutions = [*formulas[:-2], formulas[-2] == formulas[-2], formulas[-1]]  # another text, the same runs
    for changed in (same_solutions, [*formulas[:-1], again.state(1)["profit"] <= 7, formulas[-1]], formulas[1:]):
        other = proof_cache.key(kind, changed, *parameters)
        assert other != problem and proof_cache.known_at_most(other) is None


def test_the_cases_from_the_store_alone_ask_nothing_when_nothing_is_stored(
        store: Path, asked: dict[str, list[dict[str, Any]]]) -> None:
    prover, cut = _tiny_cut()
    _to_round_2(prover, cut, Budget.of(60))
    for calls in asked.values():
        calls.clear()
    checks = prover.checks
    assert not cut._by_cases(2, Budget.of(60), stored_only=True)
    assert asked == {"maximize": [], "prove_box": []} and prover.checks == checks
    assert 2 not in cut.at_most and not any(fact.round == 2 and "by cases" in fact.text for fact in prover.facts)
    assert 2 not in cut._cases_asked and prover._loop_box is None  # a later call with the time may ask them
    # the round's bound on a budget under CASES_MIN_S: round 2's own maximum may be asked, no case's or measure's
    assert Budget.of(60).left() < CASES_MIN_S
    cut._prove_bound(2, Budget.of(60), cpsat=True)
    assert not [call for call in asked["maximize"] if call.get("work_limit") in (CASES_WORK, MEASURE_WORK)]
    assert 2 not in cut._cases_asked


def test_with_the_store_off_the_cases_from_the_store_alone_are_not_even_looked_up(
        asked: dict[str, list[dict[str, Any]]]) -> None:
    prover, cut = _tiny_cut()
    _to_round_2(prover, cut, Budget.of(60))
    hits = proof_cache.COUNTS.hits
    assert not cut._by_cases(2, Budget.of(60), stored_only=True)
    assert proof_cache.COUNTS.hits == hits and not cut._looked_up


def _turn_5_from_the_store(store: str) -> None:
    """The body of `test_the_shipped_sets_turn_5_is_proved_from_the_store_on_a_short_budget`, in a process of its
    own (as the command asks its questions)."""
    os.environ[proof_cache.ENV] = store
    game = Game(load_cards(None))
    threshold = game.cards.rules.profit_to_win

    def prover() -> ScheduleProver:
        model = CompanyAbstraction.of(game)
        return ScheduleProver(model.system(PROFIT), PROFIT, model.lemmas(), model.layout.cube_terms,
                              layout=model.layout, removals=model.messaging)

    first = prover()
    assert first.cut_profit(5, threshold, Budget.of(None)) == 5
    second = prover()
    maximize = cpsat.maximize
    cases: list[float | None] = []

    def counted(*args: Any, **kwargs: Any) -> cpsat.Maximum:
        cases.append(kwargs.get("work_limit"))
        return maximize(*args, **kwargs)

    cpsat.maximize = counted
    assert second.cut_profit(5, threshold, Budget.of(100)) == 5
    cpsat.maximize = maximize
    assert not cases
    cut = second.profit_cut
    assert cut is not None and first.profit_cut is not None and cut.at_most == first.profit_cut.at_most
    assert any(fact.round == 4 and "by cases, kept from an earlier question" in fact.text for fact in second.facts)
    assert "looping-plays-shrink" in second.lemma_names()
    proof = second.profit_cut_proof()
    assert proof is not None and proof.turn == 5 and proof.verdict is TurnVerdict.IMPOSSIBLE
    os.environ[proof_cache.ENV] = proof_cache.OFF
    assert prover().cut_profit(5, threshold, Budget.of(100)) == 4


@pytest.mark.slow
def test_the_shipped_sets_turn_5_is_proved_from_the_store_on_a_short_budget(store: Path) -> None:
    """About 4-6 CPU-minutes: the first cut proves turn 5 by round 4's cases (several CPU-minutes) and stores its
    maxima; a second cut on a 100-second budget (under `CASES_MIN_S`) takes every one from the store, asks CP-SAT
    no maximum at all, and proves turn 5 with the same bounds; with the store off it stops at turn 4."""
    child = multiprocessing.get_context("spawn").Process(target=_turn_5_from_the_store, args=(str(store),))
    child.start()
    child.join()
    assert child.exitcode == 0, "the two cuts in a fresh process failed (its traceback is above)"
