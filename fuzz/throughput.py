"""The fuzzing throughput benchmark's ratios, timed in interleaved rounds so that the load cannot tilt them.

`tests/test_bench_fuzz.py` times each body in its own block of rounds, so on a shared machine a neighbour's job
that starts or stops between two blocks moves one rate and not the other. Here each round times the bare engine,
the machine with the whole catalog (ci rates) and the machine with no invariants in turn, on the same bodies as
the benchmark (20 seeded games with the machine's steering; the ci profile's run of 600 examples), and prints each
round's ratios to the bare engine and their medians. To compare two commits, run it from both at the same time,
one process each:

    PYTHONPATH=<checkout>/src python fuzz/throughput.py [ROUNDS] [LABEL]
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable

from doubtspec.invariants.catalog import CATALOG
from doubtspec.invariants.throughput import bare_engine_steps, machine_steps
from doubtspec.model.cards import load_cards
from doubtspec.model.game import Game

BARE_REPEATS = 10
"""The bare engine's games are played this many times a round: once they take a fifth of a CPU-second, which a
neighbour's job can stretch by half (rounds of one call ranged from 22,757 to 42,181 steps a second)."""


def rate(run: Callable[[], int]) -> float:
    """Steps per CPU second of one call of `run`."""
    started = time.process_time()
    steps = run()
    return steps / max(time.process_time() - started, 1e-9)


def main(argv: list[str]) -> None:
    rounds = int(argv[0]) if argv else 8
    label = argv[1] if len(argv) > 1 else "run"
    game = Game(load_cards())
    catalog: list[float] = []
    harness: list[float] = []
    for index in range(rounds):
        bare = rate(lambda: sum(bare_engine_steps(game) for _ in range(BARE_REPEATS)))
        machine = rate(lambda: machine_steps(game, CATALOG))
        alone = rate(lambda: machine_steps(game, ()))
        catalog.append(bare / machine)
        harness.append(bare / alone)
        print(f"{label} round {index}: bare engine {bare:,.0f} steps/s; whole catalog {machine:,.0f} "
              f"({bare / machine:.2f}x); no invariants {alone:,.0f} ({bare / alone:.2f}x)", flush=True)
    print(f"{label} median of {rounds} rounds: whole catalog {statistics.median(catalog):.2f}x, "
          f"no invariants {statistics.median(harness):.2f}x", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
