"""Simulation: seeds, statistics, worker-count independence, and the `simulate` command."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

from cli_run import run_cli
from doubtspec.agents.base import Matchup
from doubtspec.agents.simulate import (
    GameResult,
    SimulationStats,
    derive_seed,
    percentiles,
    play_game,
    simulate,
)
from doubtspec.errors import OptionError
from doubtspec.model.game import Game
from doubtspec.model.state import OutcomeReason


def test_derive_seed_is_stable_and_spreads() -> None:
    assert derive_seed(7, 0) == derive_seed(7, 0)
    seeds = {derive_seed(7, i) for i in range(1000)}
    assert len(seeds) == 1000
    assert derive_seed(7, 1) != derive_seed(8, 1)
    assert all(0 <= s < 2**64 for s in seeds)


def test_percentiles_nearest_rank() -> None:
    figures = percentiles(list(range(1, 11)))
    assert figures == {"min": 1, "p10": 1, "p25": 3, "median": 5, "p75": 8, "p90": 9, "max": 10, "mean": 5.5}
    assert percentiles([4])["median"] == 4
    assert percentiles([])["max"] == 0


def test_play_game_repeats_with_its_seed(game: Game) -> None:
    first = play_game(game, 12345, Matchup())
    assert first == play_game(game, 12345, Matchup())
    assert first.finished and first.error is None and not first.stuck


def test_round_cap_counts_a_game_as_unfinished(game: Game) -> None:
    result = play_game(game, 1, Matchup(), max_rounds=3)
    assert not result.finished and not result.stuck and result.error is None
    stats = SimulationStats(1, Matchup(), 3, "cards", "defaults", (result,))
    assert stats.unfinished() == [result]
    assert stats.to_json()["unfinished"][0]["seed"] == 1


def test_simulate_figures_do_not_depend_on_workers(game: Game) -> None:
    one = simulate(game, 16, seed=9, matchup=Matchup("greedy", "random"), workers=1)
    two = simulate(game, 16, seed=9, matchup=Matchup("greedy", "random"), workers=2)
    assert one.results == two.results
    assert one.to_json() == two.to_json()


def test_simulate_reports_progress_and_sums_up(game: Game) -> None:
    seen: list[int] = []
    stats = simulate(game, 10, seed=2, matchup=Matchup(), progress=seen.append)
    assert sum(seen) == 10
    assert [r.index for r in stats.results] == list(range(10))
    assert [r.seed for r in stats.results] == [derive_seed(2, i) for i in range(10)]
    data = stats.to_json()
    assert sum(data["wins_by_side"].values()) + len(data["unfinished"]) + len(data["stuck"]) + len(
        data["errors"]) == 10
    assert sum(data["wins_by_reason"].values()) == sum(data["wins_by_side"].values())
    assert sum(data["stars"].values()) == sum(data["goals"].values()) == 10
    assert set(data["rounds"]) == {"min", "p10", "p25", "median", "p75", "p90", "max", "mean"}


@pytest.mark.parametrize("workers", [1, 2])
def test_simulate_stops_at_its_deadline(game: Game, workers: int) -> None:
    """A caller's deadline stops the run between games (chunks, with workers): the figures count the games
    finished, the first of them the same games as an unhurried run's."""
    started = time.monotonic()
    stats = simulate(game, 100_000, seed=4, matchup=Matchup(), workers=workers, deadline=started + 1.0)
    assert time.monotonic() - started < 10.0  # 100,000 games would take minutes
    assert 0 < stats.games < 100_000
    finished = sorted(stats.results, key=lambda r: r.index)[:3]
    assert finished == [play_game(game, derive_seed(4, r.index), Matchup(), index=r.index) for r in finished]
    assert simulate(game, 5, seed=4, matchup=Matchup(), deadline=started).games == 0


def test_stats_count_by_side_and_reason() -> None:
    def result(index: int, reason: OutcomeReason | None) -> GameResult:
        return GameResult(index, index, reason, 10 + index, 3, 0, 0, 0, 0, 100)

    stats = SimulationStats(0, Matchup(), 300, "cards", "defaults", (
        result(0, OutcomeReason.STAR_VICTORY), result(1, OutcomeReason.GOAL_VICTORY),
        result(2, OutcomeReason.MARGINALIZATION), result(3, None)))
    assert stats.wins_by_side() == {"company": 1, "movement": 2}
    assert stats.wins_by_reason()["marginalization"] == 1
    assert [r.index for r in stats.unfinished()] == [3]
    assert stats.rounds()["max"] == 12  # the unfinished game does not count


@pytest.mark.parametrize(("kwargs", "field"), [({"games": 0}, "--games"), ({"games": 3, "workers": -1}, "--workers"),
                                               ({"games": 3, "max_rounds": 0}, "--max-rounds")])
def test_simulate_rejects_bad_counts(game: Game, kwargs: dict[str, int], field: str) -> None:
    with pytest.raises(OptionError) as info:
        simulate(game, seed=0, **kwargs)  # type: ignore[arg-type]
    assert info.value.field == field


# --- the command ----------------------------------------------------------------------------------


def test_simulate_json_is_the_same_with_one_or_two_workers() -> None:
    code1, out1, _ = run_cli("simulate", "--games", "12", "--seed", "4", "--workers", "1", "--json")
    code2, out2, _ = run_cli("simulate", "--games", "12", "--seed", "4", "--workers", "2", "--json")
    assert code1 == code2 == 0
    assert out1 == out2
    data = json.loads(out1)
    assert data["games"] == 12 and data["seed"] == 4
    assert data["agents"] == {"company": "greedy", "movement": "greedy"}
    assert data["stuck"] == [] and data["errors"] == []


def test_simulate_table_names_the_figures() -> None:
    code, out, _ = run_cli("simulate", "--games", "6", "--seed", "1",
                           "--agents", "company=greedy,movement=random")
    assert code == 0
    for text in ("Outcomes", "star-victory", "goal-victory", "rounds", "reshuffles", "median", "Company stars",
                 "Goals achieved", "company=greedy,movement=random", "games/s"):
        assert text in out


def test_simulate_accepts_cards_and_rulings() -> None:
    from doubtspec.model.cards import default_cards_path

    code, out, _ = run_cli("simulate", "--games", "3", "--json", "--cards", str(default_cards_path()),
                           "--ruling", "draw-order=reshuffle-first")
    assert code == 0
    assert json.loads(out)["rulings"] == "draw-order=reshuffle-first"


@pytest.mark.parametrize(("args", "option"), [
    (("--games", "0"), "--games"),
    (("--agents", "company=psychic"), "--agents"),
    (("--agents", "dealer=greedy"), "--agents"),
    (("--workers", "-2"), "--workers"),
    (("--max-rounds", "0"), "--max-rounds"),
    (("--ruling", "no-such-ruling=x"), "--ruling"),
])
def test_simulate_bad_options_exit_2_naming_the_option(args: tuple[str, ...],
                                                       option: str) -> None:
    extra = () if args[0] == "--games" else ("--games", "2")
    code, _, err = run_cli("simulate", *extra, *args)
    assert code == 2
    assert option in err


# --- failures are recorded with their seed ------------------------------------------------------


class _BrokenAgent:
    def choose(self, state: object, actions: object) -> object:
        raise RuntimeError("agent failure")


def test_an_exception_is_recorded_with_its_seed(game: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    from doubtspec.agents import base

    monkeypatch.setitem(base.AGENTS, "broken", lambda game, side, rng: _BrokenAgent())
    result = play_game(game, 31, Matchup("greedy", "broken"))
    assert result.error == "RuntimeError: agent failure"
    assert not result.finished and result.seed == 31
    stats = SimulationStats(0, Matchup("greedy", "broken"), 300, "cards", "defaults", (result,))
    assert stats.errors() == [result] and stats.unfinished() == []


def test_a_state_without_legal_actions_is_reported_stuck(game: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    from doubtspec.agents import simulate as module
    from doubtspec.model.engine import legal_actions

    def starved(state: object) -> tuple[object, ...]:
        return () if getattr(state, "round", 0) >= 2 else legal_actions(state)  # type: ignore[arg-type]

    monkeypatch.setattr(module, "legal_actions", starved)
    result = play_game(game, 5, Matchup())
    assert result.stuck and not result.finished and result.rounds == 2


WORKERS_KILLED = """
import multiprocessing, os, signal, sys
from doubtspec.agents.simulate import simulate
from doubtspec.model.game import Game

def progress(done):
    # a signal to the process group reaches the workers too: some may die waiting for work, holding the
    # task queue's lock (a `multiprocessing.Pool` then waited for that lock forever when it was stopped)
    for child in multiprocessing.active_children():
        os.kill(child.pid, signal.SIGTERM)
    raise KeyboardInterrupt

try:
    simulate(Game.load(), 400, 1, workers=2, progress=progress)
except KeyboardInterrupt:
    print("stopped")
"""


def test_simulate_stops_when_its_workers_are_killed() -> None:
    ran = subprocess.run([sys.executable, "-c", WORKERS_KILLED], capture_output=True, text=True, timeout=120)
    assert ran.stdout.strip() == "stopped", ran.stderr
    assert "Traceback" not in ran.stderr, ran.stderr
