"""What a mutant is: a named breakage of the engine, the invariants that must catch it, and its patches."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from doubtspec.invariants import catalog, corpus

Patch = tuple[object, str, Any]
"""(module or class, attribute name, replacement)."""


@dataclass(frozen=True, slots=True)
class Mutant:
    """One deliberate breakage: what it does, which invariants must catch it, and its patches."""

    name: str
    description: str
    caught_by: tuple[str, ...]
    patches: Callable[[], tuple[Patch, ...]]

    @contextmanager
    def active(self) -> Iterator[Mutant]:
        """Apply the patches for the duration of the block (not thread-safe: the engine is global)."""
        saved = []
        try:
            for owner, name, replacement in self.patches():
                saved.append((owner, name, getattr(owner, name)))
                setattr(owner, name, replacement)
            catalog.forget()
            corpus.forget()
            yield self
        finally:
            for owner, name, original in reversed(saved):
                setattr(owner, name, original)
            catalog.forget()
            corpus.forget()
