"""The witness hunt: seeded, one-sided (it finds games, never proves their absence), and its finds replay."""

from __future__ import annotations

from pathlib import Path

from doubtspec.model.cards import load_cards
from doubtspec.model.game import Game
from doubtspec.model.state import GameState, OutcomeReason
from doubtspec.solver.hunt import HuntSettings, hunt
from doubtspec.solver.progress import goal, stars
from doubtspec.solver.queries import Query, QueryKind, progress_of, state_target
from doubtspec.solver.unrolling.witness import replay_actions

TINY = Game(load_cards(Path(__file__).parent / "data" / "tiny3.toml"))
SMALL = HuntSettings(width=8, rollouts=3, setups=8, max_width=16)


def _star(state: GameState) -> bool:
    return state.outcome is not None and state.outcome.reason is OutcomeReason.STAR_VICTORY


def test_a_find_replays_and_meets_the_target() -> None:
    found = hunt(TINY, _star, stars, 3, passive=True, settings=SMALL)
    assert found.found is not None and found.actions is not None
    final = replay_actions(TINY, found.actions)
    assert _star(final) and final.outcome is not None and final.outcome.round == found.found


def test_the_same_seed_gives_the_same_find() -> None:
    first = hunt(TINY, _star, stars, 3, passive=True, settings=SMALL)
    again = hunt(TINY, _star, stars, 3, passive=True, settings=SMALL)
    assert first.actions == again.actions


def test_nothing_found_is_not_a_proof() -> None:
    """Turn 1 cannot reach a Reshuffle on the tiny file; the hunt says nothing was found, nothing more."""
    found = hunt(TINY, _star, stars, 1, passive=True, settings=SMALL)
    assert found.found is None and found.actions is None and found.states > 0


def test_a_passive_movement_only_passes() -> None:
    found = hunt(TINY, _star, stars, 3, passive=True, settings=SMALL)
    assert found.actions is not None
    final = replay_actions(TINY, found.actions)
    assert not final.achieved and not final.m_hand


def test_goal_progress_prefers_the_goal_achieved() -> None:
    game = Game(load_cards())
    target = state_target(Query(QueryKind.GOAL, 3, 1))
    found = hunt(game, target, goal(1), 3, passive=False, settings=SMALL, company="careful")
    assert found.actions is not None
    final = replay_actions(game, found.actions)
    assert 1 in final.achieved
    score = progress_of(Query(QueryKind.GOAL, 3, 1))
    assert score(final) > score(replay_actions(game, ()))
