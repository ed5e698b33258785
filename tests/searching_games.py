"""Games of the searching agents (OpenSpiel's `mcts` and `ismcts`), shared by the solver's checks against the engine.

The abstractions' and the unrolling's checks replay simulated games of every pairing of the random, careful and
greedy agents. The searching agents play differently: they look ahead for the nearer victory of their side, so
their games reach the strong states a proof about "the earliest turn" has to cover (the Profit and stars of a
Company that plans, the Goals of a Movement that does). Every pairing with a searching agent on one side or both is
listed here; a few of them (`DEFAULT_GAMES`) are checked in the default suite, all of them (`EVERY_GAME`) in the
opt-in slow tests.

A searching game costs seconds (a few hundred tree searches), so each is played once per test process and its
moves kept (`played`); every check of that process reads the same moves. The agents are seeded, so a
seed gives the same game in every process and on every machine. The tests skip when OpenSpiel is not installed
(`needs_spiel`).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator

import pytest
from _pytest.mark import ParameterSet

from doubtspec.agents.base import NEEDS_SPIEL, Matchup
from doubtspec.agents.simulate import Move, iter_game
from doubtspec.model.actions import Action
from doubtspec.model.engine import apply, new_game
from doubtspec.model.game import Game
from doubtspec.model.rulings import Rulings
from doubtspec.model.state import Actor, Side
from doubtspec.spiel import spiel_available

PLAIN = ("careful", "greedy")
"""The plain agents the searching ones are paired with. Not the random agent: as the Company it loses by Economic
Defeat within a few rounds (which is why the careful agent exists), so a searching Movement has nothing to search
against, and as the Movement it plays exactly as the careful one (the same moves for the same seed)."""
SEARCHING = tuple(sorted(NEEDS_SPIEL))
PAIRINGS = tuple(Matchup(company, movement) for company, movement in itertools.product(PLAIN + SEARCHING, repeat=2)
                 if company in SEARCHING or movement in SEARCHING)
"""Every pairing of agents with a searching agent on at least one side (12)."""
ROUNDS = 8
"""Rounds each searching game is played for (the checks read it up to the rounds they need)."""
SEEDS = {"shipped": (1, 2), "large": (1, 2), "tiny": (1, 2), "tiny3": (1, 2), "tiny_movement": (5, 12)}
"""The seeds of each card file's searching games. The tiny Movement file's deals leave the Company no card to play
at the start of most seeds' first turn (an Economic Defeat before any round is over); its seeds 5 and 12 last two
to four rounds in every pairing."""

DEFAULT_PAIRINGS = (Matchup("mcts", "greedy"), Matchup("greedy", "ismcts"))
"""The pairings the default suite checks: each search on one side, against the strongest plain agent (a game of two
searches costs two to three times as much)."""
DEFAULT_GAMES = tuple((name, 1, matchup) for name in ("shipped", "large") for matchup in DEFAULT_PAIRINGS)
"""(card file, seed, agents) of the default suite's searching games: 2-4 CPU-seconds each to play."""
EVERY_GAME = tuple((name, seed, matchup) for name, seeds in SEEDS.items() for seed in seeds for matchup in PAIRINGS)
"""(card file, seed, agents) of the slow tests' searching games: every pairing, two seeds, every card file of the
admission tests (a check takes the files it knows)."""

needs_spiel = pytest.mark.skipif(not spiel_available(),
                                 reason="the searching agents need OpenSpiel: pip install -e '.[dev,spiel]'")


def searching_games(names: Iterable[str], side: Side | None = None) -> list[ParameterSet]:
    """pytest parameters `(name, seed, matchup)` for the searching games on the card files `names` (with `side`,
    only those whose agent for that side searches): those of `DEFAULT_GAMES` in the default suite, the rest of
    `EVERY_GAME` marked slow; all skipped without OpenSpiel."""
    known = set(names)
    params = []
    for name, seed, matchup in EVERY_GAME:
        if name not in known or (side is not None and matchup.name_for(side) not in NEEDS_SPIEL):
            continue
        marks = [needs_spiel] if (name, seed, matchup) in DEFAULT_GAMES else [needs_spiel, pytest.mark.slow]
        params.append(pytest.param(name, seed, matchup, marks=marks,
                                   id=f"{name}-{seed}-{matchup.company}-{matchup.movement}"))
    return params


def played(game: Game, seed: int, matchup: Matchup, max_rounds: int) -> Iterator[Move]:
    """The moves `iter_game(game, seed, matchup, max_rounds)` yields; a searching game is searched once per process.

    A searching game's actions are kept by card file and rulings, and replayed here through the engine from the
    caller's own `game` (states hold their `Game`, so each test module gets states of its own). `iter_game` stops
    after the first move into round `max_rounds` + 1, and no agent reads `max_rounds`, so a game cut at
    `max_rounds` is a prefix of the same game cut later.
    """
    if matchup.company not in NEEDS_SPIEL and matchup.movement not in NEEDS_SPIEL:
        yield from iter_game(game, seed, matchup, max_rounds)
        return
    assert max_rounds <= ROUNDS, f"searching games are played for {ROUNDS} rounds, not {max_rounds}"
    state = new_game(game)
    for actor, action in _searched(game, seed, matchup):
        after = apply(state, action)
        yield Move(state, actor, action, after)
        state = after
        if after.round > max_rounds:
            return


SearchKey = tuple[str, Rulings, int, Matchup]
"""A searching game: its card file's fingerprint, the rulings, the seed and the agents."""
_SEARCHED: dict[SearchKey, tuple[tuple[Actor, Action], ...]] = {}
"""The actors and actions of each searching game of `ROUNDS` rounds played in this process."""


def _searched(game: Game, seed: int, matchup: Matchup) -> tuple[tuple[Actor, Action], ...]:
    key = (game.cards.fingerprint or str(id(game)), game.rulings, seed, matchup)
    if key not in _SEARCHED:
        _SEARCHED[key] = tuple((move.actor, move.action) for move in iter_game(game, seed, matchup, ROUNDS))
    return _SEARCHED[key]
