"""Degenerate outcomes: what the solver finds possible earlier than the designer's thresholds, beside
what simulated play actually sees, so that "possible with perfect luck" and "common" are told apart.

Each `Check` is a query of the catalogue with a threshold turn: the outcome is degenerate when the
solver finds it possible before that turn. The same outcome is then counted in seeded
simulations with uniform random and greedy players (`doubtspec.agents`), which play with real
luck: the share of games in which it happened before the threshold, and the earliest seen.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from doubtspec.agents.base import Matchup
from doubtspec.agents.simulate import SimulationStats, simulate
from doubtspec.model.game import Game
from doubtspec.solver.queries import (
    COMPANY_QUERIES,
    DEFAULT_CAPS,
    TARGETS,
    Answer,
    Opponent,
    Query,
    QueryKind,
    solve_query,
)
from doubtspec.solver.unrolling.bmc import Caps

DEFAULT_THRESHOLDS: Mapping[QueryKind, int] = {
    QueryKind.STARS: 8,
    QueryKind.PROFIT: 10,
    QueryKind.DEFEAT: 2,
    QueryKind.MOVEMENT_WIN: 8,
}
"""Before which turn each outcome counts as degenerate, unless the designer says otherwise."""

DEFAULT_CATALOGUE_TIMEOUT_S = 180.0
"""The catalogue's budget unless the designer gives one: its four questions have about the time a single question
has by default (`queries.DEFAULT_TIMEOUT_S`, 45 s) once the simulations are done."""

SIMULATION_SHARE = 0.25
"""The most of the catalogue's budget its simulations may take (200 games of each default matchup take about a
second on the shipped set; a slow agent's matchup is cut short rather than the solver's questions)."""

MATCHUPS: tuple[tuple[str, Matchup], ...] = (("random", Matchup("random", "random")),
                                              ("greedy", Matchup("greedy", "greedy")))


@dataclass(frozen=True, slots=True)
class Seen:
    """What one simulation saw of an outcome: games in which it happened before the threshold, and the earliest."""

    games: int
    before: int
    earliest: int | None

    @property
    def share(self) -> float:
        return self.before / self.games if self.games else 0.0


@dataclass(slots=True)
class Finding:
    """One catalogue entry: the threshold, the solver's answer before it, and what simulation saw."""

    kind: QueryKind
    threshold: int
    answer: Answer | None
    """None when the threshold leaves no earlier turn to ask about."""
    seen: dict[str, Seen] = field(default_factory=dict)

    @property
    def degenerate(self) -> bool:
        return self.answer is not None and self.answer.status == "yes"

    def to_json(self) -> dict[str, Any]:
        return {
            "query": self.kind.value, "threshold": f"before turn {self.threshold}",
            "solver": None if self.answer is None else self.answer.status,
            "earliest_possible": None if self.answer is None else self.answer.earliest,
            "earliest_exact": None if self.answer is None else self.answer.earliest_exact,
            "degenerate": self.degenerate,
            "simulation": {name: {"games": s.games, "share_before_threshold": round(s.share, 4),
                                  "earliest_seen": s.earliest} for name, s in self.seen.items()},
        }


def observed(stats: SimulationStats, kind: QueryKind, threshold: int) -> Seen:
    _, reasons = TARGETS[kind]
    rounds = [r.rounds for r in stats.results if r.reason in reasons]
    return Seen(len(stats.results), sum(1 for r in rounds if r < threshold), min(rounds, default=None))


def run_catalogue(game: Game, by_turn: int, thresholds: Mapping[QueryKind, int], opponent: Opponent,
                  timeout_s: float | None, caps: Caps = DEFAULT_CAPS, games: int = 200, seed: int = 0,
                  tick: Callable[[str], None] | None = None,
                  matchups: tuple[tuple[str, Matchup], ...] = MATCHUPS) -> list[Finding]:
    """Simulate each of `matchups`, then ask each query before its threshold (and by `by_turn` at most).

    `timeout_s` is the whole catalogue's: the simulations come first, within `SIMULATION_SHARE` of it (shared
    equally among the matchups; each stops between games, and each `Seen` says how many games it counts), then each
    query gets an equal share of what is left when its turn comes, as `solve_goals` shares its budget among the
    Goals. With `opponent` passive the Movement's questions cannot be asked (its Goals need its moves) and are left
    out.
    """
    started = time.monotonic()
    deadline = None if timeout_s is None else started + timeout_s
    simulated: dict[str, SimulationStats] = {}
    if games > 0:
        simulations_end = None if timeout_s is None else started + SIMULATION_SHARE * timeout_s
        for index, (name, matchup) in enumerate(matchups):
            # Each matchup an equal share of what is left of the simulations' time, so that none is starved.
            end = None if simulations_end is None else (
                time.monotonic() + max(0.0, simulations_end - time.monotonic()) / (len(matchups) - index))
            simulated[name] = simulate(game, games, seed, matchup, deadline=end)
            if tick is not None:
                tick(f"{name} simulation")
    kinds = [kind for kind in thresholds if opponent is not Opponent.PASSIVE or kind in COMPANY_QUERIES]
    asked = [kind for kind in kinds if min(by_turn, thresholds[kind] - 1) >= 1]
    findings = []
    for kind in kinds:
        threshold = thresholds[kind]
        answer = None
        if kind in asked:
            left = asked[asked.index(kind):]
            share = None if deadline is None else max(0.0, deadline - time.monotonic()) / len(left)
            answer = solve_query(game, Query(kind, min(by_turn, threshold - 1)), opponent, share, caps,
                                 check_caps=False)
        finding = Finding(kind, threshold, answer)
        for name, stats in simulated.items():
            finding.seen[name] = observed(stats, kind, threshold)
        findings.append(finding)
        if tick is not None:
            tick(kind.value)
    return findings
