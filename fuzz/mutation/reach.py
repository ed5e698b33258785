"""Which mutants the ci fuzz run cannot reach: recorded as survivors without running them.

A fuzz run of the ci profile is deterministic (a fixed seed, no example database, `PYTHONHASHSEED`
fixed by `kill.py` and here). A mutant whose mutated statement the unmutated run never executes
(not even at import) runs exactly as the unmutated engine does, so its run would pass: it survives,
for want of reach rather than of a check. Running it would cost a whole clean ci run (about 40 CPU
seconds); instead one run of the unmutated engine under coverage.py lists the statements it
executes, and each sampled mutant outside them is written into the cosmic-ray session as survived,
with the verdict `unreached` (cosmic-ray's `exec` skips jobs that have a result).

A mutant is matched to the statement that holds its position (by the module's syntax tree). When
that cannot be decided (no statement holds it, e.g. a decorator line; a module not measured), the
mutant is run as usual. Unreached survivors still need triage: equivalent, or a gap in reach.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
HASH_SEED = "0"
"""`PYTHONHASHSEED` of every fuzz run of the mutation run (the coverage run and each mutant's)."""


def executed_lines(module_path: Path, out: Path) -> dict[str, set[int]]:
    """Run `doubtspec fuzz --profile ci` on the unmutated engine under coverage; the lines it executed, per file.

    Returns absolute file paths of `module_path` mapped to executed line numbers; writes the
    coverage data to `out/reach.coverage` and the run's CPU seconds to `out/reach.json`.
    """
    from coverage import CoverageData

    data_file = out / "reach.coverage"
    command = Path(sys.executable).parent / "doubtspec"
    env = dict(os.environ, PYTHONHASHSEED=HASH_SEED)
    before = os.times()
    with tempfile.TemporaryDirectory(prefix="doubtspec-reach-") as tmp:
        proc = subprocess.run([sys.executable, "-m", "coverage", "run", f"--data-file={data_file}",
                               f"--include={module_path.resolve()}/*", str(command), "fuzz", "--profile", "ci",
                               "--report-dir", str(Path(tmp) / "reports")], cwd=tmp, env=env,
                              capture_output=True, text=True)
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    (out / "reach.json").write_text(json.dumps({"exit": proc.returncode, "cpu": round(cpu, 2)}) + "\n")
    if proc.returncode != 0:
        raise SystemExit(f"the unmutated ci run failed under coverage (exit {proc.returncode}):\n{proc.stdout[-2000:]}")
    data = CoverageData(basename=str(data_file))
    data.read()
    return {str(Path(f).resolve()): set(data.lines(f) or ()) for f in data.measured_files()}


def statement_line(tree: ast.Module, line: int, column: int) -> int | None:
    """The first line of the innermost statement that holds (line, column), or None if none does."""
    best: ast.stmt | None = None
    for node in ast.walk(tree):
        if not isinstance(node, ast.stmt) or node.end_lineno is None or node.end_col_offset is None:
            continue
        holds = (node.lineno, node.col_offset) <= (line, column) < (node.end_lineno, node.end_col_offset)
        # A compound statement holds its body too: the innermost one is the one that starts last.
        if holds and (best is None or (node.lineno, node.col_offset) >= (best.lineno, best.col_offset)):
            best = node
    # A position in a definition's header (defaults, decorators' arguments) matches the definition,
    # which runs at import; one in its body matches a statement of the body.
    return None if best is None else best.lineno


def unreached(items: list[Any], executed: dict[str, set[int]]) -> list[Any]:
    """The work items whose mutated statement the unmutated run never executed."""
    trees: dict[str, ast.Module] = {}
    found = []
    for item in items:
        mutation = item.mutations[0]
        path = str((ROOT / str(mutation.module_path)).resolve())
        if path not in executed:
            continue
        if path not in trees:
            trees[path] = ast.parse(Path(path).read_text())
        line, column = mutation.start_pos
        first = statement_line(trees[path], line, column)
        if first is not None and first not in executed[path]:
            found.append(item)
    return found


def record_unreached(session: Path, module_path: Path, out: Path, marker: str) -> int:
    """Write every sampled, unrun mutant the unmutated ci run does not reach into the session as survived."""
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import TestOutcome, WorkerOutcome, WorkResult

    executed = executed_lines(module_path, out)
    with use_db(str(session), WorkDB.Mode.open) as db:
        done = {job for job, _ in db.results}
        pending = [item for item in db.work_items if item.job_id not in done]
        skipped = unreached(pending, executed)
        for item in skipped:
            record = {"verdict": "unreached", "cpu": 0.0, "wall": 0.0, "invariants": []}
            db.set_result(item.job_id, WorkResult(worker_outcome=WorkerOutcome.NORMAL,
                                                  test_outcome=TestOutcome.SURVIVED,
                                                  output=marker + json.dumps(record)))
    return len(skipped)
