"""`doubtspec solve ...`: can something happen by turn N? Thin commands over `doubtspec.solver`.

Exit codes: 0 answered (yes or no), 3 unknown within the time limit, 2 bad usage (including
queries the encoding does not model yet); an encoding error (a witness the engine rejects) is a
bug and exits 70.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.panel import Panel
from rich.table import Table

from doubtspec.cli.common import CardsOption, JsonOption, RulingOption, console, err_console, load_game
from doubtspec.cli.exitcodes import ExitCode
from doubtspec.errors import OptionError
from doubtspec.model.actions import Action, Pass
from doubtspec.model.game import Game
from doubtspec.model.playout import random_playout, uniform_policy
from doubtspec.model.state import GameState
from doubtspec.solver.bmc import DEFAULT_BUYS, DEFAULT_PLAYS, Caps
from doubtspec.solver.queries import TARGETS, Answer, Opponent, QueryKind, check_supported, solve
from doubtspec.solver.transition import UnsupportedCards
from doubtspec.solver.witness import EncodingError

solve_app = typer.Typer(help="Ask the bounded solver whether something can happen by turn N.", no_args_is_help=True)

ByTurn = Annotated[int, typer.Option("--by-turn", min=1, help="The bound: turn N (round N: the Movement's Nth "
                                                               "turn, then the Company's Nth turn).")]
OpponentOption = Annotated[Opponent, typer.Option("--opponent", help="The other side's policy: any (free choices) or "
                                                                      "passive (the Movement always passes).")]
TimeoutOption = Annotated[float | None, typer.Option(
    "--timeout", min=0.001, help="Seconds per solver check; a check that runs out is 'unknown'.")]
WitnessOption = Annotated[Path | None, typer.Option("--witness-out", dir_okay=False,
                                                    help="Write a 'yes' answer's witness trace (JSON) here.")]
PlaysOption = Annotated[int, typer.Option("--plays", min=1, help="Play slots per Company turn in the unrolling.")]
BuysOption = Annotated[int, typer.Option("--buys", min=1, help="Buy slots per Company turn in the unrolling.")]


def _game(cards: Path | None, rulings: list[str] | None) -> Game:
    return load_game(cards, rulings)


def _answer(game: Game, kind: QueryKind, by_turn: int, opponent: Opponent, timeout: float | None,
            plays: int, buys: int) -> Answer:
    try:
        return solve(game, kind, by_turn, opponent, timeout, Caps(plays, buys))
    except UnsupportedCards as exc:
        raise OptionError(f"the solver cannot model this card file: {exc}", field="--cards") from exc


def _render(answer: Answer) -> None:
    colour = {"yes": "green", "no": "cyan", "unknown": "yellow"}[answer.status]
    head = f"[bold {colour}]{answer.status.upper()}[/]"
    if answer.status == "yes":
        head += f" — earliest at turn {answer.earliest}"
    elif answer.status == "no":
        head += f" — not by turn {answer.by_turn}"
        head += " (exact)" if answer.exact else " (within the caps only)"
    table = Table(show_header=True, title="checks, one per turn (the first 'sat' is the earliest turn)")
    table.add_column("turn")
    table.add_column("result")
    table.add_column("seconds", justify="right")
    for check in answer.checks:
        table.add_row(str(check.bound), check.status, f"{check.seconds:.2f}")
    console.print(Panel(f"{answer.question}\n{head}", title=f"solve {answer.kind.value}", expand=False))
    console.print(table)
    if answer.witness is not None:
        outcome = answer.witness.final.outcome
        console.print(f"witness: {len(answer.witness.actions)} engine actions, replayed through the engine: "
                      f"{outcome.detail if outcome else 'no outcome'}", highlight=False)
    for note in answer.notes:
        console.print(f"[yellow]note:[/] {note}", highlight=False)
    console.print("assumed:", style="bold")
    for line in answer.assumptions.lines():
        console.print(f"  {line}", highlight=False)
    console.print(f"time: {answer.seconds:.1f} s", highlight=False)


def _finish(game: Game, answers: list[Answer], as_json: bool, witness_out: Path | None,
            extra: dict[str, Any] | None = None) -> None:
    if witness_out is not None:
        for answer in answers:
            if answer.witness is not None:
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


def _company_query(kind: QueryKind, by_turn: int, opponent: Opponent, timeout: float | None, cards: Path | None,
                   ruling: list[str] | None, as_json: bool, witness_out: Path | None, plays: int, buys: int) -> None:
    game = _game(cards, ruling)
    try:
        answer = _answer(game, kind, by_turn, opponent, timeout, plays, buys)
    except EncodingError as exc:
        err_console.print(f"[bold red]encoding error[/] (a bug in the solver, not an answer): {exc}", highlight=False)
        raise typer.Exit(ExitCode.INTERNAL) from exc
    if not as_json:
        _render(answer)
    _finish(game, [answer], as_json, witness_out)


@solve_app.command("stars")
def stars(by_turn: ByTurn, opponent: OpponentOption = Opponent.PASSIVE, timeout: TimeoutOption = None,
          cards: CardsOption = None, ruling: RulingOption = None, as_json: JsonOption = False,
          witness_out: WitnessOption = None, plays: PlaysOption = DEFAULT_PLAYS,
          buys: BuysOption = DEFAULT_BUYS) -> None:
    """Can the Company earn its winning star by turn N?"""
    _company_query(QueryKind.STARS, by_turn, opponent, timeout, cards, ruling, as_json, witness_out, plays, buys)


@solve_app.command("profit")
def profit(by_turn: ByTurn, opponent: OpponentOption = Opponent.PASSIVE, timeout: TimeoutOption = None,
           cards: CardsOption = None, ruling: RulingOption = None, as_json: JsonOption = False,
           witness_out: WitnessOption = None, plays: PlaysOption = DEFAULT_PLAYS,
           buys: BuysOption = DEFAULT_BUYS) -> None:
    """Can the Company win on Profit by turn N?"""
    _company_query(QueryKind.PROFIT, by_turn, opponent, timeout, cards, ruling, as_json, witness_out, plays, buys)


@solve_app.command("defeat")
def defeat(by_turn: ByTurn, opponent: OpponentOption = Opponent.PASSIVE, timeout: TimeoutOption = None,
           cards: CardsOption = None, ruling: RulingOption = None, as_json: JsonOption = False,
           witness_out: WitnessOption = None, plays: PlaysOption = DEFAULT_PLAYS,
           buys: BuysOption = DEFAULT_BUYS) -> None:
    """Can the Company fall into Economic Defeat or Marginalization by turn N?"""
    _company_query(QueryKind.DEFEAT, by_turn, opponent, timeout, cards, ruling, as_json, witness_out, plays, buys)


def _movement_query(kind: QueryKind, opponent: Opponent, cards: Path | None, ruling: list[str] | None) -> None:
    _game(cards, ruling)  # bad card files and rulings are reported first
    check_supported(kind, opponent)


@solve_app.command("movement-win")
def movement_win(by_turn: ByTurn, opponent: OpponentOption = Opponent.ANY, timeout: TimeoutOption = None,
                 cards: CardsOption = None, ruling: RulingOption = None, as_json: JsonOption = False,
                 witness_out: WitnessOption = None) -> None:
    """Can the Movement score its winning Goal points by turn N? (Not built yet: exits 2.)"""
    _movement_query(QueryKind.MOVEMENT_WIN, opponent, cards, ruling)


@solve_app.command("goal")
def goal(goal_number: Annotated[int, typer.Argument(metavar="G", min=1, max=9, help="The Goal, 1-9.")],
         by_turn: ByTurn, opponent: OpponentOption = Opponent.ANY, timeout: TimeoutOption = None,
         cards: CardsOption = None, ruling: RulingOption = None, as_json: JsonOption = False,
         witness_out: WitnessOption = None) -> None:
    """Can the Movement achieve Goal G by turn N? (Not built yet: exits 2.)"""
    _movement_query(QueryKind.GOAL, opponent, cards, ruling)


@solve_app.command("goals")
def goals(by_turn: ByTurn, opponent: OpponentOption = Opponent.ANY, timeout: TimeoutOption = None,
          cards: CardsOption = None, ruling: RulingOption = None, as_json: JsonOption = False) -> None:
    """Every Goal: reachable by turn N or not, and the earliest turn. (Not built yet: exits 2.)"""
    _movement_query(QueryKind.GOALS, opponent, cards, ruling)


def simulate_outcomes(game: Game, games: int, seed: int, max_round: int) -> list[GameState]:
    """Random playouts with a passive Movement: the Company picks uniformly, chance by its probabilities."""
    def passive(state: GameState, actions: tuple[Action, ...], rng: random.Random) -> Action:
        for action in actions:
            if isinstance(action, Pass):
                return action
        return actions[0]

    finals = []
    for i in range(games):
        playout = random_playout(game, seed + i, max_steps=400 * max_round, company=uniform_policy, movement=passive)
        finals.append(playout.final)
    return finals


@solve_app.command("degenerate")
def degenerate(
    by_turn: ByTurn,
    stars_before: Annotated[int, typer.Option(help="Flag a Star Victory possible before this turn.")] = 8,
    profit_before: Annotated[int, typer.Option(help="Flag a Profit Victory possible before this turn.")] = 10,
    defeat_before: Annotated[int, typer.Option(help="Flag a Company defeat possible before this turn.")] = 2,
    games: Annotated[int, typer.Option(min=0, help="Random playouts to compare with (passive Movement).")] = 200,
    seed: Annotated[int, typer.Option(help="Seed of the first playout.")] = 0,
    opponent: OpponentOption = Opponent.PASSIVE, timeout: TimeoutOption = None, cards: CardsOption = None,
    ruling: RulingOption = None, as_json: JsonOption = False, witness_out: WitnessOption = None,
    plays: PlaysOption = DEFAULT_PLAYS, buys: BuysOption = DEFAULT_BUYS,
) -> None:
    """Run the query catalogue against the designer's thresholds, beside what random play sees.

    Only the Company's queries (stars, profit, defeat) are run; the Movement's are not built yet.
    """
    game = _game(cards, ruling)
    thresholds = {QueryKind.STARS: stars_before, QueryKind.PROFIT: profit_before, QueryKind.DEFEAT: defeat_before}
    answers: list[Answer] = []
    for kind, before in thresholds.items():
        bound = min(by_turn, before - 1)
        if bound < 1:
            continue
        try:
            answers.append(_answer(game, kind, bound, opponent, timeout, plays, buys))
        except EncodingError as exc:
            err_console.print(f"[bold red]encoding error[/] (a bug in the solver): {exc}", highlight=False)
            raise typer.Exit(ExitCode.INTERNAL) from exc
    finals = simulate_outcomes(game, games, seed, by_turn) if games else []
    rows: list[dict[str, Any]] = []
    for answer in answers:
        _, reasons = TARGETS[answer.kind]
        seen = [s.outcome.round for s in finals if s.outcome is not None and s.outcome.reason in reasons]
        before = thresholds[answer.kind]
        rows.append({
            "query": answer.kind.value, "threshold": f"before turn {before}",
            "solver": answer.status, "earliest_possible": answer.earliest,
            "degenerate": answer.status == "yes",
            "random_games": len(finals),
            "random_share_before_threshold": (sum(1 for r in seen if r < before) / len(finals)) if finals else None,
            "random_earliest": min(seen) if seen else None,
        })
    if as_json:
        _finish(game, answers, True, witness_out, {"degenerate": rows, "random_policy":
                                                   "Company uniform over legal actions, Movement passes"})
        return
    table = Table(title=f"degenerate outcomes (solver: best luck; random: {len(finals)} playouts, passive Movement)")
    for column in ("query", "threshold", "possible earlier?", "earliest possible", "random: share earlier",
                   "random: earliest seen"):
        table.add_column(column)
    for row in rows:
        share = row["random_share_before_threshold"]
        table.add_row(row["query"], row["threshold"],
                      "[red]YES[/]" if row["degenerate"] else row["solver"],
                      str(row["earliest_possible"] or "-"), "-" if share is None else f"{share:.1%}",
                      str(row["random_earliest"] or "-"))
    console.print(table)
    console.print("No greedy player exists yet; only uniform random play is compared.", style="yellow")
    if answers:
        console.print("assumed:", style="bold")
        for line in answers[0].assumptions.lines():
            console.print(f"  {line}", highlight=False)
    _finish(game, answers, False, witness_out)


def register(app: typer.Typer) -> None:
    """Add the `solve` sub-app."""
    app.add_typer(solve_app, name="solve")
