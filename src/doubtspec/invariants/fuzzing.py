"""Driving the machines programmatically: one fuzzing run, its statistics and its violations.

`run_fuzz` runs `GameMachine` (configured for a card set, rulings and a selection of invariants)
through Hypothesis's `run_state_machine_as_test` with a profile's settings, silences Hypothesis's
own reporting, and returns the violations the machine recorded from Hypothesis's final, shrunk
replays.

How long a run lasts:

* `examples=N` is one Hypothesis run of N examples (N games from Set-Up, each a stretch of rule
  calls); a time `budget` is met by running in chunks of examples, each with its own derived seed,
  until the budget is spent.
* The first violation ends the search at once (Hypothesis's `report_multiple_bugs=False`): no more
  examples are generated or targeted, and shrinking starts. Shrinking may slip to another broken
  invariant with a smaller example; a run reports what its final replays show.
* Shrinking is bounded by what is left of the budget (or, for a run of a fixed number of examples,
  by the profile's `shrink_seconds`: 10 s for ci, `profiles.SHRINK_SECONDS` for the others). When
  the bound is reached, Hypothesis stops shrinking and replays the shortest failing example found
  so far, which is what the report shows; the result says that shrinking was cut.

A step that never ends (an engine loop that makes no progress) would hold the run until the CI job's
own timeout, with no report. While the machines run, a CPU-time watchdog (`SIGPROF`) raises
`EngineStalled` inside whatever runs when no engine step has finished for `STALL_SECONDS` of CPU
time: raised inside `apply` it is reported like any exception there (`contract.no-crash`), with the
trace that leads to the stuck step.

Interrupts (`doubtspec.interrupts`): once a signal has been received, the machines skip their
teardown checks (a half-played game is not a finding) and refuse to start another example, and
`run_fuzz` raises `KeyboardInterrupt` whatever Hypothesis made of the interrupt, so the caller
writes no report.

Anything that goes wrong other than an invariant violation is re-raised: it is a bug in doubtspec
(or a broken engine that the `contract.*` invariants did not catch) and the command line turns it
into exit code 70.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import random
import signal
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from unittest import mock

from hypothesis import seed as hypothesis_seed
from hypothesis import settings as hypothesis_settings
from hypothesis.control import current_build_context
from hypothesis.database import DirectoryBasedExampleDatabase, ExampleDatabase
from hypothesis.errors import InvalidArgument
from hypothesis.internal.conjecture import engine as conjecture_engine
from hypothesis.internal.conjecture.data import Status
from hypothesis.reporting import with_reporter
from hypothesis.stateful import run_state_machine_as_test

from doubtspec import interrupts
from doubtspec.invariants.catalog import CATALOG, Invariant, checkable
from doubtspec.invariants.machines import GameMachine, InvariantViolation, Recorder, Violation, machine_for
from doubtspec.invariants.profiles import DATABASE_DIR, PROFILES, Profile
from doubtspec.invariants.profiles import SHRINK_SECONDS as SHRINK_SECONDS  # the CLI's help names it
from doubtspec.model.game import Game

STALL_SECONDS = 5
"""CPU seconds without a finished engine step after which the watchdog calls the step stuck (a step and its
checks take milliseconds)."""

CHUNK_EXAMPLES = 10
"""Examples per Hypothesis run when fuzzing against a time budget (the budget is checked between runs)."""


DATABASE_BY_PROFILE: dict[str, Path | None] = {"ci": None, "dev": DATABASE_DIR, "nightly": DATABASE_DIR}
"""Each profile's example database: `ci` runs without one, so that the same examples run every time;
`dev` and `nightly` keep `.hypothesis/examples`, so that a failure found once is replayed first."""


@dataclass(frozen=True, slots=True)
class FuzzOptions:
    """What to fuzz and for how long; unset lengths and seeds come from the profile."""

    game: Game
    invariants: tuple[Invariant, ...] = CATALOG
    profile: Profile = PROFILES["ci"]
    examples: int | None = None
    budget: float | None = None
    seed: int | None = None
    database: ExampleDatabase | Path | str | None = "default"
    """"default": the profile's (`DATABASE_BY_PROFILE`); None: no database; a folder; or a database."""
    max_steps: int | None = None
    """Engine decisions per example, overriding the profile's."""
    shrink_seconds: float | None = None
    """The bound on shrinking when no budget is set; None: the profile's (`Profile.shrink_seconds`)."""


@dataclass
class FuzzResult:
    """What a run did and found."""

    seed: int
    examples: int
    """Examples generated in the search (shrinking's replays are not counted)."""
    steps: int
    checks: int
    games: int
    elapsed: float
    runs: int
    violations: list[Violation] = field(default_factory=list)
    shrink_seconds: float = 0.0
    """Time spent shrinking (and replaying) after the first violation."""
    shrink_cut: bool = False
    """Whether shrinking was stopped by the time bound before it finished."""
    database: str = "none"
    """The example database used: a folder, or "none"."""
    not_checked: dict[str, str] = field(default_factory=dict)
    """The invariants selected that cannot check this card file and rulings, each with why (`catalog.checkable`)."""

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


def resolve_database(options: FuzzOptions) -> ExampleDatabase | None:
    """The example database of a run (see `FuzzOptions.database`)."""
    chosen = options.database
    if isinstance(chosen, str) and chosen == "default":
        chosen = DATABASE_BY_PROFILE.get(options.profile.name, DATABASE_DIR)
    if chosen is None or isinstance(chosen, ExampleDatabase):
        return chosen
    return DirectoryBasedExampleDatabase(str(chosen))


def _only_violations(exc: BaseException) -> bool:
    if isinstance(exc, InvariantViolation):
        return True
    if isinstance(exc, BaseExceptionGroup):
        return all(_only_violations(inner) for inner in exc.exceptions)
    return False


def _is_final() -> bool:
    try:
        return current_build_context().is_final
    except InvalidArgument:  # outside a Hypothesis run
        return True


def _counts_as_example() -> bool:
    """Whether Hypothesis counts the example being torn down towards `max_examples`.

    One that ran out of room for its choices (an overrun) or was rejected is not counted, and
    replaced by another; counting it too would make `--examples N` report more than N.
    """
    try:
        status = current_build_context().data.status
    except InvalidArgument:
        return True
    return status not in (Status.OVERRUN, Status.INVALID)


@dataclass
class _Progress:
    """What the driver learns from each example's teardown: search size and when failures came."""

    searched: int = 0
    first_failure: float | None = None
    final_replay: float | None = None


def _driven(machine: type[GameMachine], progress: _Progress) -> type[GameMachine]:
    """`machine` with the driver's hooks: examples counted, nothing checked or started after an interrupt.

    The subclass keeps the machine's name and module, so Hypothesis files its examples under the
    same database key.
    """

    def __init__(self: GameMachine) -> None:
        if interrupts.received() is not None:
            raise KeyboardInterrupt
        machine.__init__(self)

    def teardown(self: GameMachine) -> None:
        if interrupts.received() is not None:
            return  # the game was cut off by the interrupt: checking it would report the interrupt
        try:
            machine.teardown(self)
        finally:
            now = time.monotonic()
            if progress.first_failure is None:
                progress.searched += 1 if self.failed or _counts_as_example() else 0
                if self.failed:
                    progress.first_failure = now
            elif self.failed and progress.final_replay is None and _is_final():
                progress.final_replay = now

    return type(machine.__name__, (machine,), {"__init__": __init__, "teardown": teardown,
                                               "__module__": machine.__module__})


@contextlib.contextmanager
def _shrinking_bounded_by(seconds: float) -> Iterator[None]:
    """Bound Hypothesis's shrinking to `seconds`.

    Hypothesis stops shrinking after `MAX_SHRINKING_SECONDS` and then replays the shortest failing
    example found so far; there is no setting for it, so the constant is lowered for the run. (Should
    a later Hypothesis drop the constant, shrinking is left to Hypothesis's own limit, and the test of
    the budget fails.)
    """
    if not hasattr(conjecture_engine, "MAX_SHRINKING_SECONDS"):
        yield
        return
    with mock.patch.object(conjecture_engine, "MAX_SHRINKING_SECONDS", max(seconds, 0.0)):
        yield


def _replay_reserve(budget: float | None) -> float:
    """What a time budget keeps back from shrinking for what comes after it: Hypothesis finishes the shrink
    step under way and then replays the shortest failing example (measured: up to 1.7 s past a 3-second
    budget on a loaded two-core machine), so shrinking stops this much before the deadline."""
    return 0.0 if budget is None else min(REPLAY_RESERVE_S, REPLAY_RESERVE_SHARE * budget)


REPLAY_RESERVE_S = 1.0
REPLAY_RESERVE_SHARE = 0.25


class EngineStalled(Exception):  # the report names it: "apply(...) raised EngineStalled: ..."
    """No engine step finished for `STALL_SECONDS` of CPU time: a step is stuck in a loop."""


@contextlib.contextmanager
def _stall_watchdog(recorder: Recorder, seconds: int | None = None) -> Iterator[None]:
    """Raise `EngineStalled` in the main thread when `recorder.steps` has not moved for `seconds` CPU seconds."""
    seconds = STALL_SECONDS if seconds is None else seconds
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return
    seen = [recorder.steps, 0]

    def tick(_signum: int, _frame: object) -> None:
        if recorder.steps != seen[0]:
            seen[0], seen[1] = recorder.steps, 0
            return
        seen[1] += 1
        if seen[1] >= seconds:
            seen[1] = 0
            raise EngineStalled(f"no engine step finished in {seconds} CPU seconds (after step {recorder.steps} "
                                "of the run): the step is stuck")

    previous = signal.signal(signal.SIGPROF, tick)
    signal.setitimer(signal.ITIMER_PROF, 1.0, 1.0)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0.0, 0.0)
        signal.signal(signal.SIGPROF, previous)


YOUNG_COLLECTION_EVERY = 10_000
"""Allocations between two collections of the youngest generation during a run (Python's default is 700)."""


@contextlib.contextmanager
def _collections_spaced() -> Iterator[None]:
    """Space out the cyclic garbage collector's passes while the machines run, then restore its thresholds.

    A run keeps a growing graph of the states it met (`known.Met`) and Hypothesis its tree of choice
    sequences; with the default thresholds the collector walked them about 2,500 times in a ci run, 1.75 of its
    16 CPU-seconds (1.28 in the eleven full passes), where the bare engine's games spend nothing on it. With
    young passes every 10,000 allocations (older ones every 20 of those) it spent 0.6, with the same run (the
    collector does not touch what the run draws or checks) and the same peak memory (186 MiB).
    """
    saved = gc.get_threshold()
    gc.set_threshold(YOUNG_COLLECTION_EVERY, 20, 20)
    try:
        yield
    finally:
        gc.set_threshold(*saved)


def run_fuzz(options: FuzzOptions, recorder: Recorder | None = None) -> FuzzResult:
    """Fuzz the engine with the machines; returns statistics and the (shrunk) violations found.

    `recorder` receives live counters (for a progress display); a fresh one is used if omitted.
    Raises `KeyboardInterrupt` when a signal stopped the run (see `doubtspec.interrupts`).
    """
    recorder = recorder or Recorder()  # its clock runs from its creation: over several runs, when shared
    started = time.monotonic()
    progress = _Progress()
    profile = options.profile
    if options.max_steps is not None:
        profile = dataclasses.replace(profile, steps=options.max_steps)
    invariants, not_checked = checkable(options.game, options.invariants)
    machine = _driven(machine_for(options.game, invariants, recorder, check_every=profile.check_every,
                                  oracle_every=profile.oracle_every, corpus_share=profile.corpus_share,
                                  costly_every=profile.costly_every), progress)
    base_seed = resolve_seed(options)
    database = resolve_database(options)
    examples, budget = options.examples, options.budget
    if examples is None and budget is None:
        examples, budget = profile.examples, profile.budget
    deadline = None if budget is None else started + budget
    runs = 0
    try:
        while True:
            chunk = examples if examples is not None else CHUNK_EXAMPLES
            hypothesis_seed(base_seed + runs)(machine)
            settings = hypothesis_settings(profile.settings(database=database, max_examples=chunk),
                                           report_multiple_bugs=False)
            runs += 1
            shrink_bound = profile.shrink_seconds if options.shrink_seconds is None else options.shrink_seconds
            shrink_limit = shrink_bound if deadline is None else deadline - time.monotonic() - _replay_reserve(budget)
            try:
                with with_reporter(lambda _message: None), _shrinking_bounded_by(shrink_limit), \
                        _stall_watchdog(recorder), _collections_spaced():
                    run_state_machine_as_test(machine, settings=settings)
            except BaseException as exc:
                if interrupts.received() is not None:
                    raise KeyboardInterrupt from exc
                if not _only_violations(exc):
                    raise
                break
            if interrupts.received() is not None:
                raise KeyboardInterrupt
            if examples is not None or deadline is None or time.monotonic() >= deadline:
                break
    finally:
        elapsed = time.monotonic() - started
    shrink_seconds = 0.0
    shrink_cut = False
    if progress.first_failure is not None:
        shrink_seconds = started + elapsed - progress.first_failure
        shrinking = (progress.final_replay or progress.first_failure + shrink_seconds) - progress.first_failure
        shrink_cut = shrinking >= shrink_limit
    return FuzzResult(seed=base_seed, examples=progress.searched, steps=recorder.steps, checks=recorder.checks,
                      games=recorder.games, elapsed=elapsed, runs=runs, violations=recorder.violations(),
                      shrink_seconds=shrink_seconds, shrink_cut=shrink_cut,
                      database="none" if database is None else str(getattr(database, "path", database)),
                      not_checked=not_checked)
