"""Whole games from Set-Up to an outcome, for every pairing of agents.

Every game must end with an outcome (a game cut off at the round cap is a failure here: with the
shipped set no game comes near it), never reach a state that is not over and offers no legal
action, stay within a sane length, and end with an outcome that the final state justifies
(Company Rules and Movement Rules: the victory and defeat conditions). The 100-game runs are in
the default suite; the 1,000-game runs are marked slow.
"""

from __future__ import annotations

from collections import Counter

import pytest

from doubtspec.agents.base import Matchup
from doubtspec.agents.simulate import derive_seed, iter_game
from doubtspec.model.engine import current_actor, legal_actions, new_game
from doubtspec.model.game import Game
from doubtspec.model.legal import can_buy_any, can_play_any
from doubtspec.model.state import Actor, GameState, OutcomeReason

SANE_ROUNDS = 60
"""About four times the longest greedy game seen; a longer game means a rule that stalls play."""

CAP = 300
"""The round cap of `doubtspec simulate`; reaching it fails these tests."""

RANDOM = Matchup("random", "random")
GREEDY = Matchup("greedy", "greedy")
CAREFUL = Matchup("careful", "careful")
"""Random play that avoids losing on the spot: games long enough to reach stars, Goals and an empty Market."""
PAIRINGS = (RANDOM, GREEDY, Matchup("greedy", "random"), Matchup("random", "greedy"), CAREFUL,
            Matchup("careful", "greedy"))


def play_to_the_end(game: Game, seed: int, matchup: Matchup) -> GameState:
    """Play one game; check every state on the way offers a legal action; return the last state."""
    state = new_game(game)
    for move in iter_game(game, seed, matchup, max_rounds=CAP):
        assert current_actor(move.before) is not Actor.TERMINAL
        state = move.after
    if state.outcome is None:
        assert state.round <= CAP, f"seed {seed} ({matchup}): unfinished after {CAP} rounds"
        assert legal_actions(state), f"seed {seed} ({matchup}): stuck in {state.summary()}"
    return state


def check_outcome(state: GameState, seed: int) -> None:
    """The outcome is justified by the final state, and the loser had not already won."""
    outcome = state.outcome
    assert outcome is not None, f"seed {seed}: no outcome after round {state.round}"
    rules = state.cards.rules
    assert outcome.round == state.round <= SANE_ROUNDS, f"seed {seed}: {outcome.round} rounds"
    assert current_actor(state) is Actor.TERMINAL and not legal_actions(state)
    match outcome.reason:
        case OutcomeReason.STAR_VICTORY:
            assert state.stars >= rules.stars_to_win
        case OutcomeReason.PROFIT_VICTORY:
            assert state.profit >= rules.profit_to_win
        case OutcomeReason.GOAL_VICTORY:
            assert state.points() >= rules.goal_points_to_win
        case OutcomeReason.MARGINALIZATION:
            assert len(state.c_hand) < rules.company_hand_size
        case OutcomeReason.ECONOMIC_DEFEAT:
            assert not can_play_any(state) or not can_buy_any(state), f"seed {seed}: {outcome.detail}"
    if outcome.winner.value == "movement":
        assert state.stars < rules.stars_to_win
    else:
        assert state.points() < rules.goal_points_to_win


def run_games(game: Game, matchup: Matchup, count: int, seed: int = 2024) -> Counter[str]:
    reasons: Counter[str] = Counter()
    for i in range(count):
        game_seed = derive_seed(seed, i)
        state = play_to_the_end(game, game_seed, matchup)
        check_outcome(state, game_seed)
        assert state.outcome is not None
        reasons[state.outcome.reason.value] += 1
    return reasons


@pytest.mark.parametrize("matchup", PAIRINGS, ids=str)
def test_100_games_finish_with_a_justified_outcome(game: Game, matchup: Matchup) -> None:
    reasons = run_games(game, matchup, 100)
    assert sum(reasons.values()) == 100


def test_greedy_play_is_not_won_by_one_side_every_time(game: Game) -> None:
    reasons = run_games(game, GREEDY, 100, seed=7)
    winners = Counter(OutcomeReason(r).winner.value for r in reasons.elements())
    assert winners["company"] > 0 and winners["movement"] > 0, reasons


@pytest.mark.slow
@pytest.mark.parametrize("matchup", [RANDOM, GREEDY, CAREFUL], ids=str)
def test_1000_games_finish_with_a_justified_outcome(game: Game, matchup: Matchup) -> None:
    reasons = run_games(game, matchup, 1000)
    assert sum(reasons.values()) == 1000


@pytest.mark.slow
@pytest.mark.parametrize("matchup", [PAIRINGS[2], PAIRINGS[3], PAIRINGS[5]], ids=str)
def test_1000_mixed_games_finish_with_a_justified_outcome(game: Game, matchup: Matchup) -> None:
    reasons = run_games(game, matchup, 1000)
    assert sum(reasons.values()) == 1000
