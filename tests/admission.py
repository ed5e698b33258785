"""Whether an abstraction admits the rounds the engine plays: the checks shared by the abstraction tests.

An abstraction's "impossible by turn k" is a proof about the game only if every concrete round is one of its
transitions. `Admission` holds the Company's round relation (`solver/abstraction/company.py`) and
`movement_check` the Movement's (`solver/abstraction/movement.py`); both project engine states onto the
abstraction's variables and ask Z3 whether the pair of states is a transition. `facts_admit` and
`cut_respected` ask the same of the schedule prover's unrolled rounds with every fact it proved (the star cut's
and the Profit cut's bounds included), over the states a game passes through at the start of its rounds
(`round_starts`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

import z3

from doubtspec.agents.base import Matchup
from doubtspec.model.actions import Message, PlayReserve, PlayStandard
from doubtspec.model.game import Game
from doubtspec.model.state import GameState, OutcomeReason, Phase
from doubtspec.solver.abstraction import Fresh
from doubtspec.solver.abstraction.company import PROFIT, STAR, CompanyAbstraction, CompanyLayout
from doubtspec.solver.abstraction.company_schedules import ScheduleProver
from doubtspec.solver.abstraction.movement import MovementModel, RoundCheck
from doubtspec.solver.abstraction.movement_pacing import first_pacing_round
from searching_games import played

DATA = Path(__file__).parent / "data"
CARD_FILES = {"shipped": None, "tiny": DATA / "tiny.toml", "tiny3": DATA / "tiny3.toml",
              "tiny_movement": DATA / "tiny_movement.toml", "large": DATA / "large.toml"}
"""The card files both admission tests play (None: the shipped set), each with its own Company, Movement and Goals."""
FIRST_SEED = 11
"""The seed of the first file's simulated games in the admission tests; the i-th file's is `FIRST_SEED` + i, so the
Company's and the Movement's tests check the same games."""


class Admission:
    """One solver holding the abstraction's round relation over symbolic pre/post states."""

    def __init__(self, game: Game) -> None:
        self.model = CompanyAbstraction.of(game)
        self.system = self.model.system(STAR)
        self.pre = self.system.state("@pre")
        self.post = self.system.state("@post")
        self.solver = z3.Solver()
        self.round = z3.Int("round")
        self.solver.add(self.system.step(self.pre, self.post, Fresh("@step"), self.round))

    def _fix(self, state: dict[str, z3.ArithRef], values: dict[str, int]) -> list[z3.BoolRef]:
        return [state[name] == value for name, value in values.items()]

    def admits(self, before: GameState, after: GameState) -> bool:
        pre = self.model.layout.project(before)
        post = self.model.layout.project(after)
        outcome = after.outcome
        if outcome is None:
            assumptions = self._fix(self.pre, pre) + self._fix(self.post, post)
        elif outcome.reason is OutcomeReason.STAR_VICTORY:
            assumptions = [*self._fix(self.pre, pre), self.post[STAR] == 1, self.post["stars"] == post["stars"]]
        else:
            assumptions = [*self._fix(self.pre, pre), self.post[PROFIT] == 1]
        # The round's number, and the Movement's removals bounded for it (`abstraction/messaging.py`).
        assumptions += [self.round == before.round, self.model.removals(self.pre, before.round, "@step")]
        return self.solver.check(*assumptions) == z3.sat

    def initial(self, state: GameState) -> bool:
        solver = z3.Solver()
        start = self.system.state("@0")
        solver.add(self.system.init(start))
        return solver.check(*self._fix(start, self.model.layout.project(state))) == z3.sat


def company_rounds(game: Game, seed: int, matchup: Matchup, max_rounds: int) -> Iterator[tuple[GameState, GameState]]:
    """(state at the start of round r, state at the start of round r+1 or the game's end), in order."""
    start: GameState | None = None
    for move in played(game, seed, matchup, max_rounds):
        state = move.after
        at_rest = state.phase is Phase.MOVEMENT_TURN and not state.pending and state.outcome is None
        if at_rest or state.outcome is not None:
            if start is not None and (state.round > start.round or state.outcome is not None):
                yield start, state
            start = state if at_rest else None
        if state.outcome is not None:
            return


ADMITTED_ENDS = (OutcomeReason.STAR_VICTORY, OutcomeReason.PROFIT_VICTORY)
"""The ends of a game whose last round `check_company_game` asks the abstraction to admit (with the target's latch
set); a defeat or a Movement win ends the run with nothing of the Company's to admit."""


def check_company_game(admission: Admission, game: Game, seed: int, matchup: Matchup, max_rounds: int,
                       label: str = "") -> int:
    """Asserts that Set-Up and every round of one simulated game are admitted; returns the rounds checked."""
    checked = 0
    first = True
    for before, after in company_rounds(game, seed, matchup, max_rounds):
        if first:
            assert admission.initial(before), f"{label} seed {seed}: Set-Up is outside the abstraction's start"
            first = False
        outcome = after.outcome
        if outcome is not None and outcome.reason not in ADMITTED_ENDS:
            continue  # a defeat or a Movement win ends the run: nothing of the Company's is left to admit
        assert admission.admits(before, after), (
            f"{label}, seed {seed}, {matchup}: round {before.round} is not admitted by the abstraction")
        checked += 1
    return checked


def company_events(game: Game, seed: int, matchup: Matchup, max_rounds: int) -> dict[str, int]:
    """The rare situations of the Company's rounds one simulated game shows, by name, with the first round each
    happens in: a Message that removes Victims
    from a Zone ("a Message removes <zone> Victims"; Messaging), a card played to the Reserve and activated later
    in the same turn ("a Reserve card activated the turn it is played"; Reserve Effects), and the victory a game
    ends in ("a Profit Victory", "a Star Victory"). The admission tests play a game for each, so that the rounds
    the agents seldom play are checked every run, not only when a drawn seed happens on one."""
    events: dict[str, int] = {}
    reserved: list[int] = []
    turn = 0
    for move in played(game, seed, matchup, max_rounds):
        action = move.action
        if move.before.round != turn:
            turn, reserved = move.before.round, []
        if isinstance(action, Message) and action.victims > 0:
            events.setdefault(f"a Message removes {action.zone.key} Victims", turn)
        elif isinstance(action, PlayReserve):
            reserved.append(action.card)
        elif isinstance(action, PlayStandard):
            side = game.company_card(action.card).standard
            if side is not None and side.trigger is not None and any(
                    (held := game.company_card(card).reserve) is not None and held.trigger is side.trigger
                    and held.icon is side.icon for card in reserved):
                events.setdefault("a Reserve card activated the turn it is played", turn)
        outcome = move.after.outcome
        if outcome is not None and outcome.reason is OutcomeReason.PROFIT_VICTORY:
            events.setdefault("a Profit Victory", turn)
        elif outcome is not None and outcome.reason is OutcomeReason.STAR_VICTORY:
            events.setdefault("a Star Victory", turn)
    return events


def movement_events(states: Iterable[GameState]) -> dict[str, int]:
    """The rare situations of the Movement's rounds a run of states shows, by name, with the first round each
    happens in: each Goal achieved ("G<n> achieved"; Goal effects), a Goal achieved with Agitation left on it in an
    earlier round ("a Goal achieved over several rounds"; Agitation and Goals) and a Goal Victory (Movement Rules).
    As `company_events`, for the Movement's admission tests."""
    events: dict[str, int] = {}
    agitated: dict[int, int] = {}
    """Goal place to the round Agitation was first left on it."""
    before: GameState | None = None
    for state in states:
        if before is not None:
            for place, tokens in enumerate(state.goal_agitation):
                if tokens > 0:
                    agitated.setdefault(place, before.round)
            for goal in state.achieved[len(before.achieved):]:
                events.setdefault(f"G{goal} achieved", before.round)
                place = before.goals.index(goal) if goal in before.goals else None
                if place is not None and agitated.get(place, before.round) < before.round:
                    events.setdefault("a Goal achieved over several rounds", before.round)
            if _won_by_goals(state) and before.outcome is None:
                events.setdefault("a Goal Victory", before.round)
        before = state
    return events


CHECKS: dict[int, RoundCheck] = {}
"""One Movement round checker per card file (by the game's identity)."""


def movement_check(game: Game) -> RoundCheck:
    """One round checker per card file (building the round's formula takes a moment)."""
    check = CHECKS.get(id(game))
    if check is None:
        # The model with its proved Pacing lemma: the engine's rounds check the lemma too.
        check = CHECKS[id(game)] = RoundCheck(MovementModel(game, first_pacing_round(game).first_round))
    return check


def _is_round_start(state: GameState) -> bool:
    return state.phase is Phase.MOVEMENT_TURN and not state.pending and state.outcome is None


def _won_by_goals(state: GameState) -> bool:
    return state.outcome is not None and state.outcome.reason is OutcomeReason.GOAL_VICTORY


def movement_round_states(states: Iterator[GameState]) -> tuple[tuple[int, ...] | None, list[GameState]]:
    """The Goals as dealt, and the states at the start of each Movement turn (and a Goal Victory's end)."""
    dealt: tuple[int, ...] | None = None
    starts: list[GameState] = []
    for state in states:
        if dealt is None and all(state.goals):
            dealt = state.goals
        if (_is_round_start(state) and (not starts or starts[-1].round != state.round)) or _won_by_goals(state):
            starts.append(state)
    return dealt, starts


def assert_movement_rounds_admitted(game: Game, dealt: tuple[int, ...] | None, starts: list[GameState]) -> int:
    """Every round from one start to the next is a transition; Set-Up's result is an initial state."""
    if dealt is None or not starts:
        return 0
    check = movement_check(game)
    places = dict(enumerate(dealt))
    values = [check.model.project(s, places) for s in starts]
    assert check.admits_setup(values[0]), f"Set-Up not admitted: {starts[0].summary()}"
    for before, after, state in zip(values, values[1:], starts, strict=False):
        changed = {k: (before[k], after[k]) for k in after if before[k] != after[k]}
        assert check.admits_round(before, after, state.round), f"round {state.round} not admitted: {changed}"
    return len(values) - 1


def simulated_states(game: Game, seed: int, matchup: Matchup, rounds: int) -> Iterator[GameState]:
    for move in played(game, seed, matchup, max_rounds=rounds):
        yield move.after


def at_rest_starts(states: Iterable[GameState], rounds: int) -> list[GameState]:
    """The states at the start of rounds 1..`rounds`+1 (the Movement's turn, nothing pending), until the game ends."""
    kept: list[GameState] = []
    for state in states:
        if state.outcome is not None:
            break
        if state.phase is Phase.MOVEMENT_TURN and not state.pending and (not kept or state.round > kept[-1].round):
            kept.append(state)
        if len(kept) > rounds:
            break
    return kept


def round_starts(game: Game, seed: int, matchup: Matchup, rounds: int) -> list[GameState]:
    """The engine's states at the start of rounds 1..`rounds`+1 of a simulated game (at rest), until it ends."""
    return at_rest_starts((move.after for move in played(game, seed, matchup, rounds + 1)), rounds)


def facts_admit(prover: ScheduleProver, layout: CompanyLayout, states: list[GameState],
              extra: list[z3.BoolRef] | None = None) -> bool:
    """Whether the unrolling with every proved fact admits the game's round-boundary states."""
    rounds = len(states) - 1
    solver = z3.SolverFor("QF_LIA")
    solver.add(*prover.formulas(rounds), *(extra or []))
    for k, state in enumerate(states):
        solver.add(*[prover.state(k)[name] == value for name, value in layout.project(state).items()])
    return solver.check() == z3.sat


def cut_respected(prover: ScheduleProver, states: list[GameState], extra: list[z3.BoolRef] | None = None) -> bool:
    """Whether the game's round-boundary states meet every proved potential bound and, with every fact asserted,
    are a run of the unrolling."""
    assert prover.layout is not None
    layout = prover.layout
    cut = prover.profit_cut
    assert cut is not None
    projected = [layout.project(state) for state in states]
    for r, values in enumerate(projected):
        if r in cut.at_most:
            held = z3.substitute(cut.objective(r), *[(prover.state(r)[n], z3.IntVal(v)) for n, v in values.items()])
            if z3.simplify(held).as_long() > cut.at_most[r]:
                return False
    solver = z3.SolverFor("QF_LIA")
    solver.add(*prover.formulas(len(states) - 1), *(extra or []))
    for r, values in enumerate(projected):
        solver.add(*[prover.state(r)[name] == value for name, value in values.items()])
    return solver.check() == z3.sat
