"""Driving the machines programmatically: one fuzzing run, its statistics and its violations.

`run_fuzz` runs `GameMachine` (configured for a card set, rulings and a selection of invariants)
through Hypothesis's `run_state_machine_as_test` with a profile's settings, silences Hypothesis's
own reporting, and returns the violations the machine recorded from Hypothesis's final, shrunk
replays. A time budget is met by running in chunks of examples, each with its own derived seed,
until the budget is spent; a fixed number of examples is one run.

Anything that goes wrong other than an invariant violation is re-raised: it is a bug in doubtspec
(or a broken engine that the `contract.*` invariants did not catch) and the command line turns it
into exit code 70.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from hypothesis import seed as hypothesis_seed
from hypothesis.database import ExampleDatabase
from hypothesis.reporting import with_reporter
from hypothesis.stateful import run_state_machine_as_test

from doubtspec.invariants.catalog import CATALOG, Invariant
from doubtspec.invariants.machines import InvariantViolation, Recorder, Violation, machine_for
from doubtspec.invariants.profiles import PROFILES, Profile
from doubtspec.model.game import Game

CHUNK_EXAMPLES = 25
"""Examples per Hypothesis run when fuzzing against a time budget."""


@dataclass(frozen=True, slots=True)
class FuzzOptions:
    """What to fuzz and for how long; unset lengths and seeds come from the profile."""

    game: Game
    invariants: tuple[Invariant, ...] = CATALOG
    profile: Profile = PROFILES["ci"]
    examples: int | None = None
    budget: float | None = None
    seed: int | None = None
    database: ExampleDatabase | str | None = "default"
    """"default": the profile's directory database; None: no database (tests); or a database."""
    max_steps: int | None = None
    """Engine decisions per example, overriding the profile's."""


@dataclass
class FuzzResult:
    """What a run did and found."""

    seed: int
    examples: int
    steps: int
    checks: int
    games: int
    elapsed: float
    runs: int
    violations: list[Violation] = field(default_factory=list)

    @property
    def steps_per_second(self) -> float:
        return self.steps / self.elapsed if self.elapsed > 0 else 0.0


def resolve_seed(options: FuzzOptions) -> int:
    """The seed a run uses: the option, the profile's fixed one, or a fresh one (reported)."""
    if options.seed is not None:
        return options.seed
    if options.profile.seed is not None:
        return options.profile.seed
    return random.SystemRandom().randrange(2**32)


def _only_violations(exc: BaseException) -> bool:
    if isinstance(exc, InvariantViolation):
        return True
    if isinstance(exc, BaseExceptionGroup):
        return all(_only_violations(inner) for inner in exc.exceptions)
    return False


def run_fuzz(options: FuzzOptions, recorder: Recorder | None = None) -> FuzzResult:
    """Fuzz the engine with the machines; returns statistics and the (shrunk) violations found.

    `recorder` receives live counters (for a progress display); a fresh one is used if omitted.
    """
    recorder = recorder or Recorder()
    recorder.started = time.monotonic()
    machine = machine_for(options.game, options.invariants, recorder)
    profile = options.profile
    if options.max_steps is not None:
        profile = Profile(profile.name, profile.description, options.max_steps, profile.examples, profile.budget,
                          profile.seed)
    base_seed = resolve_seed(options)
    examples, budget = options.examples, options.budget
    if examples is None and budget is None:
        examples, budget = profile.examples, profile.budget
    runs = 0
    while True:
        chunk = examples if examples is not None else CHUNK_EXAMPLES
        hypothesis_seed(base_seed + runs)(machine)
        settings = profile.settings(database=options.database, max_examples=chunk)
        runs += 1
        try:
            with with_reporter(lambda _message: None):
                run_state_machine_as_test(machine, settings=settings)
        except BaseException as exc:
            if not _only_violations(exc):
                raise
            break
        if examples is not None or budget is None or recorder.elapsed >= budget:
            break
    return FuzzResult(seed=base_seed, examples=recorder.examples, steps=recorder.steps, checks=recorder.checks,
                      games=recorder.games, elapsed=recorder.elapsed, runs=runs, violations=recorder.violations())
