"""A CPU-time limit on one engine step replayed outside a fuzz run.

A rule bug can make an engine step loop for ever. The fuzzer's own watchdog (`invariants.fuzzing`)
reports such a step as a `contract.no-crash` violation whose trace ends with the stuck step; every
later replay of that trace (the report's HTML page, `doubtspec replay`) must then stop at the step
instead of hanging in it. `cpu_limit` raises `StepStalled` inside the step once it has used more
than its share of CPU time (CPU, not wall time: a loaded machine must not turn a slow step into a
stuck one).
"""

from __future__ import annotations

import contextlib
import signal
import threading
import time
from collections.abc import Iterator

STEP_SECONDS = 5.0
"""CPU seconds after which a replayed step is called stuck (a step takes milliseconds)."""


class StepStalled(Exception):
    """A step used more than its CPU-time limit: it is stuck in a loop."""


@contextlib.contextmanager
def cpu_limit(what: str, seconds: float | None = None) -> Iterator[None]:
    """Raise `StepStalled` naming `what` if the body uses more than `seconds` of CPU time (`STEP_SECONDS`).

    Only in the main thread of a platform with `setitimer` (elsewhere the body runs unlimited); the
    previous SIGPROF handler and timer are restored afterwards, so a limit may run inside another.
    """
    limit = STEP_SECONDS if seconds is None else seconds
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(_signum: int, _frame: object) -> None:
        raise StepStalled(f"{what} used more than {limit:g} CPU seconds: it is stuck")

    previous = signal.signal(signal.SIGPROF, expire)
    started = time.process_time()
    outer_delay, outer_interval = signal.setitimer(signal.ITIMER_PROF, limit)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0.0)
        signal.signal(signal.SIGPROF, previous)
        if outer_delay or outer_interval:
            # The enclosing timer goes on from where it was, less the CPU time spent in here (if that
            # already took it past its end, it fires at once).
            left = outer_delay - (time.process_time() - started) if outer_delay else outer_interval
            signal.setitimer(signal.ITIMER_PROF, max(left, 1e-3), outer_interval)
