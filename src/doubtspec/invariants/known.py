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
* **the verdicts**: which checks passed on each state (`Node.checked`) and on each step (`Edge.checked`, the
  step from a node by one action), and (`GameMachine.clean`, in `machines`) the games whose checks passed.
  Every check is a function of what it is given, so one met again passes again.

Both are emptied by `derived.forget` when a mutant changes the engine (`Met.nodes` and `GameMachine.clean` are
`derived.memo()`s; the verdicts of states and steps live on the nodes), and both start again empty when full
(`KNOWN_SIZE`).
"""

from __future__ import annotations

from collections.abc import Sequence

from doubtspec.invariants import derived
from doubtspec.model.actions import Action
from doubtspec.model.state import GameState

KNOWN_SIZE = 200_000
"""At most this many entries in either record; a full record starts again empty."""


class Node:
    """A state met in this run, with its hash, what the engine answered about it and which checks passed on it."""

    __slots__ = ("applies", "checked", "hash", "legal", "pools", "state", "successors")

    def __init__(self, state: GameState, hashed: int) -> None:
        self.state = state
        self.hash = hashed
        self.checked = 0
        """The sets of state checks that passed on this state, as the machine's bits (`machines.GameMachine`)."""
        self.applies: int | None = None
        """The bits of the machine's costly checks that apply to this state, once asked."""
        self.legal: tuple[Action, ...] | None = None
        """`engine.legal_actions(state)`, once asked."""
        self.pools: dict[object, Sequence[Action]] = {}
        """The machine's choices at this state, by its steering and the rule's kind of action."""
        self.successors: dict[Action, Edge] = {}
        """The step the engine gave for each action played from this state."""

    def __hash__(self) -> int:
        return self.hash

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Node) and self.hash == other.hash and self.state == other.state)


class Edge:
    """A step met in this run: the successor the engine gave for one action from a node, and which checks passed.

    A step is (before, action, after) by value: the node it hangs from is its state before (one node per state
    value), the action is its key there, and its successor is the engine's first answer (the engine is pure), so
    the step's verdict can live on it."""

    __slots__ = ("after", "checked")

    def __init__(self, after: Node) -> None:
        self.after = after
        self.checked = 0
        """The sets of transition checks that passed on this step, as the machine's bits."""


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
