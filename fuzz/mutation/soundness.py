"""Soundness bugs in the solver's methods, run against the tests that check those methods against the engine.

A solver's "impossible by turn k" is a proof about the game only while every round the engine plays is a
transition of the abstraction it was proved in, and every fact and bound the provers assert holds in real games
(docs/solver.md, "Trust"). The bugs in `soundness/` are what a person editing `src/doubtspec/solver/` could write
that breaks exactly that: a bound one too tight, a zone left out of a sum, a rule read for the wrong round, a
lemma stated slightly too strong, a step of the exact unrolling that refuses or changes an engine step. Each
narrows a method, and each was shown to refuse rounds, steps, facts or bounds of games the engine played when it
was written, so every one would let the solver prove a false "no".

Each bug is applied alone to a copy of `src/` and the tests that check the method it edits (`tests_for`: for
the abstractions `SOUNDNESS_TESTS`, the default suite's part that checks them, the provers' facts and the cuts
against the engine; for the exact unrolling `UNROLLING_TESTS`, its steps against the engine's and its answers
against the exhaustive search; slow tests left out as the suite leaves them) are run against it, stopping at the
first failure. Hypothesis's seed is fixed (`--hypothesis-seed`, 0 unless given) and its example database is a
fresh folder per bug, so a run is repeatable and no bug's failing example helps another. One JSON line per bug,
then a summary line; the exit code is 0 when every bug is caught.

    python fuzz/mutation/soundness.py [--hypothesis-seed N] [--tests TEST ...] [--shard I/K] [NAME-PREFIX ...]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from triage import PYTEST_FAILED, PYTEST_INTERRUPTED, PYTEST_PASSED, first_failure

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
BUGS = HERE / "soundness"
SOUNDNESS_TESTS = (
    "tests/test_solver_abstraction_company.py",
    "tests/test_abstraction_movement.py",
    "tests/test_solver_abstraction_schedules.py",
    "tests/test_solver_profit_cut.py",
    "tests/test_solver_loops.py",
    "tests/test_solver_messaging.py",
    "tests/test_solver_agreement.py",
    "tests/test_solver_on_drawn_card_files.py",
)
"""The tests run against each bug in an abstraction, in this order (the cheap one-round admission checks first, so
that most bugs stop early)."""
UNROLLING_TESTS = (
    "tests/test_solver_transition.py",
    "tests/test_solver_movement.py",
    "tests/test_solver_agreement.py",
    "tests/test_solver_hunt.py",
    "tests/test_solver_queries.py",
)
"""The tests run against each bug in the exact unrolling (`solver/unrolling/`): its steps against the engine's,
state by state, its answers against the exhaustive search and its witnesses replayed through the engine."""


OWN_TESTS_FIRST = {
    "src/doubtspec/solver/unrolling/movement.py": "tests/test_solver_movement.py",
    "src/doubtspec/solver/abstraction/loops.py": "tests/test_solver_loops.py",
}
"""Modules whose own tests run first for a bug that edits only that module (the rest of its method's tests after
them): the unrolling's Movement side, and the shrink of looping plays, whose tests come late in `SOUNDNESS_TESTS`
behind minutes of others."""


def tests_for(diff: Path) -> list[str]:
    """The tests that check the method a bug edits: the unrolling's for a bug that edits only `solver/unrolling/`,
    else the abstractions'; a module's own tests first when it is the only one edited (`OWN_TESTS_FIRST`)."""
    edited = [line.split(" b/", 1)[1] for line in diff.read_text(encoding="utf-8").splitlines()
              if line.startswith("diff --git ")]
    if edited and all(path.startswith("src/doubtspec/solver/unrolling/") for path in edited):
        tests = list(UNROLLING_TESTS)
    else:
        tests = list(SOUNDNESS_TESTS)
    own = OWN_TESTS_FIRST.get(edited[0]) if len(set(edited)) == 1 else None
    if own is not None:
        tests = [own, *(t for t in tests if t != own)]
    return tests


def first_error(output: str) -> str | None:
    """What pytest's short summary (`-rE`) names first as an error: a test whose set-up failed, or a module whose
    collection did (a module-level check of the tests that the bug breaks: the suite is red all the same)."""
    for line in output.splitlines():
        if line.startswith("ERROR "):
            return "error in " + line[len("ERROR "):].split(" - ")[0].strip()
    return None


def run_one(diff: Path, tests: list[str], hypothesis_seed: int) -> dict[str, object]:
    """Apply `diff` to a copy of the source tree and run `tests` against it."""
    with tempfile.TemporaryDirectory(prefix="doubtspec-soundness-") as tmp:
        tree = Path(tmp)
        shutil.copytree(ROOT / "src", tree / "src", ignore=shutil.ignore_patterns("__pycache__"))
        applied = subprocess.run(["git", "apply", str(diff)], cwd=tree, capture_output=True, text=True)
        if applied.returncode:
            return {"bug": diff.stem, "verdict": "not applied", "error": applied.stderr.strip()}
        env = dict(os.environ, PYTHONPATH=str(tree / "src"), HYPOTHESIS_STORAGE_DIRECTORY=str(tree / "hypothesis"))
        before, started = os.times(), time.monotonic()
        done = subprocess.run([sys.executable, "-m", "pytest", "-n", "0", "-p", "no:cacheprovider", "-q", "-x",
                               "-rfE", "--tb=line", f"--hypothesis-seed={hypothesis_seed}", *tests],
                              cwd=ROOT, env=env, capture_output=True, text=True)
        after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    record: dict[str, object] = {"bug": diff.stem, "wall": round(time.monotonic() - started, 1),
                                 "cpu": round(cpu, 1)}
    caught = first_failure(done.stdout) or first_error(done.stdout)
    if done.returncode == PYTEST_PASSED:
        return record | {"verdict": "not caught"}
    if done.returncode in (PYTEST_FAILED, PYTEST_INTERRUPTED) and caught is not None:
        return record | {"verdict": "caught", "caught_by": caught}
    return record | {"verdict": f"tests did not run (pytest exit {done.returncode})", "output": done.stdout[-400:]}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hypothesis-seed", type=int, default=0, help="Hypothesis's seed for the tests")
    parser.add_argument("--tests", action="append", default=[], metavar="TEST",
                        help="run these tests (files or node ids) instead of the bug's (`tests_for`; repeatable)")
    parser.add_argument("--shard", default="1/1", help="I/K: run every K-th bug from the I-th")
    parser.add_argument("names", nargs="*", help="run only the bugs whose file name starts with one of these")
    args = parser.parse_args(argv)
    diffs = sorted(d for d in BUGS.glob("*.diff") if not args.names or d.name.startswith(tuple(args.names)))
    index, count = (int(part) for part in args.shard.split("/"))
    records = []
    for diff in diffs[index - 1::count]:
        record = run_one(diff, args.tests or tests_for(diff), args.hypothesis_seed)
        records.append(record)
        print(json.dumps(record), flush=True)
    caught = [r for r in records if r["verdict"] == "caught"]
    cpu = [float(str(r["cpu"])) for r in caught]
    summary: dict[str, object] = {
        "bugs": len(records), "caught": len(caught),
        "not caught": [r["bug"] for r in records if r["verdict"] != "caught"],
        "cpu_median": round(statistics.median(cpu), 1) if cpu else None, "cpu_max": max(cpu, default=None),
    }
    print(json.dumps(summary))
    return 0 if len(caught) == len(records) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
