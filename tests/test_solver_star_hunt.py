"""The star hunt: star schedules, its finds replay through the engine, and the shipped set's turn-6 Star Victory."""

from __future__ import annotations

from pathlib import Path

import pytest

from doubtspec.model.cards import load_cards
from doubtspec.model.engine import apply, new_game
from doubtspec.model.game import Game
from doubtspec.model.state import OutcomeReason
from doubtspec.reports.trace import check_cards, load_trace
from doubtspec.solver.cycling import next_score
from doubtspec.solver.hunt import turn_reached
from doubtspec.solver.queries import QueryKind, solve
from doubtspec.solver.star_hunt import StarHuntSettings, star_hunt, star_schedules
from doubtspec.solver.unrolling.witness import replay_actions

DATA = Path(__file__).parent / "data"
SHIPPED = Game(load_cards())
SMALL = StarHuntSettings(width=16, rollouts=4, setups=8, passes=1)


def test_schedules_end_at_the_turn_latest_rounds_first() -> None:
    schedules = list(star_schedules(6, 3))
    assert schedules[0] == (4, 5, 6)
    assert len(schedules) == 10 and all(s[-1] == 6 and len(set(s)) == 3 for s in schedules)
    assert list(star_schedules(1, 1)) == [(1,)]


def test_schedules_keep_within_the_proved_star_bounds() -> None:
    """No star after round 3 (the shipped set's CP-SAT fact) leaves one schedule for turn 6 and none for turn 5."""
    assert list(star_schedules(6, 3, {3: 0})) == [(4, 5, 6)]
    assert list(star_schedules(5, 3, {3: 0})) == []
    assert list(star_schedules(7, 3, {3: 0, 5: 1})) == [(5, 6, 7), (4, 6, 7)]


@pytest.mark.parametrize(("victims", "score"), [((0, 0, 7, 0), 3), ((1, 2, 3, 0), 3), ((2, 7, 5, 3), 12),
                                                ((3, 5, 5, 3), 12), ((0, 0, 0, 0), 0)])
def test_next_score_is_scoring_demographics(victims: tuple[int, int, int, int], score: int) -> None:
    """Seven Middle Age Victims keep three (the rulebook's example, Scoring Demographics); the others as the engine."""
    assert next_score(victims) == score


@pytest.mark.parametrize("card_file", ["tiny3.toml", "tiny.toml"])
def test_a_find_replays_to_a_star_victory(card_file: str) -> None:
    game = Game(load_cards(DATA / card_file))
    found = star_hunt(game, 6, settings=SMALL)
    assert found.found is not None and found.actions is not None
    final = replay_actions(game, found.actions)
    assert final.outcome is not None and final.outcome.reason is OutcomeReason.STAR_VICTORY
    assert turn_reached(final) == found.found


def test_the_same_seed_gives_the_same_find() -> None:
    game = Game(load_cards(DATA / "tiny.toml"))
    assert star_hunt(game, 6, settings=SMALL).actions == star_hunt(game, 6, settings=SMALL).actions


def test_a_schedule_the_bounds_rule_out_is_not_hunted() -> None:
    found = star_hunt(SHIPPED, 5, 4, settings=SMALL, at_most={3: 0})
    assert found.found is None and found.states == 0


def test_passes_made_without_a_find_are_not_made_again() -> None:
    """Turn 3's one schedule (a star in each of rounds 1-3) dies at round 1; a second call with the record skips it."""
    tried: set[tuple[tuple[int, ...], int]] = set()
    first = star_hunt(SHIPPED, 3, 3, settings=SMALL, tried=tried)
    assert first.found is None and first.states > 0 and tried == {((1, 2, 3), 0)}
    again = star_hunt(SHIPPED, 3, 3, settings=SMALL, tried=tried)
    assert again.found is None and again.states == 0


def test_a_long_stars_question_hunts_each_turn_before_proving_it() -> None:
    """With a long budget the star hunt tries a turn before the schedule prover does: `tiny3.toml`'s Star Victory
    at turn 2 comes after turn 1 is proved, and the prover is never asked for turn 2."""
    game = Game(load_cards(DATA / "tiny3.toml"))
    answer = solve(game, QueryKind.STARS, 6, timeout_s=200)
    assert answer.status == "yes" and answer.earliest == 2 and answer.earliest_exact
    assert answer.witness_from == "star-hunt"
    assert [(p.turn, p.method) for p in answer.proofs.proofs] == [(1, "abstraction-schedules"), (2, "star-hunt")]
    assert answer.seconds < 30


def test_the_shipped_sets_star_victory_at_turn_six_replays() -> None:
    """Stars at rounds 4, 5 and 6, a Sequence in every round from 2 (found by the star hunt's first form, seed 0): with
    turns 1-5 proved impossible by the abstraction, the earliest Star Victory on the shipped set is turn 6."""
    trace = load_trace(DATA / "witness_stars_turn6.trace")
    assert check_cards(trace, SHIPPED) is None
    actions = trace.parsed()
    final = replay_actions(SHIPPED, actions)
    assert final.outcome is not None and final.outcome.reason is OutcomeReason.STAR_VICTORY
    assert turn_reached(final) == 6
    state, stars_by_round = new_game(SHIPPED), {}
    for action in actions:
        state = apply(state, action)
        stars_by_round[state.round] = state.stars
    assert [stars_by_round[r] for r in range(1, 7)] == [0, 0, 0, 1, 2, 3]


@pytest.mark.slow
def test_the_star_hunt_finds_turn_six_on_the_shipped_set() -> None:
    """About 16 s: the first pass (seed 0) of the one schedule the round-3 star bound leaves for turn 6."""
    found = star_hunt(SHIPPED, 12, 6, at_most={3: 0})
    assert found.found == 6 and found.actions is not None
    assert turn_reached(replay_actions(SHIPPED, found.actions)) == 6


@pytest.mark.slow
def test_stars_by_turn_six_is_answered_with_the_earliest_proved() -> None:
    """Turns 1-5 by the schedule prover (the round-3 star bound by CP-SAT), turn 6 by the star hunt before the prover
    is asked for it: about 100 s."""
    answer = solve(SHIPPED, QueryKind.STARS, 6, timeout_s=300)
    assert answer.status == "yes" and answer.earliest == 6 and answer.earliest_exact
    assert answer.witness_from == "star-hunt"
    assert not [p for p in answer.proofs.proofs if p.turn == 6 and p.method == "abstraction-schedules"]
