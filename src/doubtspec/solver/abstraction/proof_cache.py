"""UNSAT answers kept on disk from one question to the next, keyed by the exact problem and the code's version.

Some checks of the star cut depend only on the card file and the round template, and cost the same on every
question: the box that makes CP-SAT's "no" a proof (`cpsat.prove_box`, 4-7 CPU-seconds), the Messaging caps
(`messaging_caps.prove_caps`, 4-6) and, when the facts before it come out the same, CP-SAT's ask of a round's star
bound (tens of CPU-seconds on `tests/data/large.toml`). The Profit cut's are the same kind: the loops' box
(`ScheduleProver._loop_box_allowed`, about 18) and CP-SAT's maxima (`cpsat.maximize`: a round's potential, the
measures, round 4's cases; several CPU-minutes in all on the shipped set). Each is an UNSAT answer about one set of
formulas (a maximum "at most B" is one: the formulas with the objective at least B + 1 have no solution within the
box). This store remembers such answers: a check whose key is stored is not made again.

**The key** is the SHA-256 of the problem's own text (each formula's S-expression, in order, with its
parameters), the Z3 version and the code's version (`code_version`: a hash of every source file of the
`doubtspec` package), so a changed card file, ruling, fact, lemma or line of code gives another key. Only UNSAT
answers are stored ("possible" and "undecided" depend on limits and seeds, and are made again), so what a stored
key stands for is a proof that was made, of exactly that problem, by exactly that code.

**A maximum's bound** is stored twice (`record_at_most`): the proof, "at most B", under the key of the maximum's
problem with the kind and B among its parameters (`at_most_key`), and beside it, under the key of the problem
without B, which B to look up (a pointer, never believed on its own: `known_at_most` believes a bound only when its
proof is stored too). A question after the first does not know B before it asks, so it needs the pointer; it keeps
the least bound recorded.

**Where.** `$DOUBTSPEC_PROOF_CACHE` if set (`off` disables the store), else `$XDG_CACHE_HOME/doubtspec/proofs`,
else `~/.cache/doubtspec/proofs`. One small file per answer, named by its key, written to a temporary file and
renamed into place, so an interrupted write leaves nothing half-written (at most a hidden temporary, which is
never read). Removing the folder clears it. A store that cannot be read or written only costs time: the
check is made as if nothing were stored. The test suite runs with the store off unless a test sets it.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import z3

import doubtspec
from doubtspec.reports.atomic import atomic_write_text

ENV = "DOUBTSPEC_PROOF_CACHE"
"""The environment variable naming the store's folder, or `off`."""
OFF = "off"
FORMAT = 1
"""Raised when what a stored file means changes."""


@dataclass(slots=True)
class Counts:
    """How often the store answered (hits) and was written (writes) in this process: for the tests and logs."""

    hits: int = 0
    writes: int = 0


COUNTS = Counts()


def directory() -> Path | None:
    """The store's folder, or None when it is switched off."""
    configured = os.environ.get(ENV)
    if configured is not None:
        return None if configured.strip().lower() in (OFF, "") else Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "doubtspec" / "proofs"


@cache
def code_version() -> str:
    """A hash of every Python source file of the `doubtspec` package (names and contents)."""
    root = Path(doubtspec.__file__).parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def key(kind: str, formulas: Iterable[z3.ExprRef], *parameters: object) -> str:
    """The key of one problem: what kind of check it is, its formulas in order and its parameters."""
    digest = hashlib.sha256()
    for part in (f"format {FORMAT}", z3.get_version_string(), code_version(), kind,
                 *(repr(parameter) for parameter in parameters)):
        digest.update(part.encode())
        digest.update(b"\0")
    for formula in formulas:
        digest.update(formula.sexpr().encode())
        digest.update(b"\0")
    return digest.hexdigest()


def key_when_on(kind: str, formulas: Iterable[z3.ExprRef], *parameters: object) -> str:
    """`key`, or "" when the store is switched off (nothing to look up or keep: the formulas are not printed, which
    for the star cut's CP-SAT ask costs about 0.3 CPU-seconds)."""
    return key(kind, formulas, *parameters) if directory() is not None else ""


def at_most_key(problem: str, bound: int) -> str:
    """The key of "the maximum with key `problem` (`key` of its kind, formulas, objective and parameters) is at most
    `bound`": the problem's formulas with its objective at least `bound` + 1 have no solution. "" when `problem` is
    "" (made while the store was off)."""
    return key("at most", (), problem, bound) if problem else ""


def _path(folder: Path, problem: str) -> Path:
    return folder / problem[:2] / f"{problem}.json"


def _read(problem: str, answer: str) -> dict[str, object] | None:
    """The stored entry for the problem with this key if it gives this kind of `answer` ("unsat", "at most"); None
    when the store is off, the key was made while it was off (""), or nothing readable of that kind is stored."""
    folder = directory()
    if folder is None or not problem:
        return None
    try:
        stored = json.loads(_path(folder, problem).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not (isinstance(stored, dict) and stored.get("format") == FORMAT and stored.get("answer") == answer):
        return None
    return stored


def _write(problem: str, entry: dict[str, object]) -> bool:
    """Store `entry` (with the format) for the problem with this key, whole or not at all; whether it was written."""
    folder = directory()
    if folder is None or not problem:  # "": a key made while the store was off
        return False
    try:
        atomic_write_text(_path(folder, problem), json.dumps({"format": FORMAT, **entry}) + "\n")
    except OSError:
        return False
    return True


def known_unsat(problem: str) -> bool:
    """Whether the problem with this key was proved UNSAT before (and the store is on)."""
    found = _read(problem, "unsat") is not None
    COUNTS.hits += found
    return found


def record_unsat(problem: str, what: str) -> None:
    """Remember that the problem with this key is UNSAT (`what`: a line saying which check it was)."""
    COUNTS.writes += _write(problem, {"answer": "unsat", "check": what})


def _kept_at_most(problem: str) -> int | None:
    """The bound the pointer under `problem` names, when its proof is stored as well (not counted as taken)."""
    pointer = _read(problem, "at most")
    bound = None if pointer is None else pointer.get("bound")
    if not isinstance(bound, int) or isinstance(bound, bool) or _read(at_most_key(problem, bound), "unsat") is None:
        return None
    return bound


def known_at_most(problem: str) -> int | None:
    """The least bound stored for the maximum with key `problem` (see `at_most_key`), or None: read from the
    pointer kept under `problem` and believed only when its proof is stored as well. A bound found counts as one
    proof taken."""
    bound = _kept_at_most(problem)
    COUNTS.hits += bound is not None
    return bound


def record_at_most(problem: str, bound: int, what: str) -> None:
    """Remember that the maximum with key `problem` is at most `bound` (CP-SAT refuted every larger value within
    the box): its proof under `at_most_key`, then the pointer to it under `problem`, unless a bound as low is kept."""
    if directory() is None or not problem:
        return
    known = _kept_at_most(problem)  # a look before writing: no proof taken
    if known is not None and known <= bound:
        return
    record_unsat(at_most_key(problem, bound), what)
    _write(problem, {"answer": "at most", "bound": bound, "check": what})
