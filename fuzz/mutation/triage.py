"""Which tests catch the mutants the fuzzer let through: the first pass of a survivor's triage.

`run.py` measures each mutant against `doubtspec fuzz --profile ci`. A survivor is then read: is it equivalent,
a gap in the catalog, or a change the fuzzer cannot see (the card loader's checks, error texts, `simulate`'s
playouts) that a test catches? This answers the last question for every survivor of a session at once. Each
mutant the fuzzer did not detect (survived a whole ci run, or never reached by it) is applied to a copy of `src/`
(`check.mutated_copy`; the working tree is never touched) and the tests that `[tool.doubtspec.mutation.tests]`
in pyproject.toml names for its module are run against it, stopping at the first failure. What no test catches
is left for reading: an equivalent mutant (say why) or a gap (close it with an invariant or a test).

    python fuzz/mutation/triage.py --out DIR [--tests TEST ...]   # DIR: a folder run.py wrote

It writes `triage.json` (one record per mutant: its name, the changed lines, the failing test or none) and
`triage.md` (the mutants no test catches first) beside the summary, each rewritten whole after every mutant
through a temporary file, so an interrupted triage keeps what it found and `--out` again goes on from there.
Run it from the repository root with the `mutation` extra installed.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
NOT_DETECTED = ("survived", "unreached")
"""The verdicts of run.py that mean the fuzzer did not detect the mutant (annotations are never evaluated)."""
FALLBACK = "*"
"""The key of the tests run for a module the table does not name."""
PYTEST_PASSED, PYTEST_FAILED, PYTEST_INTERRUPTED = 0, 1, 2
"""pytest's exit codes: all passed, some failed, interrupted (a collection error among the causes)."""


def tests_by_module() -> dict[str, list[str]]:
    """`[tool.doubtspec.mutation.tests]`: the test files to run against a mutant, by module file name."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    table = data["tool"]["doubtspec"]["mutation"]["tests"]
    return {module: list(files) for module, files in table.items()}


def tests_for(module: str, table: dict[str, list[str]]) -> list[str]:
    """The tests for one mutated module (`src/doubtspec/model/cards.py` or `cards.py`)."""
    return table.get(Path(module).name, table[FALLBACK])


def name(row: dict[str, Any]) -> str:
    """A mutant's name as run.py's `--only` takes it: file, operator and occurrence."""
    return f"{Path(row['module']).name}:{row['operator']}:{row['occurrence']}"


def first_failure(output: str) -> str | None:
    """The node id of the first test pytest's short summary (`-rf`) names as failed, if any."""
    for line in output.splitlines():
        if line.startswith("FAILED "):
            return line[len("FAILED "):].split(" - ")[0].strip()
    return None


def triage_one(row: dict[str, Any], tests: list[str]) -> dict[str, Any]:
    """Run `tests` against one mutant; the record of what happened."""
    from check import mutated_copy

    record: dict[str, Any] = {"mutant": name(row), "line": row["line"], "verdict": row["verdict"], "tests": tests}
    with tempfile.TemporaryDirectory() as tmp:
        diff = mutated_copy(row["module"], row["operator"], int(row["occurrence"]), Path(tmp))
        record["diff"] = [line for line in diff if line[:1] in "+-" and line[:3] not in ("+++", "---")]
        if not diff:
            return record | {"caught_by": None, "outcome": "not applied (the sources changed since the run)"}
        env = dict(os.environ, PYTHONPATH=str(Path(tmp) / "src"))
        done = subprocess.run([sys.executable, "-m", "pytest", "-n", "0", "-p", "no:cacheprovider", "-q", "-x",
                               "-rf", "--tb=no", *tests], cwd=ROOT, env=env, capture_output=True, text=True)
    caught = first_failure(done.stdout)
    if done.returncode == PYTEST_PASSED:
        outcome = "not caught: read it"
    elif done.returncode == PYTEST_FAILED and caught is not None:
        outcome = "caught"
    elif done.returncode == PYTEST_INTERRUPTED and "error" in done.stdout.lower():
        # The mutant broke the import of what the tests collect: every one of them fails.
        caught, outcome = "(collection error)", "caught"
    else:  # no tests collected, a usage or internal error: nothing was learnt about the mutant
        caught, outcome = None, f"tests did not run (pytest exit {done.returncode}): read it"
    return record | {"caught_by": caught, "outcome": outcome}


def _write(path: Path, text: str) -> None:
    partial = path.with_name(f".{path.name}.partial")
    partial.write_text(text)
    partial.replace(path)


def write(out: Path, records: list[dict[str, Any]]) -> None:
    """triage.json and triage.md, the mutants no test catches first."""
    ordered = sorted(records, key=lambda r: (r["outcome"] == "caught", r["mutant"]))
    _write(out / "triage.json", json.dumps(ordered, indent=1) + "\n")
    missed = sum(1 for r in records if r["outcome"] != "caught")
    lines = [f"{len(records)} mutants the fuzzer did not detect, run against the tests: "
             f"{len(records) - missed} caught by a test, {missed} caught by none (read these).", "",
             "| mutant | line | verdict | change | caught by |", "|---|---|---|---|---|"]
    for r in ordered:
        change = " / ".join(line[1:].strip() for line in r["diff"] if line.startswith("+"))
        lines.append(f"| {r['mutant']} | {r['line']} | {r['verdict']} | `{change}` | "
                     f"{r['caught_by'] or r['outcome']} |")
    _write(out / "triage.md", "\n".join(lines) + "\n")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="a folder run.py wrote (its summary.json)")
    parser.add_argument("--tests", action="append", default=[], metavar="TEST",
                        help="run these tests (files or node ids) against every mutant instead of the table's "
                             "(repeatable)")
    args = parser.parse_args(argv)
    out: Path = args.out
    rows = json.loads((out / "summary.json").read_text())["rows"]
    table = {FALLBACK: args.tests} if args.tests else tests_by_module()
    done_path = out / "triage.json"
    records: list[dict[str, Any]] = json.loads(done_path.read_text()) if done_path.exists() else []
    seen = {r["mutant"] for r in records}
    pending = [row for row in rows if row["verdict"] in NOT_DETECTED and name(row) not in seen]
    for index, row in enumerate(pending, 1):
        record = triage_one(row, tests_for(row["module"], table))
        records.append(record)
        write(out, records)
        print(f"[{index}/{len(pending)}] {record['mutant']}: {record['caught_by'] or record['outcome']}", flush=True)
    write(out, records)
    return 0


if __name__ == "__main__":
    from check import DirtyEngine

    try:
        sys.exit(main(sys.argv[1:]))
    except KeyboardInterrupt:  # what was triaged is on disk already (each record is written whole)
        sys.exit(130)
    except DirtyEngine as error:
        print(f"triage.py: {error}", file=sys.stderr)
        sys.exit(2)
