"""`doubtspec solve ...`: can something happen by turn N? Thin commands over `doubtspec.solver`.

Exit codes: 0 answered (yes or no), 3 unknown within the time limit, 2 bad usage; an encoding
error (a witness the engine rejects) is a bug and exits 70.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table

from doubtspec.agents.base import Matchup
from doubtspec.cli.common import (
    CardsOption,
    JsonOption,
    RulingOption,
    console,
    err_console,
    load_game,
    seconds_callback,
    seconds_since_start,
)
from doubtspec.cli.exitcodes import ExitCode
from doubtspec.errors import Interrupted, OptionError
from doubtspec.inputs import check_writable_file
from doubtspec.model.game import Game
from doubtspec.solver.degenerate import (
    DEFAULT_CATALOGUE_TIMEOUT_S,
    DEFAULT_THRESHOLDS,
    MATCHUPS,
    Finding,
    run_catalogue,
)
from doubtspec.solver.queries import (
    DEFAULT_TIMEOUT_S,
    Answer,
    Opponent,
    Query,
    QueryKind,
    solve_goals,
    solve_query,
)
from doubtspec.solver.unrolling.bmc import DEFAULT_BUYS, DEFAULT_PLAYS, Caps
from doubtspec.solver.unrolling.transition import UnsupportedCards
from doubtspec.solver.unrolling.witness import EncodingError
from doubtspec.viewer.witness import write_witness_page

T = TypeVar("T")

solve_app = typer.Typer(help="Ask the bounded solver whether something can happen by turn N.", no_args_is_help=True)

ByTurn = Annotated[int, typer.Option("--by-turn", min=1, metavar="N",
                                     help="The bound: turn N (round N: the Movement's Nth turn, then the Company's "
                                          "Nth turn).")]
OpponentOption = Annotated[Opponent, typer.Option(
    "--opponent", help="The other side's policy: any (both sides choose freely) or passive (the Movement always "
                       "passes; only for the Company's questions).")]
TimeoutOption = Annotated[float, typer.Option(
    "--timeout", min=0.001, metavar="SECONDS", callback=seconds_callback("--timeout"),
    help="Seconds for the whole question (witness hunt and proofs); what is not decided in time is 'unknown'.")]
WitnessOption = Annotated[Path | None, typer.Option("--witness-out", dir_okay=False,
                                                    help="Write a 'yes' answer's witness trace (JSON) here; a path "
                                                         "ending in .html gets a page showing the board at every "
                                                         "step instead.")]
EarliestOption = Annotated[bool, typer.Option(
    "--earliest/--no-earliest", help="After a witness, spend the rest of the time proving earlier turns impossible "
                                     "(--no-earliest answers as soon as a witness is found).")]
PlaysOption = Annotated[int, typer.Option("--plays", min=1, metavar="N",
                                          help="Play slots per Company turn in the unrolling.")]
BuysOption = Annotated[int, typer.Option("--buys", min=1, metavar="N",
                                         help="Buy slots per Company turn in the unrolling.")]


def _game(cards: Path | None, rulings: list[str] | None, witness_out: Path | None = None) -> Game:
    """The game to ask about; a bad card file, ruling or witness path is reported before any solving."""
    game = load_game(cards, rulings)
    if witness_out is not None:
        check_writable_file(witness_out, field="--witness-out")
    return game


@contextmanager
def _spinner(text: str) -> Iterator[None]:
    """A live status line on stderr while a long answer is worked out (stdout stays clean for --json).

    An interrupt ends the command with one line saying what was being asked (`doubtspec.cli.app`).
    """
    started = time.monotonic()
    try:
        with err_console.status(escape(text), spinner="dots"):
            yield
    except KeyboardInterrupt:
        raise Interrupted(f"{text} stopped after {time.monotonic() - started:.1f} s: no answer") from None


def _guarded(work: Callable[[], T]) -> T:
    """Run solver work, turning a card file it cannot model into bad usage and an encoding error into exit 70."""
    try:
        return work()
    except UnsupportedCards as exc:
        raise OptionError(f"the solver cannot model this card file: {exc}", field="--cards") from exc
    except EncodingError as exc:
        err_console.print(f"[bold red]encoding error[/] (a bug in the solver, not an answer): {escape(str(exc))}",
                          highlight=False)
        raise typer.Exit(ExitCode.INTERNAL) from exc


def _headline(answer: Answer) -> str:
    colour = {"yes": "green", "no": "cyan", "unknown": "yellow"}[answer.status]
    head = f"[bold {colour}]{answer.status.upper()}[/]"
    if answer.status == "yes":
        if answer.earliest_exact:
            head += f" — earliest at turn {answer.earliest} (proved)"
        else:
            head += (f" — witness at turn {answer.earliest}; the earliest is between turn "
                     f"{answer.proved_none_by + 1} and {answer.earliest}")
    elif answer.status == "no":
        head += f" — not by turn {answer.by_turn}"
        head += " (proved)" if answer.exact else " (within the caps)"
    return head


def _render(answer: Answer) -> None:
    console.print(Panel(f"{escape(answer.question)}\n{_headline(answer)}", title=f"solve {answer.kind.value}",
                        expand=False))
    table = Table(title="per turn: which method settled it")
    for column in ("turn", "verdict", "method", "seconds", "rests on"):
        table.add_column(column, justify="right" if column in ("turn", "seconds") else "left")
    for proof in sorted(answer.proofs.proofs, key=lambda p: (p.turn, p.method)):
        verdict = proof.verdict.value if proof.concrete or proof.verdict.value != "possible" else (
            "possible in the abstraction")
        table.add_row(str(proof.turn), verdict, proof.method, f"{proof.seconds:.2f}",
                      escape(proof.assumption or "-"))
    if answer.proofs.proofs:
        console.print(table)
    if answer.lemmas or answer.lemmas_rejected:
        used = ", ".join(answer.lemmas) or "none"
        console.print(f"lemmas proved for this card file and used: {used} ({answer.lemma_seconds:.1f} s)",
                      highlight=False)
        for name, why in answer.lemmas_rejected:
            console.print(f"[yellow]lemma not used:[/] {name} ({why})", highlight=False)
    if answer.hunt is not None:
        found = "nothing" if answer.hunt.found is None else f"a game reaching it at turn {answer.hunt.found}"
        console.print(f"witness hunt: {found} ({answer.hunt.states} round roll-outs, {answer.hunt.seconds:.1f} s)",
                      highlight=False)
    if answer.witness is not None:
        outcome = answer.witness.final.outcome
        met = outcome.detail if outcome else f"Goal G{answer.goal} achieved at turn {answer.earliest}"
        console.print(f"witness ({answer.witness_from}): {len(answer.witness.actions)} engine actions, replayed "
                      f"through the engine: {escape(met)}", highlight=False)
    for note in answer.notes:
        console.print(f"[yellow]note:[/] {escape(note)}", highlight=False)
    store = answer.proof_store.line()
    if store is not None:
        console.print(escape(store), highlight=False)
    _render_assumptions(answer)
    console.print(f"time: {answer.seconds:.1f} s wall, {answer.cpu_seconds:.1f} s CPU; peak memory "
                  f"{answer.peak_memory_mib:.0f} MiB", highlight=False)


def _render_assumptions(answer: Answer) -> None:
    console.print("assumed:", style="bold")
    for line in answer.assumptions.lines():
        console.print(f"  {escape(line)}", highlight=False)


def _finish(game: Game, answers: list[Answer], as_json: bool, witness_out: Path | None,
            extra: dict[str, Any] | None = None) -> None:
    if witness_out is not None:
        for answer in answers:
            if answer.witness is not None:
                if witness_out.suffix.lower() == ".html":
                    write_witness_page(witness_out, game, answer)
                else:
                    answer.witness.write(witness_out, game, {"query": answer.to_json()})
                break
    if as_json:
        payload: dict[str, Any] = answers[0].to_json() if len(answers) == 1 and extra is None else {
            "answers": [a.to_json() for a in answers]}
        if extra:
            payload.update(extra)
        console.print_json(json.dumps(payload))
    if any(a.status == "unknown" for a in answers):
        raise typer.Exit(ExitCode.UNKNOWN)


RENDER_RESERVE_S = 0.2
RENDER_RESERVE_SHARE = 0.05
RENDER_RESERVE_CAP_S = 1.5
"""Kept back from --timeout for printing the answer and for the process's exit (freeing Z3's memory): 0.2 s and
5% of --timeout, the share at most 1.5 s (printing and the exit took well under a second in every run measured)."""


def _left(timeout: float, entered: float) -> float:
    """What remains of --timeout once start-up (as a command) and the card file's loading are paid for."""
    since_start = seconds_since_start()
    spent = since_start if since_start is not None else time.perf_counter() - entered
    return max(0.001, timeout - min(timeout * RENDER_RESERVE_SHARE, RENDER_RESERVE_CAP_S) - spent - RENDER_RESERVE_S)


def _one(query: Query, opponent: Opponent, timeout: float, cards: Path | None, ruling: list[str] | None,
         as_json: bool, witness_out: Path | None, plays: int, buys: int, earliest: bool) -> None:
    entered = time.perf_counter()
    game = _game(cards, ruling, witness_out)
    with _spinner(f"solving: {query.question}"):
        answer = _guarded(lambda: solve_query(game, query, opponent, _left(timeout, entered), Caps(plays, buys),
                                              earliest=earliest))
    if not as_json:
        _render(answer)
    _finish(game, [answer], as_json, witness_out)


def _question_command(kind: QueryKind, help_text: str) -> Callable[..., None]:
    """A `solve` command for a question that names only the bound (every kind but `goal` and `goals`)."""
    def command(by_turn: ByTurn, opponent: OpponentOption = Opponent.ANY, timeout: TimeoutOption = DEFAULT_TIMEOUT_S,
                cards: CardsOption = None, ruling: RulingOption = None, as_json: JsonOption = False,
                witness_out: WitnessOption = None, plays: PlaysOption = DEFAULT_PLAYS,
                buys: BuysOption = DEFAULT_BUYS, earliest: EarliestOption = True) -> None:
        _one(Query(kind, by_turn), opponent, timeout, cards, ruling, as_json, witness_out, plays, buys, earliest)
    command.__doc__ = help_text
    return command


for _kind, _help in (
    (QueryKind.STARS, "Can the Company earn its winning star by turn N?"),
    (QueryKind.PROFIT, "Can the Company win on Profit by turn N?"),
    (QueryKind.DEFEAT, "Can the Company fall into Economic Defeat or Marginalization by turn N?"),
    (QueryKind.MOVEMENT_WIN, "Can the Movement score its winning Goal points by turn N?"),
):
    solve_app.command(_kind.value)(_question_command(_kind, _help))


@solve_app.command("goal")
def goal(goal_number: Annotated[int, typer.Argument(metavar="G", min=1, help="The Goal's number (G1 is 1).")],
         by_turn: ByTurn, opponent: OpponentOption = Opponent.ANY, timeout: TimeoutOption = DEFAULT_TIMEOUT_S,
         cards: CardsOption = None, ruling: RulingOption = None, as_json: JsonOption = False,
         witness_out: WitnessOption = None, plays: PlaysOption = DEFAULT_PLAYS,
         buys: BuysOption = DEFAULT_BUYS, earliest: EarliestOption = True) -> None:
    """Can the Movement achieve Goal G by turn N?"""
    _one(Query(QueryKind.GOAL, by_turn, goal_number), opponent, timeout, cards, ruling, as_json, witness_out,
         plays, buys, earliest)


@solve_app.command("goals")
def goals(by_turn: ByTurn, opponent: OpponentOption = Opponent.ANY,
          timeout: Annotated[float, typer.Option("--timeout", min=0.001, metavar="SECONDS",
                                                  callback=seconds_callback("--timeout"),
                                                  help="Seconds for all the Goals together (each Goal gets an equal "
                                                       "share of what is left); what is not decided in time is "
                                                       "'unknown'.")]
          = 9 * DEFAULT_TIMEOUT_S,
          cards: CardsOption = None, ruling: RulingOption = None, as_json: JsonOption = False,
          plays: PlaysOption = DEFAULT_PLAYS, buys: BuysOption = DEFAULT_BUYS,
          earliest: EarliestOption = True) -> None:
    """Every Goal: reachable by turn N or not, and the earliest turn; unreachable ones are flagged."""
    entered = time.perf_counter()
    game = _game(cards, ruling)
    with _spinner(f"solving every Goal by turn {by_turn}"):
        answers = _guarded(lambda: solve_goals(game, by_turn, opponent, _left(timeout, entered), Caps(plays, buys),
                                                       earliest=earliest))
    if as_json:
        _finish(game, answers, True, None, {"query": "goals", "by_turn": by_turn,
                                            "unreachable": [a.goal for a in answers if a.status == "no"]})
        return
    table = Table(title=f"Goals by turn {by_turn} (yes: a replayed witness; no: proved impossible)")
    for column in ("Goal", "name", "points", "cost", "by turn N?", "earliest turn", "proved impossible by",
                   "seconds"):
        table.add_column(column)
    for answer in answers:
        assert answer.goal is not None
        card = game.goal(answer.goal)
        status = {"yes": "[green]yes[/]", "no": "[red]no[/]", "unknown": "[yellow]unknown[/]"}[answer.status]
        table.add_row(f"G{answer.goal}", escape(card.name), str(card.points), str(card.cost), status,
                      _earliest_cell(answer), _proved_cell(answer), f"{answer.seconds:.1f}")
    console.print(table)
    unreachable = [f"G{a.goal}" + ("" if a.exact else " (within the caps)") for a in answers if a.status == "no"]
    if unreachable:
        console.print(f"[bold red]Unreachable within {by_turn} turns:[/] {', '.join(unreachable)}", highlight=False)
    undecided = [f"G{a.goal}" for a in answers if a.status == "unknown"]
    if undecided:
        console.print(f"[yellow]Not decided in time:[/] {', '.join(undecided)}", highlight=False)
    if answers:
        _render_assumptions(answers[0])
    _finish(game, answers, False, None)


@solve_app.command("degenerate")
def degenerate(
    by_turn: ByTurn,
    stars_before: Annotated[int, typer.Option(help="Flag a Star Victory possible before this turn.")]
    = DEFAULT_THRESHOLDS[QueryKind.STARS],
    profit_before: Annotated[int, typer.Option(help="Flag a Profit Victory possible before this turn.")]
    = DEFAULT_THRESHOLDS[QueryKind.PROFIT],
    defeat_before: Annotated[int, typer.Option(help="Flag a Company defeat possible before this turn.")]
    = DEFAULT_THRESHOLDS[QueryKind.DEFEAT],
    movement_win_before: Annotated[int, typer.Option(help="Flag a Movement Goal Victory possible before this turn.")]
    = DEFAULT_THRESHOLDS[QueryKind.MOVEMENT_WIN],
    games: Annotated[int, typer.Option(min=0, metavar="N",
                                       help="Games per simulated matchup (random, greedy) to compare with.")]
    = 200,
    seed: Annotated[int, typer.Option(help="Seed of the simulations.")] = 0,
    opponent: OpponentOption = Opponent.ANY,
    timeout: Annotated[float, typer.Option(
        "--timeout", min=0.001, metavar="SECONDS", callback=seconds_callback("--timeout"),
        help="Seconds for the whole catalogue: the simulations (a quarter at most) and every question; what is not "
             "decided in time is 'unknown'.")] = DEFAULT_CATALOGUE_TIMEOUT_S,
    cards: CardsOption = None,
    ruling: RulingOption = None, as_json: JsonOption = False, witness_out: WitnessOption = None,
    plays: PlaysOption = DEFAULT_PLAYS, buys: BuysOption = DEFAULT_BUYS,
    agents: Annotated[str | None, typer.Option(
        "--agents", help="A further matchup to simulate beside random and greedy, company=NAME,movement=NAME "
                         "(e.g. mcts).")] = None,
) -> None:
    """Run the query catalogue against the designer's thresholds, beside what random and greedy play see."""
    entered = time.perf_counter()
    matchups = MATCHUPS
    if agents is not None:
        extra = Matchup.parse(agents)
        matchups = (*MATCHUPS, (str(extra), extra))
    game = _game(cards, ruling, witness_out)
    thresholds = {QueryKind.STARS: stars_before, QueryKind.PROFIT: profit_before, QueryKind.DEFEAT: defeat_before,
                  QueryKind.MOVEMENT_WIN: movement_win_before}
    with _spinner("running the catalogue"):
        findings = _guarded(lambda: run_catalogue(game, by_turn, thresholds, opponent, _left(timeout, entered),
                                                  Caps(plays, buys), games, seed, matchups=matchups))
    answers = [f.answer for f in findings if f.answer is not None]
    rows = [f.to_json() for f in findings]
    if as_json:
        _finish(game, answers, True, witness_out, {"degenerate": rows, "simulation": {
            "games_per_matchup": games, "matchups": [f"{m.company} vs {m.movement}" for _, m in matchups],
            "played": _played(findings, games, matchups), "seed": seed}})
        return
    _render_findings(findings, games, _played(findings, games, matchups))
    shown: set[str] = set()
    for answer in answers:
        if answer.assumptions.opponent not in shown:
            shown.add(answer.assumptions.opponent)
            _render_assumptions(answer)
    _finish(game, answers, False, witness_out)


def _proved_cell(answer: Answer) -> str:
    """The last turn proved impossible, and how far the unrolling's caps take it when they take it further."""
    exact = str(answer.proved_none_by) if answer.proved_none_by else "-"
    if answer.proved_none_by_within_caps > answer.proved_none_by:
        return f"{exact} ({answer.proved_none_by_within_caps} within the caps)"
    return exact


def _earliest_cell(answer: Answer) -> str:
    """The earliest turn, or the range it is known to lie in when earlier turns were not all decided."""
    if answer.earliest is None:
        return "-"
    if answer.earliest_exact:
        return str(answer.earliest)
    return f"{answer.proved_none_by + 1}-{answer.earliest}"


def _played(findings: list[Finding], games: int, matchups: tuple[tuple[str, Matchup], ...]) -> dict[str, int]:
    """The games each matchup's simulation finished (fewer than asked when `--timeout` cut it short)."""
    seen = findings[0].seen if findings else {}
    return {name: seen[name].games if name in seen else 0 for name, _ in matchups} if games else {}


def _render_findings(findings: list[Finding], games: int, played: dict[str, int]) -> None:
    names = list(played)
    short = {name: n for name, n in played.items() if n < games}
    cut = "" if not short else " (cut short by --timeout: " + ", ".join(
        f"{name} {n}" for name, n in short.items()) + ")"
    simulation = f"simulation: {games} games per matchup{cut}, real luck" if games else "no simulation"
    table = Table(title=f"degenerate outcomes (solver: best luck; {simulation})")
    for column in ("query", "flag if before", "possible?", "earliest",
                   *(f"{name} {measure}" for name in names for measure in ("%", "min"))):
        table.add_column(column, overflow="fold")
    for f in findings:
        answer = f.answer
        if answer is None:
            verdict, earliest = "- (no earlier turn)", "-"
        else:
            verdict = "[red]YES[/]" if f.degenerate else answer.status
            earliest = _earliest_cell(answer)
        cells = [f.kind.value, f"turn {f.threshold}", verdict, earliest]
        for name in names:
            seen = f.seen.get(name)
            cells += ["-", "-"] if seen is None or not seen.games else [f"{seen.share:.1%}", str(seen.earliest or "-")]
        table.add_row(*cells)
    console.print(table)
    console.print("possible?: the solver with the best luck; %: share of simulated games where it happened "
                  "before the threshold; min: the earliest turn seen in simulation", style="dim", highlight=False)


def register(app: typer.Typer) -> None:
    """Add the `solve` sub-app."""
    app.add_typer(solve_app, name="solve")
