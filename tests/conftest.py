"""Shared fixtures (the shipped card set and a game with default rulings), and the switch that runs
timed benchmarks in one process."""

from __future__ import annotations

import pytest

from doubtspec.model.cards import CardSet, load_cards
from doubtspec.model.game import Game


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    """Run in one process when benchmarks are timed (`--benchmark-enable`).

    The default suite runs on two pytest-xdist workers (`-n 2` in pyproject.toml), and
    pytest-benchmark refuses to time anything under xdist; timings taken side by side in one
    process are also the ones worth comparing.
    """
    if config.getoption("benchmark_enable", default=False) and config.getoption("numprocesses", default=None):
        config.option.numprocesses = 0
        config.option.dist = "no"


@pytest.fixture(scope="session")
def cards() -> CardSet:
    return load_cards()


@pytest.fixture(scope="session")
def game(cards: CardSet) -> Game:
    return Game(cards)
