"""Shared fixtures (the shipped card set and a game with default rulings), and the switch that runs
timed benchmarks in one process."""

from __future__ import annotations

import os

import pytest

from doubtspec.model.cards import CardSet, load_cards
from doubtspec.model.game import Game
from doubtspec.solver.abstraction import proof_cache

# Every proof in the tests is made, not taken from the proof store of an earlier run (a test of the store sets its
# own folder).
os.environ[proof_cache.ENV] = proof_cache.OFF


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


def count_engine_calls(monkeypatch: pytest.MonkeyPatch, module: object) -> list[object]:
    """Make `module.engine.apply` record each action it is asked to play (still the engine's answer): the list
    the actions are appended to, for tests of how often a caller asks the engine."""
    from doubtspec.model import engine

    calls: list[object] = []
    real_apply = engine.apply

    def counting(state: object, action: object) -> object:
        calls.append(action)
        return real_apply(state, action)  # type: ignore[arg-type]

    monkeypatch.setattr(module.engine, "apply", counting)  # type: ignore[attr-defined]
    return calls
