"""Stopping cleanly on Ctrl-C (SIGINT) and SIGTERM.

The command line installs one handler for both signals (`installed`). It remembers the first
signal received and raises `KeyboardInterrupt`, so that every command stops the same way whatever
the signal; long-running work (the fuzzer) asks `received()` afterwards to tell a real interrupt
from one that a library caught and turned into something else, and skips work that would only be
confused by a half-played game. The exit code follows the shell's convention: 128 plus the signal
number (130 for SIGINT, 143 for SIGTERM).
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Callable, Iterator
from types import FrameType

_received: int | None = None


def received() -> int | None:
    """The first signal received since the handler was installed, or None."""
    return _received


def exit_code(default: int = signal.SIGINT) -> int:
    """The conventional exit status for the signal received: 128 + its number."""
    return 128 + int(_received if _received is not None else default)


_UNSAFE_FRAMES = frozenset({"gc_callback", "__del__"})
"""Functions in which an exception is printed and dropped by Python ("Exception ignored in ...")
instead of propagating: Hypothesis's garbage-collection timer and finalisers."""

REDELIVER_AFTER = 0.02
"""Seconds after which a signal that arrived in one of those functions is delivered again."""


_WRAPPER_PACKAGES = (f"{os.sep}z3{os.sep}",)
"""Python wrappers of extension modules whose objects a KeyboardInterrupt must not cut in half: an `AstRef`
interrupted between its C object and its `ctx` fails in its finaliser at exit ("Exception ignored in
AstRef.__del__", a traceback on stderr after the one line an interrupt prints)."""


def _inside_wrapper(frame: FrameType | None) -> bool:
    """Whether the interrupted code is the Python code of one of `_WRAPPER_PACKAGES` (the innermost frame)."""
    return frame is not None and any(package in frame.f_code.co_filename for package in _WRAPPER_PACKAGES)


def _inside_unsafe(frame: FrameType | None) -> bool:
    """Whether the interrupted code runs inside one of `_UNSAFE_FRAMES`, at any depth (an exception raised
    in a function a finaliser calls, as Z3's `AstRef.__del__` calls `Z3_dec_ref`, ends in the finaliser
    too), or in an extension's wrapper (`_inside_wrapper`)."""
    if _inside_wrapper(frame):
        return True
    while frame is not None:
        if frame.f_code.co_name in _UNSAFE_FRAMES:
            return True
        frame = frame.f_back
    return False


def _handler(signum: int, frame: FrameType | None) -> None:
    global _received
    if _received is None:
        _received = signum
    if _inside_unsafe(frame):
        # Raising here would print a traceback (and in a finaliser lose the interrupt): send the signal
        # again shortly, when the code has most likely left the finaliser or the wrapper.
        timer = threading.Timer(REDELIVER_AFTER, os.kill, (os.getpid(), signum))
        timer.daemon = True
        timer.start()
        return
    raise KeyboardInterrupt


def _record(signum: int, _frame: FrameType | None) -> None:
    global _received
    if _received is None:
        _received = signum


Handler = Callable[[int, FrameType | None], None]


@contextlib.contextmanager
def _handling(handler: Handler) -> Iterator[None]:
    """`handler` for SIGINT and SIGTERM while the block runs, forgetting earlier signals (main thread only)."""
    global _received
    _received = None
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {sig: signal.signal(sig, handler) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, before in previous.items():
            signal.signal(sig, before)


def record_only() -> None:
    """From now on, only record SIGINT and SIGTERM (main thread only; not undone).

    For the executable's start: while its modules are imported (an extension module's import must
    not be cut in half). A command installs `installed` over it.
    """
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, _record)


def ignored_from_now() -> None:
    """Ignore SIGINT and SIGTERM from now on (main thread only; not undone): for the moments after
    the command has finished, while the interpreter shuts down. (Python puts back the default
    action of a signal it handles when it shuts down, so `record_only` would not last until exit.)"""
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, signal.SIG_IGN)


def deferred() -> contextlib.AbstractContextManager[None]:
    """Only record SIGINT and SIGTERM while the block runs (for code that must not be cut in half,
    such as imports of extension modules); the caller checks `received()` afterwards."""
    return _handling(_record)


def installed() -> contextlib.AbstractContextManager[None]:
    """Handle SIGINT and SIGTERM as described in the module docstring while the block runs."""
    return _handling(_handler)
