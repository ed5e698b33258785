"""Hypothesis state machines that play whole games through the reference engine and check the catalog.

`GameMachine` plays one game per example from Set-Up, drawing every decision from the engine's own
`legal_actions` (never from a copy of the rules). It has one rule per kind of action, so that
Hypothesis's swarm testing can switch kinds off for a run; a rule plays a stretch of the game that
prefers its kind and falls back to any legal action, so a game always goes on. After every engine
step the selected state and transition invariants are checked, and the trace invariants when the
game ends (later rule calls of that example do nothing). Probe rules try illegal actions built for
the current state and expect the engine to reject them and leave the state as it was. Two steering
choices per game, made by Hypothesis, reach the late game that uniform play rarely sees (see
`_prudent` and `_organised`); `target()` pushes towards long games, high scores and bans.

A violation raises a subclass of `InvariantViolation` particular to its invariant, so that Hypothesis
shrinks each broken invariant on its own, and is recorded in the machine's `Recorder` with the trace
that led to it: the record kept for an invariant is the one from Hypothesis's final (shrunk) replay.

`machine_for(game, invariants, recorder)` builds a configured subclass; the class itself checks the
shipped card set under the default rulings with the whole catalog.
"""

from __future__ import annotations

import hashlib
import time
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, ClassVar, TypeVar

from hypothesis import strategies as st
from hypothesis import target
from hypothesis.control import current_build_context
from hypothesis.errors import InvalidArgument
from hypothesis.stateful import RuleBasedStateMachine, initialize, rule

from doubtspec.invariants import catalog, corpus, derived
from doubtspec.invariants.catalog import (
    CATALOG,
    NO_CRASH,
    Invariant,
    ProbeInvariant,
    StateInvariant,
    Trace,
    TraceInvariant,
    TransitionInvariant,
)
from doubtspec.invariants.chance_runs import SEED_BYTES, ChanceRun, seed_of
from doubtspec.invariants.groups.oracle import ORACLE_ACTIONS
from doubtspec.invariants.known import Edge, Met, Node, remember
from doubtspec.invariants.profiles import PROFILES, register
from doubtspec.invariants.violation import Violation as Violation
from doubtspec.model import engine
from doubtspec.model.actions import (
    Action,
    Agitate,
    Buy,
    Chance,
    ChooseStart,
    EndBuy,
    EndPlay,
    LobbyOn,
    Message,
    MovementBuy,
    MovementPlay,
    OrganizePlay,
    Pass,
    PlaceDoubt,
    PlayReserve,
    PlayStandard,
    RemoveFromMarket,
    Skip,
    TrashCard,
    Unlobby,
)
from doubtspec.model.cards import MarketAction, load_cards
from doubtspec.model.game import Game
from doubtspec.model.state import GameState, Phase, Side

register()  # the profiles by name (`doubtspec-ci`, ...) for test modules that load one: Hypothesis is loaded now


class ActionKind(Enum):
    """The groups of actions that the machine has one rule each for."""

    CHANCE = "chance"
    COMPANY_PLAY = "company-play"
    COMPANY_BUY = "company-buy"
    COMPANY_END = "company-end"
    COMPANY_CHOICE = "company-choice"
    MOVEMENT_PLAY = "movement-play"
    MOVEMENT_BUY = "movement-buy"
    MOVEMENT_PASS = "movement-pass"
    MOVEMENT_CHOICE = "movement-choice"


_KIND_OF_TYPE: dict[type, ActionKind] = {
    Chance: ActionKind.CHANCE,
    PlayStandard: ActionKind.COMPANY_PLAY, PlayReserve: ActionKind.COMPANY_PLAY, Unlobby: ActionKind.COMPANY_PLAY,
    Buy: ActionKind.COMPANY_BUY,
    EndPlay: ActionKind.COMPANY_END, EndBuy: ActionKind.COMPANY_END,
    PlaceDoubt: ActionKind.COMPANY_CHOICE, LobbyOn: ActionKind.COMPANY_CHOICE,
    RemoveFromMarket: ActionKind.COMPANY_CHOICE, TrashCard: ActionKind.COMPANY_CHOICE,
    MovementPlay: ActionKind.MOVEMENT_PLAY,
    MovementBuy: ActionKind.MOVEMENT_BUY,
    Pass: ActionKind.MOVEMENT_PASS,
    ChooseStart: ActionKind.MOVEMENT_CHOICE, Message: ActionKind.MOVEMENT_CHOICE, Agitate: ActionKind.MOVEMENT_CHOICE,
    OrganizePlay: ActionKind.MOVEMENT_CHOICE,
}


def kind_of(action: Action) -> ActionKind:
    """The rule that plays `action`."""
    if isinstance(action, Skip):
        return ActionKind.COMPANY_CHOICE if action.side is Side.COMPANY else ActionKind.MOVEMENT_CHOICE
    return _KIND_OF_TYPE[type(action)]


# --- violations and their records ------------------------------------------------------------


class InvariantViolation(AssertionError):
    """Raised inside a machine when an invariant fails; carries the `Violation`."""

    def __init__(self, violation: Violation) -> None:
        self.violation = violation
        super().__init__(f"[{violation.invariant.id}] {violation.message} (step {violation.step})")


_VIOLATION_TYPES: dict[str, type[InvariantViolation]] = {}


def violation_type(invariant_id: str) -> type[InvariantViolation]:
    """A subclass of `InvariantViolation` for one invariant.

    Hypothesis tells failures apart by exception type and place, so one type per invariant lets it
    shrink each broken invariant separately instead of keeping only the smallest of them.
    """
    found = _VIOLATION_TYPES.get(invariant_id)
    if found is None:
        name = "Violation_" + "".join(c if c.isalnum() else "_" for c in invariant_id)
        found = type(name, (InvariantViolation,), {"__module__": __name__})
        _VIOLATION_TYPES[invariant_id] = found
    return found


@dataclass
class Recorder:
    """What a run has done so far (read by the live view) and the violations it recorded."""

    examples: int = 0
    steps: int = 0
    checks: int = 0
    games: int = 0
    started: float = field(default_factory=time.monotonic)
    final: dict[str, Violation] = field(default_factory=dict)
    latest: dict[str, Violation] = field(default_factory=dict)

    def record(self, violation: Violation) -> None:
        """Keep the violation; the one from Hypothesis's final replay of a shrunk example wins."""
        try:
            is_final = current_build_context().is_final
        except InvalidArgument:  # outside a Hypothesis run (a machine driven by hand)
            is_final = True
        key = violation.invariant.id
        if is_final:
            self.final[key] = violation
        self.latest[key] = violation

    def violations(self) -> list[Violation]:
        """One violation per broken invariant: the final replay's, or the last seen if none."""
        merged = dict(self.latest)
        merged.update(self.final)
        order = {inv.id: i for i, inv in enumerate(CATALOG)}
        return sorted(merged.values(), key=lambda v: (order.get(v.invariant.id, len(order)), v.invariant.id))

    @property
    def elapsed(self) -> float:
        return time.monotonic() - self.started


COSTLY: frozenset[str] = frozenset({"tableau.full-offers", "doubt.messaging-tokens-offers"})
"""The `SAMPLED` checks whose one call costs many steps of the game: a profile runs each at its first chance in each
example and on every `costly_every`-th chance after (`Profile.costly_every`), where its chances are the states it
applies to (`StateInvariant.applies`), so that every example that reaches such a state checks it at least once."""

ON_THEIR_STATES: frozenset[str] = frozenset({
    "rule.lobbied-goal-offers", "rule.pacing-offers", "rule.payment-offers", "rule.agitation-offers",
    "rule.goal-structure-offers", "rule.remove-market-offers", "reject.wrong-phase", "reject.unpaid-play",
    "rule.action-icons-offers", "rule.pass-offers", "rule.short-supply-offers", "rule.skip-offers",
    "rule.refresh-bonus-offers",
})
"""The `SAMPLED` what-ifs that apply to a few states of a turn (a Movement turn, the Company's first play or buy, an
Agitation or a Market removal pending): like the `COSTLY` ones their chances are the states they apply to, and they
run at the profile's `check_every`."""

SAMPLED: frozenset[str] = frozenset({
    "contract.apply-pure", "contract.legal", "ban.reserve-trigger", "ban.offers", "doubt.messaging-offers",
    "outcome.profit-offers", "rule.buy-offers", "rule.draw-offers", "rule.reshuffle-offers", "lobby.offers",
    "hand.marginalization-offers", "outcome.defeat-offers",
    "outcome.defeat-boundary-offers", "ban.trigger-offers", "ban.reshuffle-offers",
    "rule.goal-offers", "rule.unlobby-offers", "rule.empty-draw-offers",
    "ban.silent-reshuffle-offers", "rule.organize-offers", "hand.movement-buy-offers",
    "rule.flip-offers", "rule.doubt-count-offers", "rule.reserve-resolve-offers",
    "rule.influence-payment-offers", "tableau.removal-offers",
    "rule.lobbied-buy-offers", "lobby.distinct-offers", "reject.banned-offers",
    "reject.empty-space", "rule.trash-offers", "tokens.exhausted-offers", "tokens.exhausted-step",
    "tokens.one-supply-empty-step",
    "outcome.goal-victory-offers", "rule.trigger-offers", "rule.company-turn-start-offers",
}) | COSTLY | ON_THEIR_STATES
"""The checks that re-run the engine (purity, legality, the what-ifs): each costs more than a step of the
game itself, so a profile runs them at its first chance in each example and on every `check_every`-th
chance after (`Profile.check_every`); every other check runs on every step. The `COSTLY` and `ON_THEIR_STATES`
ones among them count their chances on the states they apply to."""

ORACLE = "oracle.solver"
"""A Z3 call per check: it runs on one step in one example of `oracle_every` (`Profile.oracle_every`)."""

BASE = 1
"""The verdict bit of the checks that are not `SAMPLED` (run on every state and step)."""
SAMPLED_BIT = 2
"""The verdict bit of the `SAMPLED` checks with no chances of their own (run at the profile's `check_every`)."""
ORACLE_BIT = 4
"""The verdict bit of a step that passed the solver's oracle (`ORACLE`): met again where the oracle is due (Hypothesis
replays an example's prefix, and with it the step its oracle check falls on), it is not asked of Z3 again. (A bit of
a step's verdict, `Edge.checked`; the bits from `OWN_BITS` on are a state's, `Node.checked`.)"""
OWN_BITS = 2
"""The first bit of the `COSTLY` and `ON_THEIR_STATES` checks, one bit each (bit `OWN_BITS + i` for the i-th in the
selection; state checks only)."""


_Check = TypeVar("_Check", StateInvariant, TransitionInvariant)


def _plan(todo: int, checks: tuple[_Check, ...], bits: tuple[int, ...], plans: dict[int, tuple[_Check, ...]]
          ) -> tuple[_Check, ...]:
    """The checks whose verdict bit is among `todo`, in the selection's order (kept in `plans` by `todo`)."""
    plan = plans.get(todo)
    if plan is None:
        plan = plans[todo] = tuple(check for check, bit in zip(checks, bits, strict=True) if bit & todo)
    return plan


def _raised(exc: Exception) -> str:
    """The finding of a check that raised instead of answering."""
    return f"the check raised {type(exc).__name__}: {exc}"


# --- the machine ------------------------------------------------------------------------------

CONTINUE = 0.95
"""Chance that a rule's stretch of play goes on at the next decision (about twenty decisions a stretch).

One boolean per decision, not a stretch length drawn once: the shrinker ends a stretch by setting one
boolean to False, where shortening drawn lengths left traces five times longer and shrinking twenty
times slower (a mutant of the Skip action's text form: 3 decisions in 2.5 s against 15 in 60 s)."""


_RUNNING: list[GameMachine | None] = [None]
"""The machine whose example is running: Hypothesis runs one at a time, and the next-rule strategy that
`_after_end_strategies` builds once per class asks it what to draw."""

_AFTER_END: dict[tuple[tuple[int, ...], bool], st.SearchStrategy[object]] = {}
"""`_after_end_strategies`'s answers by rule list and probe flag. The rules belong to the class, so every
example's machine uses the strategy its class's first example built: building the rule strategies anew for each
example took 5% of a ci run's CPU time, and checking a new strategy before its first draw about 1% more."""


def _after_end_strategies(rules: tuple[Any, ...], probing: bool) -> st.SearchStrategy[object] | None:
    """The strategy of the next rule call (`GameMachine._settle_after_end`), None without a `chance` rule.

    While the running machine's game goes on, its own rule strategy; once it is over, the `probe_out_of_turn`
    rule once when `probing`, then the idle `chance` rule, each drawn as Hypothesis's rule strategy draws a rule
    with its arguments."""
    key = (tuple(id(rule) for rule in rules), probing)
    found = _AFTER_END.get(key)
    if found is not None:
        return found
    by_name = {r.function.__name__: st.tuples(st.just(r), st.fixed_dictionaries(r.arguments)) for r in rules}
    if "chance" not in by_name:
        return None
    idle = by_name["chance"]
    probe = by_name.get("probe_out_of_turn") if probing else None

    def next_rule(_: object) -> st.SearchStrategy[object]:
        machine = _RUNNING[0]
        assert machine is not None
        if machine.state.outcome is None:
            assert machine.rule_strategy is not None
            return machine.rule_strategy
        if probe is not None and not machine.probed_after_end:
            machine.probed_after_end = True
            return probe
        return idle

    found = _AFTER_END[key] = st.just(None).flatmap(next_rule)
    return found


class GameMachine(RuleBasedStateMachine):
    """Plays games of the configured card set and rulings, checking the configured invariants."""

    game: ClassVar[Game | None] = None
    """None: the shipped card set under the default rulings (loaded on first use)."""
    selection: ClassVar[tuple[Invariant, ...]] = CATALOG
    """The invariants this machine checks."""
    recorder: ClassVar[Recorder] = Recorder()
    check_every: ClassVar[int] = PROFILES["ci"].check_every
    """How often the `SAMPLED` checks run (the ci profile's rate unless `machine_for` is told otherwise)."""
    oracle_every: ClassVar[int] = PROFILES["ci"].oracle_every
    """One example in this many asks the solver's encoding about one step (`ORACLE`)."""
    corpus_share: ClassVar[float] = PROFILES["ci"].corpus_share
    """The chance that an example starts from a corpus prefix (`doubtspec.invariants.corpus`) instead of Set-Up."""

    costly_every: ClassVar[int] = PROFILES["ci"].costly_every
    """How often the `COSTLY` checks run, counted on the states each applies to (the ci profile's rate unless
    `machine_for` is told otherwise)."""

    _state_checks: ClassVar[tuple[StateInvariant, ...]] = ()
    _state_bits: ClassVar[tuple[int, ...]] = ()
    """Each state check's verdict bit (`BASE`, `SAMPLED_BIT` or its own bit), in `_state_checks`' order."""
    _state_plans: ClassVar[dict[int, tuple[StateInvariant, ...]]] = {}
    """The state checks to run for a set of verdict bits, in the selection's order (filled as they are needed)."""
    _state_full: ClassVar[int] = BASE
    """The bits of the checks with no chances of their own: those due on a state where the `SAMPLED` ones are."""
    _own: ClassVar[tuple[tuple[int, Callable[[GameState], bool] | None, int], ...]] = ()
    """Each `COSTLY` or `ON_THEIR_STATES` state check's bit, the states it applies to (None: every state) and its rate,
    in the selection's order."""
    _transition_checks: ClassVar[tuple[TransitionInvariant, ...]] = ()
    _transition_bits: ClassVar[tuple[int, ...]] = ()
    """Each transition check's bit; the solver's oracle has every bit (it is in every plan, and is due by its own
    rule, `_oracle_due`, on a step met again too)."""
    _transition_plans: ClassVar[dict[int, tuple[TransitionInvariant, ...]]] = {}
    _transition_full: ClassVar[int] = BASE
    _oracle: ClassVar[TransitionInvariant | None] = None
    _trace_checks: ClassVar[tuple[TraceInvariant, ...]] = ()
    _probes: ClassVar[dict[str, ProbeInvariant]] = {}
    _configured_for: ClassVar[tuple[Invariant, ...] | None] = None
    passed_prefixes: ClassVar[set[int]] = set()
    """Corpus prefixes (by index) this run has checked and found clean."""
    clean: ClassVar[dict[object, object]] = derived.memo()
    """The games (actions, rounds, final state) of this run whose trace checks all passed. The verdicts of states
    and steps are kept on the states met (`Node.checked`, `Edge.checked`: which sets of checks passed).

    Every check is a function of what it is given (a state, a step, a game), compared by value, so one met
    again passes again and its checks are skipped (see `known`). Emptied by `derived.forget`."""
    met: ClassVar[Met] = Met()
    """The states this run has met, with the engine's answers about them (`known.Met`)."""

    def __init__(self) -> None:
        super().__init__()
        cls = type(self)
        if cls._configured_for is not cls.selection:
            cls._split(cls.selection)
        if cls.game is None:
            cls.game = Game(load_cards())
        self.states_checked: tuple[StateInvariant, ...] = cls._state_checks
        self.transitions_checked: tuple[TransitionInvariant, ...] = cls._transition_checks
        self.traces_checked: tuple[TraceInvariant, ...] = cls._trace_checks
        self.probes: dict[str, ProbeInvariant] = cls._probes
        self.recorder.examples += 1
        self.prudent: bool | None = None
        self.organised: bool | None = None
        self.failed = False
        self.best_round = 0
        self.best_profit = 0
        self.best_points = 0
        self.best_bans = 0
        self.chances: dict[str, int] = {}
        self.state_chances = 0
        """States checked so far in this example: the chances of every `SAMPLED` state check (see `_due`)."""
        self.step_chances = 0
        """Steps checked so far in this example: the chances of every `SAMPLED` transition check."""
        self.own_chances = [0] * len(cls._own)
        """States met so far in this example that each `COSTLY` or `ON_THEIR_STATES` check applies to: its chances."""
        self.seen: Node | None = None
        """The node of `self.state` in `met` (None: the state cannot be hashed)."""
        self.oracle_kind: type | None = None
        self.oracle_done = False
        self.from_corpus = 0
        self.base = (0, 0, 0, 0)
        self.probed_after_end = False
        self.rule_strategy: st.SearchStrategy[Any] | None = None
        """Hypothesis's strategy of this machine's rules, drawn from while the game goes on (`_settle_after_end`)."""
        self._settle_after_end()
        self._start_game()

    def _settle_after_end(self) -> None:
        """Once the game is over, take the rule calls left in the example without choosing them.

        An example runs its profile's count of rule calls (`stateful_step_count`) and most games end well before
        it: in the ci run seven rule calls in ten came after the end, each choosing a rule among the enabled ones
        (several draws) only to do nothing, and every draw lengthens the choice sequence that Hypothesis stores,
        mutates, walks and shrinks. After the end the machine's rule choice draws nothing: the first call probes
        the finished game with an action out of turn (`reject.out-of-turn`, when selected), the others are the
        `chance` rule, which does nothing then. While the game goes on, rules are chosen as Hypothesis chooses
        them. (`_rules_strategy` is the attribute Hypothesis's state machines draw their next rule from; without
        it, as in another version, rules are chosen as before.)
        """
        choose = getattr(self, "_rules_strategy", None)
        if choose is None:
            return
        found = _after_end_strategies(tuple(getattr(choose, "rules", ())), "reject.out-of-turn" in self.probes)
        if found is None:
            return
        self.rule_strategy = choose
        _RUNNING[0] = self
        self._rules_strategy = found  # type: ignore[assignment]

    @classmethod
    def _split(cls, invariants: tuple[Invariant, ...]) -> None:
        cls._state_checks = tuple(i for i in invariants if isinstance(i, StateInvariant))
        own = [i for i in cls._state_checks if i.id in COSTLY | ON_THEIR_STATES]
        bit_of = {i.id: 1 << (OWN_BITS + n) for n, i in enumerate(own)}
        cls._state_bits = tuple(bit_of.get(i.id, SAMPLED_BIT if i.id in SAMPLED else BASE) for i in cls._state_checks)
        cls._state_plans = {}
        cls._state_full = BASE | (SAMPLED_BIT if SAMPLED_BIT in cls._state_bits else 0)
        cls._own = tuple((bit_of[i.id], i.applies, cls.costly_every if i.id in COSTLY else cls.check_every)
                         for i in own)
        cls._transition_checks = tuple(i for i in invariants if isinstance(i, TransitionInvariant))
        cls._transition_bits = tuple(BASE | SAMPLED_BIT if i.id == ORACLE else SAMPLED_BIT if i.id in SAMPLED else BASE
                                     for i in cls._transition_checks)
        cls._transition_plans = {}
        cls._transition_full = BASE | (SAMPLED_BIT if any(i.id in SAMPLED for i in cls._transition_checks) else 0)
        cls._oracle = next((i for i in cls._transition_checks if i.id == ORACLE), None)
        cls._trace_checks = tuple(i for i in invariants if isinstance(i, TraceInvariant))
        cls._probes = {i.id: i for i in invariants if isinstance(i, ProbeInvariant)}
        cls._configured_for = invariants

    # -- the game being played --

    def _start_game(self) -> None:
        game = type(self).game
        assert game is not None
        self.actions: list[Action] = []
        self.rounds: list[int] = []
        self.prudent = None
        self.organised = None
        self.recorder.games += 1
        try:
            state = engine.new_game(game)
        except Exception as exc:
            self._fail(NO_CRASH, f"new_game raised {type(exc).__name__}: {exc}", None, None)
            raise AssertionError("unreachable") from exc  # _fail raises; keeps the type checker informed
        node = type(self).met.node(state)
        if node is not None:
            state = node.state
        self.state = state
        self.seen = node
        self.trail: list[GameState] = [state]
        """Every state of the game so far (the trace's states), to find where a sampled check first fails."""
        self._check_state(None, state)

    def _fail(self, invariant: Invariant, message: str, before: GameState | None, after: GameState | None,
              probe: Action | None = None) -> None:
        game = type(self).game
        assert game is not None
        step = len(self.actions)
        if probe is None and invariant.id in SAMPLED:
            # A sampled check may have skipped earlier steps that fail it too: report the first, as a
            # replay that checks every step would. (Not the solver oracle: a Z3 call per earlier step
            # on every failing replay of the shrinker would cost more than the finding is worth.)
            step, message, before, after = self._first_failure(invariant, step, message, before, after)
        shown = after if after is not None else (before if before is not None else engine.new_game(game))
        violation = Violation(invariant, message, game, tuple(self.actions[:step]), step, before, shown, probe)
        self.failed = True
        self.recorder.record(violation)
        raise violation_type(invariant.id)(violation)

    def _first_failure(self, invariant: Invariant, step: int, message: str, before: GameState | None,
                       after: GameState | None) -> tuple[int, str, GameState | None, GameState | None]:
        """The first step of the trace at which `invariant` fails (`step` and its finding if none earlier)."""
        for index in range(step):
            earlier: str | None = None
            state = self.trail[index]
            try:
                if isinstance(invariant, StateInvariant):
                    earlier = invariant.check(state)
                elif isinstance(invariant, TransitionInvariant) and index > 0:
                    earlier = invariant.check(self.trail[index - 1], self.actions[index - 1], state)
            except Exception as exc:
                earlier = _raised(exc)
            if earlier is not None:
                return index, earlier, (self.trail[index - 1] if index > 0 else None), state
        return step, message, before, after

    def _due(self, invariant_id: str) -> bool:
        """Whether a `SAMPLED` check runs at this chance: its first in the example, then every `check_every`-th."""
        seen = self.chances.get(invariant_id, 0)
        self.chances[invariant_id] = seen + 1
        return seen % type(self).check_every == 0

    def _oracle_due(self, action: Action) -> bool:
        """Whether `oracle.solver` checks this step: the example's first action of a kind chosen by its Set-Up.

        Example and kind come from the example's own first steps (not from a counter of the run), so that
        Hypothesis's replays and shrinks of an example see the same oracle checks.
        """
        if self.oracle_done:
            return False
        if self.oracle_kind is None:
            if len(self.actions) < 20:
                return False
            digest = zlib.crc32(repr(self.actions[:20]).encode())
            if digest % type(self).oracle_every:
                self.oracle_done = True
                return False
            self.oracle_kind = ORACLE_ACTIONS[(digest // type(self).oracle_every) % len(ORACLE_ACTIONS)]
        if type(action) is not self.oracle_kind:
            return False
        self.oracle_done = True
        return True

    def _check_state(self, before: GameState | None, state: GameState) -> None:
        # Every `SAMPLED` state check has its chance at every state, so one counter is each one's `_due`; a `COSTLY`
        # or `ON_THEIR_STATES` one has its own, counting the states it applies to.
        seen = self.state_chances
        self.state_chances = seen + 1
        if not self.states_checked:
            return
        cls = type(self)
        need = cls._state_full if seen % cls.check_every == 0 else BASE
        if cls._own:
            need |= self._own_due(state)
        node = self.seen  # the node of `state` (set by the caller), or None
        todo = need & ~node.checked if node is not None else need
        if todo:
            for inv in _plan(todo, cls._state_checks, cls._state_bits, cls._state_plans):
                try:
                    message = inv.check(state)
                except Exception as exc:
                    message = _raised(exc)
                if message is not None:
                    self._fail(inv, message, before, state)
            if node is not None:
                node.checked |= todo
        self.recorder.checks += len(self.states_checked)

    def _own_due(self, state: GameState) -> int:
        """The bits of the `COSTLY` and `ON_THEIR_STATES` checks due at `state`: each at the first state of the example
        that it applies to, then at every `costly_every`-th (`check_every`-th)."""
        cls = type(self)
        node = self.seen
        applies = node.applies if node is not None else None
        if applies is None:
            applies = 0
            for bit, relevant, _ in cls._own:
                try:
                    if relevant is None or relevant(state):
                        applies |= bit
                except Exception:
                    applies |= bit  # the check itself says what is wrong with the state
            if node is not None:
                node.applies = applies
        if not applies:
            return 0
        due = 0
        chances = self.own_chances
        for index, (bit, _, every) in enumerate(cls._own):
            if applies & bit:
                if chances[index] % every == 0:
                    due |= bit
                chances[index] += 1
        return due

    def _apply(self, action: Action) -> None:
        before = self.state
        before_key = self.seen
        self.actions.append(action)
        edge = before_key.successors.get(action) if before_key is not None else None
        if edge is not None:
            after_key: Node | None = edge.after
            after = edge.after.state  # a step met before: the engine's answer then (see `known`)
        else:
            try:
                after = engine.apply(before, action)
            except Exception as exc:
                self._fail(NO_CRASH, f"apply({action}) raised {type(exc).__name__}: {exc}", before, None)
                return
            after_key = type(self).met.node(after)
            if after_key is not None:
                after = after_key.state
                if before_key is not None:
                    edge = before_key.successors[action] = Edge(after_key)
        self.seen = after_key
        recorder = self.recorder
        recorder.steps += 1
        self.rounds.append(after.round)
        self.trail.append(after)
        # The successor's own properties first (conservation, limits): when a step breaks one of them and
        # also a postcondition, the report names the more basic finding.
        self._check_state(before, after)
        seen = self.step_chances
        self.step_chances = seen + 1
        if self.transitions_checked:
            cls = type(self)
            need = cls._transition_full if seen % cls.check_every == 0 else BASE
            todo = need & ~edge.checked if edge is not None else need
            if todo:
                plan = _plan(todo, cls._transition_checks, cls._transition_bits, cls._transition_plans)
            else:
                # The solver's oracle is due once per example, by the example's own steps, known or not.
                plan = (cls._oracle,) if cls._oracle is not None and not self.oracle_done else ()
            oracle = cls._oracle
            for inv in plan:
                if inv is oracle and (not self._oracle_due(action) or (edge is not None and edge.checked & ORACLE_BIT)):
                    continue  # not due, or this step passed it before
                try:
                    message = inv.check(before, action, after)
                except Exception as exc:
                    message = _raised(exc)
                if message is not None:
                    self._fail(inv, message, before, after)
                if inv is oracle and edge is not None:
                    edge.checked |= ORACLE_BIT
            if edge is not None:
                edge.checked |= todo
            recorder.checks += len(self.transitions_checked)
        self.state = after
        if after.outcome is not None:
            self._finish_game()

    def _finish_game(self) -> None:
        state = self.state
        game = type(self).game
        assert game is not None
        self.best_round = max(self.best_round, state.round)
        self.best_profit = max(self.best_profit, state.profit)
        self.best_points = max(self.best_points, catalog.goal_points(state))
        self.best_bans = max(self.best_bans, len(state.banned))
        if not self.traces_checked:
            return
        trace = Trace(game, tuple(self.actions), state, tuple(self.rounds))
        # A game met again (the same actions, rounds and final state: the same `Trace`) passes again.
        final = self.seen
        key = (trace.actions, trace.rounds, final) if final is not None else None
        clean = type(self).clean
        if key is None or key not in clean:
            for inv in self.traces_checked:
                try:
                    message = inv.check(trace)
                except Exception as exc:
                    message = _raised(exc)
                if message is not None:
                    self._fail(inv, message, None, state)
            if key is not None:
                remember(clean, key, True)
        self.recorder.checks += len(self.traces_checked)

    def _choose(self, data: st.DataObject, kind: ActionKind) -> None:
        """Play a stretch of the game that prefers actions of `kind`, for as long as Hypothesis chooses.

        Each decision takes an action of this rule's kind when there is one and any legal action
        otherwise; chance events are resolved as they come, each run of them (a hand, a deal) from one seed
        drawn at its first outcome (`chance_runs`). A stretch covers several engine steps
        (about twenty decisions on average), which keeps Hypothesis's cost of choosing a rule from
        dominating the engine's cost per step; shrinking shortens stretches towards one decision.
        """
        # Choices are drawn straight from the test case's choice sequence (`DataObject.conjecture_data`,
        # which Hypothesis documents as semi-stable): `data.draw(st.integers(...))` costs several
        # times more per draw, for a printout of each draw that the reports replace anyway.
        choice = data.conjecture_data
        decisions = 0
        run: ChanceRun | None = None  # the run of chance outcomes being dealt: one draw per run, not per outcome
        while True:
            state = self.state
            if state.outcome is not None:
                return
            node = self.seen
            if node is None:
                actions = catalog.legal(state)
            elif node.legal is None:
                actions = node.legal = catalog.legal(state)
            else:
                actions = node.legal  # a state met before: the engine's answer then (see `known`)
            if not actions:
                return  # `liveness.actions` has already reported this state
            decision = not isinstance(actions[0], Chance)
            # At each later decision Hypothesis chooses whether this stretch of play goes on.
            if decision:
                if decisions and not choice.draw_boolean(CONTINUE):
                    return
                decisions += 1
                run = None
            elif len(actions) > 1:
                if run is None:
                    run = ChanceRun(seed_of(choice.draw_bytes(SEED_BYTES, SEED_BYTES)))
                self._apply(actions[run.pick(len(actions))])
                continue
            pool: Sequence[Action] = actions
            if decision and len(actions) > 1:
                # Steering first (a per-game choice), then this rule's kind among what is left.
                steering: bool | None = None
                if state.phase is Phase.COMPANY_PLAY and not state.pending:
                    if self.prudent is None:
                        self.prudent = choice.draw_boolean(0.5)
                    steering = self.prudent
                elif state.phase is Phase.MOVEMENT_TURN:
                    if self.organised is None:
                        self.organised = choice.draw_boolean(0.5)
                    steering = self.organised
                found = node.pools.get((steering, kind)) if node is not None else None
                if found is None:
                    if steering:
                        pool = _prudent(state, pool) if state.phase is Phase.COMPANY_PLAY else _organised(state, pool)
                    found = [a for a in pool if kind_of(a) is kind] or pool
                    if node is not None:
                        node.pools[steering, kind] = found
                pool = found
            self._apply(pool[choice.draw_integer(0, len(pool) - 1) if len(pool) > 1 else 0])

    # -- where an example starts --

    @initialize(data=st.data())
    def start(self, data: st.DataObject) -> None:
        """Start from Set-Up, or (at the profile's `corpus_share`) from the end of a corpus prefix of a deep game.

        The prefix is kept in the trace, so a report replays from Set-Up. It is checked like any
        play the first time a run uses it, and played unchecked once it has passed (the same steps
        would pass again); one that fails is checked, and fails, every time. Shrinking prefers
        Set-Up, then the shorter prefixes (the corpus is shortest first).
        """
        share = type(self).corpus_share
        if share <= 0:
            return
        game = type(self).game
        assert game is not None
        prefixes = corpus.prefixes(game, _steer)
        choice = data.conjecture_data
        if not prefixes or not choice.draw_boolean(share):
            return
        index = choice.draw_integer(0, len(prefixes) - 1)
        prefix = prefixes[index]
        passed = type(self).passed_prefixes
        if index in passed:
            state = self.state
            for action in prefix:
                state = engine.apply(state, action)
                self.actions.append(action)
                self.rounds.append(state.round)
                self.trail.append(state)
            node = type(self).met.node(state)
            self.state = node.state if node is not None else state
            self.seen = node
        else:
            for action in prefix:
                self._apply(action)  # raises on a violation, leaving the prefix unmarked
            passed.add(index)
        state = self.state
        self.from_corpus = len(prefix)
        # The targets count progress from here: a deep prefix is no merit of the example.
        self.base = (state.round, state.profit, catalog.goal_points(state), len(state.banned))

    # -- one rule per kind of action --

    @rule(data=st.data())
    def chance(self, data: st.DataObject) -> None:
        """A chance event: a draw, a deal, the Goal split, a Market refill."""
        self._choose(data, ActionKind.CHANCE)

    @rule(data=st.data())
    def company_play(self, data: st.DataObject) -> None:
        self._choose(data, ActionKind.COMPANY_PLAY)

    @rule(data=st.data())
    def company_buy(self, data: st.DataObject) -> None:
        self._choose(data, ActionKind.COMPANY_BUY)

    @rule(data=st.data())
    def company_end(self, data: st.DataObject) -> None:
        self._choose(data, ActionKind.COMPANY_END)

    @rule(data=st.data())
    def company_choice(self, data: st.DataObject) -> None:
        self._choose(data, ActionKind.COMPANY_CHOICE)

    @rule(data=st.data())
    def movement_play(self, data: st.DataObject) -> None:
        self._choose(data, ActionKind.MOVEMENT_PLAY)

    @rule(data=st.data())
    def movement_buy(self, data: st.DataObject) -> None:
        self._choose(data, ActionKind.MOVEMENT_BUY)

    @rule(data=st.data())
    def movement_pass(self, data: st.DataObject) -> None:
        self._choose(data, ActionKind.MOVEMENT_PASS)

    @rule(data=st.data())
    def movement_choice(self, data: st.DataObject) -> None:
        self._choose(data, ActionKind.MOVEMENT_CHOICE)

    # -- probes: illegal actions must be rejected and leave the state as it was --

    def _candidates(self, probe_id: str) -> Sequence[Action]:
        probe = self.probes.get(probe_id)
        if probe is None or (self.state.outcome is not None and probe_id != "reject.out-of-turn"):
            return ()
        return probe.candidates(self.state)

    def _probe(self, data: st.DataObject, probe_id: str) -> None:
        # No precondition: a probe with nothing to try is a cheap no-op, where a precondition would
        # make Hypothesis redraw the rule (and spend choices on it) at most steps.
        candidates = self._candidates(probe_id)
        if not candidates:
            return
        choice = data.conjecture_data
        action = candidates[choice.draw_integer(0, len(candidates) - 1) if len(candidates) > 1 else 0]
        probe = self.probes[probe_id]
        try:
            message = probe.check(self.state, action)
        except Exception as exc:
            message = _raised(exc)
        self.recorder.checks += 1
        if message is not None:
            self._fail(probe, message, None, self.state, probe=action)

    @rule(data=st.data())
    def probe_banned(self, data: st.DataObject) -> None:
        self._probe(data, "reject.banned")

    @rule(data=st.data())
    def probe_full_hand(self, data: st.DataObject) -> None:
        self._probe(data, "reject.full-hand")

    @rule(data=st.data())
    def probe_unaffordable(self, data: st.DataObject) -> None:
        self._probe(data, "reject.unaffordable")

    @rule(data=st.data())
    def probe_out_of_turn(self, data: st.DataObject) -> None:
        self._probe(data, "reject.out-of-turn")

    def teardown(self) -> None:
        """Check the unfinished game's trace, and steer Hypothesis towards deep games and high scores."""
        if _RUNNING[0] is self:
            _RUNNING[0] = None  # no rule is drawn after the example: do not keep its game alive till the next
        if not self.failed and self.state.outcome is None and self.actions:
            self._finish_game()
        elif self.state.outcome is None:
            state = self.state
            self.best_round = max(self.best_round, state.round)
            self.best_profit = max(self.best_profit, state.profit)
        rounds, profit, points, bans = self.base
        target(float(self.best_round - rounds), label="rounds played")
        target(float(self.best_profit - profit), label="Company profit")
        target(float(self.best_points - points), label="Movement goal points")
        target(float(self.best_bans - bans), label="bans in force")


def _steer(state: GameState, pool: Sequence[Action], organised: bool) -> Sequence[Action]:
    """The machine's steering for corpus games: prudent Company plays; Goal-minded Movement if `organised`."""
    if len(pool) <= 1 or state.pending:
        return pool
    if state.phase is Phase.COMPANY_PLAY:
        return _prudent(state, pool)
    if organised and state.phase is Phase.MOVEMENT_TURN:
        return _organised(state, pool)
    return pool


def _prudent(state: GameState, pool: Sequence[Action]) -> Sequence[Action]:
    """The Company's plays and ends that still leave enough Budget to buy something, when any do.

    Uniformly random play mostly loses to Economic Defeat within two rounds (a play paid with the
    cards the Buy Phase needed); steering away from that reaches the late game where Reshuffles,
    stars, bans and the victory thresholds are exercised.
    """
    offers = catalog.buy_costs(state)
    cheapest = min((cost for _, _, cost in offers), default=None)
    if cheapest is None or state.phase is not Phase.COMPANY_PLAY:
        return pool
    budget = state.game.budget
    hand_total = sum(budget[c] for c in state.c_hand)
    safe: list[Action] = []
    for action in pool:
        if isinstance(action, PlayStandard | PlayReserve):
            left = hand_total - budget[action.card] - sum(budget[c] for c in action.pay)
            if left >= cheapest:
                safe.append(action)
        elif isinstance(action, EndPlay):
            if hand_total >= cheapest:
                safe.append(action)
        else:
            safe.append(action)
    return safe or pool


def _organised(state: GameState, pool: Sequence[Action]) -> Sequence[Action]:
    """The Movement's actions that work towards a Goal, when there are any.

    Uniformly random Movement play achieves a Goal in about one game of thirty, so bans, Restriction
    cards, hand-size Goals and Goal Victory would hardly ever be exercised. This steering saves
    Influence tokens for Agitation: spend everything on a Goal, buy Agitation spaces and play
    Agitation cards without flipping the Tableau, organise when offered, and otherwise pass.
    """
    agitate = [a for a in pool if isinstance(a, Agitate)]
    if agitate:
        most = max(a.tokens for a in agitate)
        return [a for a in agitate if a.tokens == most]
    organise = [a for a in pool if isinstance(a, OrganizePlay)]
    if organise:
        return organise
    market = state.cards.market
    for wanted in (
        [a for a in pool if isinstance(a, MovementBuy) and not a.flip
         and market[a.space].action is MarketAction.AGITATION],
        [a for a in pool if isinstance(a, MovementPlay) and not a.flip
         and state.game.movement_card(a.card).icons.agitation],
        [a for a in pool if isinstance(a, Pass)],
    ):
        if wanted:
            return wanted
    return pool


GENERATED_MODULE = f"{__name__}.generated"
"""The module the machines `machine_for` makes claim: none, so that none has source to look up.

Hypothesis keys its example database by a digest of the machine class's source, and looks the source up on every
run by parsing the class's module for a class of that name (some 20 ms a run, each round of a benchmark or a
mutant's run included). A class made here is never found there, so the digest falls back to the class's name
(which carries the card set's fingerprint and the rulings); with no module to parse it falls back at once, to the
same digest, and so to the same database key."""


def machine_for(game: Game, invariants: tuple[Invariant, ...] = CATALOG,
                recorder: Recorder | None = None, check_every: int | None = None,
                oracle_every: int | None = None, corpus_share: float | None = None,
                costly_every: int | None = None) -> type[GameMachine]:
    """A `GameMachine` subclass for one card set, rulings and selection of invariants.

    `check_every`, `costly_every` and `oracle_every` are the rates of the costly checks (`SAMPLED`, `COSTLY`,
    `ORACLE`) and
    `corpus_share` how often an example starts from a deep prefix (a profile's fields of the same
    names); the defaults are the ci profile's.

    Its name carries the card set's fingerprint and the rulings, so that Hypothesis keeps the
    examples of different configurations apart in its database.
    """
    rulings = str(game.rulings).replace("=", "_").replace(",", "__").replace("-", "_")
    ids = ",".join(i.id for i in invariants)
    selection = "all" if invariants == CATALOG else hashlib.sha256(ids.encode()).hexdigest()[:8]
    name = f"GameMachine_{game.cards.fingerprint}_{rulings}_{selection}"
    attributes = {"game": game, "selection": invariants, "recorder": recorder or Recorder(),
                  "check_every": check_every or GameMachine.check_every,
                  "costly_every": costly_every or GameMachine.costly_every,
                  "oracle_every": oracle_every or GameMachine.oracle_every, "passed_prefixes": set(),
                  "clean": derived.memo(), "met": Met(),
                  "corpus_share": GameMachine.corpus_share if corpus_share is None else corpus_share,
                  "_configured_for": None, "__module__": GENERATED_MODULE}
    machine = type(name, (GameMachine,), attributes)
    return machine

