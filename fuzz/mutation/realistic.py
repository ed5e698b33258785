"""Realistic rule bugs: each a small hand-made edit of the engine, fuzzed with `doubtspec fuzz --profile ci`.

cosmic-ray's operators change one token at a time; the bugs in `realistic/` are what a person writes
when they misread a rule: an amount off at a limit, a step done at the wrong moment, a card sent to the
wrong place, a ruling read the other way round (each file names the rule in its name; docs/fuzzing.md
lists them with the check that catches each). Every one is applied alone to a copy of `src/` and fuzzed
as `kill.py` fuzzes a cosmic-ray mutant (fixed seed, no example database, a CPU-second limit), so the
figures are comparable with the mutation samples'. One JSON line per bug, then a summary line.

    python fuzz/mutation/realistic.py [--limit CPU-SECONDS] [--seed N] [--cards FILE] [--shard I/K] [NAME-PREFIX ...]

`--seed` runs the fuzzer with another run seed than the ci profile's 0: the catalog was mended against seed 0's
games, so another seed asks whether a bug is caught by what its checks say or by one game that happened to show
it. `--cards` fuzzes on another card file than the shipped set, which asks the same of the shipped set's cards
(a bug that needs a card the file lacks may reach no game there). `--shard I/K` runs every K-th bug from the I-th
(I from 1), to split a run over processes.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from kill import DEFAULT_LIMIT, measure

HERE = Path(__file__).resolve().parent
BUGS = HERE / "realistic"
SOURCE = HERE.parent.parent / "src"


def run_one(diff: Path, limit: float, seed: int | None = None, cards: Path | None = None) -> dict[str, object]:
    """Apply `diff` to a copy of the source tree and fuzz the bugged engine."""
    with tempfile.TemporaryDirectory(prefix="doubtspec-realistic-") as tmp:
        tree = Path(tmp)
        shutil.copytree(SOURCE, tree / "src", ignore=shutil.ignore_patterns("__pycache__"))
        applied = subprocess.run(["git", "apply", str(diff)], cwd=tree, capture_output=True, text=True)
        if applied.returncode:
            return {"bug": diff.stem, "verdict": "not applied", "error": applied.stderr.strip()}
        return {"bug": diff.stem, **measure(limit, tree / "src", seed, cards)}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=float, default=DEFAULT_LIMIT, help="CPU seconds per bug")
    parser.add_argument("--seed", type=int, default=None, help="run seed of the fuzzer (default: the ci profile's)")
    parser.add_argument("--cards", type=Path, default=None, help="card file to fuzz on (default: the shipped set)")
    parser.add_argument("--shard", default="1/1", help="I/K: run every K-th bug from the I-th")
    parser.add_argument("names", nargs="*", help="run only the bugs whose file name starts with one of these")
    args = parser.parse_args(argv)
    diffs = sorted(d for d in BUGS.glob("*.diff") if not args.names or d.name.startswith(tuple(args.names)))
    index, count = (int(part) for part in args.shard.split("/"))
    diffs = diffs[index - 1::count]
    cards = args.cards.resolve() if args.cards else None  # the fuzzer runs in a folder of its own
    records = []
    for diff in diffs:
        record = run_one(diff, args.limit, args.seed, cards)
        records.append(record)
        print(json.dumps(record), flush=True)
    killed = [r for r in records if r["verdict"] in ("killed", "crashed")]
    cpu = [float(str(r["cpu"])) for r in killed]
    decisions = [int(str(r["decisions"])) for r in killed if "decisions" in r]
    summary: dict[str, object] = {
        "bugs": len(records), "detected": len(killed),
        "survived": [r["bug"] for r in records if r["verdict"] not in ("killed", "crashed")],
        "cpu_median": round(statistics.median(cpu), 1) if cpu else None, "cpu_max": max(cpu, default=None),
        "decisions_median": statistics.median(decisions) if decisions else None,
        "decisions_max": max(decisions, default=None),
    }
    print(json.dumps(summary))
    return 0 if len(killed) == len(records) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
