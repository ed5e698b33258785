"""A fuzzing run that also plays the other readings of the open rules: the ruling variants.

Every selectable ruling has code that runs only under its non-default choice. A run under the
default rulings never executes it, so a bug there passes `doubtspec fuzz` although a designer who
selects that reading plays it. When a run is left at the default rulings (no `--ruling`), the
profile's `ruling_share` adds examples played under each variant of `RULING_VARIANTS` after the main
run has passed: the variants together cover every alternative choice of every selectable ruling
(`tests/test_ruling_sweep.py` checks that none is left out), grouped so that each group's choices
touch different rules. A variant that finds a violation ends the run; its report carries the
variant's rulings, so it replays under them.

The main run is exactly the run without variants (same seed, same examples, same games); the
variants' examples come on top, each variant with the same seed. With a time budget, the main run
gets `1 - ruling_share` of it and the variants share what is left (a variant that would not have time
for a chunk of examples is left out, and the summary lists only the variants played).
"""

from __future__ import annotations

import dataclasses
import math
import time
from dataclasses import dataclass

from doubtspec.invariants.fuzzing import CHUNK_EXAMPLES, FuzzOptions, FuzzResult, run_fuzz
from doubtspec.invariants.machines import Recorder
from doubtspec.model.game import Game
from doubtspec.model.rulings import Rulings

RULING_VARIANTS: tuple[tuple[str, ...], ...] = (
    ("draw-order=reshuffle-first", "banned-reserve=stays-honoured"),
    ("trash-buy=any", "restriction-pile-buy=buyable"),
    ("trigger-timing=before-effects", "budget-payment=any-cover"),
    ("messaging-zones=any-zones", "pass-bonus=no-influence", "lobby-targets=market-only"),
)
"""Each group of alternative choices played together; every selectable ruling's every non-default choice
is in one group."""


@dataclass(frozen=True, slots=True)
class VariantRun:
    """What one ruling variant's examples did."""

    rulings: str
    examples: int
    games: int
    steps: int
    elapsed: float
    found: bool


@dataclass
class SweepResult:
    """The main run, the ruling variants after it, and the totals of both."""

    main: FuzzResult
    variants: list[VariantRun]
    total: FuzzResult
    """The main run's result with the variants' examples, games, steps, checks and time added, and the
    violations of the run that found one."""


def variant_games(game: Game) -> list[Game]:
    """The games of the ruling variants of `game` (same card set)."""
    return [Game(game.cards, Rulings.parse(list(choices))) for choices in RULING_VARIANTS]


def _variant_lengths(options: FuzzOptions, share: float) -> tuple[int | None, float | None]:
    """Examples per variant (None under a time budget), and the main run's budget (None without one)."""
    examples, budget = options.examples, options.budget
    if examples is None and budget is None:
        examples, budget = options.profile.examples, options.profile.budget
    if examples is not None:
        return math.floor(examples * share / len(RULING_VARIANTS)), None
    assert budget is not None
    return None, budget * (1 - share)


def plays_variants(options: FuzzOptions) -> bool:
    """Whether a run of `options` goes on to the ruling variants once the main run passes.

    Under a time budget a variant may still find no room (see `run_sweep`).
    """
    share = options.profile.ruling_share
    if share <= 0 or options.game.rulings.choices:
        return False
    per_variant, _ = _variant_lengths(options, share)
    return per_variant != 0


def run_sweep(options: FuzzOptions, recorder: Recorder | None = None) -> SweepResult:
    """`run_fuzz`, then (when it passed at the default rulings) the profile's share of ruling variants.

    `recorder` (live counters) accumulates over the main run and the variants. Under a time budget a
    variant starts only when what is left of the budget, shared among the variants still to run, holds
    a chunk of examples at the main run's pace (a run stops between chunks), so the variants add at most
    about one chunk to the budget, as the main run does.
    """
    recorder = recorder or Recorder()
    share = options.profile.ruling_share
    sweeping = plays_variants(options)  # not when a ruling is chosen, nor in too short a run for one example each
    per_variant, main_budget = _variant_lengths(options, share) if sweeping else (None, None)
    started = time.monotonic()
    main_options = options if main_budget is None else dataclasses.replace(options, budget=main_budget)
    main = run_fuzz(main_options, recorder)
    variants: list[VariantRun] = []
    total = main
    if not sweeping or main.violations:
        return SweepResult(main, variants, total)
    games = variant_games(options.game)
    # A budget may not reach the last variants: each run starts at another one (by its seed), so that
    # over runs with fresh seeds every variant has its turn. A fixed seed plays the same ones.
    first = main.seed % len(games)
    games = games[first:] + games[:first]
    deadline = None if main_budget is None else started + main_budget / (1 - share)  # the whole run's budget
    chunk_seconds = main.elapsed / max(main.examples, 1) * CHUNK_EXAMPLES
    for index, game in enumerate(games):
        budget = None
        if deadline is not None:
            budget = (deadline - time.monotonic()) / (len(games) - index)
            if budget < chunk_seconds:
                continue  # no room for a chunk: the next variants get what is left
        before = (total.examples, recorder.games, recorder.steps)
        result = run_fuzz(dataclasses.replace(options, game=game, examples=per_variant, budget=budget), recorder)
        variants.append(VariantRun(str(game.rulings), result.examples, recorder.games - before[1],
                                   recorder.steps - before[2], result.elapsed, bool(result.violations)))
        total = dataclasses.replace(
            result, examples=before[0] + result.examples, steps=recorder.steps, checks=recorder.checks,
            games=recorder.games, elapsed=time.monotonic() - started, runs=total.runs + result.runs,
            not_checked={**result.not_checked, **total.not_checked})
        if result.violations:
            break
    return SweepResult(main, variants, total)
