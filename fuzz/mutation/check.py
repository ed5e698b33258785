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


def mutated_copy(module: str, operator: str, occurrence: int, into: Path) -> list[str]:
    """Copy `src/` into `into` and apply the mutant there; the changed lines, as a unified diff."""
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
        diff = mutated_copy(args.module, args.operator, args.occurrence, Path(tmp))
        if not diff:
            print(f"{args.module} {args.operator} {args.occurrence}: no such mutant (nothing changed)")
            return 2
        print("\n".join(diff), flush=True)
        env = dict(os.environ, PYTHONPATH=str(Path(tmp) / "src"))
        return subprocess.run([sys.executable, "-m", "pytest", "-n", "0", "-p", "no:cacheprovider", "-q",
                               *args.pytest_args], cwd=ROOT, env=env).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
