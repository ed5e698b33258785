"""Deep starting points for the fuzzer: prefixes of seeded, steered games, made afresh in each process.

Every example of the machine starts at Set-Up, and uniform play seldom lives long enough to see a
third Reshuffle, a full Tableau or a Goal. A corpus of game prefixes lets an example start late
instead: the machine plays a prefix through the engine (unchecked: the early game is what the
ordinary examples check) and fuzzes on from its end, keeping the whole trace from Set-Up, so a
report still replays from the first step.

The prefixes are not stored anywhere: they are played at the start of each run with fixed seeds
and the fuzzer's own steering, through the engine under test, so a changed rule or card file
changes them and they are always legal. Each is cut at a decision of a side (a state at rest)
just after a milestone: a Reshuffle, a Goal achieved, a Tableau of six or more cards, a star.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from doubtspec.model import engine
from doubtspec.model.actions import Action
from doubtspec.model.game import Game
from doubtspec.model.state import GameState

Steer = Callable[[GameState, Sequence[Action], bool], Sequence[Action]]
"""The fuzzer's steering: the actions worth taking among the legal ones (the flag: work towards Goals)."""

GAMES = 8
"""Seeded games played for the corpus."""

MAX_STEPS = 900
"""Steps a corpus game may take."""

PER_GAME = 3
"""Prefixes kept per game: the cuts at its last (deepest) milestones."""

_CACHE: dict[int, tuple[Game, tuple[tuple[Action, ...], ...]]] = {}


def forget() -> None:
    """Drop the prefixes made so far (after the engine has been changed, e.g. by a mutant)."""
    _CACHE.clear()


def _milestones(state: GameState) -> tuple[int, ...]:
    return (state.reshuffles, len(state.achieved), min(len(state.tableau), 6) // 6, state.stars)


def prefixes(game: Game, steer: Steer) -> tuple[tuple[Action, ...], ...]:
    """Game prefixes ending at a side's decision just after a milestone, shortest first (cached per game)."""
    found = _CACHE.get(id(game))
    if found is not None and found[0] is game:
        return found[1]
    corpus: list[tuple[Action, ...]] = []
    for seed in range(GAMES):
        rng = random.Random(seed)
        state = engine.new_game(game)
        actions: list[Action] = []
        reached = _milestones(state)
        pending_cut = False
        kept: list[tuple[Action, ...]] = []
        while state.outcome is None and len(actions) < MAX_STEPS:
            if pending_cut and not state.pending:
                kept.append(tuple(actions))
                pending_cut = False
            try:
                legal = engine.legal_actions(state)
                pool = steer(state, legal, seed % 2 == 0) if legal else ()
                if not pool:
                    break
                action = pool[rng.randrange(len(pool))]
                state = engine.apply(state, action)
            except Exception:  # a broken engine: the checked examples will report it, here it ends the game
                break
            actions.append(action)
            now = _milestones(state)
            if any(n > r for n, r in zip(now, reached, strict=True)):
                pending_cut = state.outcome is None
            reached = tuple(max(n, r) for n, r in zip(now, reached, strict=True))
        # The deepest milestones of the game are the ones worth starting from.
        corpus.extend(kept[-PER_GAME:])
    result = tuple(sorted(set(corpus), key=len))
    _CACHE[id(game)] = (game, result)
    return result
