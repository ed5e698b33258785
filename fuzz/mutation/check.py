"""Run chosen tests against one mutant: the triage of a mutant the fuzzer did not kill.

A survivor of `run.py` is read by asking which test, if any, fails with it applied. This applies the
mutant (cosmic-ray's module path, operator and occurrence, as `summary.json` names them) to a copy of
`src/` in a temporary folder (the working tree is never touched), prints the mutated lines, and runs
pytest on the given tests against the copy. The exit code is pytest's: 0 means the tests pass with the
mutant (they do not catch it), 1 that some test fails (caught).

    python fuzz/mutation/check.py src/doubtspec/model/engine.py core/AddNot 51 -- tests/test_engine_rules.py -x

Run it from the repository root with the `mutation` extra installed.
"""

from __future__ import annotations

import argparse
import difflib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


class DirtyEngine(RuntimeError):
    """The engine's modules in this checkout differ from its commit: a copy would carry that change too."""


def mutated_copy(module: str, operator: str, occurrence: int, into: Path) -> list[str]:
    """Copy `src/` into `into` and apply the mutant there; the changed lines, as a unified diff.

    Refused (`DirtyEngine`) when `src/doubtspec/model/` differs from the checkout's commit: `cosmic-ray exec`
    (`run.py`) writes each mutant into the working tree while it runs it, so a copy taken from a checkout with a
    run in progress holds that run's mutant beside this one (a triage run so misreported equivalent mutants as
    caught). Run the triage from another checkout of the same commit."""
    status = subprocess.run(["git", "status", "--porcelain", "--", "src/doubtspec/model"], cwd=ROOT,
                            capture_output=True, text=True)
    if status.returncode != 0:
        raise DirtyEngine(f"cannot tell whether {ROOT / 'src/doubtspec/model'} is as committed (git: "
                          f"{status.stderr.strip() or status.returncode}): run from a git checkout")
    if status.stdout.strip():
        raise DirtyEngine(f"{ROOT / 'src/doubtspec/model'} differs from its commit (a mutation run in progress, or "
                          "uncommitted changes): commit them, or run from another checkout")
    shutil.copytree(ROOT / "src", into / "src", ignore=shutil.ignore_patterns("__pycache__"))
    before = (into / module).read_text().splitlines()
    subprocess.run([sys.executable, "-m", "cosmic_ray.cli", "apply", module, operator, str(occurrence)],
                   cwd=into, check=True, capture_output=True)
    after = (into / module).read_text().splitlines()
    return [line for line in difflib.unified_diff(before, after, module, module, lineterm="", n=0)]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("module", help="the mutated module, as cosmic-ray names it (src/doubtspec/model/...)")
    parser.add_argument("operator", help="cosmic-ray's operator, e.g. core/AddNot")
    parser.add_argument("occurrence", type=int, help="the operator's occurrence in the module")
    parser.add_argument("pytest_args", nargs="*", help="the tests to run and pytest's options (after --)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        try:
            diff = mutated_copy(args.module, args.operator, args.occurrence, Path(tmp))
        except DirtyEngine as error:
            print(f"check.py: {error}", file=sys.stderr)
            return 2
        if not diff:
            print(f"{args.module} {args.operator} {args.occurrence}: no such mutant (nothing changed)")
            return 2
        print("\n".join(diff), flush=True)
        env = dict(os.environ, PYTHONPATH=str(Path(tmp) / "src"))
        return subprocess.run([sys.executable, "-m", "pytest", "-n", "0", "-p", "no:cacheprovider", "-q",
                               *args.pytest_args], cwd=ROOT, env=env).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
