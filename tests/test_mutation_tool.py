"""The mutation-testing run (fuzz/mutation/run.py over cosmic-ray) works end to end: slow, opt-in.

A copy of the sources is mutated (never the working tree), two mutants are drawn and each is fuzzed
with `doubtspec fuzz --profile ci` under a short CPU limit; the summary names each mutant with a
verdict. The real run, its sample and its results are in docs/fuzzing.md.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_a_small_sample_runs_and_is_summarized(tmp_path: Path) -> None:
    pytest.importorskip("cosmic_ray")
    copy = tmp_path / "repo"
    shutil.copytree(ROOT / "src", copy / "src", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "fuzz", copy / "fuzz", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", copy / "pyproject.toml")
    env = dict(os.environ, PYTHONPATH=str(copy / "src"))
    out = tmp_path / "run"
    subprocess.run([sys.executable, str(copy / "fuzz" / "mutation" / "run.py"), "--out", str(out), "--sample", "2",
                    "--limit", "20"], cwd=copy, env=env, check=True, capture_output=True, timeout=1200)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["sampled"] == 2 and summary["mutants"] > 1000
    assert {row["verdict"] for row in summary["rows"]} <= {"killed", "crashed", "survived", "timeout"}
    assert (out / "summary.md").read_text().startswith("Sample of 2 of ")


def test_a_sample_besides_an_earlier_one_shares_none_of_its_mutants() -> None:
    sys.path.insert(0, str(ROOT / "fuzz" / "mutation"))
    try:
        import run
    finally:
        sys.path.pop(0)
    modules = {"engine.py": 300, "legal.py": 120, "cards.py": 40, "steps.py": 3}
    jobs = {(module, "core/NumberReplacer", n): f"{module}-{n}" for module, count in modules.items()
            for n in range(count)}
    for stratify in (False, True):
        earlier = run.draw(jobs, 60, 1201, stratify)
        later = run.draw(jobs, 60, 1202, stratify, besides=(1201,))
        assert len(earlier) == len(later) == 60
        assert not earlier & later
        assert run.draw(jobs, 60, 1202, stratify) & earlier  # without `besides` the two overlap


REALISTIC = sorted((ROOT / "fuzz" / "mutation" / "realistic").glob("*.diff"))


@pytest.mark.parametrize("diff", REALISTIC, ids=lambda d: d.stem)
def test_every_realistic_bug_still_applies_to_the_engine(diff: Path) -> None:
    # A bug that no longer applies would drop out of `realistic.py`'s figures without a word.
    checked = subprocess.run(["git", "apply", "--check", str(diff)], cwd=ROOT, capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    assert all(line.startswith("+++ b/src/doubtspec/model/") for line in diff.read_text().splitlines()
               if line.startswith("+++ "))


@pytest.mark.slow
def test_a_realistic_bug_is_fuzzed_and_summarized() -> None:
    result = subprocess.run([sys.executable, str(ROOT / "fuzz" / "mutation" / "realistic.py"), "--limit", "60",
                             "13-"], capture_output=True, text=True, cwd=ROOT)
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert lines[0]["bug"].startswith("13-") and lines[0]["verdict"] == "killed", lines
    assert lines[-1]["bugs"] == 1 and lines[-1]["detected"] == 1
