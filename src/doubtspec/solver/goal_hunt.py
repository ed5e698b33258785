"""The Goal hunt: a beam over the engine aimed at a Goal Victory (Movement Rules: Goals; Agitation and Goals).

The generic hunt (`doubtspec.solver.hunt`) samples both sides' greedy agents and finds the shipped set's Goal Victory
at turn 11. A Goal Victory by turn 7 needs three things the greedy roll-outs rarely line up, which this hunt asks
for directly:

* **cheap Goals uncovered early.** The deal of the Goal structure is luck: Set-Ups are rolled many times, the deal
  leaning (`GOAL_LEAN_SHARE`) towards cheap Goals in the places no other Goal covers, and ranked by the Agitation
  still to be placed for the winning points (`shortfall`: the cheapest order the overlaps allow);
* **Pacing in every round.** The Company's turn is the one the Movement's refinement plays
  (`movement_witness.Concretizer` with Pacing wanted in every round): its Draw Phase reshuffles wherever its
  cards allow, and each Pacing turns the Movement's paid cards face up again and refills the Market;
* **the Movement's choice, not its sample.** At its turn's action (Play, Buy with each payment, Pass) and at each
  Agitation step every legal choice is expanded; the rest of the round (its other steps, the Company, the luck of
  the Market and the draws) is one roll-out per choice. Of the children the `width` best by the winning points
  held and `shortfall` are kept.

Each pass is one beam up to the turn asked, with its own seed; about a third of the passes on the shipped set reach
a Goal Victory at turn 7 (seeds 0, 6 and 8 of 0-9; on `tests/data/large.toml` seeds 0 and 4 of 0-4), about 10
CPU-seconds each. Ranking the Set-Ups and expanding only the best 100 of the 400 made a pass a quarter cheaper but
found turn 7 in one pass of 16. Like the other hunts this only ever says
"yes": a find is replayed by the caller through the engine's checked `play`.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from doubtspec.agents.greedy_movement import GreedyMovement
from doubtspec.model.actions import Action, Chance
from doubtspec.model.engine import apply, current_actor, legal_actions, new_game
from doubtspec.model.game import Game
from doubtspec.model.movement import COVERED_BY, UPPER_STACK_PLACES
from doubtspec.model.state import NO_CARD, Actor, GameState, OutcomeReason, Phase
from doubtspec.model.steps import Agitation, CompanyDraw, DealGoal, DealStack, DrawToHandSize
from doubtspec.solver.abstraction.movement_witness import Concretizer, RoundPlan, RunPlan
from doubtspec.solver.hunt import HuntResult, hunt_result, play_until, turn_reached
from doubtspec.solver.progress import movement_strength

GOAL_LEAN_SHARE = 0.5
"""How often a Goal's deal leans towards cheap Goals (else uniform); the lower stack's places, which no Goal
covers at first, lean `LOWER_LEAN` times harder."""
LOWER_LEAN = 3.0
GREEDY_SHARE = 0.8
"""How often the Movement's steps that are not expanded (Messaging, Organize, the starting card) take the greedy
Movement's choice (else a uniform one)."""
POINT_WORTH = 20.0
"""A Goal point held, in the score; each unit of `shortfall` costs `SHORTFALL_WORTH`."""
SHORTFALL_WORTH = 6.0
_STEPS = 3_000
"""Engine steps for one round of one branch (no real round comes close)."""


@dataclass(frozen=True, slots=True)
class GoalHuntSettings:
    """States kept per round, Set-Ups rolled (all expanded in round 1), passes (seeds `seed`, `seed + 1`, ...)."""

    width: int = 100
    setups: int = 400
    passes: int = 12
    seed: int = 0


def shortfall(game: Game, goals: tuple[int, ...], agitation: tuple[int, ...], points: int) -> int:
    """The least Agitation still to be placed on the Goal structure to score `points` more points: Goals achieved
    in an order the overlaps allow (a Goal once every Goal over it is gone), each needing its cost less the
    Agitation already on it. A large number when the structure holds too few points."""

    @cache
    def least(done: int, wanted: int) -> int:
        if wanted <= 0:
            return 0
        best = 99
        for place, number in enumerate(goals):
            if number == NO_CARD or done >> place & 1:
                continue
            if all(goals[c] == NO_CARD or done >> c & 1 for c in COVERED_BY[place]):
                goal = game.goal(number)
                best = min(best, max(0, goal.cost - agitation[place])
                           + least(done | 1 << place, wanted - goal.points))
        return best

    return least(0, points)


def goal_score(game: Game, state: GameState) -> float:
    """How promising a state at the end of a round is for a Goal Victory (higher is better): the points held, the
    Agitation still to place (`shortfall`), and what the Movement holds towards it, its Agitation tokens once more
    (without them, no pass of seeds 0-3 found the shipped set's turn 7; with them, seed 0's did)."""
    points = state.points()
    wanted = game.cards.rules.goal_points_to_win - points
    return (POINT_WORTH * points - SHORTFALL_WORTH * shortfall(game, state.goals, state.goal_agitation, wanted)
            + state.agitation + movement_strength(state))


def pacing_plan(rounds: int) -> RunPlan:
    """A plan that wants Pacing in every round and says nothing of the Movement (only its Company is used)."""
    idle = RoundPlan(None, None, None, frozenset(), None, None, 0, None, True)
    return RunPlan(NO_CARD, (), (idle,) * rounds)


class GoalRoller:
    """The roll-outs: the pacing Company, the greedy Movement with some uniform moves, and leaning luck."""

    def __init__(self, game: Game, rng: random.Random, rounds: int) -> None:
        self.game = game
        self.rng = rng
        self.company = Concretizer(game, pacing_plan(rounds), None)
        self.movement = GreedyMovement(game, rng)

    def choose(self, state: GameState, actor: Actor, actions: tuple[Action, ...]) -> Action:
        if actor is Actor.CHANCE:
            step = state.pending[0] if state.pending else None
            if isinstance(step, (CompanyDraw, DrawToHandSize, DealStack)):
                return self.company.draw_luck(state, actions)
            if isinstance(step, DealGoal) and self.rng.random() < GOAL_LEAN_SHARE:
                lean = LOWER_LEAN if step.slot >= UPPER_STACK_PLACES else 1.0
                weights = [lean / max(1, self.game.goal(a.outcome).cost) if isinstance(a, Chance) else 1.0
                           for a in actions]
                return self.rng.choices(actions, weights=weights)[0]
            return actions[self.rng.randrange(len(actions))]
        if actor is Actor.MOVEMENT:
            if self.rng.random() < GREEDY_SHARE:
                return self.movement.choose(state, actions)
            return actions[self.rng.randrange(len(actions))]
        return self.company.company_action(state, actions)


def _branches(state: GameState) -> bool:
    """Whether the Movement's choice here is expanded: its turn's action, or where its Agitation goes."""
    if state.round < 1 or state.phase is not Phase.MOVEMENT_TURN or current_actor(state) is not Actor.MOVEMENT:
        return False
    return not state.pending or isinstance(state.pending[0], Agitation)


def expand(state: GameState, trace: list[Action], roller: GoalRoller, stop_round: int,
           won: Callable[[GameState], bool]) -> list[tuple[GameState, list[Action]]]:
    """Every child of `state` at the start of round `stop_round` (or where the game ends or is won): one per
    choice of the Movement's turn action and Agitation, the rest of the round rolled out once."""

    def branch_point(node: GameState) -> bool:
        return won(node) or (_branches(node) and len(legal_actions(node)) > 1)

    children: list[tuple[GameState, list[Action]]] = []
    pending = [(state, trace)]
    while pending:
        node, path = pending.pop()
        path = list(path)
        node = play_until(node, path, roller.choose, stop_round, _STEPS, target=branch_point)
        ended = current_actor(node) is Actor.TERMINAL or won(node)
        at_stop = node.round >= stop_round and not node.pending and node.phase is Phase.MOVEMENT_TURN
        if not ended and not at_stop and branch_point(node):
            pending.extend((apply(node, a), [*path, a]) for a in reversed(legal_actions(node)))
        else:
            children.append((node, path))
    return children


def _won(state: GameState) -> bool:
    return state.outcome is not None and state.outcome.reason is OutcomeReason.GOAL_VICTORY


def _pass(game: Game, rounds: int, settings: GoalHuntSettings, seed: int,
          deadline: float | None) -> tuple[GameState | None, tuple[Action, ...], int]:
    """One beam pass up to round `rounds`: (the winning state or None, its actions, states expanded)."""
    roller = GoalRoller(game, random.Random(seed), rounds)
    seen = 0
    beam: list[tuple[GameState, list[Action]]] = []
    for _ in range(settings.setups):
        trace: list[Action] = []
        state = play_until(new_game(game), trace, roller.choose, 1, _STEPS)
        if state.outcome is None:
            beam.append((state, trace))
    for round_number in range(1, rounds + 1):
        children: dict[GameState, tuple[GameState, list[Action]]] = {}
        for state, trace in beam:
            for child, actions in expand(state, trace, roller, round_number + 1, _won):
                seen += 1
                if _won(child) and turn_reached(child) <= rounds:
                    return child, tuple(actions), seen
                if child.outcome is None and child not in children:
                    children[child] = (child, actions)
            if deadline is not None and time.perf_counter() > deadline:
                return None, (), seen
        ranked = sorted(children.values(), key=lambda n: goal_score(game, n[0]), reverse=True)
        beam = ranked[: settings.width]
        if not beam:
            break
    return None, (), seen


def hunt_goal_victory(game: Game, by_turn: int, settings: GoalHuntSettings | None = None,
                      deadline: float | None = None, tried: dict[int, int] | None = None,
                      first_turn: int = 1) -> HuntResult:
    """Look for a Goal Victory at the earliest turn up to `by_turn`, until `deadline` (a `time.perf_counter()`).

    `settings.passes` passes, seeds `settings.seed`, `settings.seed + 1`, ...; a pass returns the first find of its
    beam, and after a find the next passes look only at the turns before it. `tried`: seed to the last turn a pass
    with that seed searched without a find (by an earlier call); such a seed is skipped unless asked for later
    turns, and this call adds the passes it completes without a find. `first_turn`: the turns before it are known
    to be out of reach (proved), so a find at it ends the hunt. A find is the earliest this hunt can offer, not a
    proof that no earlier one exists.
    """
    cfg = settings if settings is not None else GoalHuntSettings()
    started = time.perf_counter()
    seen = 0
    searched = 0
    best: tuple[int, tuple[Action, ...]] | None = None
    bound = by_turn
    for seed in range(cfg.seed, cfg.seed + cfg.passes):
        if bound < max(1, first_turn):
            break
        if tried is not None and tried.get(seed, 0) >= bound:
            continue
        state, actions, expanded = _pass(game, bound, cfg, seed, deadline)
        seen += expanded
        searched = max(searched, bound)
        if state is not None:
            best = (turn_reached(state), actions)
            bound = best[0] - 1
        elif deadline is not None and time.perf_counter() > deadline:
            break
        elif tried is not None:
            tried[seed] = max(tried.get(seed, 0), bound)
    return hunt_result(best, seen, started, searched)
