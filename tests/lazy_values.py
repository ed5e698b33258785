"""Module-level tables of costly values (proved bounds, cuts, solvers), computed on first use.

Every test worker imports every test module when it collects, whichever files it then runs (the suite runs on two
workers, `--dist loadfile`). A proof made at import is paid by both workers, and before the first test: about a
minute of the suite's wall time when the solver's test modules built their provers that way. A `LazyTable` keeps the
module's `TABLE[key]` reads and its keys (for parameters and strategies) but makes each value only when a test of
the worker that runs the file first asks for it, once per process.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


class LazyTable(Mapping[K, V]):
    """A read-only mapping whose value for a key is `make(key)`, made on the first read of that key."""

    def __init__(self, keys: Iterable[K], make: Callable[[K], V]) -> None:
        self._keys = tuple(keys)
        self._make = make
        self._made: dict[K, V] = {}

    def __getitem__(self, key: K) -> V:
        if key not in self._made:
            if key not in self._keys:
                raise KeyError(key)
            self._made[key] = self._make(key)
        return self._made[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)
