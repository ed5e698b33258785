"""The solver and the exhaustive search agree, under the same caps, on small bounds.

The exhaustive search explores the engine's own legal actions and chance outcomes (one pass finds
the earliest round of every outcome); the solver answers each query by its incremental unrolling.
On tests/data/tiny3.toml the Company's victories are impossible at turn 1 and possible at turn 2,
so the suite covers answers that flip between N and N+1 (the turn-2 half is slow: opt in with -m slow).
With the Movement free, tests/data/tiny_movement.toml plays the same part for the Movement's Goals and its
Goal Victory (solver with movement_free=True, exhaustive search with passive=False).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from doubtspec.model.cards import load_cards
from doubtspec.model.engine import apply, new_game, play
from doubtspec.model.game import Game
from doubtspec.model.state import GameState, OutcomeReason
from doubtspec.solver import exhaustive
from doubtspec.solver.methods import ExhaustiveMethod
from doubtspec.solver.queries import TARGETS, Opponent, Query, QueryKind, abstraction_for, solve, state_target
from doubtspec.solver.unrolling import bmc
from doubtspec.solver.unrolling.bmc import Caps
from doubtspec.solver.unrolling.encoding import Out, SymState, Tables
from doubtspec.solver.unrolling.witness import replay
from doubtspec.solver.verdict import Budget, TurnVerdict

DATA = Path(__file__).parent / "data"
TINY = Game(load_cards(DATA / "tiny3.toml"))
CAPS = Caps(plays=3, buys=2)
KINDS = (QueryKind.STARS, QueryKind.PROFIT, QueryKind.DEFEAT)


def _abstraction_agrees(game: Game, kind: QueryKind, bound: int, expected: int | None) -> None:
    """The abstraction never proves impossible what the search found, and settles the tiny file exactly.

    The search is capped, the abstraction is not: where the search finds nothing the abstraction may
    still see a possibility, but on tiny3 it is precise enough to agree at every bound both reach.
    """
    prover = abstraction_for(game, Query(kind, bound))
    if prover is None:
        return
    proofs = {p.turn: p.verdict for p in prover.decide(bound, Budget.of(120))}
    for turn, verdict in proofs.items():
        if expected is not None and expected <= turn:
            assert verdict is not TurnVerdict.IMPOSSIBLE, f"{kind.value}: abstraction proves turn {turn} impossible"
        else:
            assert verdict is TurnVerdict.IMPOSSIBLE, f"{kind.value}: turn {turn} not proved impossible"
    assert max(proofs) == (bound if expected is None else expected)


def _agree(game: Game, bound: int) -> None:
    results, complete = exhaustive.earliest_outcomes(game, bound, CAPS)
    assert complete
    for kind in KINDS:
        _, reasons = TARGETS[kind]
        rounds = [results[r.value].found for r in reasons if r.value in results]
        expected = min((r for r in rounds if r is not None), default=None)
        answer = solve(game, kind, bound, Opponent.PASSIVE, caps=CAPS, check_caps=False, use_hunt=False)
        assert answer.earliest == expected, f"{kind.value} by turn {bound}: solver {answer.earliest}, " \
                                            f"exhaustive {expected}"
        _abstraction_agrees(game, kind, bound, expected)
        for reason in reasons:
            found = results.get(reason.value)
            if found is not None and found.actions is not None:
                state = new_game(game)
                for action in found.actions:
                    state = apply(state, action)
                assert state.outcome is not None and state.outcome.reason is reason


def test_agreement_at_turn_one() -> None:
    _agree(TINY, 1)


def test_every_method_answers_through_one_interface() -> None:
    """The exhaustive search and the abstraction, asked the same per-turn question, agree on tiny3 at turn 1."""
    won = state_target(Query(QueryKind.STARS, 1))
    search = ExhaustiveMethod(TINY, won, CAPS, passive=True)
    prover = abstraction_for(TINY, Query(QueryKind.STARS, 1))
    assert prover is not None
    searched = search.decide(1, Budget.of(120))
    proved = prover.decide(1, Budget.of(120))
    for proofs in (searched, proved):
        assert [(p.turn, p.verdict) for p in proofs] == [(1, TurnVerdict.IMPOSSIBLE)]
    assert searched[0].assumption is not None  # the search is capped
    assert proved[0].assumption is None  # the abstraction is not


def test_the_abstraction_flips_where_the_game_does() -> None:
    """tiny3: both victories impossible at turn 1 (proved) and possible at turn 2 (the search's witness, slow test)."""
    for kind in (QueryKind.STARS, QueryKind.PROFIT):
        _abstraction_agrees(TINY, kind, 2, 2)


@pytest.mark.slow
def test_agreement_at_turn_two() -> None:
    _agree(TINY, 2)


@pytest.mark.slow
def test_agreement_under_other_rulings_at_turn_two() -> None:
    from doubtspec.model.rulings import Rulings

    _agree(Game(TINY.cards, Rulings.parse(["draw-order=reshuffle-first", "trash-buy=any"])), 2)


# --- the Movement free (solver movement_free=True, exhaustive passive=False) -------------------------

MOVEMENT = Game(load_cards(DATA / "tiny_movement.toml"))
"""Goals G1-G6 are alike and can be achieved at turn 1; G7-G9 are alike, lie in the upper stack and can be
achieved at turn 2, not earlier; Goal Victory (two Goals of 5 points) likewise flips between turns 1 and 2."""
MOVEMENT_CAPS = Caps(plays=1, buys=1)


def _solver_earliest(unrolling: bmc.Unrolling, ends: list[SymState], goal: bmc.Goal, label: str,
                     accepted: Callable[[GameState], bool]) -> int | None:
    """The first bound whose end state meets `goal`; its model must replay and meet the target in the engine."""
    for r, end in enumerate(ends, start=1):
        status = unrolling.check(goal(end), f"{label}@{r}")
        assert status in ("sat", "unsat"), status
        if status == "sat":
            witness = replay(unrolling.tables, unrolling.steps, unrolling.solver.model())
            assert accepted(witness.final), f"{label}: the witness ends in {witness.final.summary()}"
            return r
    return None


def _agree_movement(bound: int, goals: tuple[int, ...]) -> None:
    unrolling = bmc.Unrolling(MOVEMENT, MOVEMENT_CAPS, movement_free=True)
    ends = [unrolling.add_round() for _ in range(bound)]
    # Goals with the same data on the same side of the Set-Up split are interchangeable (the exhaustive
    # search's keys rest on it), so each Goal's solver answer is compared with its class's exhaustive one.
    for g in goals:
        found = exhaustive.search_state(MOVEMENT, lambda s, g=g: g in s.achieved, bound, MOVEMENT_CAPS,
                                        passive=False, distinct_goals=(g,))
        assert found.complete
        if found.actions is not None:
            state = new_game(MOVEMENT)
            for action in found.actions:
                state = play(state, action)
            assert g in state.achieved
        alike = [h for h in range(1, 10) if (h <= 6) == (g <= 6)]
        for h in alike if g in (1, 7) else (g,):
            earliest = _solver_earliest(unrolling, ends, bmc.goal_achieved(h), f"G{h}",
                                        lambda s, h=h: h in s.achieved)
            assert earliest == found.found, f"G{h} by turn {bound}: solver {earliest}, exhaustive {found.found}"
    victory = exhaustive.search(MOVEMENT, exhaustive.outcome_is(OutcomeReason.GOAL_VICTORY), bound, MOVEMENT_CAPS,
                                passive=False)
    assert victory.complete
    earliest = _solver_earliest(unrolling, ends, bmc.out_is(Out.GOAL), "victory",
                                lambda s: s.outcome is not None and s.outcome.reason is OutcomeReason.GOAL_VICTORY)
    assert earliest == victory.found, f"Goal Victory by turn {bound}: solver {earliest}, exhaustive {victory.found}"
    points = _solver_earliest(unrolling, ends, bmc.points_at_least(10), "points", lambda s: s.points() >= 10)
    assert points == victory.found


def test_movement_agreement_at_turn_one() -> None:
    _agree_movement(1, (1, 7))


@pytest.mark.slow
def test_movement_agreement_at_turn_two() -> None:
    _agree_movement(2, tuple(range(1, 10)))


def test_movement_answers_flip_between_turns_one_and_two() -> None:
    """The solver alone (fast): G7 and Goal Victory are impossible at turn 1 and possible at turn 2."""
    for goal in (bmc.goal_achieved(7), bmc.out_is(Out.GOAL)):
        run = bmc.search(MOVEMENT, goal, 2, caps=MOVEMENT_CAPS, check_caps=False, movement_free=True)
        assert [c.status for c in run.checks] == ["unsat", "sat"]
        assert run.found == 2 and run.model is not None
        replay(Tables.of(MOVEMENT), run.steps, run.model)
