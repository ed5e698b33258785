"""The Profit hunt: a beam over the engine aimed at a Profit Victory (Company Rules; ruling profit-victory).

The generic hunt's greedy Company has a Reshuffle Sequence every other round and finds no Profit Victory on the
shipped set by turn 12; the star hunt's cycling Company (`doubtspec.solver.cycling`) has one nearly every round,
each scoring about the star threshold (A. Scoring Demographics). A Profit Victory asks for the same cycling with
two differences, which this hunt adds:

* **the stars are a trap.** A Sequence that earns the last star ends the game at B. Seed Demographics, before the
  Profit is checked at its end, so a Sequence may score the threshold or more only while the Company holds fewer
  than the stars to win less one. Once it holds that many, a display that would already score the threshold at
  the next Sequence can no longer end in a Profit Victory (with a passing Movement nothing takes Victims off it):
  such states are dropped, and the Company stops adding Victims when the display is near the threshold;
* **Profit counts however it comes.** Cards that score Profit when played are played and kept like Victims; the
  Company does not Lobby (which spends Profit).

States are ranked by the Profit held plus what the display would score at the next Sequence (capped below the
threshold once a star more would end the game), then by the cycling score the star hunt uses (a Sequence next round,
the cards the drawing cards can cycle, a small deck). The **starless** passes come first, one per seed: their
Company spares every star as the last one is spared (a state whose display would score the threshold is dropped, and
Victims are hardly added near it: the shipped set's turn-7 game takes no star, its Sequences scoring 11 of 12 from
round 4 on; a star can still come within a round, as in the large file's find); then the passes that may take stars.
Each pass is one beam up to the turn asked; after a find the later passes stop one turn earlier. Like the other
hunts this only ever says "yes": a find is replayed by the caller through the engine's checked `play`. A starless
pass of width 150 finds turn 7 on the shipped set in 8-9 CPU-seconds with 20 roll-outs (seeds 0 and 1) and in 11-14
with 30 (seeds 0-3; with stars taken 1 seed of 6 found it, the others turn 8), on `tests/data/large.toml` in 9-10
with 20 roll-outs (seeds 0 and 1); no starless pass of width 300 (seeds 0-2) finds turn 6 on either file
(docs/solver-measurements.md, "A Profit Victory: the Profit hunt").
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from doubtspec.model.actions import Action, LobbyOn
from doubtspec.model.game import Game
from doubtspec.model.state import GameState, OutcomeReason
from doubtspec.solver.cycling import BeamSettings, CyclingRoller, beam_pass, next_score
from doubtspec.solver.hunt import HuntResult, hunt_result, turn_reached

Pass = tuple[int, bool]
"""A pass of the hunt: its seed and whether it is starless."""

PROFIT_WORTH = 6.0
"""A Profit scored by a card when played, against a Victim's `ZONE_WORTH` (scored once, not at every Sequence)."""
NEAR_THRESHOLD = 2
"""With the last star in reach, Victims are hardly added once the display would score this close to the
threshold (a play may add more than one, and the Company's own plays come before the Sequence)."""


@dataclass(frozen=True, slots=True)
class ProfitHuntSettings(BeamSettings):
    """The Profit hunt's beam (300 states kept per round, 30 roll-outs each, 48 Set-Ups, 3 seeds) and the kinds of
    pass, in order, each made with every seed: starless (True: every star spared as the last one is) or not."""

    starless: tuple[bool, ...] = (True, False)


def last_star_in_reach(game: Game, state: GameState) -> bool:
    """Whether a Sequence scoring the threshold would earn the star that ends the game (Star Victory)."""
    return state.stars >= game.cards.rules.stars_to_win - 1


def doomed(game: Game, state: GameState, starless: bool = False) -> bool:
    """Whether the next Sequence is bound to earn the last star (a starless pass: any star), the display already
    scoring the threshold."""
    spared = starless or last_star_in_reach(game, state)
    return spared and next_score(state.victims) >= game.cards.rules.star_threshold


class ProfitRoller(CyclingRoller):
    """The cycling Company that also plays and keeps Profit cards, spares the last star (a starless one: every
    star) and never Lobbies."""

    def __init__(self, game: Game, rng: random.Random, starless: bool = False) -> None:
        super().__init__(game, rng)
        self.starless = starless

    def spares(self, state: GameState) -> bool:
        """Whether the next Sequence must stay below the star threshold."""
        return self.starless or last_star_in_reach(self.game, state)

    def keep(self, card: int) -> float:
        return super().keep(card) + PROFIT_WORTH * self.cards.profit[card]

    def play_worth(self, state: GameState, card: int) -> float:
        rules = self.game.cards.rules
        victims = self.cards.worth[card]
        if self.spares(state) and next_score(state.victims) >= rules.star_threshold - NEAR_THRESHOLD:
            victims = -0.02 * victims  # below the plain 0.5: such a play is a last resort
        return victims + PROFIT_WORTH * self.cards.profit[card]

    def other_weight(self, state: GameState, action: Action) -> float:
        return 0.02 if isinstance(action, LobbyOn) else 1.0


def profit_score(game: Game, roller: ProfitRoller, state: GameState) -> float:
    """How promising a state at the end of a round is: the Profit held and what the display would score at the
    next Sequence (below the threshold when the roller spares the star), then the cycling score."""
    scores = next_score(state.victims)
    if roller.spares(state):
        scores = min(scores, game.cards.rules.star_threshold - 1)
    return 12.0 * (state.profit + scores) + roller.cycling(state, True, True)


def _won(state: GameState) -> bool:
    return state.outcome is not None and state.outcome.reason is OutcomeReason.PROFIT_VICTORY


def _pass(game: Game, rounds: int, settings: ProfitHuntSettings, seed: int, starless: bool,
          deadline: float | None) -> tuple[GameState | None, tuple[Action, ...], int]:
    """One beam pass up to round `rounds`: (the winning state or None, its actions, states expanded)."""
    roller = ProfitRoller(game, random.Random(seed), starless)
    return beam_pass(game, roller, rounds, _won, lambda state, _: not doomed(game, state, starless),
                     lambda state, _: profit_score(game, roller, state), settings, deadline)


def hunt_profit(game: Game, by_turn: int, settings: ProfitHuntSettings | None = None, deadline: float | None = None,
                tried: dict[Pass, int] | None = None, first_find: bool = False) -> HuntResult:
    """Look for a Profit Victory at the earliest turn up to `by_turn`, until `deadline` (a `time.perf_counter()`).

    Seeds `settings.seed`, `settings.seed + 1`, ... (`settings.passes` of them), a pass each of every kind in
    `settings.starless`, kind by kind (by default the starless passes first); a pass returns the earliest find of
    its beam, and after a find the next passes look only at the turns before it. `tried`: pass (seed, starless) to
    the last turn it searched without a find (by an earlier call); a pass is deterministic and its beam the same up
    to any turn, so such a pass is skipped unless asked for later turns, and this call adds the passes it completes
    without a find. A find is the earliest this hunt can offer, not a proof that no earlier one exists.
    `first_find`: stop at the first find.
    """
    cfg = settings if settings is not None else ProfitHuntSettings()
    started = time.perf_counter()
    seen = 0
    searched = 0
    best: tuple[int, tuple[Action, ...]] | None = None
    bound = by_turn
    for made in [(seed, starless) for starless in cfg.starless for seed in range(cfg.seed, cfg.seed + cfg.passes)]:
        if bound < 1:
            break
        if tried is not None and tried.get(made, 0) >= bound:
            continue
        state, actions, expanded = _pass(game, bound, cfg, made[0], made[1], deadline)
        seen += expanded
        searched = max(searched, bound)
        if state is not None:
            best = (turn_reached(state), actions)
            bound = 0 if first_find else best[0] - 1
        elif deadline is not None and time.perf_counter() > deadline:
            break
        elif tried is not None:
            tried[made] = max(tried.get(made, 0), bound)
    return hunt_result(best, seen, started, searched)
