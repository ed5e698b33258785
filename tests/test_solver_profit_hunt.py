"""The Profit hunt: its finds replay through the engine to a Profit Victory, and the shipped set's recorded find."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from doubtspec.model.cards import load_cards
from doubtspec.model.engine import apply, new_game
from doubtspec.model.game import Game
from doubtspec.model.state import OutcomeReason
from doubtspec.reports.trace import check_cards, load_trace
from doubtspec.solver.cycling import next_score
from doubtspec.solver.hunt import turn_reached
from doubtspec.solver.methods import ProfitHuntMethod
from doubtspec.solver.profit_hunt import ProfitHuntSettings, doomed, hunt_profit
from doubtspec.solver.queries import QueryKind, solve
from doubtspec.solver.unrolling.witness import replay_actions

DATA = Path(__file__).parent / "data"
SHIPPED = Game(load_cards())
SMALL = ProfitHuntSettings(width=16, rollouts=4, setups=8, passes=2)
QUESTION_PASS = replace(ProfitHuntMethod(SHIPPED).settings, passes=1, starless=(True,))
"""The first pass of the Profit question's hunt (starless, seed 0)."""
WITNESS = DATA / "witness_profit_turn7.trace"
WITNESS_TURN = 7
PROFIT_BY_ROUND = [0, 7, 17, 29, 43, 57, 70]
"""The recorded find's Profit at the end of each round: a Sequence in every round from 2, none scoring the star
threshold (the rest from cards that score Profit when played)."""


@pytest.mark.parametrize("card_file", ["tiny3.toml", "tiny.toml"])
def test_a_find_replays_to_a_profit_victory(card_file: str) -> None:
    game = Game(load_cards(DATA / card_file))
    found = hunt_profit(game, 6, settings=SMALL)
    assert found.found is not None and found.actions is not None
    final = replay_actions(game, found.actions)
    assert final.outcome is not None and final.outcome.reason is OutcomeReason.PROFIT_VICTORY
    assert final.profit >= game.cards.rules.profit_to_win
    assert turn_reached(final) == found.found


def test_the_same_seed_gives_the_same_find() -> None:
    game = Game(load_cards(DATA / "tiny.toml"))
    assert hunt_profit(game, 6, settings=SMALL).actions == hunt_profit(game, 6, settings=SMALL).actions


def test_a_later_pass_looks_only_before_the_best_find() -> None:
    """`tiny.toml`, passes that take stars: seed 0 finds turn 4, then seed 1 turn 2 (a starless pass of seed 0 finds
    turn 2 at once); asked up to turn 1, none finds one, and every pass is recorded as searched to turn 1."""
    game = Game(load_cards(DATA / "tiny.toml"))
    starred = replace(SMALL, starless=(False,))
    assert hunt_profit(game, 6, settings=replace(starred, passes=1)).found == 4
    assert hunt_profit(game, 6, settings=starred).found == 2
    assert hunt_profit(game, 6, settings=replace(SMALL, passes=1, starless=(True,))).found == 2
    tried: dict[tuple[int, bool], int] = {}
    assert hunt_profit(game, 1, settings=SMALL, tried=tried).found is None
    assert tried == {(0, True): 1, (0, False): 1, (1, True): 1, (1, False): 1}


def test_the_first_find_can_end_the_hunt() -> None:
    """`tiny.toml`, passes that take stars: seed 0's find at turn 4 ends the hunt when asked to stop at it."""
    game = Game(load_cards(DATA / "tiny.toml"))
    starred = replace(SMALL, starless=(False,))
    assert hunt_profit(game, 6, settings=starred, first_find=True).found == 4


def test_passes_made_without_a_find_are_not_made_again() -> None:
    game = Game(load_cards(DATA / "tiny.toml"))
    tried = {(seed, starless): 6 for seed in (0, 1) for starless in (True, False)}
    again = hunt_profit(game, 6, settings=SMALL, tried=tried)
    assert again.found is None and again.states == 0


def test_a_display_scoring_the_threshold_with_the_last_star_in_reach_is_doomed() -> None:
    """With two stars held, a display that scores 12 (the shipped threshold) ends the game at the next Sequence with a
    Star Victory, never a Profit Victory; with one star held it is merely promising."""
    assert next_score((5, 4, 5, 3)) == 13
    state = new_game(SHIPPED)
    big = replace(state, victims=(5, 4, 5, 3))
    assert doomed(SHIPPED, replace(big, stars=2))
    assert not doomed(SHIPPED, replace(big, stars=1))
    assert not doomed(SHIPPED, replace(state, stars=2))


def test_a_starless_pass_spares_every_star() -> None:
    """In a starless pass a display that scores the threshold is dropped whatever the stars held."""
    big = replace(new_game(SHIPPED), victims=(5, 4, 5, 3))
    assert doomed(SHIPPED, big, starless=True)
    assert not doomed(SHIPPED, replace(big, victims=(2, 5, 5, 3)), starless=True)  # scores 11


def test_the_shipped_sets_profit_victory_replays() -> None:
    """The shipped set's recorded find (the Profit hunt, seed 2): 70 Profit or more at the end of the Sequence of
    its last turn, with the Profit of every round and no star."""
    trace = load_trace(WITNESS)
    assert check_cards(trace, SHIPPED) is None
    actions = trace.parsed()
    final = replay_actions(SHIPPED, actions)
    assert final.outcome is not None and final.outcome.reason is OutcomeReason.PROFIT_VICTORY
    assert turn_reached(final) == WITNESS_TURN and final.profit >= 70
    state, profit_by_round = new_game(SHIPPED), {}
    for action in actions:
        state = apply(state, action)
        profit_by_round[state.round] = state.profit
    assert [profit_by_round[r] for r in range(1, WITNESS_TURN + 1)] == PROFIT_BY_ROUND
    assert final.stars == 0


@pytest.mark.slow
def test_the_profit_hunt_finds_the_recorded_turn_on_the_shipped_set() -> None:
    """About 8 CPU-seconds: the question's first pass (seed 0, starless, width 150, 20 roll-outs); with stars taken,
    seed 0's pass finds turn 8."""
    found = hunt_profit(SHIPPED, 12, QUESTION_PASS)
    assert found.found == WITNESS_TURN and found.actions is not None
    final = replay_actions(SHIPPED, found.actions)
    assert turn_reached(final) == WITNESS_TURN and final.stars == 0


@pytest.mark.slow
def test_the_starless_pass_finds_turn_7_on_the_large_file() -> None:
    """About 9 CPU-seconds: the question's first pass on `tests/data/large.toml` (60 Profit to win)."""
    game = Game(load_cards(DATA / "large.toml"))
    found = hunt_profit(game, 12, QUESTION_PASS)
    assert found.found == 7 and found.actions is not None
    final = replay_actions(game, found.actions)
    assert final.outcome is not None and final.outcome.reason is OutcomeReason.PROFIT_VICTORY
    assert turn_reached(final) == 7  # with a star: a starless pass drops states at a round's end, not Sequences


@pytest.mark.slow
def test_the_profit_question_takes_the_profit_hunts_witness() -> None:
    # Before the Profit hunt was asked, `profit --by-turn 12 --timeout 120` was unknown: no hunt reached 70 Profit.
    answer = solve(SHIPPED, QueryKind.PROFIT, 12, timeout_s=120)
    assert answer.status == "yes" and answer.witness_from == "profit-hunt"
    assert answer.witness is not None and answer.earliest is not None
    final = replay_actions(SHIPPED, answer.witness.actions)
    assert final.outcome is not None and final.outcome.reason is OutcomeReason.PROFIT_VICTORY
    assert final.outcome.round == answer.earliest
