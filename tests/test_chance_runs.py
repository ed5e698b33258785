"""Runs of chance outcomes: one seed drawn per run, the outcomes (not the seeds) in the trace, the same seed the
same deal, seed 0 the engine's first outcome each time."""

from __future__ import annotations

import pytest

from doubtspec.invariants.catalog import legal
from doubtspec.invariants.chance_runs import SEED_BYTES, SEEDS, ChanceRun, seed_of
from doubtspec.invariants.machines import ActionKind, machine_for
from doubtspec.model.actions import Chance
from doubtspec.model.engine import apply, new_game
from doubtspec.model.game import Game


class _Choices:
    """A stand-in for Hypothesis's choice sequence: every draw recorded, integers from a fixed cycle."""

    def __init__(self, decisions: int, values: tuple[int, ...] = (3, 1, 4, 1, 5, 9, 2, 6)) -> None:
        self.decisions = decisions
        self.values = values
        self.integers: list[tuple[int, int]] = []
        self.seeds: list[bytes] = []
        self.booleans = 0

    def draw_boolean(self, p: float = 0.5) -> bool:
        self.booleans += 1
        if p == 0.5:
            return self.booleans % 2 == 0
        self.decisions -= 1
        return self.decisions > 0

    def draw_bytes(self, low: int, high: int) -> bytes:
        assert low == high == SEED_BYTES
        value = self.values[(len(self.integers) + len(self.seeds)) % len(self.values)]
        drawn = bytes([value, 7 * value % 256, 0, value])
        self.seeds.append(drawn)
        return drawn

    def draw_integer(self, low: int, high: int) -> int:
        self.integers.append((low, high))
        return low + self.values[len(self.integers) % len(self.values)] % (high - low + 1)


class _Data:
    def __init__(self, choices: _Choices) -> None:
        self.conjecture_data = choices


def _play(game: Game, decisions: int, values: tuple[int, ...] = (3, 1, 4, 1, 5, 9, 2, 6)) -> tuple[object, _Choices]:
    machine = machine_for(game, ())()
    choices = _Choices(decisions, values)
    machine._choose(_Data(choices), ActionKind.COMPANY_PLAY)  # type: ignore[arg-type]
    return machine, choices


def test_seed_zero_deals_in_order_and_a_seed_deals_the_same_each_time() -> None:
    plain = ChanceRun(0)
    assert [plain.pick(n) for n in (5, 9, 2, 30)] == [0, 0, 0, 0]
    first, again = ChanceRun(12345), ChanceRun(12345)
    picks = [first.pick(n) for n in (5, 9, 2, 30, 30, 30)]
    assert picks == [again.pick(n) for n in (5, 9, 2, 30, 30, 30)]
    assert all(0 <= p < n for p, n in zip(picks, (5, 9, 2, 30, 30, 30), strict=True))
    assert len({tuple(ChanceRun(s).pick(30) for _ in range(4)) for s in range(1, 20)}) > 10
    assert seed_of(bytes(SEED_BYTES)) == 0 and seed_of(b"\xff" * SEED_BYTES) == SEEDS - 1
    with pytest.raises(ValueError):
        ChanceRun(SEEDS)
    with pytest.raises(ValueError):
        ChanceRun(1).pick(0)


def test_a_run_of_chance_outcomes_is_drawn_once(game: Game) -> None:
    machine, choices = _play(game, decisions=60)
    trail = machine.trail  # type: ignore[attr-defined]
    actions = machine.actions  # type: ignore[attr-defined]
    # The runs: maximal stretches of chance events with more than one outcome, not broken by a decision.
    runs, outcomes, in_run = 0, 0, False
    for state, action in zip(trail, actions, strict=False):
        if isinstance(action, Chance):
            if len(legal(state)) > 1:
                outcomes += 1
                runs += 0 if in_run else 1
                in_run = True
        else:
            in_run = False
    assert runs >= 3 and outcomes > 2 * runs  # hands dealt card by card: runs of several outcomes
    assert len(choices.seeds) == runs


def test_the_trace_holds_the_outcomes_and_replays_from_set_up(game: Game) -> None:
    machine, _ = _play(game, decisions=60)
    state = new_game(game)
    for action, expected in zip(machine.actions, machine.trail[1:], strict=True):  # type: ignore[attr-defined]
        state = apply(state, action)
        assert state == expected
    again, _ = _play(game, decisions=60)
    assert again.actions == machine.actions  # type: ignore[attr-defined]
    plain, _ = _play(game, decisions=60, values=(0,))
    # Seed 0 everywhere and the first choice at each decision: every chance event takes its first outcome.
    dealt = new_game(game)
    for action in plain.actions:  # type: ignore[attr-defined]
        if isinstance(action, Chance):
            assert action == legal(dealt)[0]
        dealt = apply(dealt, action)
