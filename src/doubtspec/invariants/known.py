"""What a fuzzing run has met already: each state once, with the engine's answers about it.

Hypothesis meets most states of a run again: its target phase, its mutations of an example and its
shrinking replay an example's prefix, so the machine plays the same steps again and again (in the ci
profile's 600 examples, 95 engine steps of 100 repeat one played before; in 50 examples, 87). Two
records make a repeat cheap, both keyed by value, never by the actions that led to a state:

* **the states met** (`Met`): each state once, as a `Node` holding its hash (taken once), the engine's
  legal actions for it, the machine's steered choices among them, and the successor the engine gave for
  each action played from it. A step met again follows the node's successor instead of asking the engine;
  the engine is pure (`contract.purity` and `contract.replay` check that on the engine itself, never
  through this record), so its answer would be the same value.
* **the verdicts** (`GameMachine.clean`, in `machines`): the states, steps (`Step`) and games whose checks
  passed. Every check is a function of what it is given, so one met again passes again.

Both are `derived.memo()`s, emptied by `derived.forget` when a mutant changes the engine, and both start
again empty when full (`KNOWN_SIZE`).
"""

from __future__ import annotations

from collections.abc import Sequence

from doubtspec.invariants import derived
from doubtspec.model.actions import Action
from doubtspec.model.state import GameState

KNOWN_SIZE = 200_000
"""At most this many entries in either record; a full record starts again empty."""


class Node:
    """A state met in this run, with its hash and what the engine answered about it."""

    __slots__ = ("full", "hash", "legal", "pools", "state", "successors")

    def __init__(self, state: GameState, hashed: int) -> None:
        self.state = state
        self.hash = hashed
        self.full = False
        """Whether the `SAMPLED` checks were among those that passed (once the verdicts record this node)."""
        self.legal: tuple[Action, ...] | None = None
        """`engine.legal_actions(state)`, once asked."""
        self.pools: dict[object, Sequence[Action]] = {}
        """The machine's choices at this state, by its steering and the rule's kind of action."""
        self.successors: dict[Action, Node] = {}
        """The state the engine gave for each action played from this one."""

    def __hash__(self) -> int:
        return self.hash

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Node) and self.hash == other.hash and self.state == other.state)


class Step:
    """A step (before, action, after) as a key of the verdicts record."""

    __slots__ = ("action", "after", "before", "hash")

    def __init__(self, before: Node, action: Action, after: Node) -> None:
        self.before = before
        self.action = action
        self.after = after
        self.hash = hash((before.hash, action, after.hash))

    def __hash__(self) -> int:
        return self.hash

    def __eq__(self, other: object) -> bool:
        # The states are nodes of `Met`, so mostly a comparison of identity.
        return (isinstance(other, Step) and self.hash == other.hash and self.action == other.action
                and (self.before is other.before or self.before == other.before)
                and (self.after is other.after or self.after == other.after))


def remember(record: dict[object, object], key: object, value: object) -> None:
    """Record `key` in `record`, emptying a full record first (`KNOWN_SIZE`)."""
    if len(record) >= KNOWN_SIZE:
        record.clear()
    record[key] = value


class Met:
    """The states a machine class has met, one `Node` each, emptied by `derived.forget`."""

    def __init__(self) -> None:
        self.nodes = derived.memo()

    def node(self, state: GameState) -> Node | None:
        """The node of `state` (a new one the first time), or None when it cannot be hashed
        (`contract.hash-eq` reports that)."""
        try:
            probe = Node(state, hash(state))
        except Exception:
            return None
        nodes = self.nodes
        found = nodes.get(probe)
        if found is None:
            if len(nodes) >= KNOWN_SIZE:
                # Starting afresh: drop the old nodes' answers too, or their successors would keep the whole old
                # record alive through any node still held by the verdicts record or the machine.
                for old in nodes:
                    assert isinstance(old, Node)
                    old.legal, old.pools, old.successors = None, {}, {}
                nodes.clear()
            nodes[probe] = probe
            return probe
        assert isinstance(found, Node)
        return found
