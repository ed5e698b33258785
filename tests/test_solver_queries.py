"""Known answers for each query kind, witness replay and the trace format.

The tiny card file (tests/data/tiny3.toml) is built so that answers change between turns 1 and 2:
its first Reshuffle can come at turn 2 at the earliest (three-card hands, draw cards), and one
star of 4 Profit wins. The shipped set's first hand can be played out so that nothing can be
bought: an Economic Defeat at turn 1.
"""

from __future__ import annotations

import functools
import json
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cli_run import DOUBTSPEC
from doubtspec.cli.exitcodes import ExitCode
from doubtspec.errors import OptionError
from doubtspec.model.cards import load_cards
from doubtspec.model.game import Game
from doubtspec.model.state import OutcomeReason
from doubtspec.reports.trace import TRACE_FORMAT, load_trace
from doubtspec.solver.abstraction.company import PROFIT, CompanyAbstraction
from doubtspec.solver.abstraction.company_schedules import ScheduleProver
from doubtspec.solver.abstraction.profit_cut import ProfitCut
from doubtspec.solver.methods import HuntMethod, ProfitHuntMethod, StarHuntMethod
from doubtspec.solver.queries import (
    HUNT_SHARE,
    STAR_HUNT_MIN_S,
    STAR_SLICE_S,
    Answer,
    Assumptions,
    Opponent,
    QueryKind,
    _note_cases_not_asked,
    solve,
    solve_goals,
)
from doubtspec.solver.unrolling.bmc import Caps
from doubtspec.solver.unrolling.witness import replay_actions
from doubtspec.solver.verdict import Budget, TurnProof, TurnVerdict, margin_of

DATA = Path(__file__).parent / "data"
TINY = Game(load_cards(DATA / "tiny3.toml"))
CAPS = Caps(plays=3, buys=2)


@functools.cache
def tiny_answer(kind: QueryKind, bound: int) -> Answer:
    """One unrolling-only solve per question for the whole module (the answers do not change between tests)."""
    return solve(TINY, kind, bound, Opponent.PASSIVE, caps=CAPS, check_caps=False, use_hunt=False,
                 use_abstraction=False)


def assert_consistent(answer: Answer) -> None:
    """An answer never contradicts itself: headline, proved turns, per-turn proofs and notes agree."""
    assert_consistent_json(answer.to_json())


def assert_consistent_json(data: dict[str, Any]) -> None:
    """`assert_consistent` on an answer's `--json` (what the command prints)."""
    impossible = {int(turn) for turn in data["impossible_turns"]}
    within_caps, proved, earliest = data["proved_none_by_turn_within_caps"], data["proved_none_by_turn"], \
        data["earliest_turn"]
    assert impossible == set(range(1, within_caps + 1))
    assert proved <= within_caps
    if data["answer"] == "yes":
        assert earliest is not None and data["witness_actions"] is not None
        assert within_caps < earliest
        if data["earliest_exact"]:
            assert not any("not decided" in note or "unknown" in note for note in data["notes"]), data["notes"]
        else:
            assert any(str(earliest) in note or "not looked at" in note for note in data["notes"])
    elif data["answer"] == "no":
        assert data["witness_actions"] is None and within_caps >= data["by_turn"]
        assert (data["exact"] is True) == (proved >= data["by_turn"])
    else:
        assert data["witness_actions"] is None and within_caps < data["by_turn"]


def test_a_first_turn_answer_does_not_say_its_turn_was_undecided() -> None:
    """Nothing comes before turn 1: a witness there is the earliest, with no note of an undecided turn."""
    game = Game(load_cards())
    answer = solve(game, QueryKind.DEFEAT, 2, caps=CAPS, timeout_s=30, check_caps=False)
    assert answer.status == "yes" and answer.earliest == 1 and answer.earliest_exact
    assert answer.to_json()["notes"] == []
    assert_consistent(answer)


@pytest.mark.parametrize(("question", "budget"), [(("stars", "--by-turn", "3"), 4.0),
                                                  (("stars", "--by-turn", "12"), 6.0),
                                                  (("profit", "--by-turn", "6"), 5.0)])
def test_the_timeout_is_honoured_within_ten_percent(question: tuple[str, ...], budget: float) -> None:
    """`doubtspec solve ... --timeout B` ends within 1.1 B by the user's clock: the budget pays for the command's
    start-up, the hunt, formula building and every Z3 call (charged to one deadline). Run as the command, in a
    process of its own: in a test worker the question would share its heap and Z3 context with every test before
    it, which no command does (in one run of the suite a 2-second question took 2.28 s that way)."""
    started = time.perf_counter()
    done = subprocess.run([str(DOUBTSPEC), "solve", *question, "--timeout", str(budget), "--json"],
                          capture_output=True, text=True, timeout=budget * 10)
    seconds = time.perf_counter() - started
    assert done.returncode in (ExitCode.OK, ExitCode.UNKNOWN), done.stderr
    assert seconds <= budget * 1.1, f"{' '.join(question)}: {seconds:.2f} s for {budget} s"
    data = json.loads(done.stdout)
    assert data["seconds"] <= seconds
    assert_consistent_json(data)


@pytest.mark.parametrize(("kind", "reason"), [(QueryKind.STARS, OutcomeReason.STAR_VICTORY),
                                              (QueryKind.PROFIT, OutcomeReason.PROFIT_VICTORY)])
def test_company_victories_flip_between_turn_one_and_two(kind: QueryKind, reason: OutcomeReason) -> None:
    answer = tiny_answer(kind, 2)
    assert answer.status == "yes"
    assert answer.earliest == 2
    assert [c.status for c in answer.checks] == ["unsat", "sat"]
    assert answer.witness is not None
    final = replay_actions(TINY, answer.witness.actions)
    assert final.outcome is not None and final.outcome.reason is reason and final.outcome.round == 2


def test_known_false_stars_by_turn_one() -> None:
    answer = solve(TINY, QueryKind.STARS, 1, Opponent.PASSIVE, caps=CAPS, timeout_s=None)
    assert answer.status == "no"
    assert answer.witness is None
    assert answer.exact is True  # the abstraction's proof has no caps
    assert answer.turn_methods() == {1: "abstraction-schedules"}
    assert_consistent(answer)


def test_known_true_defeat_on_the_shipped_set() -> None:
    game = Game(load_cards())
    answer = solve(game, QueryKind.DEFEAT, 1, caps=CAPS, check_caps=False, use_hunt=False)
    assert answer.status == "yes" and answer.earliest == 1 and answer.witness_from == "unrolling"
    assert answer.witness is not None
    final = replay_actions(game, answer.witness.actions)
    assert final.outcome is not None
    assert final.outcome.reason in (OutcomeReason.ECONOMIC_DEFEAT, OutcomeReason.MARGINALIZATION)


def test_known_false_defeat_by_turn_one() -> None:
    answer = solve(TINY, QueryKind.DEFEAT, 1, Opponent.PASSIVE, caps=CAPS, check_caps=False)
    assert answer.status == "no"


def test_answers_state_their_assumptions() -> None:
    answer = tiny_answer(QueryKind.STARS, 1)
    text = "\n".join(answer.assumptions.lines())
    for needle in ("passive", "best luck", "turn-numbering=round", "3 plays", "2 buys", "rulings: all defaults"):
        assert needle in text
    data = answer.to_json()
    assert data["answer"] == "no" and data["assumptions"]["opponent"].startswith("passive")


def test_timeout_is_unknown() -> None:
    answer = solve(TINY, QueryKind.STARS, 2, caps=CAPS, timeout_s=0.001, check_caps=False)
    assert answer.status == "unknown"
    assert any("unknown within" in note for note in answer.notes)
    assert_consistent(answer)


def test_witness_trace_format(tmp_path: Path) -> None:
    answer = tiny_answer(QueryKind.PROFIT, 2)
    assert answer.witness is not None
    path = tmp_path / "w.json"
    answer.witness.write(path, TINY, {"query": answer.to_json()})
    data = json.loads(path.read_text())
    assert data["format"] == TRACE_FORMAT
    assert data["cards"]["fingerprint"] == TINY.cards.fingerprint
    assert data["seed"] is None and data["rulings"] == {}
    assert data["outcome"]["reason"] == "profit-victory"
    trace = load_trace(path)  # the fuzzer's reader takes witnesses as they are
    final = replay_actions(trace.game(), trace.parsed())
    assert final.outcome is not None and final.outcome.round == 2


@pytest.mark.parametrize("kind", [QueryKind.GOAL, QueryKind.MOVEMENT_WIN])
def test_a_passing_movement_cannot_be_asked_about_goals(kind: QueryKind) -> None:
    with pytest.raises(OptionError, match="--opponent any"):
        solve(TINY, kind, 1, opponent=Opponent.PASSIVE, goal=1)


def test_an_unknown_goal_is_bad_usage() -> None:
    with pytest.raises(OptionError, match="no Goal G42"):
        solve(TINY, QueryKind.GOAL, 1, opponent=Opponent.ANY, goal=42)


def test_the_hunt_finds_the_witness_and_the_unrolling_proves_it_earliest() -> None:
    answer = solve(TINY, QueryKind.STARS, 2, Opponent.PASSIVE, caps=CAPS, check_caps=False)
    assert answer.status == "yes" and answer.witness_from == "star-hunt"  # the star hunt runs first at every budget
    assert answer.earliest == 2 and answer.proved_none_by == 1 and answer.earliest_exact
    assert answer.turn_methods() == {1: "abstraction-schedules"}  # only the turns before the witness are proved
    assert answer.checks == []  # the abstraction settled them: the unrolling was not needed
    assert_consistent(answer)
    assert answer.witness is not None
    final = replay_actions(TINY, answer.witness.actions)
    assert final.outcome is not None and final.outcome.reason is OutcomeReason.STAR_VICTORY


def test_stars_by_turn_twelve_on_the_shipped_set() -> None:
    """The speed aim's question: a witness deep in the game from the hunt, proofs for the first turns."""
    game = Game(load_cards())
    answer = solve(game, QueryKind.STARS, 12, timeout_s=12, check_caps=False)
    assert answer.status == "yes" and answer.earliest is not None and answer.earliest <= 12
    assert answer.witness is not None
    final = replay_actions(game, answer.witness.actions)
    assert final.outcome is not None and final.outcome.reason is OutcomeReason.STAR_VICTORY
    assert final.outcome.round == answer.earliest
    assert answer.proved_none_by >= 1  # the abstraction's proofs (turns 1-3 in about a second) have no caps
    assert all(not method.endswith("(within the caps)") for turn, method in answer.turn_methods().items()
               if turn <= answer.proved_none_by)
    assert not answer.earliest_exact or answer.proved_none_by == answer.earliest - 1
    assert_consistent(answer)


def test_a_goal_at_the_first_turn_on_the_shipped_set() -> None:
    """G1 is cheap enough (provisional cost) to be achieved on the Movement's first turn with the best luck."""
    game = Game(load_cards())
    answer = solve(game, QueryKind.GOAL, 1, opponent=Opponent.ANY, goal=1, timeout_s=20)
    assert answer.status == "yes" and answer.earliest == 1 and answer.earliest_exact
    assert answer.witness is not None
    assert_consistent(answer)
    assert 1 in replay_actions(game, answer.witness.actions).achieved


def test_ruling_alternatives_are_encoded() -> None:
    """Under reshuffle-first the Draw Phase draws five after the Sequence; the witness must still replay."""
    from doubtspec.model.rulings import Rulings

    game = Game(TINY.cards, Rulings.parse(["draw-order=reshuffle-first", "trigger-timing=before-effects"]))
    answer = solve(game, QueryKind.STARS, 2, Opponent.PASSIVE, caps=CAPS, check_caps=False, use_hunt=False)
    assert answer.status == "yes" and answer.witness_from == "unrolling"
    assert answer.witness is not None
    assert replay_actions(game, answer.witness.actions).outcome is not None


@pytest.mark.slow
def test_a_no_is_exact_when_the_caps_cannot_bind() -> None:
    """With enough slots, the caps check proves that no run of turn 1 is cut off: the 'no' is exact."""
    answer = solve(TINY, QueryKind.STARS, 1, Opponent.PASSIVE, caps=Caps(plays=10, buys=7), timeout_s=None)
    assert answer.status == "no"
    assert answer.exact is True


# --- the Movement's questions, on a tiny card file whose Goals cost 1 (tests/data/tiny_movement.toml) ---

MOVEMENT = Game(load_cards(DATA / "tiny_movement.toml"))
MOVEMENT_CAPS = Caps(plays=1, buys=1)


def test_goals_by_turn_one_flags_the_covered_goals_unreachable() -> None:
    """G1-G6 can lie uncovered at Set-Up and cost 1; G7-G9 always start covered (known-true and known-false)."""
    answers = solve_goals(MOVEMENT, 1, Opponent.ANY, timeout_s=None, caps=MOVEMENT_CAPS, check_caps=False)
    by_goal = {a.goal: a for a in answers}
    assert sorted(by_goal) == list(range(1, 10))
    for number in range(1, 7):
        assert by_goal[number].status == "yes" and by_goal[number].earliest == 1, number
        witness = by_goal[number].witness
        assert witness is not None and number in replay_actions(MOVEMENT, witness.actions).achieved
    for number in (7, 8, 9):
        assert by_goal[number].status == "no", number
        # proved by the Movement's abstraction (no caps), so the unrolling is not asked
        assert by_goal[number].checks == [] and by_goal[number].exact


@pytest.mark.parametrize("use_hunt", [True, False], ids=["hunt", "unrolling"])
def test_movement_win_flips_between_turn_one_and_two(use_hunt: bool) -> None:
    no = solve(MOVEMENT, QueryKind.MOVEMENT_WIN, 1, Opponent.ANY, timeout_s=None, caps=MOVEMENT_CAPS,
               check_caps=False, use_hunt=use_hunt)
    assert no.status == "no"
    yes = solve(MOVEMENT, QueryKind.MOVEMENT_WIN, 2, Opponent.ANY, timeout_s=None, caps=MOVEMENT_CAPS,
                check_caps=False, use_hunt=use_hunt)
    # Turn 1 is proved impossible by the Movement's abstraction (no caps), so the earliest turn is proved.
    assert yes.status == "yes" and yes.earliest == 2 and yes.earliest_exact
    assert yes.proved_none_by == 1
    assert_consistent(yes)
    # the Movement's abstraction finds a witness by playing its run in the engine (its quick first pass may
    # come before the hunt's)
    assert yes.witness_from in (("hunt", "abstraction") if use_hunt else ("abstraction",))
    assert yes.witness is not None
    final = replay_actions(MOVEMENT, yes.witness.actions)
    assert final.outcome is not None and final.outcome.reason is OutcomeReason.GOAL_VICTORY


def test_company_question_with_a_free_movement() -> None:
    answer = solve(TINY, QueryKind.STARS, 1, Opponent.ANY, timeout_s=None, caps=CAPS, check_caps=False)
    assert answer.status == "no" and answer.assumptions.opponent.startswith("any")


def test_a_ruling_the_unrolling_cannot_model_still_gets_witnesses() -> None:
    """Every card file and ruling runs through `solve`: without the unrolling, the hunt still answers "yes",
    and the Movement's abstraction (whose Messaging covers any number of zones) still proves a "no"."""
    from doubtspec.model.rulings import Rulings

    game = Game(MOVEMENT.cards, Rulings.parse(["messaging-zones=any-zones"]))
    yes = solve(game, QueryKind.GOAL, 1, Opponent.ANY, goal=1, timeout_s=None, caps=MOVEMENT_CAPS)
    assert yes.status == "yes" and yes.witness is not None
    no = solve(game, QueryKind.GOAL, 1, Opponent.ANY, goal=7, timeout_s=5, caps=MOVEMENT_CAPS)
    assert no.status == "no" and no.checks == [] and no.exact


@pytest.mark.parametrize(("timeout", "share"), [(60.0, 0.15), (300.0, 0.5)])
def test_the_company_first_pass_gets_half_a_long_budget(monkeypatch: pytest.MonkeyPatch, timeout: float,
                                                        share: float) -> None:
    """On a long budget the Company's prover gets half of it before the hunt, so the CP-SAT bound it needs runs
    at once; on a short one it keeps the quick share, so the hunt still has time for a deep witness."""
    given: list[float] = []

    def decide(self: ScheduleProver, by_turn: int, budget: Budget, first_turn: int = 1) -> list[object]:
        given.append(budget.left())
        return []

    monkeypatch.setattr(ScheduleProver, "decide", decide)
    solve(TINY, QueryKind.STARS, 2, Opponent.PASSIVE, timeout_s=timeout, use_hunt=False, use_unrolling=False)
    assert given and given[0] == pytest.approx(share * (timeout - margin_of(timeout)), rel=0.05)


def _record_hunts(monkeypatch: pytest.MonkeyPatch, given: list[tuple[str, float]], passes: list[object]) -> None:
    """Replace the star and the generic hunts by ones that find nothing and record, in call order, which was asked
    (with the seconds its budget had left) and the passes asked of it."""
    def hunt(name: str) -> Callable[..., list[object]]:
        def decide(self: object, by_turn: int, budget: Budget, first_turn: int = 1, **kwargs: object) -> list[object]:
            given.append((name, budget.left()))
            passes.append(kwargs.get("passes"))
            return []
        return decide

    monkeypatch.setattr(StarHuntMethod, "decide", hunt("star"))
    monkeypatch.setattr(HuntMethod, "decide", hunt("generic"))


def test_the_star_hunt_gets_a_fixed_slice_on_a_short_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under about 150 s the star hunt's share of the hunt's share is too small for its turn-6 find (10-15 s after a
    dead pass of 7 s on the shipped set): it gets `STAR_SLICE_S` instead, one pass per schedule (after a find the
    rest goes to the proofs), and the generic hunt its share after."""
    given: list[tuple[str, float]] = []
    passes: list[object] = []

    def prove(self: ScheduleProver, by_turn: int, budget: Budget, first_turn: int = 1) -> list[object]:
        return []

    monkeypatch.setattr(ScheduleProver, "decide", prove)
    _record_hunts(monkeypatch, given, passes)
    solve(TINY, QueryKind.STARS, 12, Opponent.PASSIVE, timeout_s=60.0, use_unrolling=False)
    # (then both again for the turn after the cut's first part, which its second part left open: see
    # `test_the_turn_the_cut_may_prove_is_hunted_last`)
    assert [name for name, _ in given][:2] == ["star", "generic"]
    assert given[0][1] == pytest.approx(STAR_SLICE_S, rel=0.05)
    assert given[1][1] == pytest.approx(HUNT_SHARE * (60.0 - margin_of(60.0)), rel=0.05)
    assert passes[:2] == [1, None]


def test_a_thirty_second_stars_question_takes_the_star_cut_and_the_star_hunt(monkeypatch: pytest.MonkeyPatch) -> None:
    """A question of under 30 s (28 of them left once a command has started) takes the star cut and runs the star
    hunt before the generic hunt, on a slice of at least `STAR_HUNT_MIN_S`: the hunt's turn-6 pass takes 6-8 s, and
    such a question on the shipped set answered the generic hunt's turn 8 when both waited for 35 s."""
    given: list[tuple[str, float]] = []
    cuts: list[int] = []
    cut_stars = ScheduleProver.cut_stars

    def cut(self: ScheduleProver, by_turn: int, stars_to_win: int, budget: Budget, cpsat: bool = True) -> int:
        cuts.append(by_turn)
        return cut_stars(self, by_turn, stars_to_win, budget, cpsat)

    monkeypatch.setattr(ScheduleProver, "cut_stars", cut)
    _record_hunts(monkeypatch, given, [])
    solve(TINY, QueryKind.STARS, 12, Opponent.PASSIVE, timeout_s=28.0, use_unrolling=False)
    assert cuts
    assert [name for name, _ in given][:2] == ["star", "generic"]
    assert given[0][1] >= STAR_HUNT_MIN_S


def test_the_star_cut_replaces_the_turn_by_turn_first_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the star cut's turn proved from its bound, the turns before it are not proved one by one (the target
    latches), and the star hunt starts with its slice two turns after it: the turn in between is the one the cut's
    CP-SAT part may prove next, and is hunted only after that (`test_the_turn_the_cut_may_prove_is_hunted_last`)."""
    hunted: list[tuple[int, float]] = []
    decided: list[int] = []

    def cut(self: ScheduleProver, by_turn: int, stars_to_win: int, budget: Budget, cpsat: bool = True) -> int:
        return 5

    def from_cut(self: ScheduleProver, turn: int, budget: Budget) -> TurnProof:
        return TurnProof(turn, TurnVerdict.IMPOSSIBLE if turn == 5 else TurnVerdict.UNKNOWN, self.name, 0.1)

    def prove(self: ScheduleProver, by_turn: int, budget: Budget, first_turn: int = 1) -> list[object]:
        decided.append(first_turn)
        return []

    def star(self: object, by_turn: int, budget: Budget, first_turn: int = 1, **kwargs: object) -> list[object]:
        hunted.append((first_turn, budget.left()))
        return []

    monkeypatch.setattr(ScheduleProver, "cut_stars", cut)
    monkeypatch.setattr(ScheduleProver, "prove_from_cut", from_cut)
    monkeypatch.setattr(ScheduleProver, "decide", prove)
    monkeypatch.setattr(StarHuntMethod, "decide", star)
    monkeypatch.setattr(HuntMethod, "decide", lambda self, *args, **kwargs: [])
    answer = solve(TINY, QueryKind.STARS, 12, Opponent.PASSIVE, timeout_s=60.0, use_unrolling=False)
    assert answer.proved_none_by == 5 and answer.turn_methods() == dict.fromkeys(range(1, 6), "abstraction-schedules")
    assert hunted and hunted[0][0] == 7
    assert hunted[0][1] == pytest.approx(STAR_SLICE_S, rel=0.05)
    assert [turn for turn, _ in hunted[1:]] == [6]  # the cut's second part left turn 6 open
    assert 1 not in decided  # no turn-by-turn pass from turn 1


@pytest.mark.parametrize(("cpsat_proves", "hunted_turns"), [(5, [(6, 12)]), (4, [(6, 12), (5, 5)])])
def test_the_turn_the_cut_may_prove_is_hunted_last(monkeypatch: pytest.MonkeyPatch, cpsat_proves: int,
                                                   hunted_turns: list[tuple[int, int]]) -> None:
    """On a short budget the cut's first part (Z3 alone) proves turn 4; its second part (with CP-SAT, after the
    hunt) usually proves turn 5 (the shipped set), so the star hunt starts at turn 6 and hunts turn 5 only if the
    second part leaves it open: the dead pass for turn 5 (about 7 CPU-seconds) is not made when the proof comes."""
    hunted: list[tuple[int, int]] = []

    def cut(self: ScheduleProver, by_turn: int, stars_to_win: int, budget: Budget, cpsat: bool = True) -> int:
        return min(by_turn, cpsat_proves if cpsat else 4)

    def from_cut(self: ScheduleProver, turn: int, budget: Budget) -> TurnProof:
        return TurnProof(turn, TurnVerdict.IMPOSSIBLE, self.name, 0.1)

    def star(self: object, by_turn: int, budget: Budget, first_turn: int = 1, **kwargs: object) -> list[object]:
        hunted.append((first_turn, by_turn))
        return []

    monkeypatch.setattr(ScheduleProver, "cut_stars", cut)
    monkeypatch.setattr(ScheduleProver, "prove_from_cut", from_cut)
    monkeypatch.setattr(ScheduleProver, "decide", lambda self, *args, **kwargs: [])
    monkeypatch.setattr(StarHuntMethod, "decide", star)
    monkeypatch.setattr(HuntMethod, "decide", lambda self, *args, **kwargs: [])
    answer = solve(TINY, QueryKind.STARS, 12, Opponent.PASSIVE, timeout_s=60.0, use_unrolling=False)
    assert hunted == hunted_turns
    assert answer.proved_none_by == cpsat_proves
    assert_consistent(answer)


def test_a_short_stars_question_is_no_when_the_cut_reaches_its_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """`--by-turn N` with N no later than the cut's turn: "no (proved)" with no hunt at all."""
    monkeypatch.setattr(ScheduleProver, "cut_stars", lambda self, by_turn, stars_to_win, budget, cpsat=True: by_turn)
    monkeypatch.setattr(ScheduleProver, "prove_from_cut",
                        lambda self, turn, budget: TurnProof(turn, TurnVerdict.IMPOSSIBLE, self.name, 0.1))
    monkeypatch.setattr(StarHuntMethod, "decide", lambda *args, **kwargs: pytest.fail("no hunt after a proved no"))
    answer = solve(TINY, QueryKind.STARS, 3, Opponent.PASSIVE, timeout_s=60.0, use_unrolling=False)
    assert answer.status == "no" and answer.exact is True and answer.proved_none_by == 3
    assert_consistent(answer)


def _profit_answer(monkeypatch: pytest.MonkeyPatch, timeout_s: float, cut: Callable[..., int],
                   proof: Callable[..., TurnProof | None], prove: Callable[..., list[object]],
                   hunt: Callable[..., list[object]]) -> Answer:
    """The tiny file's Profit question (a passing Movement, no unrolling) with the Profit cut, its proof, the
    turn-by-turn pass and both hunts replaced, so that a test sees how the question strings them together."""
    monkeypatch.setattr(ScheduleProver, "cut_profit", cut)
    monkeypatch.setattr(ScheduleProver, "profit_cut_proof", proof)
    monkeypatch.setattr(ScheduleProver, "decide", prove)
    monkeypatch.setattr(ProfitHuntMethod, "decide", hunt)
    monkeypatch.setattr(HuntMethod, "decide", hunt)
    return solve(TINY, QueryKind.PROFIT, 12, Opponent.PASSIVE, timeout_s=timeout_s, use_unrolling=False)


@pytest.mark.parametrize("cut_proves", [4, 0])
def test_the_profit_cut_replaces_the_turn_by_turn_first_pass(monkeypatch: pytest.MonkeyPatch,
                                                             cut_proves: int) -> None:
    """The Profit question asks the Profit cut first: a turn it proves needs no turn-by-turn proof of the turns
    before it (the target latches), and the hunt starts after it; the cut is asked again after the hunt, from the
    round it left open; a cut that proves nothing leaves the turn-by-turn pass its usual place, from turn 1."""
    calls: list[tuple[int, bool]] = []
    decided: list[int] = []
    hunted: list[int] = []

    def cut(self: ScheduleProver, by_turn: int, profit_to_win: int, budget: Budget, cpsat: bool = True) -> int:
        calls.append((by_turn, cpsat))
        return min(by_turn, cut_proves)

    def proof(self: ScheduleProver) -> TurnProof | None:
        return TurnProof(cut_proves, TurnVerdict.IMPOSSIBLE, "abstraction-profit-cut", 0.1) if cut_proves else None

    def prove(self: ScheduleProver, by_turn: int, budget: Budget, first_turn: int = 1) -> list[object]:
        decided.append(first_turn)
        return []

    def hunt(self: object, by_turn: int, budget: Budget, first_turn: int = 1, **kwargs: object) -> list[object]:
        hunted.append(first_turn)
        return []

    answer = _profit_answer(monkeypatch, 120.0, cut, proof, prove, hunt)
    assert calls[0] == (12, True) and len(calls) == 2  # CP-SAT's maxima on the first call: time is left
    assert answer.proved_none_by == cut_proves
    assert hunted and set(hunted) == {cut_proves + 1}
    assert decided[0] == (cut_proves + 1 if cut_proves else 1)
    if cut_proves:
        assert answer.turn_methods() == dict.fromkeys(range(1, cut_proves + 1), "abstraction-profit-cut")
        assert 1 not in decided
    assert_consistent(answer)


def test_an_answer_says_when_the_profit_cut_left_its_cases_unasked() -> None:
    """The note names the first open turn, the round whose cases were not asked and the seconds left then; it is
    not given when that turn is not the first open one, nor on an answer that leaves nothing open."""
    model = CompanyAbstraction.of(TINY)
    prover = ScheduleProver(model.system(PROFIT), PROFIT, model.lemmas(), layout=model.layout)
    prover.profit_cut = ProfitCut(prover, 70)
    prover.profit_cut.cases_not_asked[4] = 77.4

    def answer(status: str, earliest: int | None, proved: int) -> Answer:
        made = Answer(QueryKind.PROFIT, "Can the Company win on Profit by turn 12?", 12, status, earliest, None,
                      Assumptions("any", "best luck", {}, "turn 12", "none", "test"), proved_none_by=proved)
        _note_cases_not_asked(made, prover)
        return made

    assert answer("yes", 7, 4).notes == ["turn 5: the Profit cut bounds round 4 by cases only with at least 200 s of "
                                         "the budget left, and 77 s were; a longer --timeout lets it try them"]
    assert len(answer("unknown", None, 4).notes) == 1
    assert answer("yes", 7, 3).notes == []  # turn 4 is the first open turn, not turn 5
    assert answer("yes", 5, 4).notes == []  # the earliest turn is proved
    assert answer("no", None, 12).notes == []


def test_a_profit_answer_carries_the_cases_note(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Profit question adds the note itself: a cut that proves turns 1-4 and records round 4's cases as not
    asked leaves turn 5 open, and the answer says why and what a longer budget would ask."""
    def cut(self: ScheduleProver, by_turn: int, profit_to_win: int, budget: Budget, cpsat: bool = True) -> int:
        self.profit_cut = ProfitCut(self, profit_to_win)
        self.profit_cut.cases_not_asked[4] = 12.0
        return min(by_turn, 4)

    def proof(self: ScheduleProver) -> TurnProof | None:
        return TurnProof(4, TurnVerdict.IMPOSSIBLE, "abstraction-profit-cut", 0.1)

    def nothing(self: object, by_turn: int, budget: Budget, first_turn: int = 1, **kwargs: object) -> list[object]:
        return []

    answer = _profit_answer(monkeypatch, 30.0, cut, proof, nothing, nothing)
    assert answer.status == "unknown" and answer.proved_none_by == 4
    assert any(note.startswith("turn 5: the Profit cut bounds round 4 by cases") for note in answer.notes)
    assert_consistent(answer)
