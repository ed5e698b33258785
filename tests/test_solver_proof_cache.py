"""The proof store (`proof_cache`): keys follow the exact problem, writes are atomic, and the star cut's stored
answers are the ones it would prove again.

* a key changes with any formula, parameter or kind, and is the same for the same problem built twice;
* a stored UNSAT is read back; the store off (`DOUBTSPEC_PROOF_CACHE=off`, as in the rest of the suite) keeps and
  finds nothing; an interrupted write leaves no readable entry, and a damaged file is not believed;
* the box and the Messaging caps of the large file are proved once and then found (the second time with no check),
  and caps are taken from the store only when they were proved.
"""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path

import pytest
import z3

from doubtspec.model.cards import load_cards
from doubtspec.model.game import Game
from doubtspec.solver.abstraction import cpsat, messaging_caps, proof_cache
from doubtspec.solver.abstraction.company import STAR, CompanyAbstraction
from doubtspec.solver.abstraction.company_schedules import ScheduleProver
from doubtspec.solver.verdict import Budget, TurnVerdict

LARGE = Path(__file__).parent / "data" / "large.toml"


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "proofs"
    monkeypatch.setenv(proof_cache.ENV, str(folder))
    return folder


def _formulas(bound: int) -> list[z3.BoolRef]:
    x, y = z3.Ints("x y")
    return [x + y <= bound, x >= 0, y >= 0]


def test_a_key_is_the_problem_and_nothing_else() -> None:
    assert proof_cache.key("k", _formulas(3), 1) == proof_cache.key("k", _formulas(3), 1)
    others = {proof_cache.key("k", _formulas(4), 1), proof_cache.key("k", _formulas(3), 2),
              proof_cache.key("j", _formulas(3), 1), proof_cache.key("k", _formulas(3)[:2], 1)}
    assert proof_cache.key("k", _formulas(3), 1) not in others and len(others) == 4


def test_stored_answers_are_found_and_the_store_can_be_switched_off(store: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    problem = proof_cache.key("k", _formulas(3))
    assert not proof_cache.known_unsat(problem)
    proof_cache.record_unsat(problem, "a test")
    assert proof_cache.known_unsat(problem)
    assert [path.name for path in store.rglob("*.json")] == [f"{problem}.json"]
    assert not [path for path in store.rglob("*") if path.name.startswith(".")]  # no temporary left
    monkeypatch.setenv(proof_cache.ENV, proof_cache.OFF)
    assert proof_cache.directory() is None and not proof_cache.known_unsat(problem)
    proof_cache.record_unsat(proof_cache.key("k", _formulas(5)), "not kept")
    assert len(list(store.rglob("*.json"))) == 1


def test_a_key_is_made_only_when_the_store_is_on(store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`key_when_on` is `key` with the store on, and "" with it off (no formula printed); "" is never looked up or
    kept, even if the store is switched on in between."""
    assert proof_cache.key_when_on("k", _formulas(3), 1) == proof_cache.key("k", _formulas(3), 1)
    monkeypatch.setenv(proof_cache.ENV, proof_cache.OFF)
    assert proof_cache.key_when_on("k", _formulas(3), 1) == ""
    monkeypatch.setenv(proof_cache.ENV, str(store))
    proof_cache.record_unsat("", "made while off")
    assert not proof_cache.known_unsat("") and not list(store.rglob("*"))


def test_the_default_folder_is_the_users_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(proof_cache.ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert proof_cache.directory() == tmp_path / "doubtspec" / "proofs"


def test_an_interrupted_write_leaves_nothing_to_believe(store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    problem = proof_cache.key("k", _formulas(3))

    def interrupted(source: str, target: str) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        proof_cache.record_unsat(problem, "cut short")
    monkeypatch.undo()
    monkeypatch.setenv(proof_cache.ENV, str(store))
    assert not proof_cache.known_unsat(problem)
    assert not list(store.rglob("*.json"))
    # a damaged or foreign file under the key is not believed either
    path = store / problem[:2] / f"{problem}.json"
    for text in ("{\"format\": 1, \"answer\": \"uns", "{\"format\": 0, \"answer\": \"unsat\"}", "[]"):
        path.write_text(text, encoding="utf-8")
        assert not proof_cache.known_unsat(problem)


def test_the_large_files_box_and_caps_are_proved_once_then_found(store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two provers of the same card file (two questions): the first proves the box and the Messaging cap of turn 3
    and stores them, the second finds both with no check; caps asked from the store alone before anything is
    stored are none."""
    monkeypatch.setattr(messaging_caps, "CAP_WALL_S", 600.0)  # the cap's check is bounded by its rlimit alone here
    game = Game(load_cards(LARGE))
    provers = []
    for _ in range(2):
        model = CompanyAbstraction.of(game)
        prover = ScheduleProver(model.system(STAR), STAR, model.lemmas(), layout=model.layout,
                                removals=model.messaging)
        assert prover._prepare(Budget.of(600))
        assert not prover.rejected
        provers.append(prover)
    bounds = provers[0].removals
    assert bounds is not None
    assert messaging_caps.prove_caps(game, bounds, 3, Budget.of(60), stored_only=True) == {}
    writes = proof_cache.COUNTS.writes
    assert provers[0]._prove_box(cpsat.Box(), Budget.of(300), cap_s=240)
    assert messaging_caps.prove_caps(game, bounds, 3, Budget.of(300)) == {3: 3}
    assert proof_cache.COUNTS.writes == writes + 2
    hits = proof_cache.COUNTS.hits
    assert provers[1]._prove_box(cpsat.Box(), Budget.of(60))
    assert provers[1]._cap_removals(3, Budget.of(60), stored_only=True)
    assert proof_cache.COUNTS.hits == hits + 2 and proof_cache.COUNTS.writes == writes + 2
    assert "movement-messaging-caps" in provers[1].lemma_names()


def _second_question_from_the_store(store: str) -> None:
    """The body of `test_a_second_question_takes_the_round_3_bound_from_the_store`, run in a process of its own."""
    os.environ[proof_cache.ENV] = store
    game = Game(load_cards(None))
    stars_to_win = game.cards.rules.stars_to_win

    def prover() -> ScheduleProver:
        model = CompanyAbstraction.of(game)
        return ScheduleProver(model.system(STAR), STAR, model.lemmas(), layout=model.layout, removals=model.messaging)

    first = prover()
    assert first.cut_stars(5, stars_to_win, Budget.of(600)) == 5
    second = prover()
    assert second.cut_stars(5, stars_to_win, Budget.of(600), cpsat=False) == 5
    assert any(fact.text == "at most 0 stars after round 3 (CP-SAT, kept from an earlier question)"
               for fact in second.facts)
    assert "unknowns-bounded" in second.lemma_names()
    assert second.prove_from_cut(5, Budget.of(60)).verdict is TurnVerdict.IMPOSSIBLE
    os.environ[proof_cache.ENV] = proof_cache.OFF
    assert prover().cut_stars(5, stars_to_win, Budget.of(600), cpsat=False) == 4


@pytest.mark.slow
def test_a_second_question_takes_the_round_3_bound_from_the_store(store: Path) -> None:
    """Shipped set: the first question's star cut proves "at most 0 stars after round 3" with CP-SAT and stores it;
    a second question's cut without CP-SAT (a 60-second question's first pass) finds the same ask in the store,
    with no CP-SAT run, and turn 5 follows from it. With the store off the second cut stops at turn 4.

    In a fresh process, as the command asks its questions: Z3's answers within a resource limit depend on the terms
    its context already holds, and a test module that builds an abstraction when it is imported (as
    `test_solver_cpsat.py` does) left round 3's "no mid-play reshuffle" undecided at `FACT_RLIMIT` here."""
    child = multiprocessing.get_context("spawn").Process(target=_second_question_from_the_store, args=(str(store),))
    child.start()
    child.join()
    assert child.exitcode == 0, "the two questions in a fresh process failed (its traceback is above)"


def test_an_answer_says_what_it_took_from_the_store(store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # An answer that rests on a proof an earlier question made says so, in its text and in --json: the answers
    # this question found in the store (and those it kept) are counted while it runs, and only those.
    from doubtspec.solver import queries

    proof_cache.COUNTS.hits += 5  # an earlier question's, in the same process: not this answer's
    game = Game(load_cards(Path(__file__).parent / "data" / "tiny.toml"))

    def prover_from_the_store(game: Game, query: queries.Query) -> None:
        problem = proof_cache.key("demo", _formulas(1))
        proof_cache.record_unsat(problem, "a demo")  # kept, then found twice (with the store on)
        proof_cache.known_unsat(problem)
        proof_cache.known_unsat(problem)
        return None

    monkeypatch.setattr(queries, "abstraction_for", prover_from_the_store)
    answer = queries.solve_query(game, queries.Query(queries.QueryKind.STARS, 1), timeout_s=5, use_hunt=False,
                                 use_unrolling=False)
    assert answer.proof_store == queries.ProofStoreUse(str(store), taken=2, kept=1)
    assert answer.to_json()["proof_store"] == {"directory": str(store), "taken": 2, "kept": 1}
    line = answer.proof_store.line()
    assert line is not None and "2 proofs taken from earlier questions" in line and "1 kept" in line
    monkeypatch.setenv(proof_cache.ENV, "off")
    answer = queries.solve_query(game, queries.Query(queries.QueryKind.STARS, 1), timeout_s=5, use_hunt=False,
                                 use_unrolling=False)
    assert answer.proof_store == queries.ProofStoreUse(None) and answer.proof_store.line() is None
