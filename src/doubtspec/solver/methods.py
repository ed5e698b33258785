"""The hunt, the exact unrolling and the exhaustive search behind the one `ProofMethod` interface.

The query layer asks each method the same thing, "reached by the end of turn k?", and gets
`TurnProof`s back (`doubtspec.solver.verdict`). The abstraction implements the interface itself
(`doubtspec.solver.abstraction.prover.AbstractionProver`); the three methods here wrap their
rooms' own entry points, and keep what only they produce (a witness, the unrolling's run) as
attributes for the query layer to replay and show.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace

from doubtspec.model.actions import Action
from doubtspec.model.game import Game
from doubtspec.solver import exhaustive
from doubtspec.solver.goal_hunt import GoalHuntSettings, hunt_goal_victory
from doubtspec.solver.hunt import HuntResult, HuntSettings, Progress, Target, hunt
from doubtspec.solver.profit_hunt import Pass, ProfitHuntSettings, hunt_profit
from doubtspec.solver.star_hunt import StarHuntSettings, star_hunt, star_schedules
from doubtspec.solver.unrolling import bmc
from doubtspec.solver.unrolling.bmc import Caps
from doubtspec.solver.verdict import Budget, TurnProof, TurnVerdict


def caps_text(caps: Caps) -> str:
    """What an unrolling's (or a capped search's) "impossible" rests on."""
    return f"at most {caps.plays} plays and {caps.buys} buys per Company turn (the unrolling's caps)"


@dataclass(slots=True)
class HuntMethod:
    """The witness hunt: a POSSIBLE (with a witness) at the turn it reaches the target, or nothing."""

    game: Game
    target: Target
    progress: Progress
    passive: bool
    settings: HuntSettings | None = None
    name: str = "hunt"
    result: HuntResult | None = None

    @property
    def witness(self) -> tuple[Action, ...] | None:
        return None if self.result is None else self.result.actions

    def decide(self, by_turn: int, budget: Budget, first_turn: int = 1) -> list[TurnProof]:
        started = time.perf_counter()
        deadline = None if budget.deadline == float("inf") else budget.deadline
        self.result = hunt(self.game, self.target, self.progress, by_turn, passive=self.passive,
                           settings=self.settings, deadline=deadline)
        if self.result.found is None:
            return []
        return [TurnProof(self.result.found, TurnVerdict.POSSIBLE, self.name, time.perf_counter() - started)]


@dataclass(slots=True)
class StarHuntMethod:
    """The star hunt (`doubtspec.solver.star_hunt`): a POSSIBLE (with a witness) at the first turn from
    `first_turn` where one of its star schedules is met, or nothing."""

    game: Game
    settings: StarHuntSettings | None = None
    at_most: dict[int, int] = field(default_factory=dict)
    """Round to the most stars proved possible after it (schedules beyond these are not hunted)."""
    name: str = "star-hunt"
    result: HuntResult | None = None
    tried: set[tuple[tuple[int, ...], int]] = field(default_factory=set)
    """The (schedule, seed) passes made without a find, over every call: a later call skips them."""

    @property
    def witness(self) -> tuple[Action, ...] | None:
        return None if self.result is None else self.result.actions

    def schedules(self, turn: int) -> int:
        """How many star schedules of `turn` the star bounds leave (those this hunt would try for it)."""
        return sum(1 for _ in star_schedules(turn, self.game.cards.rules.stars_to_win, self.at_most))

    def decide(self, by_turn: int, budget: Budget, first_turn: int = 1, passes: int | None = None) -> list[TurnProof]:
        """`passes`: rounds of passes (each with the next seed) instead of the settings' own."""
        deadline = None if budget.deadline == float("inf") else budget.deadline
        settings = self.settings if self.settings is not None else StarHuntSettings()
        if passes is not None:
            settings = replace(settings, passes=passes)
        self.result = star_hunt(self.game, by_turn, first_turn, settings, deadline, self.at_most, self.tried)
        if self.result.found is None:
            return []
        return [TurnProof(self.result.found, TurnVerdict.POSSIBLE, self.name, self.result.seconds)]


@dataclass(slots=True)
class ProfitHuntMethod:
    """The Profit hunt (`doubtspec.solver.profit_hunt`): a POSSIBLE (with a witness) at the earliest turn its
    passes reach a Profit Victory, or nothing. A pass plays every round from Set-Up, so `first_turn` is not used."""

    game: Game
    settings: ProfitHuntSettings = field(default_factory=lambda: ProfitHuntSettings(width=150, rollouts=20, passes=3))
    """Starless passes of seeds 0-2 first, then those that take stars. With 20 roll-outs seeds 0 and 1 found turn 7
    on both the shipped set and `tests/data/large.toml` in 8-10 CPU-seconds (with 30, 11-15)."""
    name: str = "profit-hunt"
    result: HuntResult | None = None
    tried: dict[Pass, int] = field(default_factory=dict)
    """Pass (seed, starless) to the last turn it searched without a find, over every call: a later call skips it."""

    @property
    def witness(self) -> tuple[Action, ...] | None:
        return None if self.result is None else self.result.actions

    def decide(self, by_turn: int, budget: Budget, first_turn: int = 1) -> list[TurnProof]:
        deadline = None if budget.deadline == float("inf") else budget.deadline
        # The first find ends the call: the passes that could find an earlier turn are many times its cost (no pass
        # of width 300 found turn 6 on either file), so the time left goes to the proofs.
        self.result = hunt_profit(self.game, by_turn, self.settings, deadline, self.tried, first_find=True)
        if self.result.found is None:
            return []
        return [TurnProof(self.result.found, TurnVerdict.POSSIBLE, self.name, self.result.seconds)]


@dataclass(slots=True)
class GoalHuntMethod:
    """The Goal hunt (`doubtspec.solver.goal_hunt`): a POSSIBLE (with a witness) at the earliest turn its passes
    reach a Goal Victory, or nothing. A pass plays every round from Set-Up; `first_turn` only ends the hunt at a
    find there (the turns before it are proved out of reach)."""

    game: Game
    settings: GoalHuntSettings = field(default_factory=GoalHuntSettings)
    name: str = "goal-hunt"
    result: HuntResult | None = None
    tried: dict[int, int] = field(default_factory=dict)
    """Seed to the last turn a pass with it searched without a find, over every call: a later call skips it."""

    @property
    def witness(self) -> tuple[Action, ...] | None:
        return None if self.result is None else self.result.actions

    def decide(self, by_turn: int, budget: Budget, first_turn: int = 1) -> list[TurnProof]:
        deadline = None if budget.deadline == float("inf") else budget.deadline
        self.result = hunt_goal_victory(self.game, by_turn, self.settings, deadline, self.tried, first_turn)
        if self.result.found is None:
            return []
        return [TurnProof(self.result.found, TurnVerdict.POSSIBLE, self.name, self.result.seconds)]


@dataclass(slots=True)
class UnrollingMethod:
    """The exact unrolling: IMPOSSIBLE per turn (on the caps unless shown not to bind), POSSIBLE with a model."""

    game: Game
    goal: bmc.Goal
    caps: Caps
    movement_free: bool
    check_caps: bool = False
    name: str = "unrolling"
    run: bmc.Run = field(default_factory=bmc.Run)

    def decide(self, by_turn: int, budget: Budget, first_turn: int = 1) -> list[TurnProof]:
        if by_turn < first_turn:
            return []
        deadline = None if budget.deadline == float("inf") else budget.working_end
        self.run = bmc.search(self.game, self.goal, by_turn, self.caps, first_round=first_turn,
                              check_caps=self.check_caps, movement_free=self.movement_free, deadline=deadline)
        assumption = None if self.run.exact else caps_text(self.caps)
        verdicts = {"unsat": TurnVerdict.IMPOSSIBLE, "sat": TurnVerdict.POSSIBLE}
        return [TurnProof(c.bound, verdicts.get(c.status, TurnVerdict.UNKNOWN), self.name, c.seconds,
                          assumption=assumption if c.status == "unsat" else None)
                for c in self.run.checks]


@dataclass(slots=True)
class ExhaustiveMethod:
    """The exhaustive search over the engine's own actions (within its caps): the tests' second opinion."""

    game: Game
    target: exhaustive.StateTarget
    caps: Caps | None
    passive: bool = True
    name: str = "exhaustive"
    result: exhaustive.ExhaustiveResult | None = None

    def decide(self, by_turn: int, budget: Budget, first_turn: int = 1) -> list[TurnProof]:
        timeout = None if budget.deadline == float("inf") else budget.left()
        self.result = result = exhaustive.search_state(self.game, self.target, by_turn, self.caps, passive=self.passive,
                                                       timeout_s=timeout)
        assumption = None if self.caps is None else caps_text(self.caps)
        if result.found is not None:
            proofs = [TurnProof(turn, TurnVerdict.IMPOSSIBLE, self.name, result.seconds, assumption=assumption)
                      for turn in range(first_turn, result.found)]
            return [*proofs, TurnProof(result.found, TurnVerdict.POSSIBLE, self.name, result.seconds)]
        if not result.complete:
            return [TurnProof(first_turn, TurnVerdict.UNKNOWN, self.name, result.seconds)]
        return [TurnProof(turn, TurnVerdict.IMPOSSIBLE, self.name, result.seconds, assumption=assumption)
                for turn in range(first_turn, by_turn + 1)]
