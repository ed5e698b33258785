"""Which mutants the ci fuzz run cannot reach: recorded as survivors without running them.

A fuzz run of the ci profile is deterministic (a fixed seed, no example database, `PYTHONHASHSEED`
fixed by `kill.py` and here). A mutant whose mutated statement the unmutated run never executes
(not even at import) runs exactly as the unmutated engine does, so its run would pass: it survives,
for want of reach rather than of a check. Running it would cost a whole clean ci run (about 40 CPU
seconds); instead one run of the unmutated engine under coverage.py lists the statements it
executes, and each sampled mutant outside them is written into the cosmic-ray session as survived,
with the verdict `unreached` (cosmic-ray's `exec` skips jobs that have a result).

A mutant is matched to the statement that holds its position (by the module's syntax tree). When
that cannot be decided (no statement holds it, e.g. a decorator line), the mutant is run as usual. A
module the run never imports executes none of its lines: its mutants are unreached. Unreached
survivors still need triage: equivalent, or a gap in reach.

A mutant inside a function's signature annotations (`Outcome | None` made `Outcome % None`) in a
module with `from __future__ import annotations` is recorded the same way, with the verdict
`annotation`: such annotations stay strings that nothing evaluates (`ANNOTATION_READERS` are not used
anywhere in the package: checked before a run). So is one in the annotation of an assignment in a
function's body (`self.company: tuple[CompanyCard | None, ...] = ...`): Python never evaluates those,
postponed or not, nor stores them. Annotations of dataclass fields, class bodies and module-level
aliases are evaluated by some readers, so those mutants are run.
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
    return lines_by_file(data, module_path)


def lines_by_file(data: Any, module_path: Path) -> dict[str, set[int]]:
    """The executed lines of each file of `module_path` in coverage `data` (a `CoverageData`).

    A file of the package the run never imported is not among coverage's measured files: none of its
    lines ran (not even its imports), so it maps to no lines and its mutants are `unreached` too,
    where leaving it out would run each of them for a whole ci run that cannot differ.
    """
    executed = {str(Path(f).resolve()): set(data.lines(f) or ()) for f in data.measured_files()}
    for path in sorted(module_path.resolve().rglob("*.py")):
        executed.setdefault(str(path), set())
    return executed


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


ANNOTATION_READERS = ("get_type_hints", "eval_str", "__annotations__", "from_type", "builds(")
"""What would evaluate a function's annotations; none may appear in the package for `annotation` verdicts."""


def _body_annotations(body: list[ast.stmt]) -> list[ast.expr]:
    """The annotations of assignments in a function's body, its nested blocks included; a class or function
    defined inside is left out (its own rules apply; a nested function is visited on its own)."""
    found: list[ast.expr] = []
    for statement in body:
        if isinstance(statement, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        if isinstance(statement, ast.AnnAssign):
            found.append(statement.annotation)
        for field in ("body", "orelse", "finalbody"):
            found += _body_annotations(getattr(statement, field, []))
        for handler in getattr(statement, "handlers", []):
            found += _body_annotations(handler.body)
        for case in getattr(statement, "cases", []):
            found += _body_annotations(case.body)
    return found


def in_unevaluated_annotation(tree: ast.Module, line: int, column: int) -> bool:
    """Whether (line, column) lies in an annotation nothing evaluates: a function's parameter or return
    annotation in a module whose annotations are postponed (`from __future__ import annotations`), or the
    annotation of an assignment in a function's body (never evaluated)."""
    postponed = any(isinstance(node, ast.ImportFrom) and node.module == "__future__"
                    and any(alias.name == "annotations" for alias in node.names) for node in tree.body)
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        annotations = _body_annotations(node.body)
        if postponed:
            arguments = node.args
            every = (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg,
                     arguments.kwarg)
            annotations += [a.annotation for a in every if a is not None and a.annotation is not None]
            annotations += [node.returns] if node.returns is not None else []
        for annotation in annotations:
            end = (annotation.end_lineno or annotation.lineno, annotation.end_col_offset or 0)
            if (annotation.lineno, annotation.col_offset) <= (line, column) < end:
                return True
    return False


def annotations_read(package: Path) -> list[str]:
    """Files of the package that use something that evaluates annotations (`ANNOTATION_READERS`)."""
    return sorted(str(path) for path in package.rglob("*.py")
                  if any(reader in path.read_text() for reader in ANNOTATION_READERS))


def in_annotations(items: list[Any]) -> list[Any]:
    """The work items whose mutation lies in an annotation nothing evaluates (see `in_unevaluated_annotation`)."""
    trees: dict[str, ast.Module] = {}
    found = []
    for item in items:
        mutation = item.mutations[0]
        path = str((ROOT / str(mutation.module_path)).resolve())
        if path not in trees:
            trees[path] = ast.parse(Path(path).read_text())
        if in_unevaluated_annotation(trees[path], *mutation.start_pos):
            found.append(item)
    return found


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


def record_unreached(session: Path, module_path: Path, out: Path, marker: str, measure: bool = True) -> int:
    """Write every sampled, unrun mutant that cannot change the ci run into the session as survived: those in
    an annotation nothing evaluates (verdict `annotation`) and, when `measure`, those the unmutated ci run
    does not reach (`unreached`; one run under coverage). Returns how many were written."""
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import TestOutcome, WorkerOutcome, WorkResult

    readers = annotations_read(ROOT / "src" / "doubtspec")
    executed = executed_lines(module_path, out) if measure else {}
    written = 0
    with use_db(str(session), WorkDB.Mode.open) as db:
        done = {job for job, _ in db.results}
        pending = [item for item in db.work_items if item.job_id not in done]
        verdicts = {item.job_id: "unreached" for item in unreached(pending, executed)}
        if not readers:
            verdicts.update({item.job_id: "annotation" for item in in_annotations(pending)})
        for job, verdict in verdicts.items():
            record = {"verdict": verdict, "cpu": 0.0, "wall": 0.0, "invariants": []}
            db.set_result(job, WorkResult(worker_outcome=WorkerOutcome.NORMAL, test_outcome=TestOutcome.SURVIVED,
                                          output=marker + json.dumps(record)))
            written += 1
    return written
