"""Benchmarks of complete games on one core: random games and greedy games per second.

Untimed by default (the suite runs with `--benchmark-disable`, so each body runs once as a
smoke test); time them with `pytest tests/test_bench_games.py --benchmark-enable`. Each round of
the benchmark plays a fixed batch of seeded games, so games per second is BATCH / mean time.
"""

from __future__ import annotations

import pytest
from pytest_benchmark.fixture import BenchmarkFixture

from doubtspec.agents.base import Matchup
from doubtspec.agents.simulate import derive_seed, play_game
from doubtspec.model.game import Game

BATCH = 20


def _batch(game: Game, matchup: Matchup) -> int:
    finished = 0
    for i in range(BATCH):
        finished += play_game(game, derive_seed(99, i), matchup).finished
    return finished


@pytest.mark.benchmark(group="whole games")
def test_random_games_per_second(benchmark: BenchmarkFixture, game: Game) -> None:
    benchmark.extra_info["games_per_round"] = BATCH
    assert benchmark(_batch, game, Matchup("random", "random")) == BATCH


@pytest.mark.benchmark(group="whole games")
def test_greedy_games_per_second(benchmark: BenchmarkFixture, game: Game) -> None:
    benchmark.extra_info["games_per_round"] = BATCH
    assert benchmark(_batch, game, Matchup("greedy", "greedy")) == BATCH
