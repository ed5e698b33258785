"""One mutant's test command: run `doubtspec fuzz --profile ci` and say what it found, and when.

cosmic-ray runs this once per mutant with the mutated engine in place. It runs the fuzzer in a
fresh folder (no example database carried over from another mutant, no reports left behind),
stops it after the time limit, and prints one JSON line that `run.py` reads back from the session:
the verdict, wall and CPU seconds to the process's exit, the invariants that fired and the length
of the shortest report's trace (steps, and decisions: the steps that are not chance events).

The limit is CPU seconds of the fuzzer (`RLIMIT_CPU`), not wall seconds: on a shared machine the
wall clock measures the neighbours' load as much as the fuzzer. A fuzzer that waits on nothing never
reaches a CPU limit, so it is also stopped after `STALL` seconds asleep without gaining CPU time
(`_run`); a fuzzer that is starved by other work (runnable, or stopped by hand) is left to run, so
the verdict does not depend on the machine's load. Where `/proc` cannot be read, a wall limit of ten
times the CPU limit stands in. Both times are reported.

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
STALL = 120.0
"""Wall seconds the fuzzer may sleep without gaining CPU time before it counts as stuck (a timeout)."""
POLL = 1.0
"""Wall seconds between two looks at the fuzzer's CPU time and state."""


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


def _cpu_and_state(pid: int) -> tuple[float, str] | None:
    """The CPU seconds the process `pid` has used (its own and its waited-for children's) and its state letter
    (`R` runnable, `S`/`D` asleep, `T` stopped, ...), from `/proc`; None where that cannot be read."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # The command name (field 2) is in parentheses and may hold spaces: count fields after its end.
    fields = stat[stat.rindex(")") + 2:].split()
    ticks = sum(int(field) for field in fields[11:15])  # utime, stime, cutime, cstime (fields 14-17)
    return ticks / os.sysconf("SC_CLK_TCK"), fields[0]


def _run(argv: list[str], cwd: str, env: dict[str, str], limit: float, stall: float = STALL,
         poll: float = POLL) -> tuple[int | None, str, str]:
    """Run `argv` under a CPU limit of `limit` seconds; its exit code (None when stopped as stuck), stdout, stderr.

    The child is stopped as stuck once it has spent `stall` seconds asleep (state `S` or `D`) without its CPU
    time growing. Runnable and stopped time does not count, nor does time this watcher itself did not run
    (a gap between two looks counts as two polls at most), so a fuzzer on a loaded machine runs to its verdict.
    """
    proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: _cpu_limit(limit))
    started = last = time.monotonic()
    used, asleep = -1.0, 0.0
    while True:
        try:
            out, err = proc.communicate(timeout=poll)
        except subprocess.TimeoutExpired:
            pass
        else:
            return proc.returncode, out, err
        now = time.monotonic()
        gap, last = min(now - last, 2 * poll), now
        seen = _cpu_and_state(proc.pid)
        if seen is None:
            stuck = now - started > 10 * limit
        else:
            cpu, state = seen
            asleep = 0.0 if cpu > used else asleep + (gap if state in ("S", "D") else 0.0)
            used = max(used, cpu)
            stuck = asleep > stall
        if stuck:
            proc.kill()
            proc.communicate()
            return None, "", ""


def main(argv: list[str]) -> int:
    record = measure(float(argv[0]) if argv else DEFAULT_LIMIT)
    print("DOUBTSPEC-MUTANT " + json.dumps(record))
    return 1 if record["verdict"] in ("killed", "crashed") else 0


def measure(limit: float, source: Path | None = None, seed: int | None = None,
            cards: Path | None = None) -> dict[str, object]:
    """Run the ci fuzz once (on the engine in `source`, a `src` folder, if given; with the run seed `seed`, if
    given, else the ci profile's; on the card file `cards`, if given, else the shipped set) and say what it
    found."""
    command = Path(sys.executable).parent / "doubtspec"
    env = dict(os.environ, PYTHONHASHSEED=HASH_SEED)
    if source is not None:
        env["PYTHONPATH"] = str(source)
    with tempfile.TemporaryDirectory(prefix="doubtspec-mutant-") as tmp:
        reports = Path(tmp) / "reports"
        before = os.times()
        started = time.monotonic()
        argv = [str(command), "fuzz", "--profile", "ci", "--report-dir", str(reports)]
        if seed is not None:
            argv += ["--seed", str(seed)]
        if cards is not None:
            argv += ["--cards", str(cards)]
        code, out, err = _run(argv, tmp, env, limit)
        tail = (err or out)[-400:]
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
