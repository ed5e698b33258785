"""Time the hand-written mutants (`invariants/mutants/`) under the ci profile: to the first finding and to exit.

Each mutant is fuzzed in-process with `doubtspec fuzz --profile ci`'s settings (`run_sweep`, no example
database), one after another in this process. Per mutant it prints one JSON line: whether an invariant
it names was reported, CPU seconds to the first violation and to the run's exit (`time.process_time`,
so the neighbours' load on a shared machine does not count), wall seconds to exit, the shrunk trace's
decisions and steps, and whether shrinking was cut by the profile's bound. A summary line ends the
output (medians, p90 and maxima).

    python fuzz/mutation/handwritten.py [--out FILE.jsonl] [NAME ...]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from doubtspec.invariants.fuzzing import FuzzOptions
from doubtspec.invariants.machines import Recorder, Violation
from doubtspec.invariants.mutants import MUTANTS
from doubtspec.invariants.profiles import PROFILES
from doubtspec.invariants.ruling_sweep import run_sweep
from doubtspec.model.game import Game


class _FirstFinding(Recorder):
    """A recorder that notes the CPU time of the first violation recorded."""

    first_cpu: float | None = None

    def record(self, violation: Violation) -> None:
        if self.first_cpu is None:
            self.first_cpu = time.process_time()
        super().record(violation)


def measure(name: str, game: Game) -> dict[str, Any]:
    """Fuzz one mutant with the ci profile and say what was found, and when."""
    mutant = MUTANTS[name]
    recorder = _FirstFinding()
    cpu0, wall0 = time.process_time(), time.monotonic()
    with mutant.active():
        result = run_sweep(FuzzOptions(game, profile=PROFILES["ci"], database=None), recorder).total
    cpu, wall = time.process_time() - cpu0, time.monotonic() - wall0
    found = {v.invariant.id: v for v in result.violations}
    caught = [found[i] for i in mutant.caught_by if i in found]
    best = min(caught or list(found.values()), key=lambda v: v.decisions, default=None)
    return {"mutant": name, "caught": bool(caught), "invariants": sorted(found),
            "first_cpu": None if recorder.first_cpu is None else round(recorder.first_cpu - cpu0, 2),
            "cpu": round(cpu, 2), "wall": round(wall, 2),
            "decisions": None if best is None else best.decisions, "steps": None if best is None else best.step,
            "shrink_seconds": round(result.shrink_seconds, 2), "shrink_cut": result.shrink_cut}


def _spread(values: list[float]) -> str:
    if not values:
        return "-"
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return f"median {statistics.median(ordered):g}, p90 {p90:g}, max {ordered[-1]:g}"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="mutants to time (default: all)")
    parser.add_argument("--out", type=Path, help="also write the JSON lines to this file")
    args = parser.parse_args(argv)
    game = Game.load()
    rows = []
    for name in args.names or sorted(MUTANTS):
        row = measure(name, game)
        rows.append(row)
        print(json.dumps(row), flush=True)
    summary = {"mutants": len(rows), "caught": sum(r["caught"] for r in rows),
               "first_cpu": _spread([r["first_cpu"] for r in rows if r["first_cpu"] is not None]),
               "cpu_to_exit": _spread([r["cpu"] for r in rows]), "wall_to_exit": _spread([r["wall"] for r in rows]),
               "decisions": _spread([r["decisions"] for r in rows if r["decisions"] is not None]),
               "shrink_cut": sum(r["shrink_cut"] for r in rows)}
    print(json.dumps(summary), flush=True)
    if args.out is not None:
        args.out.write_text("".join(json.dumps(r) + "\n" for r in [*rows, summary]))
    return 0 if all(r["caught"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
