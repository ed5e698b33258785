"""Whole games for designers: one seeded game move by move, and many games summarised.

Seeds live here, at the edge: game `i` of a simulation with seed `S` is played with
`derive_seed(S, i)`, and that game's chance events and both agents draw from generators seeded
from it alone. So the figures of a simulation depend only on its seed, its card set, its rulings
and its agents, never on how many worker processes shared the games.
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import multiprocessing
import os
import random
import signal
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

from doubtspec.agents.base import Agent, Matchup, make_agent
from doubtspec.errors import OptionError
from doubtspec.model.actions import Action
from doubtspec.model.engine import apply, current_actor, legal_actions, new_game
from doubtspec.model.game import Game
from doubtspec.model.state import Actor, GameState, OutcomeReason, Side

DEFAULT_MAX_ROUNDS = 300
"""Rounds after which a game is cut off and counted as unfinished (whole games last far fewer)."""

STEPS_PER_ROUND = 2_000
"""A guard against a turn that never ends: more steps than this per round also cuts a game off."""


def derive_seed(seed: int, index: int) -> int:
    """The seed of game `index` of a simulation seeded with `seed` (64 bits, the same everywhere)."""
    digest = hashlib.blake2b(f"doubtspec:{seed}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


@dataclass(frozen=True, slots=True)
class Move:
    """One step of a game: who acted, what they did, and the states around it."""

    before: GameState
    actor: Actor
    action: Action
    after: GameState


def _side_rng(seed: int, side: Side) -> random.Random:
    # String seeds are hashed with SHA-512 by `random`, so they are stable across runs and machines.
    return random.Random(f"{seed}/{side.value}")


def iter_game(game: Game, seed: int, matchup: Matchup, max_rounds: int = DEFAULT_MAX_ROUNDS) -> Iterator[Move]:
    """Play one game from Set-Up, yielding every move, until it ends or passes `max_rounds`.

    The iteration also stops at a non-terminal state with no legal action (a stuck game), which
    the caller sees as a last state that is neither over nor past the cap.
    """
    chance = random.Random(seed)
    agents: dict[Actor, Agent] = {
        Actor.COMPANY: make_agent(matchup.company, game, Side.COMPANY, _side_rng(seed, Side.COMPANY)),
        Actor.MOVEMENT: make_agent(matchup.movement, game, Side.MOVEMENT, _side_rng(seed, Side.MOVEMENT)),
    }
    state = new_game(game)
    steps_left = STEPS_PER_ROUND * (max_rounds + 1)
    while steps_left > 0:
        actor = current_actor(state)
        if actor is Actor.TERMINAL:
            return
        actions = legal_actions(state)
        if not actions:
            return
        if actor is Actor.CHANCE:
            action = actions[chance.randrange(len(actions))]
        else:
            action = agents[actor].choose(state, actions)
        after = apply(state, action)
        yield Move(state, actor, action, after)
        state = after
        if state.round > max_rounds:
            return
        steps_left -= 1


@dataclass(frozen=True, slots=True)
class GameResult:
    """The summary of one finished, cut-off or stuck game."""

    index: int
    seed: int
    reason: OutcomeReason | None
    """How the game ended; None when it did not (cut off at the cap, stuck, or an error)."""
    rounds: int
    reshuffles: int
    stars: int
    goals: int
    """Goals the Movement achieved."""
    points: int
    profit: int
    steps: int
    stuck: bool = False
    """A state that was not over offered no legal action."""
    error: str | None = None
    """An exception raised by the engine or an agent, as `Type: message`."""

    @property
    def winner(self) -> Side | None:
        return None if self.reason is None else self.reason.winner

    @property
    def finished(self) -> bool:
        return self.reason is not None


def play_game(game: Game, seed: int, matchup: Matchup, max_rounds: int = DEFAULT_MAX_ROUNDS,
              index: int = 0) -> GameResult:
    """Play one game to its end (or the cap) and summarise it.

    An exception from the engine is caught and recorded with the seed, so that one faulty game
    does not lose the rest of a simulation; tests treat any such record as a failure.
    """
    state: GameState | None = None
    steps = 0
    try:
        for move in iter_game(game, seed, matchup, max_rounds):
            state = move.after
            steps += 1
        if state is None:
            state = new_game(game)
    except Exception as exc:  # recorded, not swallowed: the result carries it with the seed
        error = f"{type(exc).__name__}: {exc}"
        if state is None:
            return GameResult(index, seed, None, 0, 0, 0, 0, 0, 0, steps, error=error)
        return _summary(index, seed, state, steps, error=error)
    stuck = state.outcome is None and state.round <= max_rounds and not legal_actions(state)
    return _summary(index, seed, state, steps, stuck=stuck)


def _summary(index: int, seed: int, state: GameState, steps: int, stuck: bool = False,
             error: str | None = None) -> GameResult:
    outcome = state.outcome
    return GameResult(
        index=index, seed=seed, reason=None if outcome is None else outcome.reason,
        rounds=state.round if outcome is None else outcome.round, reshuffles=state.reshuffles,
        stars=state.stars, goals=len(state.achieved), points=state.points(), profit=state.profit,
        steps=steps, stuck=stuck, error=error,
    )


# --- statistics -------------------------------------------------------------------------------

PERCENTILES: tuple[tuple[str, float], ...] = (
    ("min", 0.0), ("p10", 0.10), ("p25", 0.25), ("median", 0.50), ("p75", 0.75), ("p90", 0.90), ("max", 1.0),
)


def percentiles(values: Sequence[int]) -> dict[str, float]:
    """Nearest-rank percentiles and the mean of `values` (all zero when there are none)."""
    if not values:
        return {name: 0 for name, _ in PERCENTILES} | {"mean": 0.0}
    ordered = sorted(values)
    n = len(ordered)
    result: dict[str, float] = {}
    for name, q in PERCENTILES:
        rank = max(1, math.ceil(q * n - 1e-9))
        result[name] = ordered[min(rank, n) - 1]
    result["mean"] = round(sum(ordered) / n, 2)
    return result


@dataclass(frozen=True, slots=True)
class SimulationStats:
    """The figures of a simulation: outcomes by side and reason, lengths, stars and Goals.

    Lengths are over finished games (an unfinished game's length is the cap). `results` keeps
    every game's summary in index order, so any game can be replayed from its seed.
    """

    seed: int
    matchup: Matchup
    max_rounds: int
    cards: str
    rulings: str
    results: tuple[GameResult, ...]

    @property
    def games(self) -> int:
        return len(self.results)

    def finished(self) -> list[GameResult]:
        return [r for r in self.results if r.finished]

    def wins_by_side(self) -> dict[str, int]:
        counts = Counter(r.winner.value for r in self.results if r.winner is not None)
        return {side.value: counts.get(side.value, 0) for side in Side}

    def wins_by_reason(self) -> dict[str, int]:
        counts = Counter(r.reason.value for r in self.results if r.reason is not None)
        return {reason.value: counts.get(reason.value, 0) for reason in OutcomeReason}

    def unfinished(self) -> list[GameResult]:
        """Games cut off at the cap (neither stuck nor failed)."""
        return [r for r in self.results if not r.finished and not r.stuck and r.error is None]

    def stuck(self) -> list[GameResult]:
        return [r for r in self.results if r.stuck]

    def errors(self) -> list[GameResult]:
        return [r for r in self.results if r.error is not None]

    def rounds(self) -> dict[str, float]:
        return percentiles([r.rounds for r in self.finished()])

    def reshuffles(self) -> dict[str, float]:
        return percentiles([r.reshuffles for r in self.finished()])

    def histogram(self, field: str) -> dict[str, int]:
        """How many games ended with each value of `field` (stars, goals or points)."""
        counts = Counter(getattr(r, field) for r in self.results)
        return {str(k): counts[k] for k in sorted(counts)}

    def to_json(self) -> dict[str, Any]:
        """The figures as plain data (no timings and no worker count: the same seed, the same JSON)."""
        def seeds(results: list[GameResult]) -> list[dict[str, Any]]:
            return [{"index": r.index, "seed": r.seed, "rounds": r.rounds, "error": r.error} for r in results]

        return {
            "games": self.games,
            "seed": self.seed,
            "agents": {"company": self.matchup.company, "movement": self.matchup.movement},
            "max_rounds": self.max_rounds,
            "cards": self.cards,
            "rulings": self.rulings,
            "wins_by_side": self.wins_by_side(),
            "wins_by_reason": self.wins_by_reason(),
            "rounds": self.rounds(),
            "reshuffles": self.reshuffles(),
            "stars": self.histogram("stars"),
            "goals": self.histogram("goals"),
            "points": self.histogram("points"),
            "unfinished": seeds(self.unfinished()),
            "stuck": seeds(self.stuck()),
            "errors": seeds(self.errors()),
        }


# --- running many games -------------------------------------------------------------------------

_WORKER: tuple[Game, int, Matchup, int] | None = None
"""The game, the simulation seed, the agents and the cap, set once in each worker process."""


@contextlib.contextmanager
def _workers_ignoring_ctrl_c() -> Iterator[None]:
    """Start worker processes with SIGINT ignored from their first instruction (an ignored signal
    stays ignored across exec): Ctrl-C reaches the whole process group, and the parent, not a worker
    still starting up, is the one to stop the run. (A Ctrl-C in the milliseconds this takes is lost.)"""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _passed(deadline: float | None) -> bool:
    return deadline is not None and time.monotonic() >= deadline


def _init_worker(game: Game, seed: int, matchup: Matchup, max_rounds: int) -> None:
    global _WORKER
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C (see `simulate`)
    _WORKER = (game, seed, matchup, max_rounds)


def _run_range(bounds: tuple[int, int]) -> list[GameResult]:
    assert _WORKER is not None, "worker not initialised"
    game, seed, matchup, max_rounds = _WORKER
    return [play_game(game, derive_seed(seed, i), matchup, max_rounds, index=i) for i in range(*bounds)]


def _stop(executor: ProcessPoolExecutor) -> None:
    """No further chunk starts; the chunks still running end (a few games each) and are not counted; the
    workers then exit. (Killing them mid-chunk instead raced with the executor's own threads.)"""
    executor.shutdown(wait=True, cancel_futures=True)


def _ranges(games: int, size: int) -> list[tuple[int, int]]:
    return [(start, min(start + size, games)) for start in range(0, games, size)]


def simulate(game: Game, games: int, seed: int, matchup: Matchup | None = None, workers: int = 1,
             max_rounds: int = DEFAULT_MAX_ROUNDS, progress: Callable[[int], None] | None = None,
             deadline: float | None = None) -> SimulationStats:
    """Play `games` seeded games and gather their figures.

    `workers` > 1 shares the games among that many processes (0 means one per core); the figures
    are the same whatever the number. `progress` is told how many more games have finished.
    `deadline` (a `time.monotonic()` reading) stops the run early for a caller with a time budget: no game
    starts after it (with workers, no further chunk starts, and those still running are not counted), and the
    figures are those of the games finished, which may then be fewer than `games` (`SimulationStats.games` says
    how many).
    Raises `OptionError` for a count of games, workers or rounds that makes no sense.
    """
    if games < 1:
        raise OptionError(f"the number of games must be at least 1, got {games}", field="--games")
    if workers < 0:
        raise OptionError(f"the number of workers must be 0 (all cores) or more, got {workers}", field="--workers")
    if max_rounds < 1:
        raise OptionError(f"the round cap must be at least 1, got {max_rounds}", field="--max-rounds")
    matchup = matchup or Matchup()
    workers = workers or os.cpu_count() or 1
    workers = min(workers, games)
    results: list[GameResult] = []
    if workers == 1:
        for i in range(games):
            if _passed(deadline):
                break
            results.append(play_game(game, derive_seed(seed, i), matchup, max_rounds, index=i))
            if progress is not None:
                progress(1)
    else:
        # Small chunks keep the progress bar moving; 'spawn' avoids forking a process that may
        # hold a lock in another thread (the progress display refreshes from one). An executor, not a
        # `multiprocessing.Pool`: a signal to the process group (a CI runner's SIGTERM) may kill a worker
        # while it waits for work holding the task queue's lock, and `Pool.terminate` then waits for that
        # lock forever; the executor notices the dead worker and stops without it.
        size = max(1, min(25, games // (workers * 4)))
        context = multiprocessing.get_context("spawn")
        ranges = _ranges(games, size)
        with _workers_ignoring_ctrl_c():  # the executor starts a worker with each of the first submissions
            executor = ProcessPoolExecutor(workers, mp_context=context, initializer=_init_worker,
                                           initargs=(game, seed, matchup, max_rounds))
            chunks = [executor.submit(_run_range, bounds) for bounds in ranges[:workers]]
        try:
            chunks += [executor.submit(_run_range, bounds) for bounds in ranges[workers:]]
            for done in as_completed(chunks):
                chunk = done.result()
                results.extend(chunk)
                if progress is not None:
                    progress(len(chunk))
                if _passed(deadline):
                    break
        finally:
            _stop(executor)
        results.sort(key=lambda r: r.index)
    cards = game.cards
    return SimulationStats(
        seed=seed, matchup=matchup, max_rounds=max_rounds,
        cards=f"{cards.name} v{cards.version} ({cards.fingerprint[:12] or 'no fingerprint'})",
        rulings=str(game.rulings), results=tuple(results),
    )
