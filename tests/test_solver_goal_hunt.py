"""The Goal hunt: its score's Agitation still to place, its finds replayed to a Goal Victory, and the question's
answer with it (the earliest Goal Victory, proved, on the shipped and the large file)."""

from __future__ import annotations

from pathlib import Path

import pytest

from doubtspec.model.cards import load_cards
from doubtspec.model.game import Game
from doubtspec.model.state import NO_CARD, OutcomeReason
from doubtspec.solver.goal_hunt import GoalHuntSettings, hunt_goal_victory, shortfall
from doubtspec.solver.hunt import turn_reached
from doubtspec.solver.queries import QueryKind, solve
from doubtspec.solver.unrolling.witness import replay_actions

DATA = Path(__file__).parent / "data"
SHIPPED = Game(load_cards())
DEAL = (1, 6, 8, 9, 7, 3, 5, 2, 4)
"""The Goal structure of `witness_win_turn7.trace`: G2 and G4 uncovered, G3 under both, G7 under G2."""


def test_shortfall_takes_the_cheapest_goals_the_overlaps_allow() -> None:
    """One point: G2 (cost 1) lies uncovered. Ten points: G2 and G4 (3 Agitation, 3 points), then G3 under both
    (2, 2 points), then the cheapest points the places they uncover hold; Agitation on a Goal counts towards it."""
    nothing = (0,) * 9
    assert shortfall(SHIPPED, DEAL, nothing, 0) == 0
    assert shortfall(SHIPPED, DEAL, nothing, 1) == 1
    assert shortfall(SHIPPED, DEAL, nothing, 10) == 12
    on_g2 = tuple(1 if place == 7 else 0 for place in range(9))
    assert shortfall(SHIPPED, DEAL, on_g2, 10) == 11
    assert shortfall(SHIPPED, (NO_CARD,) * 9, nothing, 1) >= 99


def test_a_pass_finds_the_shipped_sets_goal_victory_at_turn_seven() -> None:
    """Seed 0's pass (about 10 CPU-seconds): a Goal Victory at turn 7, the earliest (turn 6 is proved impossible),
    replayed through the engine. Asked from turn 7, the find ends the hunt: no later pass looks for an earlier one
    (none is recorded as tried)."""
    tried: dict[int, int] = {}
    found = hunt_goal_victory(SHIPPED, 7, GoalHuntSettings(passes=3), tried=tried, first_turn=7)
    assert found.found == 7 and found.actions is not None
    assert tried == {}
    final = replay_actions(SHIPPED, found.actions)
    assert final.outcome is not None and final.outcome.reason is OutcomeReason.GOAL_VICTORY
    assert turn_reached(final) == 7


def test_passes_made_without_a_find_are_recorded_and_not_made_again() -> None:
    """No Goal Victory at turn 1 (a Goal costs at least 1 and the Movement's first turn scores at most a few
    points): both passes are recorded as searched to turn 1, and asked again they are skipped."""
    small = GoalHuntSettings(width=8, setups=8, passes=2)
    tried: dict[int, int] = {}
    assert hunt_goal_victory(SHIPPED, 1, small, tried=tried).found is None
    assert tried == {0: 1, 1: 1}
    again = hunt_goal_victory(SHIPPED, 1, small, tried=tried)
    assert again.found is None and again.states == 0


@pytest.mark.slow
@pytest.mark.parametrize("card_file", [None, DATA / "large.toml"])
def test_goal_victory_is_proved_earliest_at_turn_seven(card_file: Path | None) -> None:
    """`movement-win --by-turn 12 --timeout 120`: turns 1-6 impossible (the Movement's abstraction), then the Goal
    hunt's turn-7 find, so the earliest turn is proved."""
    game = SHIPPED if card_file is None else Game(load_cards(card_file))
    answer = solve(game, QueryKind.MOVEMENT_WIN, 12, timeout_s=120)
    assert answer.status == "yes" and answer.earliest == 7 and answer.earliest_exact
    assert answer.witness_from == "goal-hunt"

