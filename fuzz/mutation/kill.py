"""One mutant's test command: run `doubtspec fuzz --profile ci` and say what it found, and when.

cosmic-ray runs this once per mutant with the mutated engine in place. It runs the fuzzer in a
fresh folder (no example database carried over from another mutant, no reports left behind),
stops it after the time limit, and prints one JSON line that `run.py` reads back from the session:
the verdict, wall and CPU seconds to the process's exit, the invariants that fired and the length
of the shortest report's trace (steps, and decisions: the steps that are not chance events).

The limit is CPU seconds of the fuzzer (`RLIMIT_CPU`), not wall seconds: on a shared machine the
wall clock measures the neighbours' load as much as the fuzzer (a wall limit of ten times as much
stops a fuzzer that waits on nothing). Both times are reported.

Exit status: 1 when the mutant was detected (a violation, or the command failed outright), 0 when
the fuzzer passed or ran out of time (cosmic-ray counts 0 as survived).

    python fuzz/mutation/kill.py [CPU-SECONDS]
"""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DEFAULT_LIMIT = 60.0
HASH_SEED = "0"
"""`PYTHONHASHSEED` of the fuzz run: with the ci profile's fixed seed the run is the same every time
(`reach.py` relies on it)."""


def _shortest_trace(reports: Path) -> dict[str, object]:
    best: dict[str, object] = {}
    for path in sorted(reports.glob("*/report.json")):
        report = json.loads(path.read_text())
        actions = report["trace"]["actions"]
        decisions = sum(1 for a in actions if not a.startswith("chance"))
        if not best or decisions < int(str(best["decisions"])):
            best = {"decisions": decisions, "steps": len(actions)}
    return best


def _cpu_limit(seconds: float) -> None:
    """In the child: stop it (SIGXCPU) after `seconds` of CPU time."""
    whole = max(1, int(seconds))
    resource.setrlimit(resource.RLIMIT_CPU, (whole, whole + 5))


def main(argv: list[str]) -> int:
    record = measure(float(argv[0]) if argv else DEFAULT_LIMIT)
    print("DOUBTSPEC-MUTANT " + json.dumps(record))
    return 1 if record["verdict"] in ("killed", "crashed") else 0


def measure(limit: float, source: Path | None = None) -> dict[str, object]:
    """Run the ci fuzz once (on the engine in `source`, a `src` folder, if given) and say what it found."""
    command = Path(sys.executable).parent / "doubtspec"
    env = dict(os.environ, PYTHONHASHSEED=HASH_SEED)
    if source is not None:
        env["PYTHONPATH"] = str(source)
    with tempfile.TemporaryDirectory(prefix="doubtspec-mutant-") as tmp:
        reports = Path(tmp) / "reports"
        before = os.times()
        started = time.monotonic()
        try:
            proc = subprocess.run([str(command), "fuzz", "--profile", "ci", "--report-dir", str(reports)],
                                  cwd=tmp, capture_output=True, text=True, timeout=10 * limit,
                                  env=env,
                                  preexec_fn=lambda: _cpu_limit(limit))
        except subprocess.TimeoutExpired:
            code, tail = None, ""
        else:
            code, tail = proc.returncode, (proc.stderr or proc.stdout)[-400:]
        wall = time.monotonic() - started
        after = os.times()
        cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
        fired = sorted(p.name.rsplit("-", 1)[0] for p in reports.glob("*") if p.is_dir()) if reports.exists() else []
        record: dict[str, object] = {"wall": round(wall, 2), "cpu": round(cpu, 2), "exit": code, "invariants": fired}
        if code is None or code in (-signal.SIGXCPU, -signal.SIGKILL):
            record["verdict"] = "timeout"
        elif code == 0:
            record["verdict"] = "survived"
        elif fired:
            record["verdict"] = "killed"
            record.update(_shortest_trace(reports))
        else:
            record["verdict"] = "crashed"
            record["error"] = tail
    return record


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
