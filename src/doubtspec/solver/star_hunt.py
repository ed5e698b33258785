"""The star hunt: a beam over the engine aimed at a Star Victory on a schedule of star rounds.

The generic hunt (`doubtspec.solver.hunt`) ranks states by how much they promise and plays its greedy agents; on
the shipped set it finds the Company's third star at turn 8, with a Reshuffle Sequence every other round. A
Sequence in every round needs what the greedy agent never aims at: a deck small enough that the turn's drawing
cards empty it before the Draw Phase (On Your Go; Reshuffle Sequence), and a display that scores the star
threshold at each of those Sequences (A. Scoring Demographics, B. Seed Demographics). This hunt asks for that
directly:

* **a schedule.** For a turn T it tries each set of rounds that may hold the stars (as many as the card file's
  Star Victory needs, the last one T; the latest rounds first), and drops every state that holds fewer stars
  than the schedule has put behind it: a pass for a schedule the game cannot meet dies at its first star round;
* **the cycling Company** of `doubtspec.solver.cycling` in its roll-outs, with luck that leans its way;
* **a score for the next Sequence.** States are ranked by stars, then whether the cards at hand can draw the
  deck down far enough for a Sequence next round (when the schedule wants one), how many cards the drawing
  cards in circulation can cycle, and what the display would score.

The Movement passes (a legal choice whatever the opponent). Like the generic hunt, this only ever says "yes": a
find is replayed by the caller through the engine's checked `play`. On the shipped set and `tests/data/large.toml`
it finds a Star Victory at turn 6 (stars at rounds 4, 5 and 6) with each of seeds 0-2, in 6-8 CPU-seconds a pass at
the first round's width (`FIRST_ROUND_WIDTH`).
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Iterator, Mapping
from dataclasses import replace

from doubtspec.model.actions import Action
from doubtspec.model.game import Game
from doubtspec.model.state import GameState, OutcomeReason
from doubtspec.solver.cycling import BeamSettings, CyclingRoller, beam_pass, next_score
from doubtspec.solver.hunt import HuntResult, hunt_result, turn_reached

StarHuntSettings = BeamSettings
"""The star hunt's beam: 300 states kept per round, 30 roll-outs each, 48 Set-Ups, 3 rounds of passes (the first
round narrower: `FIRST_ROUND_WIDTH`)."""
FIRST_ROUND_WIDTH = 150
"""The beam's width in the first round of passes, when the settings' is wider; the later rounds (the next seeds) keep
the settings' width, so a card file the narrow beam misses still gets the wide one. The first witness is what a
question on a short budget waits for: the turn-6 pass (rounds 4, 5 and 6) finds a Star Victory with seeds 0, 1 and
2 on both the shipped set and `tests/data/large.toml` at a width of 150 in 5.9-8.0 CPU-seconds, at 200 in 8.1-10.8
and at 300 in 11.4-15.1; at 150 with 20 roll-outs instead of 30 it misses on the shipped set, and at 100 with 20
too (docs/solver-measurements.md, "The star hunt's first round at width 150")."""

def star_schedules(turn: int, stars: int, at_most: Mapping[int, int] | None = None) -> Iterator[tuple[int, ...]]:
    """Every set of `stars` rounds up to `turn` whose last is `turn`, the latest rounds first, except those that
    put more stars by a round r than `at_most[r]` (bounds proved elsewhere, e.g. by the Company's abstraction)."""
    bounds = at_most or {}
    for rounds in itertools.combinations(range(turn - 1, 0, -1), stars - 1):
        schedule = tuple(sorted((*rounds, turn)))
        if all(sum(1 for s in schedule if s <= r) <= bound for r, bound in bounds.items()):
            yield schedule


def _score(roller: CyclingRoller, state: GameState, schedule: tuple[int, ...], round_number: int) -> float:
    """How promising a state at the end of `round_number` is for the rest of the schedule: stars first, then the
    Sequences to come and what the display would score."""
    threshold = roller.game.cards.rules.star_threshold
    wants_next = round_number + 1 in schedule
    wants_later = any(r > round_number + 1 for r in schedule)
    return (1000.0 * state.stars + roller.cycling(state, wants_next, wants_later)
            + 12.0 * min(next_score(state.victims), threshold + 1))


def _won(state: GameState) -> bool:
    return state.outcome is not None and state.outcome.reason is OutcomeReason.STAR_VICTORY


def _pass(game: Game, schedule: tuple[int, ...], settings: StarHuntSettings, seed: int,
          deadline: float | None) -> tuple[GameState | None, tuple[Action, ...], int]:
    """One beam pass for one schedule: (the winning state or None, its actions, states expanded); a state that
    holds fewer stars than the schedule has put behind it is dropped."""
    roller = CyclingRoller(game, random.Random(seed))
    return beam_pass(game, roller, schedule[-1], _won,
                     lambda state, r: state.stars >= sum(1 for s in schedule if s <= r),
                     lambda state, r: _score(roller, state, schedule, r), settings, deadline)


def star_hunt(game: Game, by_turn: int, first_turn: int = 1, settings: StarHuntSettings | None = None,
              deadline: float | None = None, at_most: Mapping[int, int] | None = None,
              tried: set[tuple[tuple[int, ...], int]] | None = None) -> HuntResult:
    """Look for a Star Victory at the earliest turn from `first_turn` to `by_turn`, until `deadline` (a
    `time.perf_counter()`), within the proved star bounds `at_most` (round to the most stars after it).

    `tried`: the (schedule, seed) passes already made without a find (by an earlier call); they are skipped, and
    every pass this call completes without a find is added (the passes are deterministic, so one would fail again).

    `settings.passes` rounds of passes, each with the next seed: a round tries the turns in order, every star
    schedule of a turn (`star_schedules`), until one is met; the next round tries only the turns before the best
    find. So a first witness comes after one pass per schedule up to its turn (on the large file the schedule of
    turn 5 dies at round 3 in about 6 CPU-seconds, then turn 6 is found in about 12), and the time left goes to
    earlier turns. A find is the earliest this hunt can offer, not a proof that no earlier one exists.
    """
    cfg = settings if settings is not None else StarHuntSettings()
    started = time.perf_counter()
    stars = game.cards.rules.stars_to_win
    seen = 0
    searched = 0
    best: tuple[int, tuple[Action, ...]] | None = None
    bound = by_turn
    for attempt in range(cfg.passes):
        # A pass is fixed by its schedule and seed (`tried`'s key): the seed fixes the round, so the width too.
        round_cfg = cfg if attempt or cfg.width <= FIRST_ROUND_WIDTH else replace(cfg, width=FIRST_ROUND_WIDTH)
        for turn in range(max(first_turn, stars), bound + 1):
            for schedule in star_schedules(turn, stars, at_most):
                seed = cfg.seed + attempt
                if tried is not None and (schedule, seed) in tried:
                    continue
                state, actions, expanded = _pass(game, schedule, round_cfg, seed, deadline)
                seen += expanded
                searched = max(searched, turn)
                if state is not None:
                    best = (turn_reached(state), actions)
                    bound = best[0] - 1
                    break
                if deadline is not None and time.perf_counter() > deadline:
                    return hunt_result(best, seen, started, searched)
                if tried is not None:
                    tried.add((schedule, seed))
            if best is not None and bound < turn:
                break  # found at this turn: the next round of passes looks for an earlier one
    return hunt_result(best, seen, started, searched)

