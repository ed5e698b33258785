"""Fuzzing throughput: engine steps per second under the Hypothesis machine against the bare engine.

Untimed by default (the suite runs with `--benchmark-disable`, so each body runs once as a smoke
test, on `SMOKE_EXAMPLES` examples). Time them with

    pytest tests/test_bench_fuzz.py --benchmark-enable --benchmark-timer time.process_time -s

(CPU time: on a shared machine the wall clock measures the neighbours' load as much as the code)

which prints the rates (each benchmark's mean, then its fastest round) and their ratios to the bare
engine: the machine as the ci profile runs it (its 600 examples, `throughput.machine_steps`) with the whole catalog
at the ci profile's rates (the costly checks on every fourth
chance, `machines.SAMPLED`, the costliest on every eighth state they apply to, `machines.COSTLY`), the same with
every check on every step (50 examples only: at 600 it would take minutes), and the machine with no invariants at
all, to tell Hypothesis's share from the catalog's.
"""

from __future__ import annotations

import time

import pytest
from hypothesis.stateful import run_state_machine_as_test

from doubtspec.invariants.catalog import CATALOG
from doubtspec.invariants.machines import Recorder, machine_for
from doubtspec.invariants.profiles import PROFILES
from doubtspec.invariants.throughput import bare_engine_steps, machine_steps
from doubtspec.model.game import Game

SMOKE_EXAMPLES = 10
"""The examples of each machine run when the suite runs the bodies once, untimed, as a smoke test of the machine with
and without the catalog (about 10 CPU-seconds in all, where the timed workloads cost 75); a timed run keeps the ci
profile's 600 examples, or 50 with every check on every step."""

RATES: dict[str, float] = {}
FASTEST: dict[str, float] = {}
"""Steps per second of each benchmark's fastest round: the round the neighbours disturbed least."""


CI_EXAMPLES = PROFILES["ci"].examples or 600
"""The examples of a timed machine run: the ci profile's."""


def _examples(benchmark: object, timed: int) -> int:
    """`timed` examples when the benchmark is timed, else `SMOKE_EXAMPLES`."""
    return SMOKE_EXAMPLES if getattr(benchmark, "disabled", False) else timed


def _rate(label: str, run: object, benchmark: object) -> None:
    """Steps per second of one call of `run` (the benchmark's mean when timed, else the single run)."""
    started = time.process_time()
    steps = benchmark(run)  # type: ignore[operator]
    elapsed = time.process_time() - started
    fastest = elapsed
    stats = getattr(benchmark, "stats", None)
    if stats is not None:
        elapsed, fastest = stats.stats.mean, stats.stats.min
    RATES[label] = steps / elapsed if elapsed > 0 else 0.0
    FASTEST[label] = steps / fastest if fastest > 0 else 0.0


@pytest.mark.benchmark(group="fuzz throughput")
def test_bare_engine_steps(benchmark: object, game: Game) -> None:
    _rate("bare", lambda: bare_engine_steps(game), benchmark)
    assert RATES["bare"] > 0


@pytest.mark.benchmark(group="fuzz throughput")
def test_machine_steps_full_catalog(benchmark: object, game: Game) -> None:
    examples = _examples(benchmark, CI_EXAMPLES)
    _rate("machine", lambda: machine_steps(game, CATALOG, examples), benchmark)
    assert RATES["machine"] > 0


def _every_step(game: Game, examples: int) -> int:
    """The machine with the whole catalog and every costly check on every step (`check_every=1`, and the `COSTLY`
    ones on every state they apply to: `costly_every=1`)."""
    recorder = Recorder()
    machine = machine_for(game, CATALOG, recorder, check_every=1, costly_every=1)
    run_state_machine_as_test(machine, settings=PROFILES["ci"].settings(database=None, max_examples=examples))
    return recorder.steps


@pytest.mark.benchmark(group="fuzz throughput")
def test_machine_steps_every_check_every_step(benchmark: object, game: Game) -> None:
    examples = _examples(benchmark, 50)
    _rate("every step", lambda: _every_step(game, examples), benchmark)
    assert RATES["every step"] > 0


@pytest.mark.benchmark(group="fuzz throughput")
def test_machine_steps_no_invariants(benchmark: object, game: Game) -> None:
    examples = _examples(benchmark, CI_EXAMPLES)
    _rate("harness", lambda: machine_steps(game, (), examples), benchmark)
    bare, machine, harness = RATES.get("bare"), RATES.get("machine"), RATES["harness"]
    every = RATES.get("every step")
    if bare and machine and every:
        print(f"\nbare engine: {bare:,.0f} steps/s; machine with the whole catalog (ci rates): {machine:,.0f} "
              f"steps/s ({bare / machine:.1f}x); every check on every step (50 examples): {every:,.0f} steps/s "
              f"({bare / every:.1f}x); machine with no invariants: {harness:,.0f} steps/s ({bare / harness:.1f}x)")
        best = FASTEST
        fastest = best["bare"]
        print(f"fastest rounds: bare engine {fastest:,.0f} steps/s; whole catalog (ci rates) "
              f"{fastest / best['machine']:.2f}x; every check on every step (50 examples) "
              f"{fastest / best['every step']:.2f}x; no invariants {fastest / best['harness']:.2f}x")
